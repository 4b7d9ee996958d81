"""The host side of ``diffsweep reproduce`` on results already stored (issue 22).

    python benchmarks/host/reproduce_host.py DIR [DIR ...] [--profile N] [--jobs J] [--out FILE]

Each DIR is a reproduction folder holding every result (``reproduce PAPER [--quick] --out
DIR`` ran there; the paper and ``--quick`` are read from it). Per folder, three commands of
the installed (or PYTHONPATH) diffsweep, each in a fresh process, timed wall-clock with the
load average beside it:

* ``redraw``: ``reproduce ... --redraw``: every table read from the stores, every claim
  rated, every figure drawn, the report written: a reproduction's host share less the
  engine call (and less storing its results, which a fresh run does instead of reading
  them); the command's ``[host]`` and ``[figures]`` lines split it;
* ``rerun``: the same command without ``--redraw``: nothing to compute or draw, the report
  kept (``diffsweep.report.cache``);
* ``engine``: not run: the seconds of the engine call(s) that computed the stored results,
  from the chunks' records.

``--fresh``: instead, per folder, the host share of a *fresh* reproduction: in a new process,
``reproduce`` into an empty temporary folder with the engine call replaced by the results
stored in DIR (``runner.run_family`` answers them at once, as the engine would have): grids
built, family call planned, every sweep stored, claims, figures and report, everything but
the engine, from the interpreter's start (works with the code before issue 22 too).

With ``--fresh``: ``--code LABEL=PYTHONPATH`` (repeatable) times each of several checkouts
(e.g. ``before=/tmp/old/python after=python``) in turn, ``--rounds N`` times, interleaved;
``--quiet-wait S`` waits up to S seconds before each run for the machine to be idle (under 8%
of its CPU busy over a second: on a VM shared with other jobs, the runs that start idle are
the ones to compare). Each row has the wall seconds, the process's CPU seconds (with its
figure workers), the load before and after, and ``engine_stub_s``: the seconds the stand-in
for the engine call took to read the stored results, which a real run does not spend (its
engine returns them), so ``host_less_stub_s`` is the host share proper.

``--profile N`` also runs the ``--redraw`` command under cProfile (in this process, serial:
``--jobs 1``) and keeps the N functions with the most cumulative time. Writes every number,
the machine and the date to ``--out`` (default
``benchmarks/host/results/reproduce-host-<host>.json``) and prints a table.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load() -> float:
    return os.getloadavg()[0]


def _engine_s(folder: Path) -> float:
    """The engine calls behind the stored results: each (host, pid, wall_s, n_replicas) of the
    chunks' records once, their seconds summed."""
    calls = {}
    for done in folder.glob("*/chunks/*.done.json"):
        m = json.loads(done.read_text()).get("meta") or {}
        calls[(m.get("host"), m.get("pid"), m.get("wall_s"), m.get("n_replicas"))] = \
            float(m.get("wall_s") or 0.0)
    return sum(calls.values())


def _command(folder: Path) -> list[str]:
    paper = json.loads((folder / "reproduce.json").read_text())["paper"]
    quick = "This is a --quick run" in (folder / "report.md").read_text()
    return [sys.executable, "-m", "diffsweep", "reproduce", paper, *(["--quick"] if quick else []),
            "--out", str(folder)]


def _phases(text: str) -> dict:
    """'store 1.0 s, claims 3.1 s' -> {"store": 1.0, "claims": 3.1}"""
    return {m[1]: float(m[2]) for part in text.split(", ")
            if (m := re.fullmatch(r"(.+) ([0-9.]+) s", part.strip()))}


def _timed(cmd: list[str]) -> dict:
    before = _load()
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if p.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    out = {"wall_s": round(wall, 2), "load_before": before, "load_after": _load()}
    for tag in ("host", "figures"):
        m = re.search(rf"^\[{tag}\] (.*)$", p.stdout, re.M)
        if m:
            out[tag] = _phases(m[1])
    out["kept"] = "kept as they are" in p.stdout
    return out


def fresh(src: str, dst: str) -> None:
    """``reproduce`` into ``dst`` (empty) with the engine call answered from the stores of
    ``src`` (a reproduction folder holding every result); prints the host's wall seconds."""
    t0 = time.perf_counter()
    from diffsweep.studies import reproduce
    from diffsweep.sweep import runner, store  # noqa: PLC0415

    src_p = Path(src)

    def engine(grids, *a, **k):  # what the engine would hand back: every replica of each grid
        return {name: store.load(src_p / name) for name in grids}, False
    runner.run_family = engine
    paper = json.loads((src_p / "reproduce.json").read_text())["paper"]
    quick = "This is a --quick run" in (src_p / "report.md").read_text()
    log = []
    reproduce.reproduce(paper, dst, quick=quick, progress=False, log=log.append)
    print(json.dumps({"host_s": time.perf_counter() - t0, "log": log}))


def _busy(dt: float = 1.0) -> float:
    """The fraction of the machine's CPU time that was busy over ``dt`` seconds (/proc/stat)."""
    def snap():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]
    t0, i0 = snap()
    time.sleep(dt)
    t1, i1 = snap()
    return 1.0 - (i1 - i0) / max(1, t1 - t0)


