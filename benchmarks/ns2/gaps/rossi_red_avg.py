"""Rossi et al. at rho 0.8, alpha_AF 0.5: the RIO-C state at the bottleneck, ns-2.35 (sampled by
rossi_red_avg.sh into results_gap_rossi_red_avg_ns2.csv) beside diffsweep (the builder rossi
with syn=False, delay_growth=True as ns-2's syn_ 0 runs, seeds 1-5, run to t_halt = t_stop =
200 s so that its time averages cover the same [0, 200] s; the engine is causal, so those
200 s are the recorded runs' first 200 s): time means of the green and red RED averages and
of the queue. diffsweep's queue counts the packet being
transmitted (ns-2's getCurrent does not), so its column is also shown less the link's
utilisation. Prints the table kept in rossi_red_avg.txt (docs/ns2-gaps.md).

    PYTHONPATH=python python benchmarks/ns2/gaps/rossi_red_avg.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.papers.rossi.scenario import rossi

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from agreement import fmt, mean_ci  # noqa: E402


def main() -> None:
    n = pd.read_csv(HERE / "results_gap_rossi_red_avg_ns2.csv")
    seeds = [1, 2, 3, 4, 5]
    # ns-2's runs are syn_ 0 (delay_growth_ 1, its default): the builder's matching set-up
    res = simulate([rossi(rho=0.8, alpha_af=0.5, t_stop_s=200.0, t_halt_s=200.0, seed=s,
                          syn=False, delay_growth=True)
                    for s in seeds], seeds, backend="cpu")
    q = res.queues.groupby("replica").agg(avg_green=("red_avg_green", "sum"),
                                          avg_red=("red_avg_red", "sum"),
                                          queue=("mean_queue_pkts", "sum"),
                                          dep=("bytes_departed", "sum"),
                                          rate=("rate_bps", "first")).reset_index()
    util = q["dep"] * 8 / q["rate"] / 200.0
    q["queue_waiting"] = q["queue"] - util
    lines = ["| time mean over [0, 200] s, 5 seeds | ns-2.35 nosyn | diffsweep |", "|---|---|---|",
             f"| green RED average (packets) | {fmt(*mean_ci(n['avg_green'])[:2])} | {fmt(*mean_ci(q['avg_green'])[:2])} |",
             f"| red RED average (packets; RIO-C: the whole queue) | {fmt(*mean_ci(n['avg_red'])[:2])} | {fmt(*mean_ci(q['avg_red'])[:2])} |",
             f"| queue, waiting packets (diffsweep: mean queue less utilisation) | {fmt(*mean_ci(n['queue_pkts'])[:2])} | {fmt(*mean_ci(q['queue_waiting'])[:2])} |",
             f"| share of time the red average is above min_th 5 (ns-2 only) | {fmt(*mean_ci(n['share_red_avg_above_5'])[:2])} | - |",
             f"| share of time the red average is above max_th 10 (ns-2 only) | {fmt(*mean_ci(n['share_red_avg_above_10'])[:2])} | - |",
             f"| utilisation (diffsweep) | - | {fmt(*mean_ci(util)[:2])} |"]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
