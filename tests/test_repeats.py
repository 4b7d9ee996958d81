"""A replica an engine call holds more than once runs once (diffsweep.engine.repeats): every repeat
gets its twin's tables, bit for bit what running it again gives, whatever the backend, a stop
or the grids it comes from."""
import dataclasses
import types

import numpy as np
import pandas as pd
import pytest

import diffsweep.engine.execution as engine
from diffsweep.engine.execution import execute, execute_many, simulate
from diffsweep.engine.repeats import _FIELDS, copy_to_repeats, find_repeats
from diffsweep.core.results import TABLES
from diffsweep.scenario.builders import kaur_vin
from engine_cases import golden_cases
from stopping import short_and_long, stopped_call
from test_hybrid import device  # noqa: F401  (the CPU engine posing as a CUDA device)
from test_runner import assert_same, small_grid


def rows_of(res, replica: int) -> dict:
    """Each non-empty table's rows of one replica, without the replica column."""
    return {n: getattr(res, n)[getattr(res, n)["replica"] == replica].drop(columns="replica")
            .reset_index(drop=True) for n in TABLES if len(getattr(res, n))}


def assert_rows_equal(a: dict, b: dict):
    assert a.keys() == b.keys()
    for n in a:
        pd.testing.assert_frame_equal(a[n], b[n], check_exact=True)


def test_a_replica_is_its_scenario_but_params_and_its_seed():
    a = kaur_vin(n_flows=1, rtp_ms=8.0, ef="onoff", duration_s=1.0, warmup_s=0.1)
    described = dataclasses.replace(a, params={"figure": "5", "t_on_ms": 10.0})
    other = kaur_vin(n_flows=1, rtp_ms=9.0, ef="onoff", duration_s=1.0, warmup_s=0.1)
    first, twin = find_repeats([a, other, described, a, other, a], [1, 1, 1, 2, 1, 1])
    assert first == [0, 1, 3]  # a seed 1, other seed 1, a seed 2
    assert twin.tolist() == [0, 1, 0, 2, 1, 0]


def test_delay_variants_of_equal_bases_with_equal_delays_repeat():
    """A delay variant (a builder's per-seed round trips) is keyed by its base and its three
    delay arrays, its flows never made: equal bases (two objects) and equal delays repeat."""
    base = kaur_vin(n_flows=4, rtp_ms=8.0, ef=None, duration_s=1.0, warmup_s=0.1)
    again = kaur_vin(n_flows=4, rtp_ms=8.0, ef=None, duration_s=1.0, warmup_s=0.1)
    v1 = base.with_flow_delays(1.0, [2.0, 2.0, 3.0, 3.0], 0.5)
    v2 = dataclasses.replace(again, params={"x": 1}).with_flow_delays(1.0, [2.0, 2.0, 3.0, 3.0], 0.5)
    v3 = base.with_flow_delays(1.0, [2.0, 2.0, 3.0, 3.5], 0.5)
    first, twin = find_repeats([v1, v2, v3, base, v2.with_flow_delays(1.0, 2.0, 0.5)],
                               [0, 0, 0, 0, 0])
    assert first == [0, 2, 3, 4] and twin.tolist() == [0, 0, 1, 2, 3]
    assert "flows" not in v1.__dict__ and "flows" not in v2.__dict__  # never made
    res = simulate([v1, v2], [3, 3], backend="cpu")
    assert res.meta["distinct_replicas"] == 1
    assert_rows_equal(rows_of(res, 1), rows_of(simulate([v2], [3], backend="cpu"), 0))


def test_a_field_that_cannot_be_hashed_makes_every_replica_distinct():
    odd = types.SimpleNamespace(**{f: () for f in _FIELDS})
    odd.links = [1, 2]  # a list: unhashable
    first, twin = find_repeats([odd, odd], [0, 0])
    assert first == [0, 1] and twin.tolist() == [0, 1]


