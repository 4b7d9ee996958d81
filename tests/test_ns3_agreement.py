"""benchmarks/ns3 (issue 52): agreement.py, the generator of docs/ns3-agreement.md, run on the
recorded CSVs into a temporary folder (its structure, one cell recomputed here by hand from
the CSV rows, the models diffsweep does not have listed as ns-3 only, the recorded page up to
date); and, where ns-3.44 is installed (benchmarks/ns3/setup.sh), one short run of
dumbbell.cc checked for the invariants of its row."""
from __future__ import annotations

import csv
import importlib.util
import math
import os
import statistics
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NS3 = ROOT / "benchmarks" / "ns3"
T975_DF4 = 2.7764451051977987  # Student t, 0.975 quantile, 4 degrees of freedom


@pytest.fixture(scope="module")
def agreement():
    # agreement.py defines no dataclass: it needs no entry in sys.modules
    spec = importlib.util.spec_from_file_location("ns3_agreement", NS3 / "agreement.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def generated(agreement, tmp_path_factory):
    d = tmp_path_factory.mktemp("ns3agreement")
    out, cells = d / "ns3-agreement.md", d / "cells.csv"
    assert agreement.main(["--out", str(out), "--csv", str(cells)]) == 0
    with open(cells, newline="") as f:
        return out.read_text(), list(csv.DictReader(f))


def rows(name):
    with open(NS3 / name, newline="") as f:
        return list(csv.DictReader(f))


def test_structure(generated, agreement):
    text, cells = generated
    lines = text.splitlines()
    assert lines[0] == "# diffsweep beside ns-3.44: the dumbbell of issue 52"
    assert f"`{agreement.COMMAND}`" in lines[2]
    ns3_models = list(dict.fromkeys(r["model"] for r in rows("results_ns3_dumbbell.csv")))
    ours_models = {r["model"] for r in rows("results_diffsweep_dumbbell.csv")}
    assert ours_models and ours_models <= set(ns3_models)  # every model built (issue 52)
    start = lines.index("## Summary")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("## "))
    summary = [line for line in lines[start:end] if line.startswith("- **")]
    assert len(summary) == len(ns3_models)
    for m, line in zip(ns3_models, summary):
        assert line.startswith(f"- **{m}**")
        if m in ours_models:
            assert "primary cells; within 5%:" in line and "within 10% or overlapping:" in line
        else:
            assert line == f"- **{m}**: ns-3 only (diffsweep model not built)"
    for m in ns3_models:
        assert f"## {m}" in lines
    assert any(line.startswith("## Where ns-3 and the slotted engine must differ") for line in lines)
    assert "## The cells that disagree" in lines
    # a model diffsweep lacks has ns-3's numbers and never a diffsweep one
    for c in cells:
        if c["paper"] not in ours_models:
            assert c["compared"] == "False" and c["n_ours"] == "0"
            assert int(c["n_ns2"]) == 5


def test_one_cell_by_hand(generated):
    """newreno/fifo, 8 flows at 40 ms, drop %: both means, the ns-3 CI, the relative
    difference and the overlap from the CSV rows."""
    _, cells = generated
    pick = lambda rs: [float(r["drop_pct"]) for r in rs if r["model"] == "newreno/fifo"
                       and r["n_flows"] == "8" and r["rtt_ms"] == "40"]
    ns3, ours = pick(rows("results_ns3_dumbbell.csv")), pick(rows("results_diffsweep_dumbbell.csv"))
    assert len(ns3) == len(ours) == 5
    c = next(c for c in cells if c["paper"] == "newreno/fifo" and c["metric"] == "drop %"
             and c["cell"] == "8 flows, RTT 40 ms")
    mn, mo = statistics.mean(ns3), statistics.mean(ours)
    hn = T975_DF4 * statistics.stdev(ns3) / math.sqrt(5)
    ho = T975_DF4 * statistics.stdev(ours) / math.sqrt(5)
    assert float(c["ns2"]) == pytest.approx(mn, rel=1e-5)
    assert float(c["ours"]) == pytest.approx(mo, rel=1e-5)
    assert float(c["ns2_ci"]) == pytest.approx(hn, rel=1e-4)
    assert float(c["rel_diff"]) == pytest.approx((mo - mn) / mn, rel=1e-4)
    assert (c["overlap"] == "True") == (mo - ho <= mn + hn and mn - hn <= mo + ho)


def test_recorded_page_is_current(generated):
    text, _ = generated
    assert (ROOT / "docs" / "ns3-agreement.md").read_text() == text, (
        "docs/ns3-agreement.md is stale: PYTHONPATH=python python benchmarks/ns3/agreement.py")


def _binary():
    b = NS3 / "build" / "dumbbell"
    if b.is_file():
        return b
    env = os.environ.get("NS3_ENV")
    if env and Path(env, "bin", "python").is_file():
        subprocess.run([str(NS3 / "setup.sh")], check=True, capture_output=True,
                       env={**os.environ, "BUILD": "build"})
        return b
    return None


def test_dumbbell_cc_row():
    b = _binary()
    if b is None:
        pytest.skip("ns-3.44 not installed here (benchmarks/ns3/setup.sh, NS3_ENV)")
    head = subprocess.run([str(b), "--header"], check=True, capture_output=True, text=True)
    out = subprocess.run([str(b), "--n=3", "--rtt_ms=20-60", "--aqm=CoDelQueueDisc", "--ecn=1",
                          "--tcp=TcpCubic+TcpNewReno", "--sack=1", "--buffer_pkts=100",
                          "--dur_s=6", "--warm_s=2", "--run=2"],
                         check=True, capture_output=True, text=True)
    r = next(csv.DictReader([head.stdout, out.stdout]))
    f = lambda k: float(r[k])
    flows = [float(x) for x in r["flow_mbps"].split(";")]
    assert len(flows) == 3 and f("total_mbps") == pytest.approx(sum(flows), rel=1e-4)
    # payload can never beat the wire: 1000 of each 1042 B at 10 Mb/s
    assert 0 < f("total_mbps") <= 10 * 1000 / 1042 * 1.01
    assert 0 < f("jain") <= 1 and 0 < f("bneck_util") <= 1.01
    assert 0 <= f("bneck_drops") <= f("bneck_arrivals") and f("bneck_marks") > 0
    assert f("mean_waiting_pkts") >= f("mean_disc_pkts") >= 0
    assert f("p95_sojourn_ms") >= f("mean_sojourn_ms") > 0 and f("sojourn_samples") > 0
    assert r["tcp"] == "TcpCubic+TcpNewReno" and r["ecn"] == "1"
