"""Replicas a paper's family holds more than once, and what running them once saves
(diffsweep.engine.repeats; docs/design.md "Determinism").

    python benchmarks/cpu/repeats.py [--papers kaur_vin,...] [--time kaur_vin] [--rounds 2]
                                 [--backend cpu] [--out DIR]
    python benchmarks/cpu/repeats.py --chunk-sizes 8,32,4096 [--papers ...] [--out DIR]

For every paper's quick and full family (every replica of sweeps/<paper>/*.toml, as
`reproduce` runs them in one engine call): replicas, distinct replicas, replica-slots and the
distinct ones' share. With ``--time PAPER``: that paper's quick family's one engine call on
``--backend``, run as `simulate` runs it (each distinct replica once) and with every replica
run (the engine's private ``_simulate``), alternating ``--rounds`` times; both must give the
same tables (a digest of each, as spread.py takes it). Writes <out>/repeats-<host>.json.

With ``--chunk-sizes``: what `diffsweep run` of each sweep file alone runs when its replicas
take chunks of those sizes (a chunk's repeats run once): the replicas run with
``chunking.plan_chunks`` as it is (a seed's repeats kept in one chunk) and as it was before
(the grid's order: the same plan with the repeat grouping switched off). Counts only, no
engine run. Writes <out>/repeats-chunks-<host>.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
from spread import digest, family  # noqa: E402  (benchmarks/gpu/spread.py)

import diffsweep as ds
from diffsweep.engine import backend_choice, chunking, execution as engine, repeats
from diffsweep.sweep.config import load_sweep

ROOT = Path(__file__).resolve().parents[2]


def counts(paper: str, quick: bool) -> dict:
    scs, seeds = family(paper, quick)
    first, _ = repeats.find_repeats(scs, seeds)
    slots = [backend_choice.slots_of(sc) for sc in scs]
    distinct = sum(slots[i] for i in first)
    return {"paper": paper, "quick": quick, "replicas": len(scs), "distinct_replicas": len(first),
            "replica_slots": sum(slots), "distinct_replica_slots": distinct,
            "distinct_share": distinct / max(1, sum(slots))}


def run_in_chunks(grid, size: int, grouped: bool) -> int:
    """Replicas the engine runs for ``grid`` in chunks of at most ``size``: each chunk's
    distinct ones (``grouped`` False: plan_chunks without its repeat grouping)."""
    chunks, _ = chunking.plan_chunks(grid, grid.replicas, 1 << 50, size, group_repeats=grouped)
    return sum(len(repeats.find_repeats([grid.scenario(p, s) for p, s in zip(c.point, c.seed)],
                                        c["seed"].tolist())[0]) for c in chunks)


def chunked(papers: list[str], sizes: list[int]) -> list[dict]:
    rows = []
    for paper in papers:
        for quick in (True, False):
            for path in sorted((ROOT / "sweeps" / paper).glob("*.toml")):
                grid = load_sweep(str(path), quick=quick).make_grid(max_points=None)
                distinct = len(repeats.find_repeats(
                    [grid.scenario(p, s) for p, s in zip(grid.replicas.point, grid.replicas.seed)],
                    grid.replicas["seed"].tolist())[0])
                if distinct == len(grid):
                    continue
                r = {"sweep": f"{paper}/{path.stem}", "quick": quick, "replicas": len(grid),
                     "distinct": distinct,
                     "run": {n: {"grouped": run_in_chunks(grid, n, True),
                                 "grid_order": run_in_chunks(grid, n, False)} for n in sizes}}
                rows.append(r)
                print(f"{r['sweep']:28s} {'quick' if quick else 'full ':5s} {len(grid):5d} "
                      f"replicas, {distinct:5d} distinct; run in chunks of "
                      + ", ".join(f"{n}: {v['grouped']} (grid order {v['grid_order']})"
                                  for n, v in r["run"].items()), flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", default="kaur_vin,lee_jeong,rossi,habib,matta_guo")
    ap.add_argument("--time", default="", help="a paper whose quick family's call to time")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--chunk-sizes", default="",
                    help="chunk sizes: count what `diffsweep run` of each sweep file runs")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()
    info = ds.info()
    out = Path(args.out)
    if args.chunk_sizes:
        rows = chunked(args.papers.split(","), [int(n) for n in args.chunk_sizes.split(",")])
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"repeats-chunks-{platform.node()}.json"
        path.write_text(json.dumps({"host": platform.node(), "version": info["version"],
                                    "sweeps": rows}, indent=1))
        print(f"wrote {path}")
        return
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
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"repeats-{platform.node()}.json"
    path.write_text(json.dumps({"host": platform.node(), "version": info["version"],
                                "families": rows, "timing": timing}, indent=1))
    print(f"wrote {path}")
    if timing and not timing["same_tables"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
