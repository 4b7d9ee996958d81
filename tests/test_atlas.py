"""diffsweep atlas (issue 25): a claim mapped over parameters the paper did not vary.

The verdict at the paper's own point is the report's; seeds are added only where a cell is
undecided; an interrupted atlas resumes to the same table; bad axes are named."""
from __future__ import annotations

import re
import signal
from pathlib import Path

import pandas as pd
import pytest

from diffsweep import ConfigError, SweepInterrupted
from diffsweep.studies import atlas as atlases
from diffsweep.cli import app as cli
from diffsweep import load
from diffsweep.sweep import runner
from diffsweep.analysis import claims as cl

from reproduce_util import reproduce_shrunk

ROOT = Path(__file__).resolve().parents[1]
SHORT = [(r"duration_s = [\d.]+", "duration_s = 6.0")]


def shrunk_sweeps(tmp_path: Path) -> Path:
    """sweeps/lee_jeong/table2.toml with a 6-s [quick] run, in tmp_path/sweeps."""
    d = tmp_path / "sweeps" / "lee_jeong"
    d.mkdir(parents=True, exist_ok=True)
    text = (ROOT / "sweeps/lee_jeong/table2.toml").read_text()
    head, quick = text.split("[quick]", 1)
    for pattern, repl in SHORT:
        quick = re.sub(pattern, repl, quick, count=1)
    (d / "table2.toml").write_text(head + "[quick]" + quick)
    return tmp_path / "sweeps"


def run_atlas(tmp_path, axes, out="atlas", **kw):
    kw.setdefault("max_seeds", 8)
    return atlases.atlas("lee-jeong", "LT2.1", axes, quick=True, out=tmp_path / out,
                         backend="cpu", progress=False, log=lambda *a: None,
                         sweeps=shrunk_sweeps(tmp_path), **kw)


# --------------------------------------------------------------------------------------------
# axes and claims that are refused, with the field named

@pytest.mark.parametrize("axes, pattern", [
    (["rtt_spread"], r"^--axes: 'rtt_spread' is not allowed \(expected NAME=V1,V2"),
    (["rtt_spread="], r"^--axes: 'rtt_spread=' is not allowed"),
    (["rtt_spread=1", "rtt_spread=2"], r"^--axes: 'rtt_spread' is given twice"),
    (["a=1", "b=1", "c=1", "d=1"], r"^axes: 4 given \(a, b, c, d\); an atlas has 1 to 3"),
    (["rtt_spread=log:0:1:3"], r"^axes\.rtt_spread: 'log:0:1:3' is not allowed \(expected "
                               r"log:LO:HI:N"),
    (["rtt_spread=lin:0:1"], r"^axes\.rtt_spread: 'lin:0:1' is not allowed"),
    ([], r"^axes: none given"),
])
def test_axes_syntax_is_checked(axes, pattern):
    with pytest.raises(ConfigError, match=pattern):
        atlases.parse_axes(axes)


def test_axes_expand_evenly_and_log_evenly():
    ax = atlases.parse_axes(["a=lin:0:1:5", "b=log:1e-5:1e-3:3", "c=x, y"])
    assert ax == {"a": [0.0, 0.25, 0.5, 0.75, 1.0], "b": [1e-5, 1e-4, 1e-3], "c": ["x", "y"]}


@pytest.mark.parametrize("paper, claim, axes, pattern", [
    ("lee-jeong", "LT2.1", {"buffer_pkts": [50]},
     r"^axes: 'buffer_pkts' is not allowed for LT2\.1 \(expected one of rtt_spread, cir_mbps, "
     r"bucket_pkts\)"),
    ("lee-jeong", "LT2.1", {"rtt_spread": [-1]},
     r"^axes\.rtt_spread\[0\]: -1 is not allowed \(expected a number in \[0, 3\]"),
    ("lee-jeong", "LT2.1", {"cir_mbps": ["fast"]}, r"^axes\.cir_mbps\[0\]: 'fast' is not allowed"),
    ("lee-jeong", "LT2.1", {"bucket_pkts": [35.5]},
     r"^axes\.bucket_pkts\[0\]: 35\.5 is not allowed \(expected an integer in \[5, 500\]"),
    ("lee-jeong", "LT2.1", {"rtt_spread": [1, 1.0]}, r"^axes\.rtt_spread: .* repeats a value"),
    ("lee-jeong", "LT2.3", {"rtt_spread": [1]},
     r"^claim: LT2\.3 of lee-jeong declares no parameters to map over \(mappable claims of "
     r"lee-jeong: LT2\.1, LT2\.2"),
    ("lee-jeong", "X9", {"rtt_spread": [1]}, r"^claim: 'X9' is not a claim of lee-jeong"),
    ("kaur-vin", "C4", {"n_flows": [8]}, r"^axes: 'n_flows' is not allowed for C4"),
    ("rossi", "R5.1", {"syn": ["maybe"]}, r"^axes\.syn\[0\]: 'maybe' is not allowed \(expected "
                                          r"true or false"),
    ("lee-jeong", "LT2.1", {"rtt_spread": list(range(3)) * 0 + [0, 0.5, 1, 1.5, 2, 2.5, 3],
                            "cir_mbps": [1 + i / 10 for i in range(60)]},
     r"^axes: 420 cells \(7 x 60\); an atlas has at most 400"),
    ("habib", "H1", {"x": [1]}, r"^claim: "),
])
def test_bad_axes_are_named(tmp_path, paper, claim, axes, pattern):
    with pytest.raises(ConfigError, match=pattern):
        atlases.atlas(paper, claim, axes, quick=True, out=tmp_path / "a", backend="cpu",
                      log=lambda *a: None)
    assert not (tmp_path / "a").exists()  # nothing written before the checks


