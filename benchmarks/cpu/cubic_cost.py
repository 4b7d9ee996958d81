"""What CUBIC (cuda/model/tcp_cubic.h) costs a replica-slot on the CPU, one core.

    PYTHONPATH=python python benchmarks/cpu/cubic_cost.py [--rounds 3]

The Kaur & Vin replica of ab.py (1 flow; 64 flows, RTP 12-26 ms; EF on-off, T_on 10 ms; 50 s;
two seeds; one thread; best of three) as it is (ns-2's NewReno window) and with every flow's
``congestion_control="cubic"`` (ns-3.44's defaults), alternately in one process of this build.
CUBIC's windows differ, so its runs carry other packets: both the replica-slots and the
bottleneck packets per second are reported. Writes <out>/cubic-cost-<host>.json.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import platform
from pathlib import Path

from diffsweep.engine.pack import pack
from yardstick import kv_replica, speed


def cubic(sc):
    return dataclasses.replace(sc, flows=tuple(dataclasses.replace(f, congestion_control="cubic")
                                               for f in sc.flows))


def measure(p) -> dict:
    r = speed(p)
    return {**r, "ns_per_replica_slot": 1e9 / r["replica_slots_per_s"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()
    packs = {}
    for n in (1, 64):
        sc = kv_replica(n, 50.0, warmup_s=5.0)
        packs[(n, "newreno")] = pack([sc] * 2, [1, 2])
        packs[(n, "cubic")] = pack([cubic(sc)] * 2, [1, 2])
    rounds = []
    for k in range(args.rounds):
        r = {f"{n}-{cc}": measure(p) for (n, cc), p in packs.items()}
        rounds.append(r)
        for n in (1, 64):
            a, b = r[f"{n}-newreno"], r[f"{n}-cubic"]
            print(f"round {k + 1}: {n:>2} flows  newreno {a['ns_per_replica_slot']:7.1f}  cubic "
                  f"{b['ns_per_replica_slot']:7.1f} ns per replica-slot", flush=True)
    best = {key: min(r[key]["ns_per_replica_slot"] for r in rounds) for key in rounds[0]}
    summary = {}
    for n in (1, 64):
        a, b = best[f"{n}-newreno"], best[f"{n}-cubic"]
        summary[str(n)] = {"newreno_ns": a, "cubic_ns": b, "cubic_over_newreno": b / a}
        print(f"best: {n:>2} flows  newreno {a:.1f}  cubic {b:.1f} ns per replica-slot "
              f"({b / a:.3f}x)")
    out = Path(args.out) / f"cubic-cost-{platform.node() or 'host'}.json"
    out.write_text(json.dumps({"rounds": rounds, "best": summary}, indent=1) + "\n")
    print(out)


if __name__ == "__main__":
    main()
