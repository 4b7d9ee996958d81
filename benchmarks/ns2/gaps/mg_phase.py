"""Matta & Guo under sharing (one FIFO), N = 30, k = 1, 2, 4, 5 seeds, 200 s: the short
flows' goodput as a phase effect (docs/ns2-gaps.md, section 1).

Without any timing noise, which arrivals find the FIFO full depends on where they fall within
a packet time: in ns-2.35 on the exact phases its delays and ACK clock give, in diffsweep on
its slot grid (a slot = one bottleneck packet time) with same-slot arrivals in a random order.
Both sides are run again with every TCP send delayed U(0, 1 ms), about 1-2 packet times
(ns-2's ``overhead_``, ``MG_OVERHEAD`` of ``matta_guo.tcl``; diffsweep's
``TcpFlow.send_jitter_s``), which draws the phases at random in both; diffsweep also with the
slot 8 times finer and same-slot arrivals in time order. ns-2.35 without jitter is the
recorded ``matta_guo/results_ns2_matta_guo.csv`` (tcpcfg ds); diffsweep's TCP as the agreement
table's (``delay_growth`` on, as ns-2.35's runs).

    PYTHONPATH=python python benchmarks/ns2/gaps/mg_phase.py   # -> mg_phase.txt
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.papers.matta_guo import tables
from diffsweep.papers.matta_guo.scenario import matta_guo
from diffsweep.scenario import default_slot_s

HERE = Path(__file__).resolve().parent
MG = HERE.parent / "matta_guo"
sys.path.insert(0, str(MG))
from diffsweep_matta_guo import mean_ci, with_delay_growth  # noqa: E402

KS = (1.0, 2.0, 4.0)
SEEDS = range(1, 6)
JITTER_S = 1e-3


def per_run(iv: pd.DataFrame) -> pd.DataFrame:
    """Each run's class goodput, the mean over the 20-s intervals 2..10."""
    iv = iv[iv["interval"] >= 2]
    return iv.groupby(["k", "seed", "cls"])["goodput_mbps"].mean().reset_index()


def ns2_jittered(tmp: Path) -> pd.DataFrame:
    lines = "".join(f"share 30 {k:g} 1 {s} 200 ds\n" for k in KS for s in SEEDS)
    subprocess.run(["xargs", "-P", str(os.cpu_count() or 2), "-L", "1", "sh", "-c",
                    f'ns matta_guo.tcl "$@" "{tmp}/$1_$2_$3_$4_$5" 2>/dev/null', "ns"],
                   input=lines, text=True, check=True, cwd=MG,
                   env={**os.environ, "MG_OVERHEAD": repr(JITTER_S)})
    subprocess.run([sys.executable, "summarize.py", "aggregate", str(tmp), str(tmp / "runs.csv"),
                    str(tmp / "iv.csv")], check=True, cwd=MG, capture_output=True)
    return per_run(pd.read_csv(tmp / "iv.csv"))


def diffsweep(jitter_s: float, slot_div: int = 1, tie_break: str = "random") -> pd.DataFrame:
    scs, keys = [], []
    for k in KS:
        for s in SEEDS:
            sc = with_delay_growth(matta_guo(n_flows=30, k=k, isolation=False, buffer_ratio=1.0,
                                             duration_s=200.0, seed=s))
            jit = lambda f: replace(f, send_jitter_s=jitter_s)  # noqa: E731
            sc = replace(sc, flows=tuple(jit(f) for f in sc.flows),
                         traffic=tuple(replace(t, flow=jit(t.flow)) for t in sc.traffic),
                         slot_s=default_slot_s(sc) / slot_div, tie_break=tie_break)
            scs.append(sc)
            keys.append((k, s))
    res = simulate(scs, [s for _, s in keys], backend="cpu")
    cell = pd.DataFrame(keys, columns=["k", "seed"]).assign(
        mode="share", n=30, buffer_ratio=1.0, tcpcfg="x", duration_s=200.0)
    cell["replica"] = np.arange(len(cell))
    cell["point"] = cell.groupby("k").ngroup()
    tr = res.transfers.drop(columns=[c for c in ("seed", "point") if c in res.transfers.columns])
    iv = tables.per_interval(tr.merge(cell, on="replica").drop(columns=["replica"]))
    iv["goodput_mbps"] = iv["goodput_bps"] / 1e6
    return per_run(iv)


def main() -> None:
    rec = pd.read_csv(MG / "results_ns2_matta_guo.csv")
    rec = rec[(rec["mode"] == "share") & (rec["n"] == 30) & (rec["buffer_ratio"] == 1.0)
              & (rec["tcpcfg"] == "ds") & rec["k"].isin(KS)]
    with tempfile.TemporaryDirectory() as d:
        runs = {"ns-2.35, no jitter (recorded)": per_run(rec),
                "ns-2.35, sends U(0, 1 ms)": ns2_jittered(Path(d))}
    runs["diffsweep, no jitter (agreement table)"] = diffsweep(0.0)
    runs["diffsweep, no jitter, slot / 8, time order"] = diffsweep(0.0, 8, "index")
    runs["diffsweep, sends U(0, 1 ms)"] = diffsweep(JITTER_S)
    runs["diffsweep, sends U(0, 1 ms), slot / 8, time order"] = diffsweep(JITTER_S, 8, "index")
    lines = ["Matta & Guo, sharing, N = 30, k_b/k_c = 1, 5 seeds x 200 s: class goodput (Mb/s, "
             "mean +/- 95% CI over seeds of the per-run mean over intervals 2..10).", "",
             "| run | " + " | ".join(f"k = {k:g} short | k = {k:g} long" for k in KS) + " |",
             "|---|" + "---|---|" * len(KS)]
    for name, pr in runs.items():
        cells = []
        for k in KS:
            for cls in ("short", "long"):
                g = pr[(pr["k"] == k) & (pr["cls"] == cls)]["goodput_mbps"]
                cells.append("{:.3f} +/- {:.3f}".format(*mean_ci(g)))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    (HERE / "mg_phase.txt").write_text(text)


if __name__ == "__main__":
    main()
