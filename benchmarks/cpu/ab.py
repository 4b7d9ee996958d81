"""Side-by-side CPU speed of this diffsweep and another build (an earlier commit), on one core.

    # build the other commit into a folder of its own, then compare:
    git worktree add /tmp/base <commit>
    pip install --no-build-isolation --no-deps -C cmake.define.DIFFSWEEP_CUDA=OFF \
        --target /tmp/base-site /tmp/base
    python benchmarks/cpu/ab.py --base-site /tmp/base-site --base-name 0.1.0 [--rounds 3]

A VM's speed drifts by tens of percent over hours (benchmarks/cpu/README.md), so only numbers
taken alternately, in the same minutes, compare. Each round runs the Kaur & Vin replica with
1 flow and with 64 flows (RTP 12-26 ms), EF on-off (T_on 10 ms), 50 s (--duration-s), two seeds, one thread,
best of three, once with each build in a fresh process (two versions of one package cannot
share a process). Writes <out>/ab-<base-name>-<host>.json.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from yardstick import child_env

CASE = r"""
import json, sys
from diffsweep.engine.pack import pack
from yardstick import kv_replica, speed
import diffsweep
res = {"version": getattr(diffsweep, "__version__", "?"), "file": diffsweep.__file__}
for n in (1, 64):
    res[str(n)] = speed(pack([kv_replica(n, float(sys.argv[1]), warmup_s=5.0)] * 2, [1, 2]))
print(json.dumps(res))
"""


def run_case(site: str | None, duration_s: float = 50.0) -> dict:
    # the site's diffsweep (without one, the installed), and yardstick.py from here
    env = child_env(*([site] if site else []), inherit=False, threads=None)
    out = subprocess.run([sys.executable, "-c", CASE, str(duration_s)], env=env, check=True, capture_output=True,
                         text=True, cwd="/")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-site", required=True, help="a folder holding the other build's diffsweep")
    ap.add_argument("--base-name", default="base", help="what the other build is (a commit, a version)")
    ap.add_argument("--this-site", default=None,
                    help="a folder holding this build's diffsweep (default: the installed one)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration-s", type=float, default=50.0,
                    help="each replica's simulated seconds (longer runs average a VM's speed swings)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()
    if not (Path(args.base_site) / "diffsweep").is_dir():
        sys.exit(f"--base-site {args.base_site}: no diffsweep package in it")
    rounds = []
    for k in range(args.rounds):
        base = run_case(args.base_site, args.duration_s)
        this = run_case(args.this_site, args.duration_s)
        rounds.append({"base": base, "this": this})
        for n in ("1", "64"):
            print(f"round {k + 1}: {n:>2} flows  {args.base_name} {base[n]['replica_slots_per_s'] / 1e6:6.2f}"
                  f"  this {this[n]['replica_slots_per_s'] / 1e6:6.2f} M replica-slots/s", flush=True)
    best = {who: {n: max(r[who][n]["replica_slots_per_s"] for r in rounds) for n in ("1", "64")}
            for who in ("base", "this")}
    for n in ("1", "64"):
        print(f"best: {n:>2} flows  {args.base_name} {best['base'][n] / 1e6:.2f}  this "
              f"{best['this'][n] / 1e6:.2f} M replica-slots/s  (this / base {best['this'][n] / best['base'][n]:.3f})")
    same = all(rounds[0]["base"][n]["bottleneck_pkts"] == rounds[0]["this"][n]["bottleneck_pkts"]
               for n in ("1", "64"))
    print("same simulated packets in both builds:", same)
    host = platform.node() or "host"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"ab-{args.base_name}-{host}.json"
    path.write_text(json.dumps({
        "machine": {"host": host, "cpu": platform.processor() or platform.machine(),
                    "cores": os.cpu_count()},
        "when": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "base_name": args.base_name,
        "duration_s": args.duration_s, "rounds": rounds, "best_replica_slots_per_s": best, "same_packets": same}, indent=2))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
