"""``diffsweep run SWEEP.toml --out DIR``: a sweep file run into a results folder (resumable),
or with ``--dry-run`` its size estimate and first points."""
from __future__ import annotations

import shlex
import sys
import warnings

from diffsweep.cli.common import BACKEND_HELP, _bytes, _check_int, _check_threads, _client, _n
from diffsweep.core.errors import BackendError, ConfigError
from diffsweep import engine


def _point_label(grid, p: int) -> str:
    row = grid.points.iloc[int(p)]
    dims = [c for c in grid.columns if c in getattr(grid, "_dim_names", grid.axes)]
    values = ", ".join(f"{c}={getattr(row[c], 'item', lambda: row[c])()!r}" for c in dims)
    return f"point {p}" + (f" ({values})" if values else "")


def _distinct(meta: dict) -> str:
    """The run line's note of repeats that ran once (diffsweep.engine.repeats), if any."""
    n, run = meta.get("distinct_replicas"), meta.get("replicas_run")
    return f": {n} distinct, their repeats copied" if n is not None and n < run else ""


def _sweep_path(cfg, message: str) -> str:
    """A Grid message starts with the parameter name; prefix where the sweep file sets it."""
    name, sep, rest = message.partition(":")
    base, bracket, index = name.partition("[")  # t_on_ms[1]: an axis value
    if not sep or not base.isidentifier():
        return message
    if base in cfg.axes:
        return f"axes.{name}:{rest}"
    if bracket:
        return message
    if name in cfg.fixed:
        return f"{'fixed.' if name not in ('duration_s', 'warmup_s') else ''}{name}:{rest}"
    for i, g in enumerate(cfg.zips):
        if name in g.names:
            return f"zip[{i}].{name}:{rest}"
    return message


def _check_run_options(args) -> None:
    """The options of ``run``, checked before the sweep's grid is built (a bad --threads was
    found only after building the grid, and in ``reproduce`` after the engine call)."""
    _check_threads(args.threads)
    _check_int("--chunk-size", args.chunk_size, 1)
    if args.target_ci is not None:
        if not (args.target_ci > 0 and args.target_ci != float("inf")):
            raise ConfigError(f"--target-ci: {args.target_ci!r} is not allowed (expected a "
                              "finite number > 0: a fraction of |mean| such as 0.05, or with "
                              "--target-absolute a half-width in the metric's unit)")
        _check_int("--max-seeds", args.max_seeds, 2)
        _check_int("--seeds-per-round", args.seeds_per_round, 1)
    if not args.dry_run and args.scheduler is None:
        engine.resolve_backend(args.backend)  # --backend cuda without a CUDA engine or device


def _cmd_run(args) -> int:
    from diffsweep.engine import sizing  # noqa: PLC0415
    from diffsweep.sweep.config import load_sweep  # noqa: PLC0415
    from diffsweep.sweep.runner import run  # noqa: PLC0415

    _check_run_options(args)
    cfg = load_sweep(args.sweep, quick=args.quick, seeds=args.seeds)
    limit = None if args.force else sizing.MAX_POINTS
    try:
        if args.dry_run and (cfg.n_points > sizing.MAX_POINTS
                             or cfg.n_replicas > sizing.MAX_REPLICAS):
            return _dry_counts(cfg, None)
        # builder parameters are checked here, after the counts of points and replicas
        grid = cfg.make_grid(max_points=limit, max_replicas=None if args.force else "default")
        if args.dry_run:
            # (the lines a run warns with at its start)
            from diffsweep.engine import rounding  # noqa: PLC0415
            warned = rounding.check(grid)  # (a refusal first: nothing probed for it)
            est = sizing.estimate(grid, args.threads, probe=True)  # timed on this machine
            est.notes += [f"warning     : {line}" for line in warned]
            return _dry_counts(cfg, est, grid, args.backend)
        sizing.check_replicas(len(grid), args.force, f"sweep '{cfg.name}'", "--force")
    except ConfigError as e:
        raise ConfigError(f"{_sweep_path(cfg, str(e))} (in {args.sweep})") from None
    resume = shlex.join(["diffsweep", *[a for a in args.argv if a != "--break-lock"]])
    # (a bad address said before the run is announced; an empty one is refused, not run here)
    client = _client(args.scheduler) if args.scheduler is not None else None
    if not args.quiet:
        print(f"diffsweep: {cfg.name}: {grid.n_points} points x {_n(len(grid.seeds), 'seed')} = "
              f"{len(grid)} replicas -> {args.out}", file=sys.stderr, flush=True)

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
                      manifest={"argv": args.argv}, resume_hint=resume, force=args.force,
                      break_lock=args.break_lock, exit_on_second_interrupt=True)
    except ConfigError as e:
        raise ConfigError(f"{_sweep_path(cfg, str(e))} (in {args.sweep})") from None
    finally:
        if client is not None:
            client.close()
    m = res.meta
    if not args.quiet:
        print(f"{cfg.name}: {grid.n_points} points, {m['n_replicas']} replicas "
              f"({m['replicas_run']} run{_distinct(m)}, {m['replicas_reused']} already in "
              f"{args.out}) on "
              f"{m['backend']} in {m['wall_s']:.1f} s; results in {args.out} "
              f"(diffsweep.load({str(args.out)!r}))")
        if m.get("read_only"):
            print(f"{args.out}: nothing to compute (the folder is read-only: read without its "
                  "lock)")
        if m.get("backend_choice"):
            print(m["backend_choice"])
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