def test_copy_to_repeats_keeps_each_replicas_rows_in_order():
    flows = pd.DataFrame({"replica": [0, 0, 1, 1, 1], "flow": [0, 1, 0, 1, 2],
                          "x": [1.0, 2.0, 3.0, 4.0, 5.0]})
    empty = pd.DataFrame(columns=["replica", "source"])
    res = engine.Results(replicas=pd.DataFrame({"replica": [0, 1], "y": [10, 20]}), flows=flows,
                         queues=empty, sources=empty, intervals=empty, meta={"k": 1})
    out = copy_to_repeats(res, np.array([1, 0, 1]))
    assert out.replicas.to_dict("list") == {"replica": [0, 1, 2], "y": [20, 10, 20]}
    assert out.flows.to_dict("list") == {"replica": [0, 0, 0, 1, 1, 2, 2, 2],
                                         "flow": [0, 1, 2, 0, 1, 0, 1, 2],
                                         "x": [3.0, 4.0, 5.0, 1.0, 2.0, 3.0, 4.0, 5.0]}
    assert out.flows["replica"].dtype == flows["replica"].dtype
    assert list(out.sources.columns) == ["replica", "source"] and out.meta == {"k": 1}


def golden_with_repeats():
    """Every golden case (each model, traffic, traces and intervals among them), then each
    again, described differently and in reverse order: (scenarios, seeds, twin)."""
    cases = golden_cases()
    scs = [sc for _, sc, _ in cases]
    seeds = [seed for _, _, seed in cases]
    n = len(scs)
    again = [described_again(sc) for sc in scs[::-1]]
    return scs + again, seeds + seeds[::-1], list(range(n)) + list(range(n))[::-1]


def described_again(sc):
    """An equal scenario, another object with other params; a delay variant stays one (of a
    base made again): a variant and a plain scenario never count as repeats."""
    v = sc.delay_variant
    if v is None:
        return dataclasses.replace(sc, params={**sc.params, "again": True})
    base = dataclasses.replace(v.base, params={**v.base.params, "again": True})
    return base.with_flow_delays(v.access_delay_ms, v.egress_delay_ms, v.reverse_delay_ms)


@pytest.mark.parametrize("backend", ["cpu", "cuda+cpu"])
def test_repeats_get_their_twins_tables_bit_for_bit(backend, request):
    if backend == "cuda+cpu":
        request.getfixturevalue("device")
    scs, seeds, twin = golden_with_repeats()
    n = len(scs) // 2
    alone = simulate(scs[:n], seeds[:n], backend="cpu", threads=1)
    res = simulate(scs, seeds, backend=backend, threads=1)
    assert res.meta["n_replicas"] == 2 * n and res.meta["distinct_replicas"] == n
    for i in range(2 * n):
        assert_rows_equal(rows_of(res, i), rows_of(alone, twin[i]))
    assert res.replicas["replica"].tolist() == list(range(2 * n))


def test_a_stopped_call_counts_the_repeats_of_what_finished():
    scs, seeds = short_and_long(3, 2), [1, 2, 1, 1, 1]  # replica 2 repeats 0; 4 repeats 3
    stop, _ = stopped_call(lambda ctl: simulate(scs, seeds, backend="cpu", threads=2,
                                                control=ctl), 1.0, 6.0)
    assert list(stop.finished) == [0, 1, 2] and stop.total == 5
    part = stop.partial
    assert part.replicas["replica"].tolist() == [0, 1, 2]
    assert part.meta["n_replicas"] == 5 and part.meta["distinct_replicas"] == 3
    assert_rows_equal(rows_of(part, 2), rows_of(part, 0))
    full = simulate(scs[:2], seeds[:2], backend="cpu")
    assert_rows_equal(rows_of(part, 1), rows_of(full, 1))