def test_a_value_the_builder_refuses_names_its_cell(tmp_path):
    # n_flows 12 with unequal RTPs: not a multiple of the 8 RTP intervals
    with pytest.raises(ConfigError, match=r"atlas cell 1: send_jitter_s=0\.0, n_flows=12; sweep "
                                          r"k5_unequal_index"):
        atlases.atlas("kaur-vin", "K5.3", {"send_jitter_s": [0.0], "n_flows": [16, 12]},
                      quick=True, out=tmp_path / "a", backend="cpu", log=lambda *a: None)
    assert not (tmp_path / "a").exists()


def test_every_declared_map_names_real_claims_and_builder_parameters():
    import inspect

    from diffsweep.sweep import config
    from diffsweep import papers

    for name in papers.names():
        spec = papers.get(name)
        ids = {c.id for c in spec.claim_list()}
        for m in spec.map_list():
            assert m.claim in ids
            builder = config.resolve_builder(next(iter(spec.builders)))
            params = inspect.signature(builder).parameters
            for p in m.params:
                assert p.name in params, (name, m.claim, p.name)
                assert p.suggested and all(p.value(v, "x") == v for v in p.suggested)


def test_cli_list_shows_the_mappable_claims(capsys):
    assert cli.main(["atlas", "kaur-vin", "--list"]) == 0
    out = capsys.readouterr().out
    assert "C4: Higher priority EF traffic" in out and "--axes send_jitter_s=" in out
    assert cli.main(["atlas", "habib", "--list"]) == 0
    assert "no claim declares parameters" in capsys.readouterr().out
    assert cli.main(["atlas", "kaur-vin", "C4"]) == 2
    assert "--axes: missing" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# the verdicts

def test_the_paper_point_gets_the_reports_verdict(tmp_path, monkeypatch):
    out, status = reproduce_shrunk(tmp_path / "r", monkeypatch, "lee-jeong", "lee_jeong",
                                   ["table2"], "t2", SHORT)
    res = run_atlas(tmp_path, {"rtt_spread": [0.5, 1.0]}, max_seeds=4)
    t = res.table.set_index("rtt_spread")
    assert list(t["paper_point"]) == [False, True]
    assert t.loc[1.0, "verdict"] == status["LT2.1"]
    # and the cell's replicas are the report's, bit for bit
    a, b = load(res.out / "cells/1/table2").flows, load(out / "table2").flows
    cols = ["point", "seed", "flow", "goodput_bps"]
    key = ["point", "seed", "flow"]
    pd.testing.assert_frame_equal(a[cols].sort_values(key).reset_index(drop=True),
                                  b[cols].sort_values(key).reset_index(drop=True))
    md = (res.out / "atlas.md").read_text()
    assert "LT2.1 (Table 2): BMarker" in md and "| 1 | 1 |" in md
    assert (res.out / "atlas.png").stat().st_size > 2000
    csv = pd.read_csv(res.out / "verdicts.csv")
    assert list(csv["status"]) == list(res.table["status"])


def _rated_with(plan, out: Path, cell: int, seeds: list[int]):
    runs = {}
    for s in plan.sweeps:
        r = runner.run(atlases._cell_cfgs(plan, plan.cells[cell], seeds)[s], backend="cpu",
                       store=out / "cells" / str(cell) / s, progress=False, quiet=True)
        runs[s] = r
    return atlases.status_of(*atlases.rate(plan, runs))


def test_seeds_are_added_only_where_undecided(tmp_path):
    # rtt_spread 0: every connection has the same round trip, so neither marker is fairer
    res = run_atlas(tmp_path, {"rtt_spread": [0.0, 1.0], "cir_mbps": [3.5, 7.0]})
    first = 4
    t = res.table
    assert set(t["seeds"]) <= {4, 8}
    assert (t["seeds"] > first).any(), "the test needs an undecided cell"
    plan = atlases._plan("lee-jeong", "LT2.1", {"rtt_spread": [0.0, 1.0],
                                                "cir_mbps": [3.5, 7.0]},
                         True, None, shrunk_sweeps(tmp_path))
    for _, r in t.iterrows():
        at_first = _rated_with(plan, res.out, int(r["cell"]), list(range(first)))
        if r["seeds"] > first:
            assert at_first == atlases.UNDECIDED      # grown because undecided
        else:
            assert at_first != atlases.UNDECIDED      # left alone because decided
        assert r["status"] == atlases.status_of(cl.Verdict(r["verdict"]),
                                                cl.Verdict(r["point_estimate_verdict"]))


