"""diffsweep's standard builder ``dumbbell`` with its defaults on the cells of dumbbell.tcl
(run.sh), side by side with ns-2.35's results_ns2_dumbbell.csv: writes
results_diffsweep_dumbbell.csv (one row per run, the ns-2 file's columns) and
compare_dumbbell.md (means and 95% CIs over the seeds per cell, both simulators).

Run from the repository root:
    PYTHONPATH=python .venv/bin/python benchmarks/ns2/dumbbell/diffsweep_dumbbell.py

The builder is called with nothing but the cell (aqm, n_flows, the round trips), the run
length and the seed: every other value is its ns-2.35 default, which is what is compared.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep import simulate
from diffsweep.analysis.metrics import bottleneck_table, mean_ci
from diffsweep.core.results import Results
from diffsweep.scenario.dumbbell import dumbbell

HERE = Path(__file__).resolve().parent
AQMS = {"DropTail": "droptail", "RED": "red"}
CELLS = ((1, "40"), (8, "40"), (32, "40"), (8, "20-100"))  # as run.sh's CELLS
SEEDS = range(1, 11)
DUR, WARM = 60.0, 10.0
#: the variant rows: every TCP send delayed U(0, 1 ms) on both sides (TcpFlow.send_jitter_s is
#: ns-2's overhead_), DropTail only, as run.sh's OVERHEAD and OV_AQMS
JITTER_S = 1e-3
OV_AQMS = ("DropTail",)
METRICS = (("total goodput Mb/s", "total_mbps"), ("Jain", "jain"), ("min/max", "min_max"),
           ("loss %", "loss_pct"), ("timeouts/run", "timeouts"),
           ("mean waiting queue pkts", "mean_waiting_pkts"), ("utilization", "bneck_util"))


def rtt_kw(rtt: str) -> dict:
    if "-" in rtt:
        lo, hi = (float(x) for x in rtt.split("-"))
        return {"rtt_min_ms": lo, "rtt_max_ms": hi}
    return {"rtt_ms": float(rtt)}


def run() -> tuple[pd.DataFrame, float]:
    scs, keys = [], []
    for jitter, aqms in ((0.0, AQMS), (JITTER_S, OV_AQMS)):
        for ns_aqm in aqms:
            for n, rtt in CELLS:
                for seed in SEEDS:
                    scs.append(dumbbell(aqm=AQMS[ns_aqm], n_flows=n, duration_s=DUR,
                                        warmup_s=WARM, seed=seed, send_jitter_s=jitter,
                                        **rtt_kw(rtt)))
                    keys.append((ns_aqm, n, rtt, seed, jitter))
    t0 = time.time()
    res = simulate(scs, [k[3] for k in keys], backend="cpu")
    wall = time.time() - t0
    # simulate numbers the replicas 0..R-1: each is its own "point", with its seed
    seeds = np.array([k[3] for k in keys])
    for t in ("flows", "queues", "replicas"):
        df = getattr(res, t)
        df.insert(0, "point", df["replica"])
        df.insert(1, "seed", seeds[df["replica"].to_numpy()])
    tab = bottleneck_table(Results(res.replicas, res.flows, res.queues, res.sources,
                                   res.intervals))
    fl = res.flows.groupby("point")[["pkts_sent", "retransmits", "timeouts", "drops"]].sum()
    q = res.queues.set_index("point")
    rows = []
    for p, (aqm, n, rtt, seed, jitter) in enumerate(keys):
        r = tab[tab["point"] == p].iloc[0]
        measured = res.replicas.loc[res.replicas["point"] == p, "measured_s"].iloc[0]
        busy = q.loc[p, "bytes_departed"] * 8 / 10e6 / measured
        early = sum(q.loc[p, f"early_drops_{c}"] for c in ("green", "yellow", "red"))
        forced = sum(q.loc[p, f"forced_drops_{c}"] for c in ("green", "yellow", "red"))
        rows.append({
            "aqm": aqm, "n_flows": n, "rtt_ms": rtt, "seed": seed, "tcp": "Newreno",
            "overhead_s": jitter,
            "dur_s": DUR, "warm_s": WARM, "total_mbps": r.tcp_goodput_bps / 1e6,
            "jain": r.jain_index, "min_max": r.min_max_ratio,
            "sent_pkts": int(fl.loc[p, "pkts_sent"]), "rexmit_pkts": int(fl.loc[p, "retransmits"]),
            "timeouts": int(fl.loc[p, "timeouts"]), "bneck_arrivals": int(q.loc[p, "arrivals"]),
            "bneck_drops": int(q.loc[p, "drops"] + early + (forced if aqm == "RED" else 0)),
            "bneck_edrops": int(early), "loss_pct": 100 * r.loss_rate,
            # ns-2's queue monitor counts the packets waiting; the engine's count at each
            # slot's end holds the next one to be sent too while the link is backlogged: less
            # the busy fraction, which holds for a saturated link only (below, a packet
            # reaching an idle link leaves within its slot and is never counted)
            "mean_waiting_pkts": r.mean_queue_pkts - busy if busy > 0.9 else np.nan,
            "bneck_util": busy})
    return pd.DataFrame(rows), wall


def fmt(x) -> str:
    x = np.asarray(x, dtype=float)
    x = x[~np.isnan(x)]
    if not len(x):
        return "-"
    m, h, n = mean_ci_1(x)
    return f"{m:.4g} ± {h:.2g}" if n > 1 else f"{m:.4g}"


def mean_ci_1(x):
    x = np.asarray(x, dtype=float)
    m = mean_ci(pd.DataFrame({"g": 0, "v": x}), "g", "v").iloc[0]
    return float(m["mean"]), float(m["mean"] - m["ci_low"]), len(x)


def compare(ours: pd.DataFrame, ns2: pd.DataFrame, wall: float) -> str:
    out = ["# The standard dumbbell: diffsweep beside ns-2.35", "",
           "Generated by `benchmarks/ns2/dumbbell/diffsweep_dumbbell.py` from "
           "`results_ns2_dumbbell.csv` (run.sh) and its own runs "
           f"({len(ours)} replicas on the CPU backend in {wall:.1f} s). Mean ± 95% CI over "
           f"{len(SEEDS)} seeds; {DUR:g} s runs measured from {WARM:g} s; NewReno, every "
           "other value ns-2.35's default. Last two columns (DropTail only): every TCP send "
           "delayed U(0, 1 ms), about a packet time, on both sides (`send_jitter_s 1e-3`, "
           "ns-2's `overhead_ 1e-3`). The mean waiting queue is given "
           "for a saturated link only (README.md).", ""]
    for aqm in AQMS:
        for n, rtt in CELLS:
            sel = lambda d: d[(d["aqm"] == aqm) & (d["n_flows"] == n)
                              & (d["rtt_ms"].astype(str) == rtt)]
            o, s = sel(ours), sel(ns2)
            o0, o1 = o[o["overhead_s"] == 0], o[o["overhead_s"] > 0]
            s0, s1 = s[s["overhead_s"] == 0], s[s["overhead_s"] > 0]
            out += [f"## {aqm}, {n} flow{'s' if n > 1 else ''}, RTT {rtt} ms", "",
                    "| metric | diffsweep | ns-2.35 | diffsweep, send_jitter_s 1 ms | "
                    "ns-2.35, overhead_ 1 ms |", "|---|---|---|---|---|"]
            for label, col in METRICS:
                out.append(f"| {label} | {fmt(o0[col])} | {fmt(s0[col])} | {fmt(o1[col])} | "
                           f"{fmt(s1[col])} |")
            out.append("")
    return "\n".join(out)


def main() -> int:
    ns2_path = HERE / "results_ns2_dumbbell.csv"
    ours, wall = run()
    ours.to_csv(HERE / "results_diffsweep_dumbbell.csv", index=False, float_format="%.6g")
    print(f"{len(ours)} replicas in {wall:.1f} s -> results_diffsweep_dumbbell.csv")
    if not ns2_path.is_file():
        print(f"{ns2_path.name} is missing: run benchmarks/ns2/dumbbell/run.sh", file=sys.stderr)
        return 1
    ns2 = pd.read_csv(ns2_path, dtype={"rtt_ms": str})
    ours = pd.read_csv(HERE / "results_diffsweep_dumbbell.csv", dtype={"rtt_ms": str})
    text = compare(ours, ns2, wall)
    (HERE / "compare_dumbbell.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
