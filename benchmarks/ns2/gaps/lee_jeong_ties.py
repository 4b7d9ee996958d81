"""Lee & Jeong's Jain gap (docs/ns2-gaps.md, section 3): the order in which ns-2.35 meters
simultaneous arrivals at the shared token bucket.

In the Lee & Jeong set-up every delay is a whole number of milliseconds and every packet takes
0.8 ms on the 10 Mb/s links, so the aggregated connections' packets reach the edge on the
bottleneck's 0.8-ms grid and often at the same instant. ns-2.35 then meters them in the order
its event times compare, and those times, mathematically equal, differ in their last bits by
how each was summed (hop by hop, from departures 0.8 ms apart): the order is fixed by
floating-point rounding, not by the model. diffsweep meets same-slot arrivals in a random order.
This script shows (1) how often ns-2's aggregated packets tie at the edge and who goes first,
from its edge trace (``LJ_TRACEE``), and (2) ns-2's Jain index when every TCP send is delayed
by U(0, s) with s = 1 or 10 us (``overhead_``, via ``LJ_OVERHEAD``; Floyd & Jacobson's remedy
for phase effects), which breaks the ties at random and moves no packet by more than 1/80 of a
packet time, beside diffsweep's recorded 10 seeds (``lee_jeong/results_diffsweep_lee_jeong.csv``).

    PYTHONPATH=python python benchmarks/ns2/gaps/lee_jeong_ties.py   # -> lee_jeong_ties.txt
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
LJ = HERE.parent / "lee_jeong"
sys.path.insert(0, str(HERE.parent))
from agreement import mean_ci  # noqa: E402
TCL = LJ / "lee_jeong_m1.tcl"
SEEDS = range(1, 11)
OVERHEADS_S = (0.0, 1e-6, 1e-5)


def ns2(bucket: int, seed: int, overhead_s: float, tmp: Path, trace: bool = False) -> dict:
    """One ns-2.35 run (CIR 7 Mb/s, no UDP, 60 s): Jain, S1..S7 goodputs, and tie statistics
    from the edge trace when asked."""
    pre = tmp / f"r_{bucket}_{seed}_{overhead_s:g}"
    env = {**os.environ, "LJ_OVERHEAD": repr(overhead_s)}
    if trace:
        env["LJ_TRACEE"] = str(pre.with_suffix(".tr"))
    subprocess.run(["ns", str(TCL), "0", "7e6", str(bucket), str(seed), "ns", "60", "10", str(pre)],
                   check=True, capture_output=True, env=env, cwd=LJ)
    run = pd.read_csv(pre.with_suffix(".run"), header=None,
                      names=pre.with_suffix(".hdr").read_text().strip().split(","))
    flows = pd.read_csv(pre.with_suffix(".flows"), header=None,
                        names=pre.with_suffix(".fhdr").read_text().strip().split(","))
    out = {"bucket": bucket, "seed": seed, "overhead_s": overhead_s,
           "jain": float(run["jain_agg"].iloc[0]),
           "rates": flows[flows["class"] == "agg"]["goodput_bps"].to_numpy()[:7] / 1e6}
    if trace:
        out.update(ties(pre.with_suffix(".tr")))
    return out


def ties(path: Path) -> dict:
    """Aggregated data packets (fid 1..7) enqueued at the edge after the 10-s warm-up: the share
    that meet another one at the same traced microsecond; in such pairs, how often S7 is
    metered first, and how often the packet created later (higher uid) is."""
    ev = pd.read_csv(path, sep=" ", header=None, usecols=[0, 1, 4, 7, 11],
                     names=["e", "t", "type", "fid", "uid"])
    ev = ev[(ev["e"] == "+") & (ev["type"] == "tcp") & ev["fid"].between(1, 7) & (ev["t"] > 10)]
    us = np.round(ev["t"].to_numpy() * 1e6).astype(np.int64)
    fid, uid = ev["fid"].to_numpy(), ev["uid"].to_numpy()
    same = us[1:] == us[:-1]  # consecutive in metering order at one instant
    tied = np.zeros(len(us), bool)
    tied[1:] |= same
    tied[:-1] |= same
    a, b = np.nonzero(same)[0], np.nonzero(same)[0] + 1  # a metered before b
    with7 = (fid[a] == 7) | (fid[b] == 7)
    with7 &= fid[a] != fid[b]
    return {"tied_share": tied.mean(), "pairs": int(same.sum()),
            "s7_first": float((fid[a][with7] == 7).mean()) if with7.any() else np.nan,
            "later_first": float((uid[b] < uid[a]).mean()) if same.any() else np.nan}


def ci(x) -> str:
    m, h, _ = mean_ci(x)
    return f"{m:.3f} +/- {h:.3f}"


def main() -> None:
    jobs = [(b, s, ov, ov in (0.0, 1e-5) and b == 70) for b in (70, 35) for ov in OVERHEADS_S
            for s in SEEDS]
    with tempfile.TemporaryDirectory() as d, ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        runs = pd.DataFrame(ex.map(lambda j: ns2(j[0], j[1], j[2], Path(d), j[3]), jobs))
    ds = pd.read_csv(LJ / "results_diffsweep_lee_jeong.csv")
    ds = ds[(ds["tie_break"] == "random") & np.isclose(ds["cir_mbps"], 7.0)
            & (ds["udp"].astype(str) == "False")]
    lines = ["Lee & Jeong Method 1, CIR 7 Mb/s, no UDP, 60 s, 10 seeds: ns-2.35 with every TCP send "
             "delayed U(0, overhead_), beside diffsweep (random order of same-slot arrivals).", "",
             "| bucket | run | Jain (95% CI) | S1..S7 Mb/s (mean) |", "|---|---|---|---|"]
    for b in (70, 35):
        for ov in OVERHEADS_S:
            g = runs[(runs["bucket"] == b) & (runs["overhead_s"] == ov)]
            rates = np.mean(np.stack(g["rates"].to_numpy()), axis=0)
            name = "ns-2.35 defaults (overhead_ 0)" if ov == 0 else f"ns-2.35 overhead_ {ov * 1e6:g} us"
            lines.append(f"| {b} | {name} | {ci(g['jain'])} | "
                         + " ".join(f"{r:.2f}" for r in rates) + " |")
        g = ds[ds["bucket_pkts"] == b]
        lines.append(f"| {b} | diffsweep (builder) | {ci(g['jain'])} | S1 {g['tcp1_mbps'].mean():.2f} "
                     f".. S7 {g['tcp7_mbps'].mean():.2f} |")
    lines += ["", "Ties at the edge (bucket 70, after the 10-s warm-up, means over 10 seeds): share "
              "of S1..S7's data packets metered at the same traced microsecond as another one; "
              "in such consecutive pairs, how often S7 goes first (pairs with S7 and another "
              "connection) and how often the later-created packet (higher ns-2 uid) does.", "",
              "| run | tied share | tied pairs per run | S7 first | later-created first |",
              "|---|---|---|---|---|"]
    for ov in (0.0, 1e-5):
        g = runs[(runs["bucket"] == 70) & (runs["overhead_s"] == ov)]
        lines.append(f"| overhead_ {ov * 1e6:g} us | {g['tied_share'].mean():.3f} | "
                     f"{g['pairs'].mean():.0f} | {g['s7_first'].mean():.3f} | "
                     f"{g['later_first'].mean():.3f} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    (HERE / "lee_jeong_ties.txt").write_text(text)


if __name__ == "__main__":
    main()