def _wait_quiet(limit_s: float, busy_below: float = 0.08) -> tuple[float, float]:
    """Wait up to ``limit_s`` for an idle machine; (busy fraction last seen, seconds waited)."""
    t0 = time.perf_counter()
    busy = _busy() if limit_s > 0 else float("nan")
    while busy >= busy_below and time.perf_counter() - t0 < limit_s:
        busy = _busy()
    return busy, time.perf_counter() - t0


def _fresh(folder: Path, pythonpath: str | None = None, quiet_wait: float = 0.0) -> dict:
    import resource  # noqa: PLC0415
    import shutil  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    busy, waited = _wait_quiet(quiet_wait) if quiet_wait > 0 else (None, 0.0)
    dst = Path(tempfile.mkdtemp(prefix="fresh-")) / "out"
    env = dict(os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {}))
    before = _load()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, __file__, "--fresh-one", str(folder), str(dst)],
                       capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(dst.parent, ignore_errors=True)
    if p.returncode:
        raise SystemExit(f"fresh {folder} failed:\n{p.stderr[-3000:]}")
    got = json.loads(p.stdout.strip().splitlines()[-1])
    out = {"wall_s": round(wall, 2), "in_process_s": round(got["host_s"], 2),
           "cpu_s": round(ru1.ru_utime + ru1.ru_stime - ru0.ru_utime - ru0.ru_stime, 2),
           "load_before": before, "load_after": _load()}
    if busy is not None:
        out.update(busy_before=round(busy, 3), waited_s=round(waited))
    for line in got["log"]:
        for tag in ("host", "figures"):
            if line.startswith(f"[{tag}] "):
                out[tag] = _phases(line[len(tag) + 3:])
        m = re.match(r"\[family\] \d+ replicas in ([0-9.]+) s", line)
        if m:
            out["engine_stub_s"] = float(m[1])
            out["host_less_stub_s"] = round(got["host_s"] - float(m[1]), 2)
    return out


def _profile(cmd: list[str], top: int) -> list[dict]:
    import cProfile  # noqa: PLC0415
    import pstats  # noqa: PLC0415

    from diffsweep.cli import app as cli  # noqa: PLC0415

    prof = cProfile.Profile()
    prof.runcall(cli.main, cmd[3:] + ["--redraw", "--jobs", "1", "--quiet"])
    st = pstats.Stats(prof)
    rows = []
    for (file, line, fn), (_, _, _, cum, _) in st.stats.items():
        if "diffsweep" in file or "matplotlib/figure.py" in file:
            rows.append({"function": f"{Path(file).parent.name}/{Path(file).name}:{fn}",
                         "cumulative_s": round(cum, 2)})
    return sorted(rows, key=lambda r: -r["cumulative_s"])[:top]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--code", action="append", default=[], metavar="LABEL=PYTHONPATH")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--quiet-wait", type=float, default=0.0, metavar="S")
    if sys.argv[1:2] == ["--fresh-one"]:
        fresh(*sys.argv[2:4])
        return
    args = ap.parse_args()
    rows = []
    codes = [c.split("=", 1) for c in args.code] or [[None, None]]
    for folder in args.dirs:
        if args.fresh:
            for r in range(args.rounds):
                for label, pythonpath in codes:
                    row = {"folder": str(folder), "engine_s": round(_engine_s(folder), 1),
                           **({"code": label, "pythonpath": pythonpath, "round": r}
                              if label else {}),
                           "fresh": _fresh(folder, pythonpath, args.quiet_wait)}
                    rows.append(row)
                    f = row["fresh"]
                    print(f"{folder}{f' [{label}]' if label else ''}: fresh host share "
                          f"{f['in_process_s']:.2f} s, {f.get('host_less_stub_s', 0):.2f} s "
                          f"less the engine stand-in, CPU {f['cpu_s']:.1f} s (engine not run: "
                          f"{row['engine_s']:.1f} s) {f.get('host', {})} load "
                          f"{f['load_before']:.2f}" + (f" busy {f['busy_before']:.2f}"
                                                       if 'busy_before' in f else ""),
                          flush=True)
            continue
        cmd = _command(folder)
        jobs = ["--jobs", str(args.jobs)] if args.jobs else []
        row = {"folder": str(folder), "command": " ".join(cmd[3:]),
               "engine_s": round(_engine_s(folder), 1),
               "redraw": _timed(cmd + ["--redraw", *jobs]), "rerun": _timed(cmd)}
        if args.profile:
            row["profile"] = _profile(cmd, args.profile)
        rows.append(row)
        r, k = row["redraw"], row["rerun"]
        print(f"{row['command']:45s} engine {row['engine_s']:7.1f} s  redraw {r['wall_s']:6.2f} s"
              f" {r.get('host', {})}  rerun {k['wall_s']:5.2f} s (kept: {k['kept']})  load "
              f"{r['load_before']:.2f}", flush=True)
    out = Path(args.out or Path(__file__).resolve().parent / "results" /
               f"reproduce-host{'-fresh' if args.fresh else ''}-{platform.node()}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"machine": f"{platform.node()} {platform.machine()}, "
                                          f"{os.cpu_count()} cores",
                               "date": dt.datetime.now().isoformat(timespec="minutes"),
                               "python": platform.python_version(), "rows": rows},
                              indent=1) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
