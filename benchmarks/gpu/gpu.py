"""Engine throughput against the number of replicas, for 1, 64 and 1,000 flows, on one
backend: replica-slots and bottleneck packets per wall-second, and state bytes per replica.

    python benchmarks/gpu/gpu.py --backend cuda --out DIR [--duration-s 2] [--max-replicas 65536]

Scenarios: the Kaur & Vin dumbbell (40 Mb/s, 200 KB buffer, EF on-off at 30 %, T_on 1 ms,
warm-up 0.2 s); 64 flows with RTPs in 12-26 ms; 1,000 flows (RTP 12-26 ms). `--case slot`:
the replicas slot_cost.py and hot_sass.py count a slot's instructions on (T_on 10 ms, warm-up
1 s), so that gpu.sh's step `icache` measures what they estimate. One warm-up call first.
Writes DIR/gpu-throughput-<backend>.json and prints a table.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import diffsweep as ds
from diffsweep.engine.compiled import (default_lanes, run_packed, state_bytes,
                                       state_sections)
from diffsweep.engine.pack import pack

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cpu"))  # yardstick.py
from yardstick import kv_replica  # noqa: E402


def case(n_flows: int, duration_s: float, seed: int, slot: bool = False):
    """`slot`: the yardstick replica (hot_sass.py's); else 1-ms bursts, 0.2 s of warm-up."""
    return kv_replica(n_flows, duration_s, warmup_s=1.0 if slot else 0.2,
                      t_on_ms=10.0 if slot else 1.0, max_window_pkts=1000, seed=seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="cuda", choices=["cpu", "cuda"])
    ap.add_argument("--duration-s", type=float, default=2.0)
    ap.add_argument("--max-replicas", type=int, default=65536)
    ap.add_argument("--min-replicas", type=int, default=256)
    ap.add_argument("--flows", default="1,64,1000", help="flows per replica, comma-separated")
    ap.add_argument("--sizes", default="256,1024,4096,16384,32768,65536",
                    help="replica counts to try (within --min/--max-replicas)")
    ap.add_argument("--lanes", type=int, default=None, help="team size (default: default_lanes)")
    ap.add_argument("--per-warp", type=int, default=None,
                    help="replicas per warp on cuda (default: the engine's choice)")
    ap.add_argument("--case", default="throughput", choices=["throughput", "slot"],
                    help="slot: slot_cost.py's and hot_sass.py's replicas (T_on 10 ms, warm-up 1 s)")
    ap.add_argument("--wavefront", action="store_true",
                    help="the wavefront schedule (cuda: the stage kernels, cuda/kernel_wave.cuh)")
    ap.add_argument("--phases", nargs="?", const="block", default=None, choices=("block", "kernels"),
                    help="with --wavefront: the queue stage by slot phases (wave_phases): in one "
                         "kernel over block-local queues (block, the default) or a kernel per "
                         "phase (kernels)")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = ap.parse_args()
    if args.phases and not args.wavefront:
        ap.error("--phases needs --wavefront")
    wave = {"wavefront": True} if args.wavefront else {}
    if args.phases:
        wave["wave_phases"] = args.phases
    rows = []
    sizes = [R for R in (int(x) for x in args.sizes.split(","))
             if args.min_replicas <= R <= args.max_replicas]
    for n_flows in (int(f) for f in args.flows.split(",")):
        distinct = [case(n_flows, args.duration_s, s, args.case == "slot") for s in range(16)]
        lanes = args.lanes or default_lanes(args.backend, n_flows)
        run_packed(pack(distinct[:2], [0, 1], lanes=lanes), args.backend, **wave)  # warm-up
        for R in sizes:
            if n_flows >= 1000 and R > 16384:
                break  # 1,000-flow replicas: the sweep stops at 16,384 (host packing time)
            scs = [distinct[i % 16] for i in range(R)]
            t0 = time.perf_counter()
            p = pack(scs, list(range(R)), lanes=lanes)
            t_pack = time.perf_counter() - t0
            t0 = time.perf_counter()
            out = run_packed(p, args.backend, replicas_per_task=args.per_warp, **wave)
            wall = time.perf_counter() - t0
            slots = int(out["slots_run"].sum())
            pkts = int(out["q_departures"][:, 0, :].sum())
            r = {"n_flows": n_flows, "replicas": R, "lanes": lanes, "wavefront": args.wavefront,
                 "wave_phases": args.phases,
                 "wall_s": wall, "pack_s": t_pack,
                 "replica_slots": slots, "replica_slots_per_s": slots / wall, "bottleneck_pkts_per_s": pkts / wall,
                 "state_bytes_per_replica": state_bytes(p.shape),
                 "state_sections": state_sections(p.shape),
                 # replicas whose access-link pool ran short (simulate would rerun them)
                 "overflowed": int((out["overflow"] != 0).sum())}
            rows.append(r)
            print(f"{n_flows:5d} flows  R={R:6d}  lanes={lanes:2d}  wall {wall:8.3f} s  "
                  f"{r['replica_slots_per_s'] / 1e6:9.1f} M replica-slots/s  "
                  f"state {r['state_bytes_per_replica'] / 1024:6.0f} KiB  pack {t_pack:.2f} s"
                  f"{'  OVERFLOW in %d' % r['overflowed'] if r['overflowed'] else ''}", flush=True)
    info = ds.info()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tag = (f"-wavefront-phases{'-kernels' if args.phases == 'kernels' else ''}" if args.phases
           else "-wavefront" if args.wavefront else "")
    path = out / f"gpu-throughput-{args.backend}{tag}.json"
    path.write_text(json.dumps({"machine": {"host": platform.node(), "device": info.get("cuda_device", ""),
                                            "cpu_threads": info.get("openmp_threads")},
                                "when": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                                "duration_s": args.duration_s, "rows": rows}, indent=2))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
