"""Grouping and filtering by the sweep's axes (issue 45): ``show``, ``plot``, ``summarize`` and
``Results.where`` use the grid's axes, never an engine column that shares an axis's name, never
pool an axis into the "interval over seeds", and print different values differently. Each group
is checked against pandas computed directly on the stored tables."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import diffsweep as ds
from diffsweep.core import axes as ax
from diffsweep.cli import app as cli
from diffsweep.core.errors import ConfigError
from diffsweep.sweep.folder import plot, select, summary_table
from diffsweep.papers.matta_guo.scenario import matta_guo
from diffsweep.core.results import Results
from diffsweep.analysis.stats import summarize

THREE = """name = "three"
builder = "kaur_vin"
seeds = 3
duration_s = 2.0
warmup_s = 0.5
[fixed]
n_flows = 2
[axes]
ef = ["cbr", "onoff"]
t_on_ms = [1.0, 10.0]
buffer_bytes = [20000, 200000]
"""

ALIKE = """name = "alike"
builder = "kaur_vin"
seeds = 2
duration_s = 1.0
warmup_s = 0.2
[fixed]
n_flows = 1
[axes]
ef_fraction = [0.3, 0.3000001]
t_on_ms = [1.0, 10.0]
"""


@pytest.fixture(scope="module")
def collide(tmp_path_factory):
    """matta_guo with axes n_flows x k: the engine's replicas table has its own ``n_flows`` (6,
    the telnet flows it counts). One chunk per point: the chunks of n_flows = 6 agree with the
    engine and store no ``n_flows_grid``, those of 30 store it (the concatenated column has
    NaN on the first rows)."""
    d = tmp_path_factory.mktemp("collide")
    g = ds.Grid(matta_guo, seeds=2, n_flows=[6, 30], k=[1, 2], duration_s=2.0)
    ds.run(g, backend="cpu", store=d / "out", chunk_size=2, progress=False)
    return d / "out"


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    d = tmp_path_factory.mktemp("three")
    (d / "s.toml").write_text(THREE)
    assert cli.main(["run", str(d / "s.toml"), "--out", str(d / "out"), "--quiet"]) == 0
    return d / "out"


@pytest.fixture(scope="module")
def alike(tmp_path_factory):
    d = tmp_path_factory.mktemp("alike")
    (d / "s.toml").write_text(ALIKE)
    assert cli.main(["run", str(d / "s.toml"), "--out", str(d / "out"), "--quiet"]) == 0
    return d / "out"


def cli_run(capsys, *args):
    rc = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def summary_rows(out: str) -> list[list[str]]:
    """The rows of ``show``'s summary table (after its header line)."""
    lines = out.splitlines()
    head = next(i for i, ln in enumerate(lines) if "mean over seeds and 95% CI" in ln)
    return [ln.split() for ln in lines[head + 2:] if ln.strip()]


def n_flows_axis(df: pd.DataFrame) -> pd.Series:
    """The grid's n_flows computed by hand from the stored columns."""
    if "n_flows_grid" not in df.columns:
        return df["n_flows"]
    return df["n_flows_grid"].fillna(df["n_flows"]).astype("int64")


# --------------------------------------------------------------------------------------------
# an axis named like an engine column is the axis
# --------------------------------------------------------------------------------------------
def test_the_stored_tables_do_collide(collide):
    """The premise: the replicas table's n_flows is the engine's (6 everywhere), the axis is
    partly in n_flows_grid, partly (where they agreed) in n_flows itself."""
    rep = ds.load(collide).replicas
    assert set(rep["n_flows"]) == {6}
    assert rep["n_flows_grid"].isna().any() and set(n_flows_axis(rep)) == {6, 30}


def test_show_groups_by_the_axis_not_the_engine_column(collide, capsys):
    rc, out, err = cli_run(capsys, "show", collide)
    assert rc == 0, err
    rep = ds.load(collide).replicas
    want = (rep.assign(nf=n_flows_axis(rep)).groupby(["nf", "k"])["tcp_goodput_bps"]
            .agg(["mean", "count"]).reset_index())
    rows = summary_rows(out)
    assert [(int(r[0]), int(r[1]), int(r[2])) for r in rows] == \
        [(int(w.nf), int(w.k), int(w["count"])) for _, w in want.iterrows()] == \
        [(6, 1, 2), (6, 2, 2), (30, 1, 2), (30, 2, 2)]
    assert [float(r[3]) for r in rows] == [float(f"{m:.5g}") for m in want["mean"]]


