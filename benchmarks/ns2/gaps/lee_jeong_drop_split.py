"""Lee & Jeong, Method 1, CIR 7 Mb/s, bucket 70 and 35, no UDP: where packets are lost at the
core RIO-C queue, ns-2.35 (the recorded runs' dsRED counters, tcpcfg ns,
../lee_jeong/results_ns2_lee_jeong_runs.csv) beside diffsweep (the builder lee_jeong, method
marker, seeds 1-10): arrivals, early (RED) and forced drops per colour (green = IN; red = OUT and
best effort, which share the RED precedence), per run. Prints the table kept in
lee_jeong_drop_split.txt (docs/ns2-gaps.md).

    PYTHONPATH=python python benchmarks/ns2/gaps/lee_jeong_drop_split.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.papers.lee_jeong.scenario import lee_jeong

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from agreement import fmt, mean_ci  # noqa: E402


def main() -> None:
    n = pd.read_csv(HERE.parent / "lee_jeong" / "results_ns2_lee_jeong_runs.csv")
    lines = ["| bucket | per run (10 seeds) | ns-2.35 | diffsweep |", "|---|---|---|---|"]
    for bucket in (70, 35):
        g = n[(n["tcpcfg"] == "ns") & (n["variant"] == "noudp") & (n["cir_mbps"] == 7)
              & (n["cbs_pkts"] == bucket)].copy()
        g["red_arr"] = g["core_out_arrivals"] + (g["core_be_drops"] * 0)  # BE arrivals not recorded
        seeds = list(range(1, 11))
        res = simulate([lee_jeong(cir_mbps=7.0, bucket_pkts=bucket, seed=s) for s in seeds], seeds,
                       backend="cpu")
        q = res.queues.groupby("replica").sum(numeric_only=True)
        rows = [("green (IN) arrivals", g["core_in_arrivals"], q["arrivals_green"]),
                ("green early drops", g["core_in_edrops"], q["early_drops_green"]),
                ("green forced drops", g["core_in_drops"], q["forced_drops_green"]),
                ("red early drops (OUT + best effort)", g["core_out_edrops"] + g["core_be_edrops"],
                 q["early_drops_red"]),
                ("red forced drops (OUT + best effort)", g["core_out_drops"] + g["core_be_drops"],
                 q["forced_drops_red"]),
                ("red-average time mean (diffsweep only)", None, q["red_avg_red"]),
                ("queue time mean incl. the packet on the wire (diffsweep only)", None,
                 q["mean_queue_pkts"])]
        for label, a, b in rows:
            left = fmt(*mean_ci(a)[:2]) if a is not None else "-"
            lines.append(f"| {bucket} | {label} | {left} | {fmt(*mean_ci(b)[:2])} |")
        ne = (g["core_out_edrops"] + g["core_be_edrops"])
        nf = (g["core_out_drops"] + g["core_be_drops"])
        oe, of = q["early_drops_red"], q["forced_drops_red"]
        lines.append(f"| {bucket} | red early share of red drops | {fmt(*mean_ci(ne / (ne + nf))[:2])} | "
                     f"{fmt(*mean_ci(oe / (oe + of))[:2])} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
