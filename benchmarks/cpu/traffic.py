"""What short-lived traffic costs the engine (issue 12): Rossi et al.'s web-over-DiffServ
replica (two clouds of Poisson web transfers, TSW2CM + RIO-C, 10 Mb/s, t_stop 600 s, t_halt
900 s: the paper's run) at several loads, with and without the 10 FTP sources per cloud.

Reported per configuration: wall seconds per replica, transfers per wall-second, replica-slots
per wall-second, the most transfers alive at once, the engine state per replica (set by the
pool, not by the transfers), and the record arrays per replica.

    python benchmarks/cpu/traffic.py [--backend cpu|cuda] [--replicas N] [--threads T]

Writes benchmarks/cpu/results/traffic-<backend>-<host>.json and prints a table.
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
from diffsweep.papers.rossi.scenario import rossi

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine import cpu_model  # noqa: E402


def timed(sc, replicas: int, backend: str, threads):
    seeds = list(range(1, replicas + 1))
    lanes = default_lanes(backend, len(sc.flows) + sum(t.pool for t in sc.traffic))
    p = pack([sc] * replicas, seeds, lanes=lanes)
    t0 = time.perf_counter()
    out = run_packed(p, backend, threads)
    wall = time.perf_counter() - t0
    started = int(out["gen_started"].sum())
    record_bytes = sum(a.nbytes for k, a in out.items() if k.startswith("tr_")) / replicas
    return {"replicas": replicas, "wall_s": wall, "wall_s_per_replica": wall / replicas,
            "transfers_per_replica": started / replicas, "transfers_per_s": started / wall,
            "replica_slots_per_s": float(out["slots_run"].sum()) / wall,
            "peak_active": int(out["gen_peak_active"].max()),
            "refused": int(out["gen_refused"].sum()),
            "state_bytes_per_replica": state_bytes(p.shape),
            "record_bytes_per_replica": record_bytes}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--replicas", type=int, default=4)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    a = ap.parse_args()
    rows = {}
    for rho, ftp in [(0.5, 0), (0.95, 0), (0.5, 10)]:
        key = f"rho{rho}_ftp{ftp}"
        rows[key] = timed(rossi(rho=rho, ftp_per_cloud=ftp, seed=1), a.replicas, a.backend,
                          a.threads)
    print(f"{'configuration':16s} {'s/replica':>10s} {'transfers':>10s} {'transfers/s':>12s} "
          f"{'peak alive':>10s} {'state MiB':>10s} {'records MiB':>11s}")
    for k, r in rows.items():
        print(f"{k:16s} {r['wall_s_per_replica']:10.2f} {r['transfers_per_replica']:10.0f} "
              f"{r['transfers_per_s']:12.3g} {r['peak_active']:10d} "
              f"{r['state_bytes_per_replica'] / 2**20:10.2f} "
              f"{r['record_bytes_per_replica'] / 2**20:11.2f}")
    info = ds.info()
    doc = {"machine": {"host": platform.node(), "cpu": cpu_model(), "cores": os.cpu_count(),
                       "backend": a.backend, "device": info.get("cuda_device") or None,
                       "threads": a.threads or info.get("openmp_threads")},
           "version": ds.engine.version(), "date": time.strftime("%Y-%m-%d"),
           "results": rows}
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"traffic-{a.backend}-{platform.node()}.json"
    path.write_text(json.dumps(doc, indent=1))
    print(f"-> {path}")


if __name__ == "__main__":
    main()