def test_plot_draws_the_axis(collide, capsys, tmp_path):
    res = ds.load(collide)
    fig = plot(res, "n_flows", "tcp_goodput_bps", hue="k")
    rep = res.replicas
    want = rep.assign(nf=n_flows_axis(rep)).groupby(["k", "nf"])["tcp_goodput_bps"].mean()
    lines = fig.axes[0].get_lines()
    assert [ln.get_label() for ln in lines] == ["k=1", "k=2"]
    for k, ln in zip((1, 2), lines):
        assert list(ln.get_xdata()) == [6, 30]
        assert np.allclose(ln.get_ydata(), want.loc[k].to_numpy(), rtol=1e-12)
    rc, out, err = cli_run(capsys, "plot", collide, "--x", "n_flows", "--y", "tcp_goodput_bps",
                           "--hue", "k", "--out", tmp_path / "p.png")
    assert rc == 0 and (tmp_path / "p.png").stat().st_size > 10_000, err


def test_summarize_and_where_mean_the_axis(collide):
    res = ds.load(collide)
    assert res.meta["axes"] == ["n_flows", "k"]
    s = summarize(res, metrics="tcp_goodput_bps")  # by default: every axis
    rep = res.replicas
    want = rep.assign(n_flows=n_flows_axis(rep)).groupby(["n_flows", "k"])["tcp_goodput_bps"]
    assert list(zip(s.n_flows, s.k)) == [(6, 1), (6, 2), (30, 1), (30, 2)]
    assert np.allclose(s["mean"], want.mean().to_numpy()) and list(s["n"]) == [2, 2, 2, 2]
    assert np.allclose(s["std"], want.std().to_numpy())
    with pytest.raises(ConfigError, match=r"summarize\(by=\['n_flows'\]\) would pool the axis "
                                          r"k \(1, 2\) into one interval over seeds"):
        summarize(res, by=["n_flows"], metrics="tcp_goodput_bps")
    one = res.where(n_flows=30)
    assert set(one.replicas.point) == set(rep.point[n_flows_axis(rep) == 30]) == {2, 3}
    assert len(one.flows) == int((res.flows.n_flows == 30).sum()) > 0
    assert set(res.where(n_flows=6).replicas.point) == {0, 1}  # the rows without _grid
    by_k = summarize(res.where(n_flows=30), by=["k"], metrics="tcp_goodput_bps")
    assert np.allclose(by_k["mean"], want.mean().loc[30].to_numpy())
    # the engine's own column is still there, under its name, in the table itself
    assert set(summarize(res.replicas, by=["point"], metrics="n_flows")["mean"]) == {6.0}


def test_where_refuses_what_it_cannot_match(collide):
    res = ds.load(collide)
    with pytest.raises(ConfigError, match=r"^where: no column 'n_flow' in any table \(did you "
                                          r"mean 'n_flows'\?\)$"):
        res.where(n_flow=6)
    with pytest.raises(ConfigError, match=r"^where: n_flows=20 matches no row \(n_flows takes "
                                          r"6, 30\)$"):
        res.where(n_flows=20)
    assert len(res.where(n_flows=30.0).replicas) == 4  # 30 and 30.0 are one point
    two = Results(replicas=pd.DataFrame({"point": [0, 1], "seed": [0, 0], "a": [1, 2],
                                         "b": [1, 2]}),
                  flows=pd.DataFrame(), queues=pd.DataFrame(), sources=pd.DataFrame(),
                  intervals=pd.DataFrame())
    with pytest.raises(ConfigError, match=r"^where: no row has a=1, b=2 together$"):
        two.where(a=1, b=2)


# --------------------------------------------------------------------------------------------
# a three-axis sweep: every axis grouped, faceted, fixed or named in a refusal
# --------------------------------------------------------------------------------------------
def per_seed_goodput(res) -> pd.DataFrame:
    """Mean goodput of a replica's flows, per (axes, seed), by hand."""
    keys = ["ef", "t_on_ms", "buffer_bytes"]
    return res.flows.groupby(["point", "seed", *keys])["goodput_bps"].mean().reset_index()


def test_show_groups_a_three_axis_sweep_by_every_axis(three, capsys):
    rc, out, err = cli_run(capsys, "show", three)
    assert rc == 0, err
    rep = ds.load(three).replicas
    want = rep.groupby(["ef", "t_on_ms", "buffer_bytes"])["tcp_goodput_bps"].agg(
        ["mean", "count"]).reset_index()
    rows = summary_rows(out)
    assert len(rows) == 8 == len(want)
    for r, (_, w) in zip(rows, want.iterrows()):
        assert (r[0], float(r[1]), int(r[2]), int(r[3])) == (w.ef, w.t_on_ms, w.buffer_bytes, 3)
        assert float(r[4]) == float(f"{w['mean']:.5g}")


