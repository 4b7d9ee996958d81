"""The `diffsweep` command line."""
from __future__ import annotations

import argparse
import re
import shlex
import sys
import warnings

from . import engine, papers
from .errors import BackendError, ConfigError, EngineError, SweepInterrupted


def _cmd_info(args) -> int:
    i = engine.info()
    print(f"diffsweep {i['version']} (Python {i['python']})")
    print(f"backends built : {', '.join(i['backends_built']) or 'none'}")
    print(f"OpenMP threads : {i['openmp_threads']}")
    if i["cuda_built"]:
        dev = i["cuda_device"] or "none visible"
        print(f"CUDA devices   : {i['cuda_devices']} ({dev})")
    else:
        print("CUDA devices   : CUDA engine not built (no nvcc at build time)")
    print(f"backend='auto' : {i['auto_backend']}")
    return 0


def _cmd_demo(args) -> int:
    """A small built-in Kaur & Vin sweep: one Reno flow, EF on-off vs CBR over T_on."""
    from .grid import Grid
    from .runner import run
    from .scenarios import kaur_vin

    grid = Grid(kaur_vin, seeds=args.seeds, n_flows=1, rtp_ms=8.0, ef=["cbr", "onoff"],
                t_on_ms=[0.4, 4.0, 40.0, 400.0], duration_s=args.duration_s, warmup_s=5.0)
    res = run(grid, backend=args.backend)
    f = res.flows
    table = (f.groupby(["ef", "t_on_ms"])[["goodput_bps", "timeouts", "fast_retransmits", "drops"]]
             .mean().reset_index())
    table["goodput_mbps"] = table.pop("goodput_bps") / 1e6
    print(f"{len(res)} replicas on {res.meta['backend']} in {res.meta['wall_s']:.2f} s")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return 0


_SIZE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([kKmMgGtT]?)(i?[bB])?\s*$")


