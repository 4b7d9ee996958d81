"""diffsweep's side of the matched K5 scenario run in ns-2.35 by run_k5.sh (kaur_k5.tcl):
64 equal-RTP (8 ms) Reno flows on the Kaur & Vin dumbbell, TCP-only and TCP+EF at
T_on = 1 ms, 100 s with 10 s warm-up, every flow starting at t = 0, under the three
conditions the reproduction compares: flow-index order of same-slot arrivals, random order,
and index order with a send jitter of 0.1 ms (ns-2 overhead_ 1e-4) or 1 ms.

    python benchmarks/ns2/diffsweep_k5.py [--seeds 10] [--out benchmarks/ns2/results_diffsweep_k5.csv]

Per run: min-max ratio M and Jain's index of the flows' goodputs, link utilisation, EF share,
timeouts; then means and 95% CIs per condition, printed as a Markdown table.
"""
from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.scenario.builders import kaur_vin
from diffsweep.analysis.stats import t_quantile

CONDITIONS = [("index", 0.0), ("random", 0.0), ("index", 1e-4), ("index", 1e-3)]


def scenario(ef: bool, tie: str, jitter_s: float, seed: int):
    sc = kaur_vin(n_flows=64, rtp_ms=8.0, ef="onoff" if ef else None, t_on_ms=1.0,
                  tie_break=tie, duration_s=100.0, warmup_s=10.0, seed=seed)
    return replace(sc, flows=tuple(replace(f, send_jitter_s=jitter_s) for f in sc.flows))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--out", default=str(Path(__file__).with_name("results_diffsweep_k5.csv")))
    args = ap.parse_args()
    runs, keys = [], []
    for ef in (False, True):
        for tie, jit in CONDITIONS:
            for s in range(args.seeds):
                runs.append(scenario(ef, tie, jit, s))
                keys.append(("TCP+EF" if ef else "TCP-only", tie, jit, s))
    res = simulate(runs, [k[3] + 1 for k in keys], backend="cpu")
    rows = []
    for r, (net, tie, jit, s) in enumerate(keys):
        f = res.flows[res.flows.replica == r]
        q = res.queues[res.queues.replica == r]
        x = f.goodput_bps.to_numpy()
        measured = float(res.replicas.measured_s.iloc[r])
        rate = float(q.rate_bps.iloc[0])
        ef_bytes = float(q[q.cls == "ef"].bytes_departed.sum())
        rows.append({"network": net, "tie_break": tie, "send_jitter_s": jit, "seed": s + 1,
                     "M": x.min() / x.max(), "jain": x.sum() ** 2 / (len(x) * (x ** 2).sum()),
                     "U": x.sum() / rate, "ef_share": ef_bytes * 8 / (rate * measured),
                     "timeouts": int(f.timeouts.sum())})
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    print(f"wrote {args.out}; wall {res.meta['wall_s']:.1f} s for {len(runs)} replicas")
    print("| network | order | send jitter | n | M (95% CI) | Jain (95% CI) | U | timeouts/run |")
    print("|---|---|---|---|---|---|---|---|")
    for (net, tie, jit), g in df.groupby(["network", "tie_break", "send_jitter_s"], sort=False):
        n = len(g)
        h = t_quantile(0.975, n - 1) / np.sqrt(n)
        print(f"| {net} | {tie} | {jit * 1e3:g} ms | {n} | {g.M.mean():.3f} ± {h * g.M.std(ddof=1):.3f} "
              f"| {g.jain.mean():.4f} ± {h * g.jain.std(ddof=1):.4f} | {g.U.mean():.4f} | {g.timeouts.mean():.0f} |")


if __name__ == "__main__":
    main()
