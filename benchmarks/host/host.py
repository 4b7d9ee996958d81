"""Host-side cost of a figure family before the engine runs: building every replica's
Scenario (points x seeds) and packing them into launches, for every sweep of a paper.

    python benchmarks/host/host.py [--paper kaur_vin] [--quick] [--out benchmarks/host/results]

Issue "Make the GPU earn its place" asks this to be well under a second for the 7,680
replicas of the full Kaur & Vin reproduction, since it adds to every GPU run. Prints one line
per sweep and the totals; writes <out>/host-<paper>[-quick]-<host>.json.
"""
from __future__ import annotations

import argparse
import glob
import json
import platform
import time
from pathlib import Path

from diffsweep.sweep.config import load_sweep
from diffsweep.engine.compiled import default_lanes
from diffsweep.engine.pack import pack, shape_key

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default="kaur_vin", help="folder under sweeps/")
    ap.add_argument("--quick", action="store_true", help="the sweeps' [quick] settings")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()
    rows = []
    for path in sorted(glob.glob(str(ROOT / "sweeps" / args.paper / "*.toml"))):
        t0 = time.perf_counter()
        grid = load_sweep(path, quick=args.quick).make_grid(max_points=None)
        scs, seeds = [], []
        for p in range(grid.n_points):
            for s in grid.seeds:
                scs.append(grid.scenario(p, s))
                seeds.append(int(s))
        t1 = time.perf_counter()
        groups: dict = {}
        for i, sc in enumerate(scs):
            groups.setdefault(shape_key(sc), []).append(i)
        for idx in groups.values():
            n_flows = max(scs[i].n_flows for i in idx)
            pack([scs[i] for i in idx], [seeds[i] for i in idx], lanes=default_lanes("cuda", n_flows))
        t2 = time.perf_counter()
        rows.append({"sweep": Path(path).stem, "replicas": len(scs),
                     "distinct_scenarios": len({id(sc) for sc in scs}), "launches": len(groups),
                     "build_s": t1 - t0, "pack_s": t2 - t1})
        r = rows[-1]
        print(f"{r['sweep']:22s} {r['replicas']:6d} replicas {r['distinct_scenarios']:6d} distinct "
              f"{r['launches']:3d} launches  build {r['build_s']:6.2f} s  pack {r['pack_s']:6.2f} s",
              flush=True)
    tot = {k: sum(r[k] for r in rows) for k in ("replicas", "distinct_scenarios", "build_s", "pack_s")}
    print(f"{'total':22s} {tot['replicas']:6d} replicas {tot['distinct_scenarios']:6d} distinct "
          f"           build {tot['build_s']:6.2f} s  pack {tot['pack_s']:6.2f} s  "
          f"({(tot['build_s'] + tot['pack_s']) / max(1, tot['replicas']) * 1e3:.2f} ms per replica)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    host = platform.node() or "host"
    path = out / f"host-{args.paper}{'-quick' if args.quick else ''}-{host}.json"
    path.write_text(json.dumps({"machine": {"host": host, "cpu": platform.processor() or platform.machine()},
                                "when": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "paper": args.paper,
                                "quick": args.quick, "rows": rows, "total": tot}, indent=2))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