def test_plot_refuses_to_pool_the_third_axis(three, capsys, tmp_path):
    rc, out, err = cli_run(capsys, "plot", three, "--x", "t_on_ms", "--y", "goodput_bps",
                           "--hue", "ef", "--out", tmp_path / "p.png")
    assert rc == 2 and out == ""
    assert re.fullmatch(r"diffsweep: error: grouping by t_on_ms, ef would pool the axis "
                        r"buffer_bytes \(20000, 200000\) into one interval over seeds \(different "
                        r"points as one\); keep one value of each with --where AXIS=VALUE, or "
                        r"draw it with --hue AXIS or --facet AXIS\n", err), err
    rc, out, err = cli_run(capsys, "plot", three, "--x", "t_on_ms", "--y", "goodput_bps",
                           "--out", tmp_path / "p.png")
    assert rc == 2 and "axes ef (cbr, onoff) and buffer_bytes (20000, 200000)" in err
    assert not list(tmp_path.iterdir())
    with pytest.raises(ConfigError, match=r"would pool the axis buffer_bytes"):
        plot(ds.load(three), "t_on_ms", "goodput_bps", hue="ef")


def test_plot_facets_or_fixes_the_third_axis(three, capsys, tmp_path):
    res = ds.load(three)
    want = per_seed_goodput(res).groupby(["buffer_bytes", "ef", "t_on_ms"])["goodput_bps"]
    fig = plot(res, "t_on_ms", "goodput_bps", hue="ef", facet="buffer_bytes")
    panels = [a for a in fig.axes if a.get_visible()]
    assert [a.get_title() for a in panels] == ["buffer_bytes = 20000", "buffer_bytes = 200000"]
    for buf, a in zip((20000, 200000), panels):
        for ef, ln in zip(("cbr", "onoff"), a.get_lines()):
            assert list(ln.get_xdata()) == [1.0, 10.0]
            assert np.allclose(ln.get_ydata(), want.mean().loc[(buf, ef)].to_numpy())
    s = summary_table(res, ["t_on_ms", "ef", "buffer_bytes"], "goodput_bps")
    assert set(s["n"]) == {3}  # three seeds, not six
    fixed, chosen = select(res, ["buffer_bytes=20000"])
    assert chosen == {"buffer_bytes": 20000}
    fig = plot(fixed, "t_on_ms", "goodput_bps", hue="ef")
    for ef, ln in zip(("cbr", "onoff"), fig.axes[0].get_lines()):
        assert np.allclose(ln.get_ydata(), want.mean().loc[(20000, ef)].to_numpy())
    s = summary_table(fixed, ["t_on_ms", "ef"], "goodput_bps")
    assert set(s["n"]) == {3}
    sem = want.std().loc[20000].swaplevel().sort_index().to_numpy() / np.sqrt(3)  # t_on, ef
    assert np.allclose((s["ci_high"] - s["mean"]).to_numpy(), 4.302652729749464 * sem)
    for extra in (["--facet", "buffer_bytes"], ["--where", "buffer_bytes=200000"]):
        rc, out, err = cli_run(capsys, "plot", three, "--x", "t_on_ms", "--y", "goodput_bps",
                               "--hue", "ef", *extra, "--out", tmp_path / "p.png")
        assert rc == 0 and (tmp_path / "p.png").exists(), err


def test_summarize_groups_a_three_axis_sweep(three):
    res = ds.load(three)
    s = summarize(res, metrics="tcp_goodput_bps")
    want = res.replicas.groupby(["ef", "t_on_ms", "buffer_bytes"])["tcp_goodput_bps"]
    assert len(s) == 8 and list(s["n"]) == [3] * 8
    assert np.allclose(s["mean"], want.mean().to_numpy())
    with pytest.raises(ConfigError, match=r"would pool the axes t_on_ms \(1, 10\) and "
                                          r"buffer_bytes \(20000, 200000\)"):
        summarize(res, by=["ef"], metrics="tcp_goodput_bps")
    flows = summarize(res, metrics="goodput_bps", table="flows")  # n: seeds, not flows x seeds
    hand = per_seed_goodput(res).groupby(["ef", "t_on_ms", "buffer_bytes"])["goodput_bps"]
    assert list(flows["n"]) == [3] * 8 and len(res.flows) == 2 * 24
    assert np.allclose(flows["mean"], hand.mean().to_numpy())
    assert np.allclose(flows["std"], hand.std().to_numpy())
    one = summarize(res.where(t_on_ms=10.0, buffer_bytes=200000), by=["ef"],
                    metrics="tcp_goodput_bps")
    assert list(one["n"]) == [3, 3]
    assert np.allclose(one["mean"], want.mean().xs((10.0, 200000), level=(1, 2)).to_numpy())


