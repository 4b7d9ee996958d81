"""--dry-run's time estimate against the run, on this machine (issue 45: the estimate was 5-7x
too high on the 2-core VM: 24 s estimated, 5.3 s run).

For each sweep (default: three --quick sweeps of different shapes; ``--full``: as written),
``rounds`` times: the command ``diffsweep run SWEEP --quick --out TMP --dry-run`` (its "time (rough)" line), then the
run itself into a fresh folder (the run line's "in X s", what ``run`` spent, and the whole
command's wall time, Python's start included). The first dry-run of a sweep probes the machine
(diffsweep.engine.sizing.probe_ratio); the later ones read the kept probe, in a cache folder of this
benchmark's own (DIFFSWEEP_CACHE_DIR). The machine's load is recorded beside each pair: on a
shared VM the run's speed moves with it.

    PYTHONPATH=python python benchmarks/host/estimate.py [--rounds 2] [SWEEP.toml ...]

Results: ``benchmarks/host/results/estimate-<host>-<date>.json`` (machine, date, every number) and a
table on stdout. Nothing here is asserted: measured, not tested.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cpu"))
from engine import cpu_model  # noqa: E402  (benchmarks/cpu/engine.py)

REPO = Path(__file__).resolve().parents[2]
DEFAULT = ("sweeps/kaur_vin/k5_unequal.toml", "sweeps/habib/h3.toml", "sweeps/matta_guo/m3.toml")


def _cli(args, env) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "diffsweep", *args], capture_output=True,
                       text=True, env=env, cwd=REPO, timeout=1800)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"diffsweep {' '.join(args)} failed ({p.returncode}): {p.stderr}")
    return wall, p.stdout + p.stderr


def _seconds(text: str) -> float:
    m = re.match(r"([0-9.]+) (s|min|h|days)", text)
    v, unit = float(m.group(1)), m.group(2)
    return v * {"s": 1, "min": 60, "h": 3600, "days": 86400}[unit]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sweeps", nargs="*", default=list(DEFAULT))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--full", action="store_true", help="the sweeps as written (no --quick)")
    ap.add_argument("--out", default=None, help="results file (default benchmarks/host/results/"
                    "estimate-<host>-<date>.json)")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="estimate-bench-"))
    env = {**os.environ, "DIFFSWEEP_CACHE_DIR": str(tmp / "cache"),
           "PYTHONPATH": str(REPO / "python")}
    rows = []
    try:
        for sweep in args.sweeps:
            for r in range(args.rounds):
                load = os.getloadavg()[0]
                quick = [] if args.full else ["--quick"]
                _, out = _cli(["run", sweep, *quick, "--out", str(tmp / "o"), "--dry-run"], env)
                line = next(ln for ln in out.splitlines() if ln.startswith("time (rough)"))
                est = _seconds(line.split(":", 1)[1].strip())
                shutil.rmtree(tmp / "o", ignore_errors=True)
                wall, out = _cli(["run", sweep, *quick, "--out", str(tmp / "o")], env)
                run_s = float(re.search(r" in ([0-9.]+) s; results in", out).group(1))
                shutil.rmtree(tmp / "o", ignore_errors=True)
                row = {"sweep": sweep, "quick": not args.full, "round": r, "estimate_s": est, "run_s": run_s,
                       "command_wall_s": round(wall, 3), "ratio_estimate_to_run":
                       round(est / run_s, 3), "load_1min_before": load, "estimate_line": line}
                rows.append(row)
                print(f"{sweep:45s} round {r}: estimate {est:6.2f} s, run {run_s:6.2f} s "
                      f"(command {wall:5.2f} s), estimate/run {est / run_s:5.2f}, load {load:.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    host = platform.node()
    date = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d")
    out = Path(args.out) if args.out else REPO / "benchmarks" / "host" / "results" / \
        f"estimate-{host}-{date}.json"
    out.write_text(json.dumps({
        "what": "diffsweep run --dry-run's 'time (rough)' against the run's own 'in X s'",
        "machine": {"host": host, "cpu": cpu_model(), "cores": os.cpu_count(),
                    "python": platform.python_version()},
        "date_utc": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "command": "PYTHONPATH=python python benchmarks/host/estimate.py " + " ".join(
            argv if argv is not None else sys.argv[1:]),
        "rows": rows}, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
