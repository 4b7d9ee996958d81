"""`diffsweep reproduce kaur-vin` end to end on small grids (K2 and K5): the real sweep files
with their [quick] sections shrunk further, run through the CLI into resumable folders; the
figure files and a report with a verdict for every claim must come out."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from diffsweep.cli import app as cli

ROOT = Path(__file__).resolve().parents[1]
STATUSES = {"holds", "partly holds", "does not hold", "not measured"}


def shrunk_sweeps(dest: Path, names) -> None:
    """Copy sweeps/kaur_vin/<name>.toml with a tinier [quick]: 3 seeds, 4 s per replica."""
    (dest / "sweeps/kaur_vin").mkdir(parents=True)
    for name in names:
        text = (ROOT / f"sweeps/kaur_vin/{name}.toml").read_text()
        head, quick = text.split("[quick]", 1)
        quick = re.sub(r"seeds = \d+", "seeds = 3", quick, count=1)
        quick = re.sub(r"duration_s = [\d.]+", "duration_s = 4.0", quick, count=1)
        quick = re.sub(r"warmup_s = [\d.]+", "warmup_s = 1.0", quick, count=1)
        (dest / f"sweeps/kaur_vin/{name}.toml").write_text(head + "[quick]" + quick)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    shrunk_sweeps(tmp_path, ["k2", "k5_equal_index", "k5_unequal_index"])
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_reproduce_k2_k5_through_cli(workdir):
    out = workdir / "out"
    rc = cli.main(["reproduce", "kaur-vin", "--figure", "2", "5", "--quick", "--out", str(out),
                   "--backend", "cpu", "--quiet", "--sweeps", str(workdir / "sweeps")])
    assert rc == 0
    for fig in ("fig2", "fig5"):
        for ext in ("png", "pdf"):
            f = out / "figures" / f"kaur_vin_{fig}.{ext}"
            assert f.is_file() and f.stat().st_size > 1000, f
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    verdicts = json.loads((out / "verdicts.json").read_text())
    k2_k5 = [c for c in verdicts if c.startswith(("K2.", "K5."))]
    assert len(k2_k5) >= 8
    for cid in k2_k5 + ["C1", "C4"]:
        status = verdicts[cid]["status"] if isinstance(verdicts[cid], dict) else verdicts[cid]
        assert status in STATUSES
        assert cid in md and cid in html
    # Families that were not run are reported as such, never given a verdict.
    status_k4 = verdicts["K4.1"]["status"] if isinstance(verdicts["K4.1"], dict) else verdicts["K4.1"]
    assert status_k4 == "not measured"
    assert "data:image/png;base64," in html
    # The assumptions state what was run (the shrunk [quick]: 4 s, warm-up 1 s, 3 seeds), and
    # the summary says the verdicts rest on 3 seeds of a --quick run.
    assert "duration 4 s, warm-up 1 s, 3 seeds per point (k2, k5_equal_index, k5_unequal_index)" in md
    assert "20-30 s" not in md and "rest on 3 seeds" in md and "--quick run" in md
    assert "white-space:pre-wrap" in html   # the set-up block wraps
    # A second run resumes: every replica is already in the folders.
    for name in ("k2", "k5_equal_index", "k5_unequal_index"):
        assert (out / name / "manifest.json").is_file()
    rc = cli.main(["reproduce", "kaur-vin", "--figure", "2", "--quick", "--out", str(out),
                   "--backend", "cpu", "--quiet", "--sweeps", str(workdir / "sweeps")])
    assert rc == 0
    manifest = json.loads((out / "k2" / "manifest.json").read_text())
    assert len(manifest["runs"]) == 2


def test_reproduce_rejects_unknown_figure(workdir, capsys):
    rc = cli.main(["reproduce", "kaur-vin", "--figure", "11", "--quick", "--out", "x"])
    assert rc == 2
    assert "--figure" in capsys.readouterr().err
    assert not Path("x").exists() or not any(Path("x").iterdir())


def test_the_log_says_how_a_cuda_call_spread_its_replicas():
    from diffsweep.studies.reproduce import plan_note
    assert plan_note(None) == ""
    one = {"kernel": "slim", "resident_warps": 3168, "per_warp": 1, "warps": 1104, "waves": 1}
    assert plan_note(one) == ("; cuda slim kernel: 1104 tasks of up to 1 replicas for 3168 "
                              "resident warps")
    two = dict(one, per_warp=32, warps=3618, waves=2)
    assert plan_note(two).endswith("3168 resident warps, 2 waves (tasks wait for a warp to finish)")


def test_a_dry_run_says_what_would_run_and_what_is_stored(workdir, capsys):
    """`reproduce --dry-run`: per sweep its replicas and whether --out holds it already (a
    rerun resumes it), the total left to compute (repeats across sweeps counted once), a rough
    time and the backend; nothing is computed or written, and the run's own checks apply."""
    from diffsweep.studies.reproduce_plan import plan

    out = workdir / "out"
    sw = str(workdir / "sweeps")
    args = ["reproduce", "kaur-vin", "--quick", "--out", str(out), "--backend", "cpu",
            "--sweeps", sw, "--dry-run"]
    assert cli.main([*args, "--figure", "2", "5"]) == 0
    printed = capsys.readouterr().out
    assert not out.exists()  # nothing written, not even the folder
    assert "nothing was run (--dry-run)" in printed and "backend     : cpu" in printed
    p = plan("kaur-vin", out, figures=["2", "5"], quick=True, sweeps=sw, backend="cpu")
    rows = {r["sweep"]: r for r in p["sweeps"]}
    assert set(rows) == {"k2", "k5_equal_index", "k5_unequal_index"}
    assert all(not r["stored"] and r["seconds"] > 0 for r in rows.values())
    assert p["replicas"] == sum(r["replicas"] for r in rows.values())
    assert 0 < p["distinct"] <= p["replicas"] and p["seconds"] > 0
    for r in rows.values():  # 3 seeds a point ([quick] shrunk)
        assert r["replicas"] == r["points"] * 3
        assert f"{r['points']:>5,} points x   3 seeds" in printed
    # K2 run and stored: a dry run of K2 and K5 now computes only K5's sweeps
    assert cli.main(["reproduce", "kaur-vin", "--figure", "2", "--quick", "--out", str(out),
                     "--backend", "cpu", "--quiet", "--sweeps", sw]) == 0
    capsys.readouterr()
    before = sorted(x.name for x in out.iterdir())
    p2 = plan("kaur-vin", out, figures=["2", "5"], quick=True, sweeps=sw, backend="cpu")
    rows2 = {r["sweep"]: r for r in p2["sweeps"]}
    assert rows2["k2"]["stored"] and not rows2["k5_equal_index"]["stored"]
    assert p2["replicas"] == rows["k5_equal_index"]["replicas"] + rows["k5_unequal_index"]["replicas"]
    assert cli.main([*args, "--figure", "2"]) == 0
    assert "every sweep is stored" in capsys.readouterr().out
    assert sorted(x.name for x in out.iterdir()) == before  # the folder untouched
    # the run's own checks: an unknown figure, and a folder holding another paper's reproduction
    assert cli.main([*args, "--figure", "99"]) == 2
    (workdir / "other").mkdir()
    (workdir / "other" / "reproduce.json").write_text(json.dumps({"paper": "rossi"}))
    assert cli.main(["reproduce", "kaur-vin", "--quick", "--out", str(workdir / "other"),
                     "--sweeps", sw, "--dry-run"]) == 2
    assert "--out" in capsys.readouterr().err
