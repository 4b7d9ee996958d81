"""diffsweep's side of run_sack.sh (issue 44): Kaur & Vin under TCP SACK, the runs ns-2.35
makes with Agent/TCP/Sack1 and Agent/TCPSink/Sack1 (kaur_k2.tcl, kaur_k5.tcl with KV_TCP=sack).

  K2  one SACK flow, RTP 8 ms, EF on-off at f = 30 % with T_on in {0.4, 4, 40, 400} ms and the
      CBR network, 100 s with a 10-s warm-up, seeds 1-10, with ns-2.35's defaults that
      kaur_k2.tcl runs with (bugFix_ 1: ``reno_bugfix=True``; singledup_ 1:
      ``limited_transmit=True``). Per run: U = in-order goodput on the wire / (0.7 x 40 Mb/s),
      timeouts.
  K5  64 equal-RTP (8 ms) SACK flows, TCP-only and TCP+EF at T_on = 1 ms, 100 s with 10 s of
      warm-up, seeds 1-10, ns-2's tcpcfg ds (bugFix_ false, singledup_ 0 = the builder's
      defaults); diffsweep's random order of same-slot arrivals (beside ns-2 overhead_ 0) and
      flow-index order with 0.1 ms send jitter (beside overhead_ 0.1 ms). Per run: M, Jain, U.

Writes results_diffsweep_k2_sack.csv and results_diffsweep_k5_sack.csv (read by agreement.py).

    PYTHONPATH=python python benchmarks/ns2/diffsweep_sack.py [--seeds 10]
"""
from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.scenario.builders import kaur_vin

HERE = Path(__file__).resolve().parent
K2_TONS = [0.4, 4.0, 40.0, 400.0]
K5_CONDITIONS = [("random", 0.0), ("index", 1e-4)]
AVAILABLE_BPS = 0.7 * 40e6


def k2_scenario(network: str, ton: float, seed: int):
    sc = kaur_vin(n_flows=1, rtp_ms=8.0, ef="onoff" if network == "ef" else "cbr", t_on_ms=ton,
                  ef_fraction=0.3, tcp="sack", duration_s=100.0, warmup_s=10.0,
                  reno_bugfix=True, seed=seed)
    return replace(sc, flows=tuple(replace(f, limited_transmit=True) for f in sc.flows))


def k5_scenario(ef: bool, tie: str, jitter_s: float, seed: int):
    sc = kaur_vin(n_flows=64, rtp_ms=8.0, ef="onoff" if ef else None, t_on_ms=1.0, tcp="sack",
                  tie_break=tie, duration_s=100.0, warmup_s=10.0, seed=seed)
    return replace(sc, flows=tuple(replace(f, send_jitter_s=jitter_s) for f in sc.flows))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    seeds = range(1, args.seeds + 1)
    t0 = time.time()
    keys = [("cbr", 10.0, s) for s in seeds] + [("ef", t, s) for s in seeds for t in K2_TONS]
    res = simulate([k2_scenario(n, t, s) for n, t, s in keys], [s for *_, s in keys],
                   backend="cpu")
    rows = []
    for r, (net, ton, s) in enumerate(keys):
        f = res.flows[res.flows.replica == r]
        wire = float((f.goodput_bps * (f.segment_bytes + f.header_bytes) / f.segment_bytes).sum())
        rows.append({"network": net, "ton_ms": ton if net == "ef" else 0.0, "seed": s,
                     "U": wire / AVAILABLE_BPS,
                     "timeouts": int(f.timeouts.sum())})
    pd.DataFrame(rows).to_csv(HERE / "results_diffsweep_k2_sack.csv", index=False,
                              float_format="%.6g")
    keys5 = [(ef, tie, jit, s) for ef in (False, True) for tie, jit in K5_CONDITIONS for s in seeds]
    res = simulate([k5_scenario(*k) for k in keys5], [k[3] for k in keys5], backend="cpu")
    rows = []
    for r, (ef, tie, jit, s) in enumerate(keys5):
        f = res.flows[res.flows.replica == r]
        q = res.queues[res.queues.replica == r]
        x = f.goodput_bps.to_numpy()
        rate = float(q.rate_bps.iloc[0])
        rows.append({"network": "TCP+EF" if ef else "TCP-only", "tie_break": tie,
                     "send_jitter_s": jit, "seed": s, "M": x.min() / x.max(),
                     "jain": x.sum() ** 2 / (len(x) * (x ** 2).sum()), "U": x.sum() / rate,
                     "timeouts": int(f.timeouts.sum())})
    pd.DataFrame(rows).to_csv(HERE / "results_diffsweep_k5_sack.csv", index=False,
                              float_format="%.6g")
    print(f"wrote results_diffsweep_k2_sack.csv ({len(keys)} runs), results_diffsweep_k5_sack.csv "
          f"({len(keys5)} runs): {time.time() - t0:.1f} s wall on the CPU backend")


if __name__ == "__main__":
    main()
