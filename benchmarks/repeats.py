"""Replicas a paper's family holds more than once, and what running them once saves
(diffsweep.repeats; docs/design.md "Determinism").

    python benchmarks/repeats.py [--papers kaur_vin,...] [--time kaur_vin] [--rounds 2]
                                 [--backend cpu] [--out DIR]

For every paper's quick and full family (every replica of sweeps/<paper>/*.toml, as
`reproduce` runs them in one engine call): replicas, distinct replicas, replica-slots and the
distinct ones' share. With ``--time PAPER``: that paper's quick family's one engine call on
``--backend``, run as `simulate` runs it (each distinct replica once) and with every replica
run (the engine's private ``_simulate``), alternating ``--rounds`` times; both must give the
same tables (a digest of each, as spread.py takes it). Writes <out>/repeats-<host>.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from spread import digest, family  # (benchmarks/ is on the path: this script's folder)

import diffsweep as ds
from diffsweep import backend_choice, engine, repeats

ROOT = Path(__file__).resolve().parent.parent


def counts(paper: str, quick: bool) -> dict:
    scs, seeds = family(paper, quick)
    first, _ = repeats.find_repeats(scs, seeds)
    slots = [backend_choice.slots_of(sc) for sc in scs]
    distinct = sum(slots[i] for i in first)
    return {"paper": paper, "quick": quick, "replicas": len(scs), "distinct_replicas": len(first),
            "replica_slots": sum(slots), "distinct_replica_slots": distinct,
            "distinct_share": distinct / max(1, sum(slots))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", default="kaur_vin,lee_jeong,rossi,habib,matta_guo")
    ap.add_argument("--time", default="", help="a paper whose quick family's call to time")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    args = ap.parse_args()
    info = ds.info()
    rows = []
    for paper in args.papers.split(","):
        for quick in (True, False):
            r = counts(paper, quick)
            rows.append(r)
            print(f"{paper:10s} {'quick' if quick else 'full ':5s} {r['replicas']:6,d} replicas, "
                  f"{r['distinct_replicas']:6,d} distinct; {r['replica_slots']:.3g} replica-slots, "
                  f"distinct {r['distinct_share']:.1%}", flush=True)
    timing = {}
    if args.time:
        scs, seeds = family(args.time, True)
        args_ = (args.backend, None, None, None, None, None, None, None)
        runs = {"each distinct replica once": lambda: engine.simulate(scs, seeds, args.backend),
                "every replica": lambda: engine._simulate(scs, seeds, *args_)}
        seconds = {k: [] for k in runs}
        digests = set()
        for _ in range(args.rounds):
            for k, f in runs.items():
                t = time.perf_counter()
                res = f()
                seconds[k].append(time.perf_counter() - t)
                digests.add(digest(res))
                print(f"{args.time} quick family on {args.backend}, {k}: "
                      f"{seconds[k][-1]:.2f} s", flush=True)
        a, b = (min(v) for v in seconds.values())
        timing = {"paper": args.time, "backend": args.backend,
                  "threads": info["openmp_threads"], "seconds": seconds,
                  "same_tables": len(digests) == 1, "speedup_best": b / a}
        print(f"best of {args.rounds}: {a:.2f} s against {b:.2f} s ({b / a:.2f}x); tables "
              + ("the same" if len(digests) == 1 else "DIFFER"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"repeats-{platform.node()}.json"
    path.write_text(json.dumps({"host": platform.node(), "version": info["version"],
                                "families": rows, "timing": timing}, indent=1))
    print(f"wrote {path}")
    if timing and not timing["same_tables"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
