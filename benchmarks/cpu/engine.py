"""Engine speed and memory on the Kaur & Vin dumbbell (40 Mb/s, 200 KB buffer, EF on-off at 30%).

Measures, per backend and thread count:
  replica-slots per wall-second, and bottleneck packets per wall-second (all classes),
for (a) 1 TCP flow and (b) 64 TCP flows, 100 simulated seconds per replica; the per-slot cost
with idle flows added (flows that start only at the end); and the engine state per replica,
with the memory 10,000 replicas of 64 flows need.

    python benchmarks/cpu/engine.py [--backend cpu|cuda] [--replicas N] [--out benchmarks/cpu/results]

Writes <out>/engine-<backend>-<host>.json and prints a table. Numbers are wall-clock: run on an
otherwise idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import diffsweep as ds
from diffsweep.engine.compiled import default_lanes, run_packed, state_bytes
from diffsweep.engine.pack import pack
from diffsweep.scenario import Scenario, TcpFlow
from diffsweep.scenario.builders import kaur_vin


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def timed(scs, seeds, backend, threads, lanes=None):
    lanes = lanes or default_lanes(backend, len(scs[0].flows))
    p = pack(scs, seeds, lanes=lanes)
    run_packed(pack(scs[:1], seeds[:1], lanes=lanes), backend, threads)  # warm-up (page faults, module load)
    t0 = time.perf_counter()
    out = run_packed(p, backend, threads)
    wall = time.perf_counter() - t0
    slots = int(out["slots_run"].sum())
    pkts = int(out["q_departures"][:, 0, :].sum())  # link 0 = the bottleneck, every class
    # departures count only after warm-up: scale to the whole run for a per-wall-second rate
    frac = float((p.arrays["end_slot"] - p.arrays["warmup_slot"]).sum() / p.arrays["end_slot"].sum())
    return {"wall_s": wall, "replicas": len(scs), "replica_slots_per_s": slots / wall,
            "bottleneck_pkts_per_s": pkts / frac / wall, "state_bytes_per_replica": state_bytes(p.shape)}


def with_idle_flows(n_idle: int, duration_s: float) -> Scenario:
    """One active Kaur flow plus n_idle flows that start in the last slot: they sit in the
    due-time tree for the whole run but never have an event."""
    base = kaur_vin(n_flows=1, ef="onoff", t_on_ms=10.0, duration_s=duration_s, warmup_s=1.0)
    idle = tuple(TcpFlow(**{**base.flows[0].__dict__, "start_s": duration_s * 0.9999})
                 for _ in range(n_idle))
    return Scenario(**{**base.__dict__, "flows": base.flows + idle})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--replicas", type=int, default=8, help="replicas per timed batch")
    ap.add_argument("--duration-s", type=float, default=100.0)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = ap.parse_args()
    info = ds.info()
    threads_list = [1, 2] if args.backend == "cpu" else [0]
    rows = []
    for n_flows in (1, 64):
        sc = kaur_vin(n_flows=n_flows, rtp_intervals=(12, 26, 8) if n_flows >= 8 else None,
                      ef="onoff", t_on_ms=10.0, duration_s=args.duration_s, warmup_s=10.0)
        scs = [kaur_vin(n_flows=n_flows, rtp_intervals=(12, 26, 8) if n_flows >= 8 else None,
                        ef="onoff", t_on_ms=10.0, duration_s=args.duration_s, warmup_s=10.0,
                        seed=s) for s in range(args.replicas)] if n_flows >= 8 else [sc] * args.replicas
        for th in threads_list:
            r = timed(scs, list(range(args.replicas)), args.backend, th)
            r.update(case=f"kaur_{n_flows}_flows", n_flows=n_flows, threads=th)
            r["bottleneck_pkts_per_s_per_core"] = r["bottleneck_pkts_per_s"] / max(th, 1)
            rows.append(r)
            print(f"{r['case']:>16} threads={th}  wall {r['wall_s']:7.2f} s  "
                  f"{r['replica_slots_per_s'] / 1e6:7.2f} M replica-slots/s  "
                  f"{r['bottleneck_pkts_per_s'] / 1e6:7.2f} M bottleneck pkts/s  "
                  f"state {r['state_bytes_per_replica'] / 1024:.0f} KiB/replica")
    idle_rows = []
    for n_idle in (0, 63, 255, 999):
        scs = [with_idle_flows(n_idle, 20.0)] * args.replicas
        r = timed(scs, list(range(args.replicas)), args.backend, 1 if args.backend == "cpu" else 0)
        ns_per_slot = 1e9 / r["replica_slots_per_s"]
        idle_rows.append({"idle_flows": n_idle, "ns_per_replica_slot": ns_per_slot,
                          "state_bytes_per_replica": r["state_bytes_per_replica"]})
        print(f"  1 active + {n_idle:4d} idle flows: {ns_per_slot:6.1f} ns per replica-slot")
    p64 = pack([kaur_vin(n_flows=64, rtp_intervals=(12, 26, 8), ef="onoff", udp=True)], [0])
    per = state_bytes(p64.shape)
    arrays = sum(a.nbytes for a in p64.arrays.values()) * 2  # inputs + outputs, roughly
    need = 10_000 * (per + arrays)
    print(f"64 flows: state {per / 1024:.0f} KiB/replica; 10,000 replicas need {need / 2**30:.2f} GiB")
    host = platform.node() or "host"
    result = {
        "machine": {"host": host, "cpu": cpu_model(), "cores": os.cpu_count(),
                    "python": platform.python_version(), "backend": args.backend,
                    "device": info.get("cuda_device", ""), "diffsweep": info["version"]},
        "when": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "duration_s": args.duration_s, "runs": rows, "idle_flows": idle_rows,
        "memory_64_flows": {"state_bytes_per_replica": per, "arrays_bytes_per_replica": arrays,
                            "bytes_for_10000_replicas": need},
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"engine-{args.backend}-{host}.json"
    path.write_text(json.dumps(result, indent=2))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
