"""How busy each paper's busiest link is: an upper bound on the slots an engine could skip.

    python benchmarks/cpu/busy.py [--papers kaur_vin,...] [--full] [--backend cpu] [--out DIR]

The engine steps every slot of a replica. A slot in which nothing happens (no packet on any
link, none due anywhere, no timer or source event) could be skipped without changing a
result; such a slot has, at the least, its busiest link idle. So the share of replica-slots
in which a replica's busiest link is idle bounds what skipping idle slots could save. For each
paper's family (every replica of sweeps/<paper>/*.toml, one engine call, each distinct replica
once), per replica: busy = max over links of its classes' bytes departed x 8 / (rate x
measured time) (the measured part, after warm-up); the family's idle share = sum of (1 -
busy) x slots over sum of slots. Writes <out>/busy-<quick|full>-<host>.json.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from engine import cpu_model  # (benchmarks/cpu/ is on the path: this script's folder)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
from spread import family  # noqa: E402  (benchmarks/gpu/spread.py)

import diffsweep  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PAPERS = ("kaur_vin", "lee_jeong", "rossi", "habib", "matta_guo")


def busy(paper: str, quick: bool, backend: str) -> dict:
    scs, seeds = family(paper, quick)
    t0 = time.perf_counter()
    res = diffsweep.engine.execution.simulate(scs, seeds, backend=backend)
    wall = time.perf_counter() - t0
    rep = res.replicas.set_index("replica")
    q = res.queues.assign(bits=res.queues["bytes_departed"] * 8.0)
    per_link = q.groupby(["replica", "link"]).agg(bits=("bits", "sum"), rate=("rate_bps", "first"))
    per_link["busy"] = per_link["bits"] / (per_link["rate"]
                                           * rep["measured_s"].reindex(
                                               per_link.index.get_level_values(0)).to_numpy())
    b = per_link["busy"].groupby(level=0).max().reindex(rep.index).fillna(0.0).clip(upper=1.0)
    slots = rep["slots_run"].astype(float)
    idle = float(((1.0 - b) * slots).sum() / slots.sum())
    return {"paper": paper, "quick": quick, "replicas": len(scs), "engine_s": round(wall, 2),
            "busy_mean": round(float(b.mean()), 4), "busy_min": round(float(b.min()), 4),
            "idle_share_of_replica_slots": round(idle, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", default=",".join(PAPERS))
    ap.add_argument("--full", action="store_true", help="the full families (default: quick)")
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()
    rows = []
    for paper in args.papers.split(","):
        r = busy(paper, not args.full, args.backend)
        rows.append(r)
        print(f"{paper:10s} {'full' if args.full else 'quick'}: {r['replicas']:6d} replicas, "
              f"busiest link busy {r['busy_mean']:.3f} on average (min {r['busy_min']:.3f}); "
              f"idle in {100 * r['idle_share_of_replica_slots']:.1f}% of the replica-slots "
              f"(engine {r['engine_s']:.1f} s)", flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"busy-{'full' if args.full else 'quick'}-{platform.node()}.json"
    path.write_text(json.dumps({"machine": {"host": platform.node(), "cpu": cpu_model(),
                                            "cores": os.cpu_count(), "backend": args.backend},
                                "date": time.strftime("%Y-%m-%d"), "rows": rows}, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