def test_grids_that_share_points_run_them_once_in_one_call(monkeypatch):
    """A family's sweeps share points (Kaur & Vin's full family: 7,880 distinct replicas of
    10,560): execute_many's one call packs each distinct replica once, and each grid's Results
    are those of running it alone."""
    packed = []
    real = engine.pack
    monkeypatch.setattr(engine, "pack", lambda scs, seeds, **kw: packed.append(len(scs))
                        or real(scs, seeds, **kw))
    wide, narrow = small_grid(seeds=2), small_grid(seeds=1)  # narrow: seed 0 of wide's points
    both = execute_many([(wide, None), (narrow, None)], backend="cpu")
    assert sum(packed) == len(wide.replicas) == 8
    assert both[0].meta["distinct_replicas"] == 8 and both[0].meta["n_replicas"] == 12
    assert_same(both[0], execute(wide, backend="cpu"))
    assert_same(both[1], execute(narrow, backend="cpu"))


def test_the_benchmark_counts_a_familys_repeats_and_times_its_call(tmp_path):
    import json

    import script_module

    script_module.run_main("cpu/repeats", "--papers", "matta_guo", "--time", "matta_guo",
                           "--rounds", "1", "--out", str(tmp_path))
    (path,) = tmp_path.glob("repeats-*.json")
    rec = json.loads(path.read_text())
    quick, full = rec["families"]
    assert (quick["quick"], quick["replicas"], quick["distinct_replicas"]) == (True, 44, 40)
    # the full family has the lifetime-based family ML (300 replicas; full only, so not in the
    # quick family above)
    assert (full["quick"], full["replicas"], full["distinct_replicas"]) == (False, 550, 390)
    assert 0.85 < quick["distinct_share"] < 1.0
    t = rec["timing"]
    assert t["same_tables"] and t["paper"] == "matta_guo"
    assert all(len(v) == 1 and v[0] > 0 for v in t["seconds"].values())


def test_a_family_call_says_how_many_replicas_it_ran():
    from diffsweep.studies import reproduce
    said = []
    pre, stopped, _ = reproduce.one_engine_call({"wide": small_grid(seeds=2),
                                                 "narrow": small_grid(seeds=1)}, "cpu", None,
                                                False, said.append, "[family]", "two grids", "")
    assert not stopped and sorted(pre) == ["narrow", "wide"]
    assert "12 replicas in" in said[-1]
    assert "; 8 of 12 distinct: each run once, its repeats copied" in said[-1]


def test_a_dry_run_counts_the_replicas_that_would_run(capsys):
    """k5_equal's points without EF build the same scenario whatever T_on (3 values): of its
    quick 48 replicas, 32 run; the time estimate is theirs."""
    from pathlib import Path

    from diffsweep.cli import app as cli
    from diffsweep.engine import sizing
    from diffsweep.sweep.config import load_sweep
    path = str(Path(__file__).resolve().parent.parent / "sweeps/kaur_vin/k5_equal.toml")
    assert cli.main(["run", path, "--quick", "--out", "unused", "--dry-run", "--threads", "2"]) == 0
    out = capsys.readouterr().out
    assert "replicas    : 48" in out and "distinct    : 32 of 48 replicas run" in out
    est = sizing.estimate(load_sweep(path, quick=True).make_grid(), threads=2)
    assert (est.distinct_replicas, est.replicas) == (32, 48)
    assert 0.6 < est.distinct_slots / est.replica_slots < 0.7  # 8 of 12 points, equal durations


def test_the_work_auto_weighs_counts_shared_points_once_per_seed():
    """backend_choice.work_of_grids (what auto weighs): grids sharing points count each (point,
    seed) once, their seeds' union, in one pass over the points (a grid of 100,000 seeds a
    point is not expanded into replicas)."""
    from diffsweep.engine import backend_choice
    two, three = small_grid(seeds=2), small_grid(seeds=3)  # seeds 0-1 and 0-2 of 4 points
    w = backend_choice.work_of_grids([two, three])
    one = backend_choice.work_of_grids([small_grid(seeds=1)])
    assert w.replicas == 4 * 3 and w.replica_slots == 3 * one.replica_slots
    many = backend_choice.work_of_grids([small_grid(seeds=100_000), two])
    assert many.replicas == 4 * 100_000 and many.replica_slots == 100_000 * one.replica_slots
