"""Lee & Jeong Method 1, CIR 7 Mb/s, no UDP: which connections' packets the shared token bucket
marks OUT, in ns-2.35 and in diffsweep.

ns-2.35's dsPolicy counts marks per code point only, so its per-connection split is rebuilt
here: ``lee_jeong_m1.tcl`` with ``LJ_TRACEE`` traces the edge link E1 -> C, whose enqueue ("+")
events are the moments the edge queue meters each packet, and ns-2's TokenBucket policer
(dsPolicy.cc, TBPolicy: tokens += CIR/8 x elapsed, capped at CBS, the bucket full at the start;
a packet of size s is IN when tokens - s >= 0, and then pays s) is replayed on the seven
aggregated connections' packets (fid 1..7, SYNs included). The replay is checked against the
run's own count of IN packets at the edge (it agrees within 3 packets in ~49,000: the trace's
times are rounded to 1 us). For ns-2 also: how many of a connection's packets arrive in a
back-to-back train (within 1 ms of its previous one) and how often those and the others are
marked OUT. diffsweep's split is its per-flow counters
(``flows.pkts_green`` / ``pkts_red``). 10 seeds per bucket; prints the table kept in
lee_jeong_marks.txt (docs/ns2-gaps.md).

    PYTHONPATH=python python benchmarks/ns2/gaps/lee_jeong_marks.py
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import os

import numpy as np
import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.papers.lee_jeong.scenario import lee_jeong

HERE = Path(__file__).resolve().parent
TCL = HERE.parent / "lee_jeong" / "lee_jeong_m1.tcl"
CIR = 7e6
SEEDS = range(1, 11)
STATS: list = []  # (bucket, seed, metered, out, in-train, in-train and OUT) per replayed run


def ns2_marks(bucket: int, seed: int, tmp: Path) -> tuple[np.ndarray, np.ndarray, int]:
    """Per connection (S1..S7): packets metered and packets marked OUT by the replay; the run's
    own IN count at the edge."""
    tr, pre = tmp / "edge.tr", tmp / "run"
    subprocess.run(["ns", str(TCL), "0", "7e6", str(bucket), str(seed), "ns", "60", "10", str(pre)],
                   check=True, capture_output=True, env={**os.environ, "LJ_TRACEE": str(tr)},
                   cwd=TCL.parent)
    run = pd.read_csv(pre.with_suffix(".run"), header=None,
                      names=pre.with_suffix(".hdr").read_text().strip().split(","))
    ev = pd.read_csv(tr, sep=" ", header=None, usecols=[0, 1, 5, 7], names=["e", "t", "size", "fid"])
    ev = ev[(ev["e"] == "+") & ev["fid"].between(1, 7)]
    tokens, last = bucket * 1000.0, 0.0
    metered, out = np.zeros(7, int), np.zeros(7, int)
    prev = np.full(7, -1.0)
    train, train_out = np.zeros(7, int), np.zeros(7, int)  # within 1 ms of the flow's last packet
    for t, size, fid in zip(ev["t"].to_numpy(), ev["size"].to_numpy(), ev["fid"].to_numpy()):
        tokens = min(tokens + CIR / 8.0 * (t - last), bucket * 1000.0)
        last = t
        i = fid - 1
        metered[i] += 1
        in_train = prev[i] >= 0 and t - prev[i] < 1e-3
        prev[i] = t
        train[i] += in_train
        if tokens - size >= 0:
            tokens -= size
        else:
            out[i] += 1
            train_out[i] += in_train
    STATS.append((bucket, seed, metered, out, train, train_out))
    return metered, out, int(run["edge_in_pkts"].iloc[0])


def main() -> None:
    print("Share of each connection's packets marked OUT by the shared token bucket, mean over "
          "10 seeds (ns-2.35: replayed from its edge trace; diffsweep: its counters).\n")
    print("| bucket | | S1 | S2 | S3 | S4 | S5 | S6 | S7 | IN packets per run |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for bucket in (70, 35):
        shares, ins, ins_run = [], [], []
        with tempfile.TemporaryDirectory() as d:
            for s in SEEDS:
                m, o, n_in = ns2_marks(bucket, s, Path(d))
                shares.append(o / m)
                ins.append(int((m - o).sum()))
                ins_run.append(n_in)
        fl = simulate([lee_jeong(cir_mbps=7.0, bucket_pkts=bucket, seed=s) for s in SEEDS],
                      list(SEEDS), backend="cpu").flows
        fl = fl[fl["flow"] < 7]
        red = (fl.groupby("flow")["pkts_red"].sum()
               / (fl.groupby("flow")["pkts_green"].sum() + fl.groupby("flow")["pkts_red"].sum()))
        ns = np.mean(shares, axis=0)
        print(f"| {bucket} | ns-2.35 | " + " | ".join(f"{x:.4f}" for x in ns)
              + f" | {np.mean(ins):.0f} replayed, {np.mean(ins_run):.0f} counted by ns-2 |")
        print(f"| {bucket} | diffsweep | " + " | ".join(f"{x:.4f}" for x in red.to_numpy())
              + f" | {fl['pkts_green'].sum() / len(SEEDS):.0f} |")
        st = [x for x in STATS if x[0] == bucket]
        m, o, tr, tro = (np.sum([x[k] for x in st], axis=0) for k in (2, 3, 4, 5))
        print(f"| {bucket} | ns-2.35: share of packets within 1 ms of the connection's previous "
              "one (a back-to-back train at the 10 Mb/s access rate) | "
              + " | ".join(f"{x:.3f}" for x in tr / m) + " | |")
        print(f"| {bucket} | ns-2.35: OUT share of those / of the others | "
              + " | ".join(f"{a:.3f} / {b:.3f}" for a, b in zip(tro / tr, (o - tro) / (m - tr)))
              + " | |")
        if ins != ins_run:
            print(f"\nreplay mismatch for bucket {bucket}: {ins} vs {ins_run}", file=sys.stderr)


if __name__ == "__main__":
    main()