def _dry_counts(cfg, est, grid=None, backend: str = "auto") -> int:
    """--dry-run: the estimate and the first rows of the grid; nothing runs."""
    from diffsweep.engine import sizing  # noqa: PLC0415

    print(f"sweep {cfg.name!r} ({cfg.path}): builder {cfg.builder_name}")
    if est is None:
        def above(n, top):
            return (f" (above the limit of {top:,}; the grid is not built: --force to build it "
                    "anyway)") if n > top else ""
        print(f"points      : {cfg.n_points:,}{above(cfg.n_points, sizing.MAX_POINTS)}")
        print(f"seeds       : {len(cfg.seeds):,}\nreplicas    : {cfg.n_replicas:,}"
              f"{above(cfg.n_replicas, sizing.MAX_REPLICAS)}")
        rows = sizing.first_points(cfg.dimensions(), 10)
        print("first points:")
        print("\n".join(f"  {i}: {r}" for i, r in enumerate(rows)))
        return 0
    print("\n".join(est.lines()))
    from diffsweep.engine.backend_choice import Work  # noqa: PLC0415
    try:  # what would run it (auto: the predicted faster, from the sampled points)
        name, why = engine.choose_backend(backend, Work(est.distinct_replicas,
                                                        est.distinct_slots, est.longest_slots),
                                          est.threads)
        print(f"backend     : {name}" + (f" ({why})" if why else ""))
    except BackendError as e:
        print(f"backend     : {e}")
    problems = []
    for check in (lambda: sizing.check_estimate(est, False, f"sweep '{cfg.name}'", "--force"),):
        try:
            check()
        except ConfigError as e:
            problems.append(str(e))
    print(f"first points of {grid.n_points:,}:")
    import pandas as pd  # noqa: PLC0415
    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print(grid.points.head(10).to_string(index=False))
    for msg in problems:
        print(f"would be refused: {msg}")
    print("nothing was run (--dry-run)")
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep run`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("run", help="run a sweep file into a results folder (resumable)",
                       description="Run the sweep SWEEP.toml into the results folder DIR. A rerun "
                       "into the same folder computes only what is missing; Ctrl-C stops after "
                       "writing the finished chunks (exit status 130), SIGTERM too (143).")
    s.add_argument("sweep", metavar="SWEEP.toml", help="the sweep file (docs/sweeps.md)")
    s.add_argument("--out", required=True, metavar="DIR", help="results folder")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS, help=BACKEND_HELP)
    s.add_argument("--seeds", type=int, default=None, metavar="N",
                   help="override the seeds: 0..N-1 (after --quick)")
    s.add_argument("--quick", action="store_true", help="apply the file's [quick] overrides")
    s.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the chunks on a Dask cluster (e.g. tcp://host:8786)")
    s.add_argument("--target-ci", type=float, default=None, metavar="X",
                   help="add seeds in rounds until every point's 95%% CI half-width of the "
                   "target metric is at most X times |mean| (see --target-absolute)")
    s.add_argument("--target-metric", default="tcp_goodput_bps", metavar="METRIC",
                   help="the metric --target-ci aims at: a replicas-table column (default "
                   "tcp_goodput_bps), a metric name (jain_index, loss_rate, ...: `diffsweep "
                   "metrics`), an expression or module:function")
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
    s.add_argument("--dry-run", action="store_true",
                   help="print the size estimate and the first points; run nothing")
    s.add_argument("--force", action="store_true",
                   help="run even above the size limits (points, replicas, memory)")
    s.add_argument("--break-lock", action="store_true",
                   help="take the results folder even if its lock names another run (refused "
                   "while that run is alive on this host)")
    s.set_defaults(fn=_cmd_run)
