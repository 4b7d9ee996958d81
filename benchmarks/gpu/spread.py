"""Replicas per GPU warp against the engine time of a paper's whole family (issue 21).

    python benchmarks/gpu/spread.py [--paper kaur_vin] [--quick] [--per-warp auto,1,2,4,8,32]
                                [--lanes default,teams,1] [--smem-kib 0,48] [--warp-rounds off,on]
                                [--cpu] [--out DIR]

Builds every replica of the paper's sweeps (as `reproduce` does: one engine call for the
family), then runs that call once per variant on cuda: ``--per-warp`` sets the engine's
``replicas_per_task`` (at most so many replicas per warp; ``auto``: spread_per_warp's choice,
cuda/engine/family.h), ``--lanes`` the team size (``default``: engine.default_lanes for the
job; ``teams``: its team for each shape's flows whatever the job's size, as a job that fills
the device gets; a number: that many lanes for every shape),
``--smem-kib`` the shared-memory experiment (DIFFSWEEP_CUDA_SMEM_PER_WARP: one warp per
block; a task whose state blocks fit in so many KiB keeps them in shared memory),
``--warp-rounds`` the run option ``warp_rounds`` (``on``: a warp's replicas share each round;
``default``: the engine's default, on for cuda). With
``--cpu``, the same call on all CPU cores too. Every variant's tables must be bit-identical
(a digest of each table, ``pandas.util.hash_pandas_object``: compare digests within one run,
since they depend on the pandas version); prints one line per variant and writes
<out>/spread-<paper>[-quick]-<host>.json.
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import platform
import time
from pathlib import Path

import pandas as pd

import diffsweep as ds
from diffsweep.engine import compiled, execution as engine
from diffsweep.sweep.config import load_sweep

ROOT = Path(__file__).resolve().parents[2]


def family(paper: str, quick: bool):
    """Every replica of the paper's family (sweeps/<paper>/*.toml); with ``quick``, of the
    sweeps ``reproduce --quick`` runs (not those of its full-only families)."""
    from diffsweep import papers

    scs, seeds = [], []
    quick_sweeps = {sw for fam in papers.get(paper.replace("_", "-")).families
                    if not fam.full_only for sw in fam.sweeps}
    for path in sorted(glob.glob(str(ROOT / "sweeps" / paper / "*.toml"))):
        if quick and Path(path).stem not in quick_sweeps:
            continue
        grid = load_sweep(path, quick=quick).make_grid(max_points=None)
        for p in range(grid.n_points):
            for s in grid.seeds:
                scs.append(grid.scenario(p, s))
                seeds.append(int(s))
    return scs, seeds


def digest(res) -> str:
    h = hashlib.sha256()
    for name, df in res.tables().items():
        h.update(name.encode())
        if len(df.columns):
            h.update(pd.util.hash_pandas_object(df, index=False).values.tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default="kaur_vin", help="folder under sweeps/")
    ap.add_argument("--quick", action="store_true", help="the sweeps' [quick] settings")
    ap.add_argument("--per-warp", default="auto,1,2,4,8,32",
                    help="replicas per warp to try (auto: the engine's choice)")
    ap.add_argument("--lanes", default="default",
                    help="team sizes to try: default (default_lanes for the job), teams (the "
                         "flow teams whatever the job's size) or a number")
    ap.add_argument("--smem-kib", default="0",
                    help="shared memory per warp in KiB to try (the DIFFSWEEP_CUDA_SMEM_PER_WARP "
                         "experiment: a task whose blocks fit keeps them there; 0: off)")
    ap.add_argument("--warp-rounds", default="default",
                    help="default, off, on or a list (off,on): a warp's replicas share each "
                         "round (run option; default: the engine's, on for cuda)")
    ap.add_argument("--cpu", action="store_true", help="the same call on all CPU cores too")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()

    t0 = time.perf_counter()
    scs, seeds = family(args.paper, args.quick)
    slots = None
    print(f"{args.paper}{' quick' if args.quick else ''}: {len(scs)} replicas, built in "
          f"{time.perf_counter() - t0:.1f} s; {ds.info().get('cuda_device')}", flush=True)
    calls: list[float] = []
    run_family = compiled.run_family

    def timed(*a, **k):  # the engine call alone, without building and packing
        t = time.perf_counter()
        out = run_family(*a, **k)
        calls.append(time.perf_counter() - t)
        return out

    compiled.run_family = timed
    variants = []
    if args.cpu:
        variants.append(("cpu", None, None, 0, None))
    for smem in args.smem_kib.split(","):
        for lanes in args.lanes.split(","):
            for k in args.per_warp.split(","):
                for w in args.warp_rounds.split(","):
                    if w not in ("default", "off", "on"):
                        raise SystemExit(f"--warp-rounds: {w!r} is not default, off or on")
                    variants.append(("cuda", None if k == "auto" else int(k),
                                     lanes if lanes in ("default", "teams") else int(lanes),
                                     int(smem),
                                     {"on": True, "off": False}.get(w)))
    rows, first = [], None
    default_lanes = compiled.default_lanes
    for backend, k, lanes, smem, warp in variants:
        # "teams": default_lanes as for a job that fills the device (its size left out)
        compiled.default_lanes = ((lambda b, flows, n=0, resident_warps=None:
                                   default_lanes(b, flows))
                                  if lanes == "teams" else default_lanes)
        os.environ["DIFFSWEEP_CUDA_SMEM_PER_WARP"] = str(smem * 1024)
        if backend == "cuda" and not ds.info()["cuda_devices"]:
            print("no CUDA device: cuda variants skipped")
            break
        calls.clear()
        t = time.perf_counter()
        res = engine.simulate(scs, seeds, backend=backend,
                              lanes=lanes if isinstance(lanes, int) else None, replicas_per_task=k,
                              warp_rounds=warp)
        wall = time.perf_counter() - t
        if slots is None:
            slots = int(res.replicas["slots_run"].sum()) if "slots_run" in res.replicas else None
        d = digest(res)
        first = first or d
        row = {"backend": backend, "per_warp": k or "auto", "lanes": lanes or "default",
               "smem_kib": smem,
               "warp_rounds": {None: "default", True: "on", False: "off"}[warp],
               "cuda_kernel": res.meta.get("cuda_kernel"),
               "cuda_plan": res.meta.get("cuda_plan"),
               "engine_s": sum(calls), "simulate_s": wall, "digest": d, "same": d == first}
        if slots:
            row["replica_slots_per_s"] = slots / row["engine_s"]
        rows.append(row)
        print(f"{backend:4s} per warp {str(row['per_warp']):>4s} lanes {str(row['lanes']):>7s} "
              f"smem {smem:3d} KiB"
              f"{'' if warp is None else ' warp rounds ' + row['warp_rounds']}"
              f"{' ' + row['cuda_kernel'] if row['cuda_kernel'] else ''}: "
              f"engine {row['engine_s']:7.2f} s (simulate {wall:7.2f} s)"
              + (f", {row['replica_slots_per_s'] / 1e6:8.1f} M replica-slots/s" if slots else "")
              + f"  {d} {'same' if row['same'] else 'DIFFERENT'}"
              + (f"  [{plan['per_warp']} per warp at most, {plan['warps']} warps, "
                 f"{plan['resident_warps']} resident]" if (plan := row["cuda_plan"]) else ""),
              flush=True)
    compiled.default_lanes = default_lanes
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    host = platform.node() or "host"
    lanes = "" if args.lanes == "default" else f"-lanes{args.lanes.replace(',', '_')}"
    lanes += "" if args.smem_kib == "0" else f"-smem{args.smem_kib.replace(',', '_')}"
    lanes += "" if args.warp_rounds == "default" else f"-warp{args.warp_rounds.replace(',', '_')}"
    path = out / f"spread-{args.paper}{'-quick' if args.quick else ''}{lanes}-{host}.json"
    path.write_text(json.dumps({"machine": {"host": host, "device": ds.info().get("cuda_device"),
                                            "cpu_threads": ds.info().get("openmp_threads")},
                                "when": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "paper": args.paper,
                                "quick": args.quick, "replicas": len(scs), "replica_slots": slots,
                                "rows": rows}, indent=2))
    print(f"wrote {path}")
    if not all(r["same"] for r in rows):
        raise SystemExit("tables differ between variants")


if __name__ == "__main__":
    main()
