"""Grid: axes, fixed params, seeds, tables and the errors that must come at construction."""
import numpy as np
import pandas as pd
import pytest

from diffsweep.core.errors import ConfigError
from diffsweep.sweep.grid import Grid
from diffsweep.scenario import Link, Scenario, TcpFlow
from diffsweep.scenario.builders import kaur_vin


def test_cartesian_product_size_and_order():
    g = Grid(kaur_vin, seeds=2, n_flows=[1, 2, 4], t_on_ms=(0.4, 4.0),
             ef=np.array(["onoff", "cbr"]))
    assert g.n_points == 12 and len(g) == 24
    assert list(g.points["point"]) == list(range(12))
    # the last axis varies fastest, axes in the order given
    first = g.points.loc[:3, ["n_flows", "t_on_ms", "ef"]].values.tolist()
    assert first == [[1, 0.4, "onoff"], [1, 0.4, "cbr"], [1, 4.0, "onoff"], [1, 4.0, "cbr"]]
    assert list(g.points["n_flows"]) == [1] * 4 + [2] * 4 + [4] * 4
    for p, row in g.points.iterrows():
        sc = g.scenario(p, 0)
        assert len(sc.flows) == row["n_flows"]
        assert sc.sources[0].t_on_ms == row["t_on_ms"]
        assert (sc.sources[0].t_off_ms == 0.0) == (row["ef"] == "cbr")


def test_fixed_params_reach_the_builder_and_are_not_columns():
    g = Grid(kaur_vin, seeds=1, t_on_ms=[1.0, 2.0], n_flows=4, tcp="newreno",
             buffer_bytes=100_000)
    assert g.fixed == {"n_flows": 4, "tcp": "newreno", "buffer_bytes": 100_000}
    assert list(g.axes) == ["t_on_ms"]
    assert "n_flows" not in g.columns and "tcp" not in g.columns
    for p in range(2):
        sc = g.scenario(p, 0)
        assert len(sc.flows) == 4 and sc.flows[0].variant == "newreno"
        assert sc.links[0].classes[1].limit_bytes == 100_000


def test_points_replicas_and_columns():
    g = Grid(kaur_vin, seeds=[5, 7, 9], t_on_ms=[1.0, 10.0], ef_fraction=0.2)
    params = ["t_off_ms", "ef_rate_bps", "udp_rate_bps", "available_bps"]
    assert g.columns == ["t_on_ms", *params]
    assert list(g.points.columns) == ["point", *g.columns]
    assert list(g.replicas.columns) == ["point", "seed", *g.columns]
    assert g.points["t_off_ms"].tolist() == pytest.approx([4.0, 40.0])
    assert g.points["available_bps"].tolist() == pytest.approx([32e6, 32e6])
    assert len(g.replicas) == len(g) == 6
    assert g.replicas["point"].tolist() == [0, 0, 0, 1, 1, 1]
    assert g.replicas["seed"].tolist() == [5, 7, 9, 5, 7, 9]
    assert g.replicas["t_on_ms"].tolist() == [1.0] * 3 + [10.0] * 3
    assert g.replicas["point"].dtype == np.int64 and g.replicas["seed"].dtype == np.int64


def test_seeds_as_int_and_list():
    assert Grid(kaur_vin, seeds=3).seeds == [0, 1, 2]
    assert Grid(kaur_vin, seeds=[4, 2, 11]).seeds == [4, 2, 11]
    assert Grid(kaur_vin, seeds=np.array([3, 1])).seeds == [3, 1]
    assert len(Grid(kaur_vin)) == 10  # default seeds=10, one point


@pytest.mark.parametrize("seeds,pattern", [
    (0, r"seeds: 0 "), (-2, r"seeds: -2 "), ([], r"seeds: \[\] "), (True, r"seeds: True "),
    ([1, 1], r"seeds\[1\]: 1 .*already"), ([0, -1], r"seeds\[1\]: -1 "),
    ([0, 1.5], r"seeds\[1\]: 1\.5 "), ("3", r"seeds: '3' "),
])
def test_bad_seeds(seeds, pattern):
    with pytest.raises(ConfigError, match="^" + pattern):
        Grid(kaur_vin, seeds=seeds)


def test_seed_reaches_the_builder():
    g = Grid(kaur_vin, seeds=[1, 2], n_flows=[16], rtp_intervals=[(12, 26, 8)])
    a, b = g.scenario(0, 1), g.scenario(0, 2)
    assert a == kaur_vin(n_flows=16, rtp_intervals=(12, 26, 8), seed=1)
    assert b == kaur_vin(n_flows=16, rtp_intervals=(12, 26, 8), seed=2)
    assert a != b
    assert g.scenario(0, 2) is b  # cached
    assert g.scenario(0, 99) == kaur_vin(n_flows=16, rtp_intervals=(12, 26, 8), seed=99)


