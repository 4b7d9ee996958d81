"""benchmarks/ns2/agreement.py (issue 24): the generator of docs/ns2-agreement.md, run on the
recorded CSVs into a temporary folder. Checks the output's structure and one cell computed
here by hand from the CSV rows (mean, 95% CI, relative difference, overlap), so that the test
fails if the generator breaks or pairs the wrong rows."""
from __future__ import annotations

import csv
import importlib.util
import math
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NS2 = ROOT / "benchmarks" / "ns2"
T975_DF9 = 2.2621571627409915  # Student t, 0.975 quantile, 9 degrees of freedom


@pytest.fixture(scope="module")
def agreement():
    spec = importlib.util.spec_from_file_location("agreement", NS2 / "agreement.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["agreement"] = mod  # dataclasses look their module up there
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules["agreement"]
        raise
    return mod


@pytest.fixture(scope="module")
def generated(agreement, tmp_path_factory):
    d = tmp_path_factory.mktemp("agreement")
    out, cells = d / "ns2-agreement.md", d / "cells.csv"
    assert agreement.main(["--out", str(out), "--csv", str(cells)]) == 0
    with open(cells, newline="") as f:
        return out.read_text(), list(csv.DictReader(f))


def test_structure(generated, agreement):
    text, cells = generated
    assert text.startswith("# diffsweep beside ns-2.35")
    assert f"`{agreement.COMMAND}`" in text.splitlines()[2]
    assert "not compared" not in text, "a recorded CSV is missing"
    titles = ["Kaur & Vin", "Kaur & Vin under TCP SACK", "Habib, Bhargava & Fahmy", "Lee & Jeong",
              "Lee & Jeong under TCP SACK", "Rossi, Casetti & Mellia", "Matta & Guo",
              "The standard dumbbell", "The standard parking lot"]
    for t in titles:
        assert any(line.startswith(f"## {t}") for line in text.splitlines()), t
    summary = [line for line in text.splitlines() if line.startswith("- **")]
    assert len(summary) == 9
    for line in summary:
        assert "primary cells; within 5%:" in line and "95% intervals overlap:" in line
        assert "within 10% or overlapping:" in line
    assert "## Largest gaps" in text and "(ns2-gaps.md)" in text
    papers = {c["paper"] for c in cells}
    assert papers == {"kaur-vin", "kaur-vin-sack", "habib", "lee-jeong", "lee-jeong-sack", "rossi",
                      "matta-guo", "dumbbell", "parking-lot"}
    for c in cells:
        assert c["overlap"] in ("True", "False")
        assert int(c["n_ours"]) >= 5 and int(c["n_ns2"]) >= 5, (c["paper"], c["cell"])
    # Lee & Jeong beside ns-2.35 with simultaneous arrivals in a random order (tcpcfg nsov,
    # docs/ns2-gaps.md section 3): the same 28 cells as the primary rows, as variants
    lj = [c for c in cells if c["paper"] == "lee-jeong"]
    nsov = [c for c in lj if c["cell"].endswith("[ns-2 overhead_ 10 us]")]
    assert len(nsov) == sum(c["primary"] == "True" for c in lj) == 28
    assert all(c["primary"] == "False" for c in nsov)
    # Matta & Guo likewise (tcpcfg dsov): every primary cell has its variant row
    mg = [c for c in cells if c["paper"] == "matta-guo"]
    dsov = [c for c in mg if "[ns-2 overhead_ 10 us]" in c["cell"]]
    assert len(dsov) == sum(c["primary"] == "True" for c in mg) == 96
    assert all(c["primary"] == "False" for c in dsov)
    # the standard dumbbell: 2 AQMs x (one 1-flow cell with goodput only + three cells of 4
    # metrics); its DropTail cells again beside ns-2.35 with overhead_ 1 ms, as variants
    db = [c for c in cells if c["paper"] == "dumbbell"]
    assert sum(c["primary"] == "True" for c in db) == 2 * (1 + 3 * 4)
    ov = [c for c in db if c["cell"].endswith("[send jitter / overhead_ 1 ms]")]
    assert len(ov) == 1 + 3 * 4 and all(c["primary"] == "False" for c in ov)
    assert all(c["cell"].startswith("DropTail") for c in ov)
    # the standard parking lot: 2 AQMs x (K 2: 4 + 2 x 3 metrics, K 3 twice: 4 + 3 x 3), each
    # link's delay drawn per seed; every cell again at 10-ms links (fixed phase), its DropTail
    # cells at 10 ms with 1-ms send jitter, and the 8-cross-flow DropTail cells at three other
    # link delays (the phase check), as variants
    pl = [c for c in cells if c["paper"] == "parking-lot"]
    assert sum(c["primary"] == "True" for c in pl) == 2 * (10 + 13 + 13)
    fx = [c for c in pl if "[fixed phase, links 10 ms]" in c["cell"]]
    ov = [c for c in pl if "[send jitter / overhead_ 1 ms]" in c["cell"]]
    ph = [c for c in pl if "[links " in c["cell"] and "[fixed phase" not in c["cell"]]
    assert len(fx) == 2 * 36 and len(ov) == 36 and len(ph) == 3 * (10 + 13)
    assert all(c["primary"] == "False" for c in fx)
    assert all(c["primary"] == "False" and c["cell"].startswith("DropTail") for c in ov + ph)


def _mean_ci(xs):
    m = statistics.fmean(xs)
    return m, T975_DF9 * statistics.stdev(xs) / math.sqrt(len(xs))


def test_hand_computed_cell(generated):
    """Lee & Jeong, (7 Mb/s, 70 packets) without UDP, Jain over S1..S7: diffsweep's random-order
    runs against ns-2.35's default-Reno runs, 10 seeds each."""
    _, cells = generated
    with open(NS2 / "lee_jeong" / "results_diffsweep_lee_jeong.csv", newline="") as f:
        ours = [float(r["jain"]) for r in csv.DictReader(f)
                if r["tie_break"] == "random" and float(r["cir_mbps"]) == 7.0
                and r["bucket_pkts"] == "70" and r["udp"] == "False"]
    with open(NS2 / "lee_jeong" / "results_ns2_lee_jeong_runs.csv", newline="") as f:
        ns2 = [float(r["jain_agg"]) for r in csv.DictReader(f)
               if r["tcpcfg"] == "ns" and r["variant"] == "noudp"
               and float(r["cir_mbps"]) == 7.0 and r["cbs_pkts"] == "70"]
    assert len(ours) == len(ns2) == 10
    mo, ho = _mean_ci(ours)
    mn, hn = _mean_ci(ns2)
    rel = (mo - mn) / abs(mn)
    overlap = mo - ho <= mn + hn and mn - hn <= mo + ho
    row = [c for c in cells if c["paper"] == "lee-jeong" and c["metric"] == "Jain S1..S7"
           and c["cell"] == "(7 Mb/s, 70), no UDP"]
    assert len(row) == 1
    r = row[0]
    assert float(r["ours"]) == pytest.approx(mo, rel=1e-5)
    assert float(r["ns2"]) == pytest.approx(mn, rel=1e-5)
    assert float(r["ours_ci"]) == pytest.approx(ho, rel=1e-4)
    assert float(r["ns2_ci"]) == pytest.approx(hn, rel=1e-4)
    assert float(r["rel_diff"]) == pytest.approx(rel, rel=1e-4)
    assert r["overlap"] == str(overlap)
    assert r["primary"] == "True"


def test_hand_computed_sack_cell(generated):
    """Kaur & Vin under SACK (issue 44), K2 at T_on 40 ms: timeouts per run of diffsweep's SACK
    flow against ns-2.35's Agent/TCP/Sack1, 10 seeds each, from the two CSVs by hand; and the
    paper's 22 primary cells (K2: CBR and 4 T_on x U, timeouts; K5: 2 networks x 2 orders x
    M, Jain, U)."""
    _, cells = generated
    with open(NS2 / "results_diffsweep_k2_sack.csv", newline="") as f:
        ours = [float(r["timeouts"]) for r in csv.DictReader(f)
                if r["network"] == "ef" and float(r["ton_ms"]) == 40.0]
    with open(NS2 / "results_ns2_k2_sack.csv", newline="") as f:
        ns2 = [float(r["timeouts"]) for r in csv.DictReader(f)
               if r["network"] == "ef" and float(r["ton_ms"]) == 40.0]
    assert len(ours) == len(ns2) == 10
    (mo, ho), (mn, hn) = _mean_ci(ours), _mean_ci(ns2)
    row = [c for c in cells if c["paper"] == "kaur-vin-sack" and c["metric"] == "K2 timeouts/run"
           and c["cell"] == "EF T_on 40 ms"]
    assert len(row) == 1
    r = row[0]
    assert float(r["ours"]) == pytest.approx(mo, rel=1e-5)
    assert float(r["ns2"]) == pytest.approx(mn, rel=1e-5)
    assert float(r["ours_ci"]) == pytest.approx(ho, rel=1e-4)
    assert float(r["ns2_ci"]) == pytest.approx(hn, rel=1e-4)
    assert r["overlap"] == str(mo - ho <= mn + hn and mn - hn <= mo + ho)
    assert sum(c["paper"] == "kaur-vin-sack" and c["primary"] == "True" for c in cells) == 22


def test_hand_computed_lee_jeong_sack_cell(generated):
    """Lee & Jeong under SACK (issue 44, the second paper's cell), (7 Mb/s, 70) without UDP,
    Jain over S1..S7: diffsweep's SACK runs (random order) against ns-2.35's Agent/TCP/Sack1
    runs with tcpcfg ns, 10 seeds each, from the two CSVs by hand; the tcpcfg nsov runs are the
    cell's variant row, not a primary one; and the paper's 3 primary cells (Jain, total, best
    effort)."""
    _, cells = generated
    with open(NS2 / "lee_jeong" / "results_diffsweep_lee_jeong_sack.csv", newline="") as f:
        ours = [float(r["jain"]) for r in csv.DictReader(f)
                if r["tcp"] == "sack" and r["tie_break"] == "random"
                and float(r["cir_mbps"]) == 7.0 and r["bucket_pkts"] == "70"
                and r["udp"] == "False"]
    with open(NS2 / "lee_jeong" / "results_ns2_lee_jeong_sack_runs.csv", newline="") as f:
        runs = list(csv.DictReader(f))
    ns2, ns2ov = ([float(r["jain_agg"]) for r in runs
                   if r["tcpcfg"] == cfg and r["variant"] == "noudp"
                   and float(r["cir_mbps"]) == 7.0 and r["cbs_pkts"] == "70"]
                  for cfg in ("ns", "nsov"))
    assert len(ours) == len(ns2) == len(ns2ov) == 10
    for ref, label, primary in ((ns2, "(7 Mb/s, 70), no UDP", "True"),
                                (ns2ov, "(7 Mb/s, 70), no UDP [ns-2 overhead_ 10 us]", "False")):
        (mo, ho), (mn, hn) = _mean_ci(ours), _mean_ci(ref)
        (r,) = [c for c in cells if c["paper"] == "lee-jeong-sack"
                and c["metric"] == "Jain S1..S7" and c["cell"] == label]
        assert float(r["ours"]) == pytest.approx(mo, rel=1e-5)
        assert float(r["ns2"]) == pytest.approx(mn, rel=1e-5)
        assert float(r["ours_ci"]) == pytest.approx(ho, rel=1e-4)
        assert float(r["ns2_ci"]) == pytest.approx(hn, rel=1e-4)
        assert float(r["rel_diff"]) == pytest.approx((mo - mn) / abs(mn), rel=1e-4)
        assert r["overlap"] == str(mo - ho <= mn + hn and mn - hn <= mo + ho)
        assert r["primary"] == primary
    assert sum(c["paper"] == "lee-jeong-sack" and c["primary"] == "True" for c in cells) == 3


def test_hand_computed_in_markdown(generated):
    """The same cell's line in the Markdown: its relative difference, bold when over 10%, and
    its overlap flag."""
    text, cells = generated
    r = next(c for c in cells if c["paper"] == "lee-jeong" and c["metric"] == "Jain S1..S7"
             and c["cell"] == "(7 Mb/s, 70), no UDP")
    rel = float(r["rel_diff"])
    rd = f"{rel:+.1%}"
    rd = f"**{rd}**" if abs(rel) > 0.10 else rd
    ov = "yes" if r["overlap"] == "True" else "**no**"
    line = next(line for line in text.splitlines()
                if line.startswith("| Jain S1..S7 | (7 Mb/s, 70), no UDP |"))
    assert line.endswith(f"| {rd} | {ov} |")


def test_missing_files_are_named(agreement, tmp_path):
    out = tmp_path / "a.md"
    assert agreement.main(["--out", str(out), "--root", str(tmp_path)]) == 0
    text = out.read_text()
    assert text.count("- not compared:") == 9
    assert "results_ns2_k2_extra.csv is missing: run benchmarks/ns2/run.sh extra" in text
    assert "results_ns2_k2_sack.csv is missing: run benchmarks/ns2/run_sack.sh" in text
    assert ("results_ns2_lee_jeong_sack_runs.csv is missing: run "
            "benchmarks/ns2/lee_jeong/run_sack.sh") in text
    assert ("results_ns2_parking_lot.csv is missing: run "
            "benchmarks/ns2/parking_lot/run.sh") in text


def test_hand_computed_dumbbell_cell(generated):
    """The standard dumbbell, RED with 8 flows at 40 ms, loss %: diffsweep's rows against
    ns-2.35's overhead_ 0 rows of the recorded CSVs, 10 seeds each."""
    _, cells = generated
    with open(NS2 / "dumbbell" / "results_diffsweep_dumbbell.csv", newline="") as f:
        ours = [float(r["loss_pct"]) for r in csv.DictReader(f)
                if r["aqm"] == "RED" and r["n_flows"] == "8" and r["rtt_ms"] == "40"]
    with open(NS2 / "dumbbell" / "results_ns2_dumbbell.csv", newline="") as f:
        ns2 = [float(r["loss_pct"]) for r in csv.DictReader(f)
               if r["aqm"] == "RED" and r["n_flows"] == "8" and r["rtt_ms"] == "40"
               and float(r["overhead_s"]) == 0]
    assert len(ours) == len(ns2) == 10
    mo, ho = _mean_ci(ours)
    mn, hn = _mean_ci(ns2)
    (r,) = [c for c in cells if c["paper"] == "dumbbell" and c["metric"] == "loss %"
            and c["cell"] == "RED, 8 flows, RTT 40 ms"]
    assert float(r["ours"]) == pytest.approx(mo, rel=1e-5)
    assert float(r["ns2"]) == pytest.approx(mn, rel=1e-5)
    assert float(r["ours_ci"]) == pytest.approx(ho, rel=1e-4)
    assert float(r["ns2_ci"]) == pytest.approx(hn, rel=1e-4)
    assert float(r["rel_diff"]) == pytest.approx((mo - mn) / abs(mn), rel=1e-4)
    assert r["overlap"] == str(mo - ho <= mn + hn and mn - hn <= mo + ho)


def test_hand_computed_parking_lot_cell(generated):
    """The standard parking lot, DropTail with K = 3, 8 long and 8 cross flows per link, the
    long flows' mean goodput: diffsweep's rows against ns-2.35's, 10 seeds each (primary:
    no send delay, each link's delay drawn per seed: a delay per link in link_ms)."""
    _, cells = generated

    def rows(name):
        with open(NS2 / "parking_lot" / name, newline="") as f:
            return [float(r["long_mbps"]) for r in csv.DictReader(f)
                    if r["aqm"] == "DropTail" and r["n_links"] == "3" and r["n_long"] == "8"
                    and r["n_cross"] == "8" and float(r["overhead_s"]) == 0
                    and "/" in r["link_ms"]]

    ours, ns2 = rows("results_diffsweep_parking_lot.csv"), rows("results_ns2_parking_lot.csv")
    assert len(ours) == len(ns2) == 10
    mo, ho = _mean_ci(ours)
    mn, hn = _mean_ci(ns2)
    (r,) = [c for c in cells if c["paper"] == "parking-lot"
            and c["metric"] == "long-flow goodput Mb/s"
            and c["cell"] == "DropTail, K 3, 8 long + 8 cross per link"]
    assert float(r["ours"]) == pytest.approx(mo, rel=1e-5)
    assert float(r["ns2"]) == pytest.approx(mn, rel=1e-5)
    assert float(r["ours_ci"]) == pytest.approx(ho, rel=1e-4)
    assert float(r["ns2_ci"]) == pytest.approx(hn, rel=1e-4)
    assert float(r["rel_diff"]) == pytest.approx((mo - mn) / abs(mn), rel=1e-4)
    assert r["overlap"] == str(mo - ho <= mn + hn and mn - hn <= mo + ho)
    assert r["primary"] == "True"
