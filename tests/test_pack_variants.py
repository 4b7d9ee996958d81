"""Delay variants (Scenario.with_flow_delays), and parts that scenarios share as objects: built
and packed as families, with the shared parts' rows computed once per batch, byte for byte the
same batch as the plain scenarios they equal."""
import dataclasses
import glob
import pickle
from pathlib import Path

import numpy as np
import pytest

from diffsweep.sweep.config import load_sweep
from diffsweep.core.errors import ConfigError
from diffsweep.sweep.grid import Grid
from diffsweep.engine.pack import pack, shape_key
from diffsweep.scenario import Scenario
from diffsweep.scenario.builders import kaur_vin

ROOT = Path(__file__).resolve().parent.parent


def plain(sc):
    """The same scenario made the ordinary way, of its own objects (flows built, no
    delay_variant, no part shared with another scenario)."""
    out = Scenario.from_dict(sc.to_dict())
    assert out.delay_variant is None and out == sc and out.flows is not sc.flows
    return out


def assert_same_pack(scs, seeds, lanes=1):
    fast = pack(scs, seeds, lanes=lanes)
    slow = pack([plain(sc) for sc in scs], seeds, lanes=lanes)
    assert fast.shape == slow.shape
    assert fast.arrays.keys() == slow.arrays.keys()
    for name, x in slow.arrays.items():
        y = fast.arrays[name]
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name
    assert fast.slot_s.tobytes() == slow.slot_s.tobytes()
    assert fast.delay_rounding_ms.tobytes() == slow.delay_rounding_ms.tobytes()


def test_with_flow_delays_equals_replace_and_keeps_its_base():
    base = kaur_vin(n_flows=4, rtp_intervals=(12, 26, 4), seed=3)
    acc, rev = [1, 2, 3, 4.5], np.array([5.0, 6, 7, 8])
    v = base.with_flow_delays(acc, 2, rev)
    ref = dataclasses.replace(base, flows=tuple(
        f.with_delays(a, 2.0, r) for f, a, r in zip(base.flows, acc, rev)))
    assert v.n_flows == 4 and "flows" not in v.__dict__  # not made until read
    assert v == ref and hash(v) == hash(ref) and v.digest() == ref.digest()
    assert all(type(f.access_delay_ms) is float for f in v.flows)
    root = base.delay_variant.base  # kaur_vin's own scenarios are variants of one base
    assert v.delay_variant.base is root
    assert v.with_flow_delays(0, 0, 0).delay_variant.base is root
    back = pickle.loads(pickle.dumps(base.with_flow_delays(acc, 2, rev)))
    assert back == ref and back.delay_variant.base == root
    rev[0] = 99.0  # the variant keeps its own copy
    assert v.flows[0].reverse_delay_ms == 5.0


@pytest.mark.parametrize("args, message", [
    (([1, -2, 3, 4], 0, 0), r"flows\[1\]\.access_delay_ms: -2\.0 is not allowed"),
    ((0, [0, 0, np.nan, 0], 0), r"flows\[2\]\.egress_delay_ms: nan is not allowed \(expected a finite"),
    ((0, 0, [1, 2, 3]), r"reverse_delay_ms: \[1, 2, 3\] is not allowed \(expected a number or 4"),
    (("a", 0, 0), r"access_delay_ms: 'a' is not allowed"),
])
def test_with_flow_delays_checks_the_delays(args, message):
    base = kaur_vin(n_flows=4, rtp_ms=8.0)
    with pytest.raises(ConfigError, match=message):
        base.with_flow_delays(*args)


def test_grid_reseed_equals_building_again():
    """kaur_vin.reseed (Grid: seeds after the first) makes what kaur_vin(seed=) makes."""
    g = Grid(kaur_vin, seeds=[3, 0, 7], n_flows=[8, 16], ef=["onoff", "cbr"], udp=True,
             rtp_intervals=[(12.0, 26.0, 8)], bottleneck_delay_ms=0.7, duration_s=5.0, warmup_s=1.0)
    for p in range(g.n_points):
        params = {**g.fixed, **g._point_values[p]}
        for s in g.seeds:
            assert g.scenario(p, s) == kaur_vin(**params, seed=s)


def test_kaur_vin_random_rtps_pack_as_plain_scenarios():
    """Every seed of a point is a delay variant of one base: packed as a family, the batch is
    byte for byte the batch of the same scenarios made plainly, for any mix and order."""
    g = Grid(kaur_vin, seeds=5, n_flows=[8, 16], ef=["onoff", "none"], udp=[False, True],
             rtp_intervals=[(12.0, 26.0, 8)], t_on_ms=[0.4, 40.0], duration_s=5.0, warmup_s=1.0)
    scs = [g.scenario(p, s) for p in range(g.n_points) for s in g.seeds]
    seeds = [s for _ in range(g.n_points) for s in g.seeds]
    assert all(sc.delay_variant is not None for sc in scs)
    for lanes in (1, 4):
        assert_same_pack(scs, seeds, lanes=lanes)
    order = np.random.default_rng(1).permutation(len(scs))[:23]  # a chunk, shuffled
    assert_same_pack([scs[i] for i in order], [seeds[i] for i in order])
    # a variant's base itself, plain scenarios and repeats in the same batch
    base = scs[0].delay_variant.base
    mix = [scs[3], base, kaur_vin(n_flows=8, rtp_ms=10.0), scs[3], scs[1]]
    assert_same_pack(mix, [0, 1, 2, 3, 4])


@pytest.mark.parametrize("sweep", sorted(glob.glob(str(ROOT / "sweeps" / "*" / "*.toml")))[::3])
def test_any_scenario_s_delay_variants_pack_as_plain_scenarios(sweep):
    """Markers (TCP-aware ones take their reference RTT from the flows' delays: those pack
    plainly), traffic pools, second routes: random delays on every paper's scenarios."""
    g = load_sweep(sweep, quick=True).make_grid(max_points=None)
    rng = np.random.default_rng(7)
    groups: dict = {}
    for p in range(min(g.n_points, 6)):
        sc = g.scenario(p, g.seeds[0])
        if not sc.n_flows:
            continue
        for s in range(3):
            d = rng.uniform(0, 20, size=(3, sc.n_flows))
            v = sc.with_flow_delays(*d)
            groups.setdefault(shape_key(v), []).append((v, s))
    for batch in groups.values():
        assert_same_pack([v for v, _ in batch], [s for _, s in batch])