def test_builder_without_seed():
    calls = []

    def build(rate_bps=1e6):
        calls.append(rate_bps)
        return Scenario(links=[Link(rate_bps)], flows=[TcpFlow()], duration_s=1.0,
                        params={"half_bps": rate_bps / 2})

    g = Grid(build, seeds=4, rate_bps=[1e6, 2e6])
    assert calls == [1e6, 2e6]  # each point built once, eagerly
    assert g.scenario(1, 3).links[0].rate_bps == 2e6
    assert calls == [1e6, 2e6]  # same scenario for every seed: no rebuild
    assert g.columns == ["rate_bps", "half_bps"]


def test_unknown_param_did_you_mean():
    with pytest.raises(ConfigError, match=r"^t_onms: not a parameter of kaur_vin "
                                          r"\(did you mean 't_on_ms'\?\); kaur_vin accepts: "
                                          r"n_flows, .*t_on_ms"):
        Grid(kaur_vin, t_onms=[1.0, 2.0])


def test_seed_as_a_param_is_refused():
    with pytest.raises(ConfigError, match=r"^seed: .*seeds="):
        Grid(kaur_vin, seed=3)


def test_empty_axis_names_the_axis():
    with pytest.raises(ConfigError, match=r"^t_on_ms: \[\] is not allowed"):
        Grid(kaur_vin, n_flows=[1, 2], t_on_ms=[])
    with pytest.raises(ConfigError, match=r"^t_on_ms: \[\] "):
        Grid(kaur_vin, t_on_ms=np.array([]))


def test_invalid_point_fails_at_construction_with_its_axis_values():
    with pytest.raises(ConfigError, match=r"^t_on_ms: -1\.0 is not allowed .*"
                                          r"\(grid point 1: n_flows=1, t_on_ms=-1\.0; seed 0\)$"):
        Grid(kaur_vin, n_flows=[1, 2], t_on_ms=[1.0, -1.0])
    with pytest.raises(ConfigError, match=r"^n_flows: 12 .*multiple.*grid point 1: n_flows=12"):
        Grid(kaur_vin, n_flows=[16, 12], rtp_intervals=[(12, 26, 8)])


def test_builder_must_return_a_scenario():
    with pytest.raises(ConfigError, match=r"^builder: returned dict"):
        Grid(lambda x=1: {"x": x}, x=[1, 2])


def test_missing_required_builder_param():
    def build(rate_bps):
        return Scenario(links=[Link(rate_bps)], flows=[TcpFlow()], duration_s=1.0)

    with pytest.raises(ConfigError, match=r"^rate_bps: missing"):
        Grid(build)
    assert len(Grid(build, seeds=1, rate_bps=5e6)) == 1


def test_scenario_bad_point():
    g = Grid(kaur_vin, seeds=1, t_on_ms=[1.0, 2.0])
    with pytest.raises(ConfigError, match=r"^point: 2 "):
        g.scenario(2, 0)
    with pytest.raises(ConfigError, match=r"^seed: -1 "):
        g.scenario(0, -1)


def test_tuple_valued_axis_and_numpy_values_are_plain():
    g = Grid(kaur_vin, seeds=1, t_on_ms=np.array([0.4, 4.0]), n_flows=[8, 16],
             rtp_intervals=[(12, 26, 8)])
    assert type(g.axes["t_on_ms"][0]) is float
    assert g.points["rtp_intervals"].tolist() == [(12, 26, 8)] * 4
    assert isinstance(g.points, pd.DataFrame)


def test_zip_axes_move_together():
    g = Grid(kaur_vin, seeds=2, ef=["cbr", "onoff"], n_flows=1,
             zip_axes=[{"rtp_ms": [6.0, 8.0, 10.0], "buffer_bytes": [30000, 40000, 50000]}],
             duration_s=1.0, warmup_s=0.1)
    assert g.n_points == 6 and len(g) == 12
    assert g.axes == {"ef": ["cbr", "onoff"]}
    assert g.zips == [{"rtp_ms": [6.0, 8.0, 10.0], "buffer_bytes": [30000, 40000, 50000]}]
    assert g.columns[:3] == ["ef", "rtp_ms", "buffer_bytes"]
    # plain axes first, then zip groups; the last dimension varies fastest
    assert g.points[["ef", "rtp_ms", "buffer_bytes"]].values.tolist() == [
        ["cbr", 6.0, 30000], ["cbr", 8.0, 40000], ["cbr", 10.0, 50000],
        ["onoff", 6.0, 30000], ["onoff", 8.0, 40000], ["onoff", 10.0, 50000]]
    for p, row in g.points.iterrows():
        sc = g.scenario(p, 1)
        assert sc.links[0].classes[1].limit_bytes == row["buffer_bytes"]
        assert sc.flow_rtp_ms(0) == pytest.approx(row["rtp_ms"])
    assert "zip(rtp_ms, buffer_bytes)[3]" in repr(g)