def _bytes(text: str) -> int:
    """'4G', '512MiB', '2e9' -> bytes (K, M, G, T are powers of 1024)."""
    m = _SIZE.match(text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (e.g. 2G, 512M, 1073741824)")
    value = float(m.group(1)) * 1024 ** " KMGT".index(m.group(2).upper() or " ")
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive size")
    return int(value)


def _client(address: str):
    try:
        from distributed import Client  # noqa: PLC0415
    except ImportError:
        raise ConfigError("--scheduler: Dask is not installed; install the extra with "
                          "pip install 'diffsweep[distributed]' (or pip install "
                          "'dask[distributed]')") from None
    try:
        return Client(address, timeout=30)
    except (OSError, TimeoutError) as e:
        raise ConfigError(f"--scheduler: cannot connect to the Dask scheduler at {address!r} "
                          f"({e})") from None


def _point_label(grid, p: int) -> str:
    row = grid.points.iloc[int(p)]
    dims = [c for c in grid.columns if c in getattr(grid, "_dim_names", grid.axes)]
    values = ", ".join(f"{c}={getattr(row[c], 'item', lambda: row[c])()!r}" for c in dims)
    return f"point {p}" + (f" ({values})" if values else "")


def _sweep_path(cfg, message: str) -> str:
    """A Grid message starts with the parameter name; prefix where the sweep file sets it."""
    name, sep, rest = message.partition(":")
    if not sep or not name.isidentifier():
        return message
    if name in cfg.axes:
        return f"axes.{name}:{rest}"
    if name in cfg.fixed:
        return f"{'fixed.' if name not in ('duration_s', 'warmup_s') else ''}{name}:{rest}"
    for i, g in enumerate(cfg.zips):
        if name in g.names:
            return f"zip[{i}].{name}:{rest}"
    return message


def _cmd_run(args) -> int:
    from .config import load_sweep  # noqa: PLC0415
    from .runner import run  # noqa: PLC0415

    cfg = load_sweep(args.sweep, quick=args.quick, seeds=args.seeds)
    try:
        grid = cfg.make_grid()  # builder parameters are checked here, before anything runs
    except ConfigError as e:
        raise ConfigError(f"{_sweep_path(cfg, str(e))} (in {args.sweep})") from None
    resume = shlex.join(["diffsweep", *args.argv])
    client = _client(args.scheduler) if args.scheduler else None

    def show(message, category, filename, lineno, file=None, line=None):
        print(f"diffsweep: warning: {message}", file=sys.stderr)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = show
            res = run(cfg, backend=args.backend, threads=args.threads, chunk_size=args.chunk_size,
                      store=args.out, target_ci=args.target_ci, target_metric=args.target_metric,
                      target_relative=not args.target_absolute, max_seeds=args.max_seeds,
                      seeds_per_round=args.seeds_per_round, client=client,
                      memory_budget_bytes=args.memory_budget, quiet=args.quiet,
                      manifest={"argv": args.argv}, resume_hint=resume)
    except SweepInterrupted as e:
        print(f"\ndiffsweep: {e}", file=sys.stderr)
        return 130
    finally:
        if client is not None:
            client.close()
    m = res.meta
    if not args.quiet:
        print(f"{cfg.name}: {grid.n_points} points, {m['n_replicas']} replicas "
              f"({m['replicas_run']} run, {m['replicas_reused']} already in {args.out}) on "
              f"{m['backend']} in {m['wall_s']:.1f} s; results in {args.out} "
              f"(diffsweep.load({str(args.out)!r}))")
    if args.target_ci is not None:
        kind = "relative" if not args.target_absolute else "absolute"
        capped = m.get("ci_capped_points", [])
        if not args.quiet:
            print(f"target_ci {args.target_ci:g} ({kind}) on {m['ci_metric']}: "
                  f"{grid.n_points - len(capped)} of {grid.n_points} points met it after "
                  f"{m['ci_rounds']} round(s) of added seeds")
        if capped:
            print(f"diffsweep: warning: {len(capped)} point(s) reached max_seeds="
                  f"{m['ci_max_seeds']} without meeting target_ci {args.target_ci:g}: "
                  + "; ".join(_point_label(grid, p) for p in capped), file=sys.stderr)
    return 0


def _cmd_reproduce(args) -> int:
    from .reproduce import reproduce  # noqa: PLC0415

    out = args.out or f"results/{args.paper}{'-quick' if args.quick else ''}"
    log = (lambda *a, **k: None) if args.quiet else print
    try:
        md, html, verdicts = reproduce(args.paper, out, figures=args.figure, quick=args.quick,
                                       backend=args.backend, seeds=args.seeds,
                                       progress=False if args.quiet else None,
                                       threads=args.threads, log=log)
    except SweepInterrupted as e:
        print(f"\ndiffsweep: {e}\nrerun the same command to resume", file=sys.stderr)
        return 130
    if not args.quiet:
        width = max(len(k) for k in verdicts)
        for cid, v in verdicts.items():
            print(f"  {cid:<{width}}  {v.status}")
        print(f"report: {md}\n        {html}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="diffsweep", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("info", help="version, backends built, threads, CUDA device")
    s.set_defaults(fn=_cmd_info)
    s = sub.add_parser("demo", help="a small built-in Kaur & Vin sweep (EF vs CBR over T_on)")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS)
    s.add_argument("--seeds", type=int, default=3)
    s.add_argument("--duration-s", type=float, default=60.0)
    s.set_defaults(fn=_cmd_demo)
    s = sub.add_parser("run", help="run a sweep file into a results folder (resumable)",
                       description="Run the sweep SWEEP.toml into the results folder DIR. A rerun "
                       "into the same folder computes only what is missing; Ctrl-C stops after "
                       "writing the finished chunks (exit status 130).")
    s.add_argument("sweep", metavar="SWEEP.toml", help="the sweep file (docs/sweeps.md)")
    s.add_argument("--out", required=True, metavar="DIR", help="results folder")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS)
    s.add_argument("--seeds", type=int, default=None, metavar="N",
                   help="override the seeds: 0..N-1 (after --quick)")
    s.add_argument("--quick", action="store_true", help="apply the file's [quick] overrides")
    s.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the chunks on a Dask cluster (e.g. tcp://host:8786)")
    s.add_argument("--target-ci", type=float, default=None, metavar="X",
                   help="add seeds in rounds until every point's 95%% CI half-width of the "
                   "target metric is at most X times |mean| (see --target-absolute)")
    s.add_argument("--target-metric", default="tcp_goodput_bps", metavar="COLUMN",
                   help="replicas-table column for --target-ci (default tcp_goodput_bps)")
    s.add_argument("--target-absolute", action="store_true",
                   help="--target-ci X is a half-width in the metric's unit, not relative")
    s.add_argument("--max-seeds", type=int, default=100, metavar="N",
                   help="--target-ci: most seeds per point (default 100)")
    s.add_argument("--seeds-per-round", type=int, default=None, metavar="N",
                   help="--target-ci: seeds added per round (default: the initial number)")
    s.add_argument("--threads", type=int, default=None, metavar="N", help="CPU threads")
    s.add_argument("--chunk-size", type=int, default=None, metavar="N",
                   help="most replicas per chunk")
    s.add_argument("--memory-budget", type=_bytes, default=None, metavar="SIZE",
                   help="memory a chunk may use, e.g. 8G (default: half the free RAM; 4G "
                   "on CUDA)")
    s.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    s.set_defaults(fn=_cmd_run)
    s = sub.add_parser("reproduce", help="reproduce a paper's figures and check its claims",
                       description="Run the paper's sweeps (sweeps/<paper>/*.toml) through "
                       "resumable results folders under DIR, draw every figure (PNG, PDF) and "
                       "write DIR/report.md and DIR/report.html: each claim of the paper beside "
                       "the measured numbers and a verdict.")
    s.add_argument("paper", choices=papers.names())
    s.add_argument("--figure", nargs="+", default=None, metavar="N",
                   help="figure families to make (default: all): " + "; ".join(
                       f"{p}: {' '.join(papers.get(p).figure_choices())}"
                       for p in papers.names()))
    s.add_argument("--quick", action="store_true", help="the sweeps' [quick] overrides")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="output folder (default results/<paper>[-quick])")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS)
    s.add_argument("--seeds", type=int, default=None, metavar="N", help="override the seeds")
    s.add_argument("--threads", type=int, default=None, metavar="N", help="CPU threads")
    s.add_argument("--quiet", action="store_true", help="no progress bars and no summary")
    s.set_defaults(fn=_cmd_reproduce)
    argv = list(sys.argv[1:] if argv is None else argv)
    args = p.parse_args(argv)
    args.argv = argv
    try:
        return args.fn(args)
    except (ConfigError, BackendError, EngineError) as e:
        print(f"diffsweep: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ndiffsweep: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