def test_show_where_keeps_the_points_asked(three, capsys):
    rc, out, err = cli_run(capsys, "show", three, "--where", "ef=onoff", "--where",
                           "buffer_bytes=20000")
    assert rc == 0, err
    assert "mean over seeds and 95% CI, ef=onoff, buffer_bytes=20000" in out
    assert [(r[0], r[1], r[2]) for r in summary_rows(out)] == [("onoff", "1", "20000"),
                                                               ("onoff", "10", "20000")]


# --------------------------------------------------------------------------------------------
# different values print differently
# --------------------------------------------------------------------------------------------
def test_labels_tell_values_apart():
    assert ax.labels([0.1, 0.1000000001]) == ["0.1", "0.1000000001"]
    assert ax.labels([1e-4, 1.000001e-4]) == ["0.0001", "0.0001000001"]
    assert ax.labels([1e-4, 1.0001e-4], digits=4) == ["0.0001", "0.00010001"]
    assert ax.labels([0.25, 4, 4.0, 1234567]) == ["0.25", "4", "4", "1234567"]
    assert ax.labels([(8.0, 12.0), (8.0, 12.000001)]) == ["[8, 12]", "[8, 12.000001]"]
    assert ax.labels(["cbr", True, None]) == ["cbr", "True", "None"]
    assert ax.listing([30, 6, 6.0, 10]) == "6, 10, 30"


def test_show_plot_and_where_tell_alike_values_apart(alike, capsys, tmp_path):
    rc, out, err = cli_run(capsys, "show", alike)
    assert rc == 0, err
    # (%.5g printed 0.3 twice)
    assert [r[0] for r in summary_rows(out)] == ["0.3", "0.3", "0.3000001", "0.3000001"]
    res = ds.load(alike)
    legend = plot(res, "t_on_ms", "goodput_bps", hue="ef_fraction").axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["ef_fraction=0.3",
                                                          "ef_fraction=0.3000001"]
    fig = plot(res, "t_on_ms", "goodput_bps", facet="ef_fraction")
    assert [a.get_title() for a in fig.axes] == ["ef_fraction = 0.3", "ef_fraction = 0.3000001"]
    assert select(res, ["ef_fraction=0.3000001"])[1] == {"ef_fraction": 0.3000001}
    assert set(select(res, ["ef_fraction=0.3"])[0].replicas.ef_fraction) == {0.3}
    rc, out, err = cli_run(capsys, "show", alike, "--where", "ef_fraction=0.300001")
    assert rc == 2 and "matches no row (ef_fraction takes 0.3, 0.3000001)" in err


def test_atlas_labels_tell_alike_cells_apart():
    from diffsweep.report.atlas_page import draw_map

    table = pd.DataFrame({"a": [0.1, 0.1000001], "status": ["holds", "does not hold"],
                          "paper_point": [True, False], "seeds": [2, 2]})
    fig = draw_map(table, {"a": [0.1, 0.1000001]}, "t")
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["0.1", "0.1000001"]


def test_a_per_flow_list_axis_is_grouped_by_its_lists(tmp_path, capsys):
    """kaur_vin's rtp_ms axis of per-flow lists: the flows table's rtp_ms is each flow's own
    (a scalar), the grid's list is rtp_ms_grid. show stopped with "internal error: unhashable
    type: 'numpy.ndarray'"; plot --hue rtp_ms drew one line per flow's scalar."""
    from diffsweep.scenario.builders import kaur_vin

    g = ds.Grid(kaur_vin, seeds=2, n_flows=2, ef="cbr", rtp_ms=[[8.0, 12.0], [10.0, 14.0]],
                duration_s=1.0, warmup_s=0.2)
    ds.run(g, backend="cpu", store=tmp_path / "o", progress=False)
    res = ds.load(tmp_path / "o")
    assert "rtp_ms_grid" in res.flows.columns
    rc, out, err = cli_run(capsys, "show", tmp_path / "o", "--where", "rtp_ms=[10, 14]")
    assert rc == 0, err
    rep = res.replicas
    want = rep[rep["rtp_ms"].map(tuple) == (10.0, 14.0)]["tcp_goodput_bps"].mean()
    assert out.splitlines()[-1].split()[:4] == ["[10,", "14]", "2", f"{want:.5g}"]
    per_seed = res.flows.assign(key=res.flows["rtp_ms_grid"].map(tuple)).groupby(
        ["key", "seed"])["goodput_bps"].mean().groupby("key").mean()
    line, = plot(res, "rtp_ms", "goodput_bps").axes[0].get_lines()
    assert list(line.get_xdata()) == ["[8, 12]", "[10, 14]"]
    assert np.allclose(line.get_ydata(), per_seed.to_numpy())
    assert ax.distinct([(10.0, 14.0), "cbr", (8.0, 12.0), 3, True]) == [3, (8.0, 12.0),
                                                                         (10.0, 14.0), True, "cbr"]
