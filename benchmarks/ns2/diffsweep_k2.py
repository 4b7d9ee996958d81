"""diffsweep's side of the single-flow Kaur & Vin runs of run.sh extra (kaur_k2.tcl,
``results_ns2_k2_extra.csv``, default timers, efcorr 0): one Reno flow, RTP 8 ms, EF on-off at
f = 30 % with T_on in {0.4, 1, 4, 10, 40, 100, 400, 1000} ms and the CBR network, 100 s with a
10-s warm-up, 20 seeds, under two TCP configurations:

  ns2def   ns-2.35's defaults that kaur_k2.tcl runs with: ``reno_bugfix=True`` (bugFix_ 1) and
           ``limited_transmit=True`` (singledup_ 1); the comparison's primary rows
  plain    the K2 sweep's own Reno (sweeps/kaur_vin/k2.toml: no bugFix_, no limited transmit)

Per run: U = in-order TCP goodput on the wire over the capacity left to TCP, 0.7 x 40 Mb/s
(ns-2's ``U_good``; metrics.utilization), timeouts (RTO expirations), the EF share. Writes
``results_diffsweep_k2.csv`` (one row per run) and prints the seed means beside ns-2.35's.

    python benchmarks/ns2/diffsweep_k2.py [--seeds 20]
"""
from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.papers.kaur_vin.scenario import kaur_vin

HERE = Path(__file__).resolve().parent
TONS = [0.4, 1.0, 4.0, 10.0, 40.0, 100.0, 400.0, 1000.0]
CONFIGS = {"ns2def": dict(reno_bugfix=True, limited=True),
           "plain": dict(reno_bugfix=False, limited=False)}
AVAILABLE_BPS = 0.7 * 40e6


def scenario(cfg: str, network: str, ton: float, seed: int):
    c = CONFIGS[cfg]
    sc = kaur_vin(n_flows=1, rtp_ms=8.0, ef="onoff" if network == "ef" else "cbr",
                  t_on_ms=ton, ef_fraction=0.3, duration_s=100.0, warmup_s=10.0,
                  reno_bugfix=c["reno_bugfix"], seed=seed)
    return replace(sc, flows=tuple(replace(f, limited_transmit=c["limited"]) for f in sc.flows))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    args = ap.parse_args()
    runs, keys = [], []
    for cfg in CONFIGS:
        for s in range(1, args.seeds + 1):
            runs.append(scenario(cfg, "cbr", 10.0, s))
            keys.append((cfg, "cbr", 0.0, s))
            for ton in TONS:
                runs.append(scenario(cfg, "ef", ton, s))
                keys.append((cfg, "ef", ton, s))
    t0 = time.time()
    res = simulate(runs, [k[3] for k in keys], backend="cpu")
    wall = time.time() - t0
    rows = []
    for r, (cfg, net, ton, s) in enumerate(keys):
        f = res.flows[res.flows.replica == r]
        q = res.queues[res.queues.replica == r]
        measured = float(res.replicas.measured_s.iloc[r])
        wire = float((f.goodput_bps * (f.segment_bytes + f.header_bytes) / f.segment_bytes).sum()) \
            if "segment_bytes" in f.columns else float(f.goodput_bps.sum() * 576 / 536)
        ef_bytes = float(q[q.cls == "ef"].bytes_departed.sum())
        rows.append({"tcpcfg": cfg, "network": net, "ton_ms": ton, "seed": s,
                     "U": wire / AVAILABLE_BPS, "timeouts": int(f.timeouts.sum()),
                     "ef_share": ef_bytes * 8 / (40e6 * measured)})
    df = pd.DataFrame(rows)
    out = HERE / "results_diffsweep_k2.csv"
    df.to_csv(out, index=False, float_format="%.6g")
    print(f"wrote {out.name}: {len(df)} runs, {wall:.1f} s wall on the CPU backend")
    ns2 = pd.read_csv(HERE / "results_ns2_k2_extra.csv")
    ns2 = ns2[(ns2.timers == "def") & (ns2.efcorr == 0)]
    print("| T_on ms | ns-2 U | diffsweep U ns2def | diffsweep U plain | ns-2 timeouts | "
          "ns2def timeouts | plain timeouts |")
    print("|---|---|---|---|---|---|---|")
    for ton in [0.0] + TONS:
        net = "cbr" if ton == 0 else "ef"
        a = ns2[(ns2.network == net) & (np.isclose(ns2.ton_ms, ton) if ton else True)]
        b = df[(df.network == net) & np.isclose(df.ton_ms, ton)]
        p, q = b[b.tcpcfg == "ns2def"], b[b.tcpcfg == "plain"]
        print(f"| {ton:g} | {a.U_good.mean():.4f} | {p.U.mean():.4f} | {q.U.mean():.4f} | "
              f"{a.timeouts.mean():.1f} | {p.timeouts.mean():.1f} | {q.timeouts.mean():.1f} |")


if __name__ == "__main__":
    main()
