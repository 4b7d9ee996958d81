#!/usr/bin/env python3
"""Means and 95% confidence intervals over seeds (markdown) for results_ns2_k5.csv.

    python3 summarize_k5.py results_ns2_k5.csv [results_ns2_k5_flows.csv]

One row per (tcpcfg, efcorr, start_s, network, T_on, overhead_). CI = mean +/- t_{0.975, n-1} sd/sqrt(n).
`distinct` = number of different M values among the seeds (1 = every seed gave the same run).
From the per-flow file: `near fair` = share of flows whose goodput x_i / (C/n) lies in
[0.8, 1.2], C = bandwidth available to TCP (40 Mb/s, or 28 Mb/s with EF), mean over seeds;
`M worst` = smallest M among the seeds.
"""
import collections
import csv
import math
import statistics as st
import sys

# two-sided 95% Student t quantiles, df = 1..30
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def ci(vals):
    n = len(vals)
    m = st.mean(vals)
    if n < 2:
        return m, float("nan")
    h = T975[min(n - 1, 30) - 1] * st.stdev(vals) / math.sqrt(n)
    return m, h


def fmt(vals, d=3):
    m, h = ci(vals)
    return f"{m:.{d}f} ± {h:.{d}f}"


def key(r):
    return (r["tcpcfg"], int(r["efcorr"]), float(r["start_s"]), r["network"], float(r["ton_ms"]),
            float(r["overhead_s"]))


def main(runs_path, flows_path=None):
    runs = list(csv.DictReader(open(runs_path)))
    g = collections.defaultdict(list)
    for r in runs:
        g[key(r)].append(r)
    near = collections.defaultdict(list)
    if flows_path:
        per_run = collections.defaultdict(list)
        for r in csv.DictReader(open(flows_path)):
            per_run[key(r) + (int(r["seed"]),)].append(float(r["goodput_wire_bps"]))
        for k, xs in per_run.items():
            c = 28e6 if k[3] == "ef" else 40e6
            fair = c / len(xs)
            near[k[:6]].append(sum(1 for x in xs if 0.8 <= x / fair <= 1.2) / len(xs))

    order = sorted(g, key=lambda k: (k[0] != "ds", -k[1], k[2], k[4] != 1.0, k[4], k[3] != "none", k[5]))
    print("| TCP cfg | efcorr | start s | network | T_on ms | overhead_ s | n | distinct | M (95% CI) | M worst | Jain (95% CI) "
          "| U (95% CI) | U_avail | bneck busy | EF share | near fair | timeouts /run | TCP drops bneck /run | access drops /run |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in order:
        rs = g[k]
        col = lambda c: [float(r[c]) for r in rs]
        M = col("M")
        nf = near.get(k)
        print(f"| {k[0]} | {k[1]} | {k[2]:g} | {'TCP-only' if k[3] == 'none' else 'TCP+EF'} | "
              f"{'–' if k[3] == 'none' else '%.3g' % k[4]} | {k[5]:g} | {len(rs)} | {len(set(M))} | "
              f"{fmt(M)} | {min(M):.3f} | {fmt(col('jain'), 4)} | {fmt(col('U'), 4)} | "
              f"{st.mean(col('U_avail')):.4f} | {st.mean(col('bneck_busy')):.4f} | "
              f"{st.mean(col('ef_share')):.4f} | {'%.3f' % st.mean(nf) if nf else ''} | "
              f"{st.mean(col('timeouts')):.0f} | {st.mean(col('drops_bneck_tcp')):.0f} | "
              f"{st.mean(col('drops_access')):.1f} |")


if __name__ == "__main__":
    main(*sys.argv[1:3])
