"""Rossi et al. at rho 0.8, alpha_AF 0.5: where best effort loses its packets at the bottleneck,
ns-2.35 (the recorded `nosyn` runs' dsRED counters, ../rossi/results_ns2_rossi_runs.csv) beside
diffsweep (the builder rossi, the same 5 seeds, per-transfer counters): BE packets arriving,
early (RED) drops and forced drops (average above max_th or buffer full), per run. Also AF's
red-marked share. Prints the table kept in rossi_drop_split.txt (docs/ns2-gaps.md).

    PYTHONPATH=python python benchmarks/ns2/gaps/rossi_drop_split.py
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
    n = pd.read_csv(HERE.parent / "rossi" / "results_ns2_rossi_runs.csv")
    n = n[(n["syncfg"] == "nosyn") & (n["rho"] == 0.8)].copy()
    n["be_arr"] = n["cp0_pkts"]
    n["be_early"] = n["cp0_edrops"]
    n["be_forced"] = n["cp0_drops"]
    n["af_red_share"] = n["cp12_pkts"] / (n["cp10_pkts"] + n["cp12_pkts"])
    seeds = [1, 2, 3, 4, 5]
    # ns-2 syn_ 0 (delay_growth_ 1): the builder's matching set-up
    res = simulate([rossi(rho=0.8, alpha_af=0.5, t_stop_s=200.0, t_halt_s=300.0, seed=s,
                          syn=False, delay_growth=True)
                    for s in seeds], seeds, backend="cpu")
    t = res.transfers
    rows = []
    for r, s in enumerate(seeds):
        be = t[(t["replica"] == r) & (t["traffic"] == "be")]
        af = t[(t["replica"] == r) & (t["traffic"] == "af")]
        q = res.queues[res.queues["replica"] == r]
        rows.append({"seed": s, "be_sent": be["pkts_sent"].sum(),
                     "be_early": be["early_drops"].sum(),
                     "be_forced": be["drops"].sum() - be["early_drops"].sum(),
                     "af_red_share": af["pkts_red"].sum() / af["pkts_sent"].sum(),
                     "queue_pkts": float(q["mean_queue_pkts"].sum()) if "mean_queue_pkts" in q else float("nan")})
    o = pd.DataFrame(rows)
    lines = ["| per run (5 seeds) | ns-2.35 nosyn | diffsweep |", "|---|---|---|"]
    for label, cn, co in (("BE packets arriving at the bottleneck (ns-2) / sent (diffsweep)", "be_arr", "be_sent"),
                          ("BE early drops", "be_early", "be_early"),
                          ("BE forced drops", "be_forced", "be_forced"),
                          ("AF red-marked share", "af_red_share", "af_red_share")):
        lines.append(f"| {label} | {fmt(*mean_ci(n[cn])[:2])} | {fmt(*mean_ci(o[co])[:2])} |")
    ne = n["be_early"] / (n["be_early"] + n["be_forced"])
    oe = o["be_early"] / (o["be_early"] + o["be_forced"])
    lines.append(f"| BE early share of drops | {fmt(*mean_ci(ne)[:2])} | {fmt(*mean_ci(oe)[:2])} |")
    lines.append(f"| BE drops / arrivals | {fmt(*mean_ci((n['be_early'] + n['be_forced']) / n['be_arr'])[:2])} | "
                 f"{fmt(*mean_ci((o['be_early'] + o['be_forced']) / o['be_sent'])[:2])} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