def test_point_estimates_shrink_every_interval():
    df = pd.DataFrame({"v": [1.0, 2.0, 4.0]})
    assert cl.overall_ci(df, "v")["ci95"][0] < 7 / 3
    with cl.point_estimates():
        ci = cl.overall_ci(df, "v")
        assert ci["ci95"] == [pytest.approx(7 / 3)] * 2
        assert cl.sign_status(cl.overall_ci(df - 2.0, "v"), +1) == cl.HOLDS
    assert cl.sign_status(cl.overall_ci(df - 2.0, "v"), +1) == cl.PARTLY
    assert atlases.status_of(cl.Verdict("partly holds"), cl.Verdict("holds")) == "undecided"
    assert atlases.status_of(cl.Verdict("partly holds"), cl.Verdict("partly holds")) == \
        "partly holds"


# --------------------------------------------------------------------------------------------
# the folder: resume, another atlas, the map

def test_an_interrupted_atlas_resumes_to_the_same_table(tmp_path, monkeypatch):
    axes = {"rtt_spread": [0.5, 1.0], "cir_mbps": [7.0]}
    full = run_atlas(tmp_path, axes, out="whole", max_seeds=4)
    real = runner.run_family

    def stopped_half_way(grids, *a, **k):
        keep = dict(list(grids.items())[:1])
        got, _ = real(keep, *a, **k)
        return got, signal.SIGINT

    monkeypatch.setattr(runner, "run_family", stopped_half_way)
    with pytest.raises(SweepInterrupted, match=r"replicas that finished are saved .* Resume "
                                                r"with:\n  diffsweep atlas"):
        run_atlas(tmp_path, axes, out="cut", max_seeds=4)
    assert (tmp_path / "cut/cells/0/table2/chunks").is_dir()
    assert not (tmp_path / "cut/verdicts.csv").exists()
    monkeypatch.setattr(runner, "run_family", real)
    again = run_atlas(tmp_path, axes, out="cut", max_seeds=4)
    cols = ["cell", "status", "verdict", "seeds", "reason"]
    pd.testing.assert_frame_equal(again.table[cols], full.table[cols])
    # a rerun of a finished atlas computes nothing
    calls = []
    monkeypatch.setattr(runner, "run_family", lambda g, *a, **k: calls.append(g) or ({}, False))
    run_atlas(tmp_path, axes, out="cut", max_seeds=4)
    assert calls == []


def test_a_folder_holds_one_atlas(tmp_path):
    run_atlas(tmp_path, {"rtt_spread": [1.0]}, max_seeds=4)
    with pytest.raises(ConfigError, match=r"^--out: .* holds the atlas of lee-jeong LT2\.1 over "
                                          r"rtt_spread \(--quick\) with other axes"):
        run_atlas(tmp_path, {"rtt_spread": [0.5]}, max_seeds=4)
    (tmp_path / "atlas/atlas.json").write_text("{garbage")
    with pytest.raises(ConfigError, match=r"atlas\.json is damaged"):
        run_atlas(tmp_path, {"rtt_spread": [1.0]}, max_seeds=4)
    (tmp_path / "other").mkdir()
    (tmp_path / "other/x.txt").write_text("x")
    with pytest.raises(ConfigError, match=r"is not empty and holds no atlas"):
        run_atlas(tmp_path, {"rtt_spread": [1.0]}, out="other", max_seeds=4)


@pytest.mark.parametrize("n_axes", [1, 2, 3])
def test_the_map_has_a_panel_per_value_of_the_third_axis(n_axes):
    from diffsweep.report.atlas_page import draw_map

    axes = {"a": [0.1, 1.0, 10.0], "b": [1, 2], "c": ["x", "y"]}
    axes = dict(list(axes.items())[:n_axes])
    import itertools
    rows = [dict(zip(axes, combo)) for combo in itertools.product(*axes.values())]
    statuses = ["holds", "partly holds", "does not hold", "undecided", "not measured"]
    t = pd.DataFrame([{**r, "status": statuses[i % 5], "seeds": 4, "paper_point": i == 0}
                      for i, r in enumerate(rows)])
    fig = draw_map(t, axes, "t")
    assert len(fig.axes) == (2 if n_axes == 3 else 1)
    labels = [x.get_text() for x in fig.axes[0].get_xticklabels()]
    assert labels == ["0.1", "1", "10"]
