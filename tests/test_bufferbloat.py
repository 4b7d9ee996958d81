"""The bufferbloat family (issue 52): its sweeps build and validate, its claims are listed and
rate on a tiny run, and ``diffsweep reproduce bufferbloat --quick`` works end to end on shrunk
sweep files (a few seconds)."""
from __future__ import annotations

from pathlib import Path

import pytest

from diffsweep import papers
from diffsweep.analysis.claims import STATUSES
from diffsweep.sweep.config import load_sweep

from reproduce_util import reproduce_shrunk

ROOT = Path(__file__).resolve().parents[1]
SHRINK = [(r"seeds = \d+", "seeds = 2"), (r"duration_s = [\d.]+", "duration_s = 6.0"),
          (r"warmup_s = [\d.]+", "warmup_s = 2.0")]


def test_registered_with_its_families_and_claims():
    assert "bufferbloat" in papers.names()
    p = papers.get("bufferbloat")
    assert [f.id for f in p.families] == ["BD", "BR"]
    ids = [c.id for c in p.claim_list()]
    assert ids == ["BD.1", "BD.2", "BD.3", "BD.4", "BD.5", "BD.6", "BD.7", "BR.1", "BR.2",
                   "BR.3"]
    assert set(p.figure_functions()) == {"BD", "BR"}
    # every claim's test is printed under it in the report
    assert all(c.thresholds for c in p.claim_list())


@pytest.mark.parametrize("sweep", ["bb_delay", "bb_rtt"])
@pytest.mark.parametrize("quick", [False, True])
def test_sweeps_build_cubic_over_the_aqms(sweep, quick):
    grid = load_sweep(ROOT / "sweeps" / "bufferbloat" / f"{sweep}.toml", quick=quick).make_grid()
    seen = set()
    for p in range(grid.n_points):
        sc = grid.scenario(p, grid.seeds[0])
        be = sc.links[0].classes[0]
        seen.add(be.aqm)
        assert sc.queue_delay_hist
        ccs = {f.congestion_control for f in sc.flows}
        assert ccs <= {"newreno", "cubic"}
        if sweep == "bb_delay":
            assert ccs == {"cubic"}
    assert seen == {"droptail", "codel", "pie", "fq_codel"}


def test_quick_reproduction_end_to_end(tmp_path, monkeypatch):
    out, status = reproduce_shrunk(tmp_path, monkeypatch, "bufferbloat", "bufferbloat",
                                   ["bb_delay", "bb_rtt"], "d", SHRINK)
    assert (out / "figures" / "bufferbloat_figd.png").stat().st_size > 1000
    assert (out / "figures" / "bufferbloat_figd.pdf").stat().st_size > 1000
    for cid in ("BD.1", "BD.2", "BD.3", "BD.4", "BD.5", "BD.6", "BD.7"):
        assert status[cid] in STATUSES and status[cid] != "not measured", cid
    # BR was not asked for: its claims are not measured, never a guess
    assert status["BR.3"] == "not measured"
    text = (out / "report.md").read_text()
    assert "RFC 8289" in text and "BD.7" in text
