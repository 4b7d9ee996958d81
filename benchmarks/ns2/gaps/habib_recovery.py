"""Habib et al. topology 2(a), standard conditioner, F2 RTT 20 and 100 ms, 10 seeds: how aggregate
F1's losses are recovered, ns-2.35 (the recorded runs, ../habib/results_ns2_habib.csv: packets
sent, core drops, retransmitted packets nrexmitpack_, RTO expirations nrexmit_) beside diffsweep
(the builder habib_2a: packets sent, drops, retransmissions, timeouts, fast retransmits), per run
over the measured 20-100 s; and diffsweep again with ``limited_transmit=False`` on every flow
(ns-2.35's default ``singledup_ 1``, which habib_2a.tcl runs with, is on in the builder since
2026-11-26; before, the builder left it off).
Prints the table kept in habib_recovery.txt (docs/ns2-gaps.md).

    PYTHONPATH=python python benchmarks/ns2/gaps/habib_recovery.py
"""
from __future__ import annotations

import sys
from pathlib import Path

from dataclasses import replace

import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.papers.habib.scenario import habib_2a

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from agreement import fmt, mean_ci  # noqa: E402


def main() -> None:
    n = pd.read_csv(HERE.parent / "habib" / "results_ns2_habib.csv")
    print("| F2 RTT ms | F1, per run | ns-2.35 | diffsweep (builder: limited transmit) | "
          "diffsweep without limited transmit |\n"
          "|---|---|---|---|---|")
    for rtt in (20.0, 100.0):
        g = n[(n["cond"] == "tsw3cm") & (n["f2_rtt_ms"] == rtt)]
        seeds = list(range(1, 11))
        scs = [habib_2a(conditioner="standard", rtt2_ms=rtt, duration_s=100.0, warmup_s=20.0,
                        seed=s) for s in seeds]
        lt = [replace(sc, flows=tuple(replace(f, limited_transmit=False) for f in sc.flows))
              for sc in scs]
        f1, f1lt = (simulate(x, seeds, backend="cpu").flows.query("flow < 200")
                    .groupby("replica").sum(numeric_only=True) for x in (scs, lt))
        rows = [("packets sent", g["f1_sent_pkts"], "pkts_sent"),
                ("drops (ns-2: at the core)", g["f1_core_drops"], "drops"),
                ("retransmitted packets", g["f1_rexmit_pkts"], "retransmits"),
                ("RTO expirations", g["f1_timeouts"], "timeouts"),
                ("fast retransmits (diffsweep only)", None, "fast_retransmits"),
                ("RTO expirations per drop", g["f1_timeouts"] / g["f1_core_drops"], "to/drop"),
                ("retransmitted packets per drop", g["f1_rexmit_pkts"] / g["f1_core_drops"],
                 "rx/drop"),
                ("goodput Mb/s", g["f1_mbps"], "mbps")]
        for label, a, col in rows:
            left = fmt(*mean_ci(a)[:2]) if a is not None else "-"
            cells = []
            for f in (f1, f1lt):
                v = {"to/drop": f["timeouts"] / f["drops"], "rx/drop": f["retransmits"] / f["drops"],
                     "mbps": f["goodput_bps"] / 1e6}.get(col)
                cells.append(fmt(*mean_ci(f[col] if v is None else v)[:2]))
            print(f"| {rtt:g} | {label} | {left} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
