"""Lee & Jeong Method 1, CIR 7 Mb/s, no UDP, 10 seeds: per connection, ns-2.35 (lee_jeong_flows.sh:
a per-fid flow monitor at the core; rates and timeouts from ../lee_jeong/results_ns2_lee_jeong.csv)
beside diffsweep (the builder lee_jeong, method marker): rate, packets arriving at the core,
forced and early drops there, the share of them dropped, RTO expirations, per run, and (diffsweep
only: ns-2's dsPolicy counts marks per code point, not per connection) the share marked OUT. Prints
the tables kept in lee_jeong_flows.txt (docs/ns2-gaps.md).

    PYTHONPATH=python python benchmarks/ns2/gaps/lee_jeong_flows.py
"""
from __future__ import annotations

import pandas as pd

from pathlib import Path

from diffsweep.engine.execution import simulate
from diffsweep.papers.lee_jeong import tables
from diffsweep.papers.lee_jeong.scenario import lee_jeong

HERE = Path(__file__).resolve().parent
NAMES = [f"S{i}" for i in range(1, 8)] + ["BE (mean of 10)"]


def main() -> None:
    fm = pd.read_csv(HERE / "results_gap_lee_jeong_flows_ns2.csv")
    pc = pd.read_csv(HERE.parent / "lee_jeong" / "results_ns2_lee_jeong.csv")
    pc = pc[(pc["tcpcfg"] == "ns") & (pc["variant"] == "noudp") & (pc["cir_mbps"] == 7)]
    for bucket in (70, 35):
        seeds = list(range(1, 11))
        fl = simulate([lee_jeong(cir_mbps=7.0, bucket_pkts=bucket, seed=s) for s in seeds], seeds,
                      backend="cpu").flows
        fl = fl.assign(rate=tables.rates_mbps(fl),
                       forced=fl[["forced_drops_green", "forced_drops_yellow", "forced_drops_red"]].sum(axis=1),
                       early=fl[["early_drops_green", "early_drops_yellow", "early_drops_red"]].sum(axis=1),
                       arr=fl["pkts_green"] + fl["pkts_yellow"] + fl["pkts_red"])
        n = fm[(fm["cbs_pkts"] == bucket)]
        p = pc[pc["cbs_pkts"] == bucket]
        print(f"\nBucket {bucket} packets: per connection and run, mean over 10 seeds (ns-2.35 / diffsweep)\n")
        print("| connection | rate Mb/s | arrivals at the core | forced drops | early drops | "
              "dropped share | RTO expirations | OUT-marked share (diffsweep only) |")
        print("|---|---|---|---|---|---|---|---|")
        for i, name in enumerate(NAMES):
            if i < 7:
                a = n[n["fid"] == i + 1]
                b = fl[fl["flow"] == i]
                r_n = p[p["conn"] == f"S{i + 1}"]
            else:
                a = n[(n["fid"] >= 8) & (n["fid"] <= 17)]
                b = fl[(fl["flow"] >= 7) & (fl["flow"] <= 16)]
                r_n = p[p["class"] == "be"]
            share_n = (a["forced_drops"] + a["early_drops"]).sum() / a["arrivals"].sum()
            share_o = (b["forced"] + b["early"]).sum() / b["arr"].sum()
            print(f"| {name} | {r_n['goodput_bps'].mean() / 1e6:.3f} / {b['rate'].mean():.3f} | "
                  f"{a['arrivals'].mean():.0f} / {b['arr'].mean():.0f} | "
                  f"{a['forced_drops'].mean():.1f} / {b['forced'].mean():.1f} | "
                  f"{a['early_drops'].mean():.1f} / {b['early'].mean():.1f} | "
                  f"{share_n:.4f} / {share_o:.4f} | {r_n['timeouts'].mean():.1f} / "
                  f"{b['timeouts'].mean():.1f} | "
                  f"{b['pkts_red'].sum() / b['arr'].sum():.4f} |")


if __name__ == "__main__":
    main()
