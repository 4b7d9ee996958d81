"""What Habib et al.'s replicas cost the engine (issue 13): topology 2(a) (400 NewReno
micro-flows, two TCP-aware edge conditioners, RIO-C) and 2(b) (1,000 micro-flows over two
domains, seven conditioners), against the 64-flow Kaur & Vin replica of benchmarks/cpu/engine.py,
on the same machine and backend: wall seconds per replica, replica-slots per wall-second, data
packets through the conditioners' links per wall-second, and engine state bytes per replica.

    python benchmarks/cpu/habib.py [--backend cpu|cuda] [--replicas N] [--threads T]

Writes benchmarks/cpu/results/habib-<backend>-<host>.json and prints a table.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import diffsweep as ds
from diffsweep.engine.compiled import default_lanes, run_packed, state_bytes
from diffsweep.engine.pack import pack
from diffsweep.papers.habib.scenario import habib_2a, habib_2b
from diffsweep.scenario.builders import kaur_vin

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine import cpu_model  # noqa: E402


def timed(scs, backend: str, threads):
    seeds = list(range(1, len(scs) + 1))
    lanes = default_lanes(backend, len(scs[0].flows))
    p = pack(scs, seeds, lanes=lanes)
    run_packed(pack(scs[:1], seeds[:1], lanes=lanes), backend, threads)  # warm-up
    t0 = time.perf_counter()
    out = run_packed(p, backend, threads)
    wall = time.perf_counter() - t0
    slots = int(out["slots_run"].sum())
    sent = int(out["flow_pkts_sent"].sum())
    return {"replicas": len(scs), "flows": len(scs[0].flows), "wall_s": wall,
            "wall_s_per_replica": wall / len(scs), "replica_slots_per_s": slots / wall,
            "tcp_pkts_sent_per_s": sent / wall, "state_bytes_per_replica": state_bytes(p.shape)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--replicas", type=int, default=8)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    a = ap.parse_args()
    n = a.replicas
    cases = {
        "kaur_vin_64": [kaur_vin(n_flows=64, rtp_intervals=(12, 26, 8), ef="onoff", t_on_ms=10.0,
                                 duration_s=100.0, warmup_s=10.0, seed=s) for s in range(n)],
        "habib_2a_400_rtt_rto": [habib_2a(conditioner="rtt_rto", rtt2_ms=100.0, seed=s)
                                 for s in range(n)],
        "habib_2a_400_standard": [habib_2a(conditioner="standard", rtt2_ms=100.0, seed=s)
                                  for s in range(n)],
        "habib_2b_1000_rtt_rto": [habib_2b(conditioner="rtt_rto", seed=s) for s in range(n)],
        "habib_2b_1000_rtt_sw": [habib_2b(conditioner="rtt_sw", seed=s) for s in range(n)],
    }
    rows = {k: timed(v, a.backend, a.threads) for k, v in cases.items()}
    base = rows["kaur_vin_64"]["replica_slots_per_s"]
    print(f"{'case':24s} {'flows':>6s} {'s/replica':>10s} {'Mslots/s':>9s} {'x kaur64':>8s} "
          f"{'Mpkts/s':>8s} {'state KiB':>10s}")
    for k, r in rows.items():
        r["slots_per_s_vs_kaur_64"] = r["replica_slots_per_s"] / base
        print(f"{k:24s} {r['flows']:6d} {r['wall_s_per_replica']:10.3f} "
              f"{r['replica_slots_per_s'] / 1e6:9.2f} {r['slots_per_s_vs_kaur_64']:8.2f} "
              f"{r['tcp_pkts_sent_per_s'] / 1e6:8.2f} {r['state_bytes_per_replica'] / 1024:10.0f}")
    info = ds.info()
    doc = {"machine": {"host": platform.node(), "cpu": cpu_model(), "cores": os.cpu_count(),
                       "backend": a.backend, "device": info.get("cuda_device") or None,
                       "threads": a.threads or info.get("openmp_threads")},
           "version": ds.engine.version(), "date": time.strftime("%Y-%m-%d"),
           "note": "100 simulated seconds per replica; slots are each scenario's own (85 us "
                   "for Habib's 100 Mb/s edges, 115 us for Kaur & Vin's 40 Mb/s links)",
           "results": rows}
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"habib-{a.backend}-{platform.node()}.json"
    path.write_text(json.dumps(doc, indent=1))
    print(f"-> {path}")


if __name__ == "__main__":
    main()