def test_two_zip_groups_and_labels():
    g = Grid(kaur_vin, seeds=1, duration_s=1.0, warmup_s=0.1,
             zip_axes={"path": {"rtp_ms": [6.0, 8.0], "buffer_bytes": [30000, 40000]},
                       "ef": {"ef": ["cbr", "onoff"], "t_on_ms": [1.0, 10.0]}})
    assert g.n_points == 4
    assert g.points[["rtp_ms", "ef", "t_on_ms"]].values.tolist() == [
        [6.0, "cbr", 1.0], [6.0, "onoff", 10.0], [8.0, "cbr", 1.0], [8.0, "onoff", 10.0]]
    assert Grid(kaur_vin, seeds=1, zip_axes=[], t_on_ms=[1.0]).zips == []


@pytest.mark.parametrize("kw,pattern", [
    (dict(zip_axes=[{"rtp_ms": [6.0, 8.0], "buffer_bytes": [1]}]),
     r"^zip_axes\[0\]: lists of unequal length \(rtp_ms: 2, buffer_bytes: 1\)"),
    (dict(zip_axes=[{"rtp_mss": [6.0], "buffer_bytes": [1]}]),
     r"^zip_axes\[0\]\.rtp_mss: not a parameter of kaur_vin \(did you mean 'rtp_ms'\?\)"),
    (dict(rtp_ms=8.0, zip_axes=[{"rtp_ms": [6.0], "buffer_bytes": [1]}]),
     r"^zip_axes\[0\]\.rtp_ms: also given as a parameter"),
    (dict(zip_axes=[{"rtp_ms": [6.0]}, {"rtp_ms": [8.0]}]), r"^zip_axes\[1\]\.rtp_ms: also in zip_axes\[0\]"),
    (dict(zip_axes=[{"rtp_ms": 6.0, "buffer_bytes": [1]}]), r"^zip_axes\[0\]\.rtp_ms: 6\.0 is not allowed"),
    (dict(zip_axes=[{"rtp_ms": [], "buffer_bytes": []}]), r"^zip_axes\[0\]\.rtp_ms: \[\] is not allowed"),
    (dict(zip_axes=[{"seed": [1, 2]}]), r"^zip_axes\[0\]\.seed: not allowed"),
    (dict(zip_axes="rtp_ms"), r"^zip_axes: 'rtp_ms' is not allowed"),
    (dict(zip_axes=[{"t_on_ms": [1.0, -1.0], "rtp_ms": [8.0, 8.0]}]),
     r"^t_on_ms: -1\.0 is not allowed .*\(grid point 1: t_on_ms=-1\.0, rtp_ms=8\.0; seed 0\)$"),
])
def test_bad_zip_axes(kw, pattern):
    with pytest.raises(ConfigError, match=pattern):
        Grid(kaur_vin, seeds=1, **kw)


def test_results_where_keeps_the_rows_of_one_grid_value():
    import diffsweep as ds
    g = Grid(kaur_vin, seeds=1, n_flows=2, ef=None, send_jitter_s=[0.0, 1e-4], tie_break="index",
                duration_s=1.0, warmup_s=0.1)
    res = ds.run(g, backend="cpu")
    one = res.where(send_jitter_s=1e-4)
    assert set(one.flows.send_jitter_s) == {1e-4} and len(one.flows) == 2
    assert len(one.replicas) == 1 and one.sources.equals(res.sources)  # no such column: kept
    assert {f.send_jitter_s for f in g.scenario(1, 0).flows} == {1e-4}


def test_seeds_share_a_scenario_when_the_builder_says_the_seed_does_not_matter():
    """kaur_vin draws only stratified RTPs from the seed (kaur_vin.seed_matters): with equal
    RTPs every seed of a point is the same Scenario object, built and packed once; with
    rtp_intervals each seed draws its own RTPs. A builder that says nothing builds per seed."""
    from diffsweep.papers.kaur_vin.scenario import kaur_vin as kv
    g = Grid(kv, seeds=[0, 1, 2], n_flows=8, duration_s=1.0, warmup_s=0.1, rtp_ms=[8.0, 12.0])
    assert g.scenario(1, 2) is g.scenario(1, 0) and g.scenario(0, 1) is g.scenario(0, 0)
    gi = Grid(kv, seeds=[0, 1], n_flows=8, duration_s=1.0, warmup_s=0.1,
              rtp_intervals=[(12, 26, 8)])
    a, b = gi.scenario(0, 0), gi.scenario(0, 1)
    assert a is not b and [f.reverse_delay_ms for f in a.flows] != [f.reverse_delay_ms for f in b.flows]
    assert gi.scenario(0, 1) == kv(n_flows=8, duration_s=1.0, warmup_s=0.1,
                                   rtp_intervals=(12, 26, 8), seed=1)

    def built(seed=0, **kw):
        built.calls += 1
        return kv(n_flows=1, duration_s=1.0, warmup_s=0.1)
    built.calls = 0
    g2 = Grid(built, seeds=[0, 1, 2])
    assert [g2.scenario(0, s) is not None for s in (0, 1, 2)] and built.calls == 3
