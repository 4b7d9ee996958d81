"""The header-only core and model pieces tested in C++: Philox4x32-10 known answers,
portable log/exp (test_core.cpp), and each model's narrow functions on hand-computed cases
without a replica (test_models.cpp: ring, drop-tail, priority, WRR, link credit, RTO,
access link, receiver; test_markers.cpp: the edge conditioners on hand-computed packet
trains; test_red.cpp: RED, RIO-C, RIO-D, WRED; test_sack.cpp: the SACK sink's blocks and the
sender's scoreboard, and its partial ACK after a go-back-N through a stand-in replica view
(one_flow.h); test_newreno.cpp: ns-2.35's slowdown() with precisionReduce_ and the end of
NewReno's fast recovery, through the same stand-in; test_pie.cpp: PIE's update, early drop, derandomisation and bursts; test_dctcp.cpp:
DCTCP's alpha over observation windows, its ssthresh and its TcpLinuxReno growth; test_cubic.cpp: CUBIC's K, window curve,
decrease, TCP-friendly estimate, counter and HyStart; test_ecn.cpp: ECN's mark-or-drop decisions, the receiver's ECE/CWR states and
the sender's once-per-window reaction; test_codel.cpp: CoDel's control law and drop
schedule, the delay bins; test_fq_codel.cpp: FQ-CoDel's DRR, new and old lists, drop from
the fattest queue and per-queue CoDel). Compiled with the engine's floating-point
flags, run from pytest."""
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("name", ["test_core", "test_models", "test_markers", "test_red", "test_sack",
                                  "test_newreno", "test_pie", "test_dctcp", "test_cubic", "test_codel", "test_ecn",
                                  "test_fq_codel"])
def test_cpp(tmp_path, name):
    exe = tmp_path / name
    subprocess.run(["g++", "-std=c++17", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror",
                    f"-I{ROOT / 'cuda'}", str(ROOT / f"tests/cpp/{name}.cpp"), "-o", str(exe)],
                   check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert " 0 failed" in out.stdout
