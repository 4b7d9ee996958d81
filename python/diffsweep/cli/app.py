"""The `diffsweep` command line."""
from __future__ import annotations

import argparse
import os
import re
import shlex
import signal
import sys
import threading
import warnings

from diffsweep.engine import compiled as engine
from diffsweep.core import registry as papers
from diffsweep.core.errors import (BackendError, ConfigError, DiffsweepError, IncompleteResults,
                                   StoreError, SweepInterrupted, raise_terminated)
from diffsweep.core.results import TABLES

BACKEND_HELP = ("auto (default): the CPU without a CUDA device, with one the predicted fastest of "
                "cpu, cuda and cuda+cpu (the GPU and the CPU cores at once): docs/design.md")


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
    m = i["auto_model"]
    print(f"auto's model   : a CPU thread {m['cpu_us_per_slot']:g} us a replica-slot, a GPU slot "
          f"{m['cuda_slot_us']:g} us, {m['cuda_slots_per_s']:.3g} replica-slots/s with the device "
          "full (DIFFSWEEP_AUTO_MODEL sets them)")
    return 0


def _cmd_demo(args) -> int:
    """A small built-in Kaur & Vin sweep: one Reno flow, EF on-off vs CBR over T_on."""
    from diffsweep.engine import sizing  # noqa: PLC0415
    from diffsweep.sweep.grid import Grid
    from diffsweep.sweep.runner import run
    from diffsweep.scenario.builders import kaur_vin

    if not args.duration_s > 0:
        raise ConfigError(f"--duration-s: {args.duration_s!r} is not allowed (expected a number "
                          "of seconds > 0)")
    top = sizing.MAX_REPLICAS // 8  # the demo's 8 points (its --duration-s prefix said
    if not 1 <= args.seeds <= top:   # nothing of a --seeds 10^12, and --force is not its own)
        raise ConfigError(f"--seeds: {args.seeds!r} is not allowed (expected an integer from 1 "
                          f"to {top:,}: 8 points x seeds within {sizing.MAX_REPLICAS:,} "
                          "replicas)")
    warmup = min(5.0, args.duration_s / 4)  # demo sets the warm-up, so it must fit
    try:
        grid = Grid(kaur_vin, seeds=args.seeds, n_flows=1, rtp_ms=8.0, ef=["cbr", "onoff"],
                    t_on_ms=[0.4, 4.0, 40.0, 400.0], duration_s=args.duration_s,
                    warmup_s=warmup)
    except ConfigError as e:
        raise ConfigError(f"--duration-s {args.duration_s:g}: {e}") from None
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
        if not address.strip():
            raise ValueError("the address is empty")
        return Client(address, timeout=30)
    except (OSError, TimeoutError) as e:
        raise ConfigError(f"--scheduler: cannot connect to the Dask scheduler at {address!r} "
                          f"({e})") from None
    except (ValueError, TypeError) as e:  # Dask's parse of the address ("missing port number")
        raise ConfigError(f"--scheduler: {address!r} is not allowed (expected a Dask scheduler "
                          "address: tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786, as `dask "
                          f"scheduler` prints it; Dask says: {e})") from None


def _point_label(grid, p: int) -> str:
    row = grid.points.iloc[int(p)]
    dims = [c for c in grid.columns if c in getattr(grid, "_dim_names", grid.axes)]
    values = ", ".join(f"{c}={getattr(row[c], 'item', lambda: row[c])()!r}" for c in dims)
    return f"point {p}" + (f" ({values})" if values else "")


def _distinct(meta: dict) -> str:
    """The run line's note of repeats that ran once (diffsweep.engine.repeats), if there were any."""
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


def _n(count: int, word: str) -> str:
    """'1 seed', '3 seeds'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _check_int(option: str, value, lo: int, hi: int | None = None) -> None:
    from diffsweep.sweep.runner import int_range  # noqa: PLC0415

    if value is not None and (value < lo or (hi is not None and value > hi)):
        raise ConfigError(f"{option}: {value!r} is not allowed (expected "
                          f"{int_range(lo, hi, option)})")


def _check_threads(value) -> None:
    """--threads: 0 (all cores) to run_args.MAX_THREADS (a million crashed OpenMP)."""
    from diffsweep.engine.run_args import MAX_THREADS  # noqa: PLC0415

    _check_int("--threads", value, 0, MAX_THREADS)


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
            from diffsweep.engine import (rounding)  # noqa: PLC0415 (the lines a run warns with at its start)
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


def _cmd_reproduce(args) -> int:
    from diffsweep.studies.reproduce import reproduce  # noqa: PLC0415

    # the options, checked before any sweep runs (--threads -1 used to fail after the engine
    # call); reproduce() checks the rest (--figure, --backend's device, --sweeps, the folder)
    _check_threads(args.threads)
    _check_int("--seeds", args.seeds, 1)
    _check_int("--jobs", args.jobs, 1)
    out = args.out or f"results/{args.paper}{'-quick' if args.quick else ''}"
    if args.dry_run:
        from diffsweep.studies.reproduce_plan import plan, plan_lines  # noqa: PLC0415
        print("\n".join(plan_lines(plan(args.paper, out, figures=args.figure, quick=args.quick,
                                         seeds=args.seeds, sweeps=args.sweeps,
                                         threads=args.threads, backend=args.backend))))
        print("nothing was run (--dry-run)")
        return 0
    log = (lambda *a, **k: None) if args.quiet else print
    resume = shlex.join(["diffsweep", *args.argv])
    # a Ctrl-C (SweepInterrupted) is reported by main(), which also ignores further Ctrl-Cs
    md, html, verdicts = reproduce(args.paper, out, figures=args.figure, quick=args.quick,
                                   backend=args.backend, seeds=args.seeds,
                                   progress=False if args.quiet else None,
                                   threads=args.threads, log=log, sweeps=args.sweeps,
                                   resume=resume, redraw=args.redraw, jobs=args.jobs)
    if not args.quiet:
        width = max(len(k) for k in verdicts)
        for cid, v in verdicts.items():
            print(f"  {cid:<{width}}  {v.status}")
        print(f"report: {md}\n        {html}")
    return 0


def _cmd_atlas(args) -> int:
    from diffsweep.studies import atlas as at  # noqa: PLC0415

    spec = papers.get(args.paper)
    if args.list:
        maps = at.mappable(spec.name)
        if not maps:
            print(f"{spec.name}: no claim declares parameters to map over")
            return 0
        claims = {c.id: c for c in spec.claim_list()}
        for cid, m in maps.items():
            print(f"{cid}: {claims[cid].text}")
            if m.note:
                print(f"    ({m.note})")
            for p in m.params:
                sug = ",".join(str(v).lower() if isinstance(v, bool) else f"{v:g}"
                               if isinstance(v, float) else str(v) for v in p.suggested)
                print(f"  --axes {p.name}={sug}\n      {p.allowed()}: {p.what}")
        return 0
    if args.claim is None:
        raise ConfigError("claim: missing (expected a claim id, e.g. `diffsweep atlas "
                          f"{spec.name} --list` shows the claims that can be mapped)")
    if not args.axes:
        raise ConfigError("--axes: missing (expected 1 to 3 NAME=VALUES; `diffsweep atlas "
                          f"{spec.name} --list` shows each claim's parameters)")
    _check_threads(args.threads)
    _check_int("--seeds", args.seeds, 1)
    _check_int("--max-seeds", args.max_seeds, 1)
    log = (lambda *a, **k: None) if args.quiet else print
    res = at.atlas(spec.name, args.claim, args.axes, seeds=args.seeds, quick=args.quick,
                   out=args.out, max_seeds=args.max_seeds, backend=args.backend,
                   threads=args.threads, progress=False if args.quiet else None, log=log,
                   sweeps=args.sweeps, resume=shlex.join(["diffsweep", *args.argv]))
    if not args.quiet:
        axes = [c for c in res.table.columns if c not in
                ("cell", "status", "verdict", "point_estimate_verdict", "seeds", "paper_point",
                 "reason")]
        with_ = lambda r: ", ".join(f"{a}={r[a]:g}" if isinstance(r[a], float) else
                                    f"{a}={r[a]}" for a in axes)
        for _, r in res.table.iterrows():
            mark = "  (the paper's set-up)" if r["paper_point"] else ""
            print(f"  {with_(r)}: {r['status']} ({int(r['seeds'])} seeds){mark}")
        print(f"atlas: {res.paths['md']}\n       {res.paths['html']}")
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


def _cmd_show(args) -> int:
    from diffsweep.core import axes as ax  # noqa: PLC0415
    from diffsweep.sweep.folder import (DEFAULT_METRIC, check_measure, describe,  # noqa: PLC0415
                                        dims_of, select, summary_table)

    if args.rows < 1:
        raise ConfigError(f"--rows: {args.rows!r} is not allowed (expected an integer >= 1)")
    m, res, f = describe(args.dir)
    if args.metric is not None:  # an identifier or a grid column measures nothing
        check_measure(res, "--metric", args.metric, args.table, dims_of(m))
    print(f"{args.dir}: sweep {m.get('name')!r} (builder {m.get('builder')}, config hash "
          f"{str(m.get('config_hash'))[:12]})")
    if m.get("sweep_path"):
        print(f"sweep file : {m['sweep_path']}{' (--quick)' if m.get('quick') else ''}")
    print(f"points     : {f['points_done']} of {f['points']} complete; replicas {f['done']} of "
          f"{f['expected']} done, {f['missing']} missing ({_n(f['seeds'], 'seed')} per point)"
          + (f"; {f['extra']} more from other seeds" if f["extra"] else ""))
    print(f"backend    : {m.get('backend')} ({m.get('device')}), {_threads_used(m)}, "
          f"diffsweep {m.get('diffsweep_version')}")
    for i, r in enumerate(f["runs"]):
        state = ("interrupted" if r["interrupted"] else f"failed: {r['error']}" if r["error"]
                 else "rebuilt from its chunks by diffsweep repair (end unknown)"
                 if r["rebuilt"] else "running or killed" if r["end"] is None else "done")
        wall = f"{r['wall_s']:.1f} s" if isinstance(r["wall_s"], (int, float)) else "?"
        print(f"run {i + 1:<6} : {r['start']} on {r['host']} ({r['backend']}), {wall}, "
              f"{r['replicas_run'] if r['replicas_run'] is not None else '?'} replicas "
              f"computed, {state}")
    for p in f["problems"]:
        print(f"problem    : {p}")
    if not len(res.replicas):
        print("no replicas finished yet")
        return 0
    # one row per point: grouped by every axis of the sweep (an axis named like an engine
    # column is the axis: diffsweep.core.axes), never pooling two points into one interval
    dims = [d for d in dims_of(m) if ax.has(res.replicas, d)]
    metric, table = args.metric or TABLE_METRIC.get(args.table, DEFAULT_METRIC), args.table
    if args.metric is None and args.table is None and not len(res.flows) and len(res.transfers):
        # short-lived traffic only: its transfers' completion time says more than goodput
        metric, table = "completion_s", "transfers"
    by = dims or ["point"]
    if metric in by:  # pandas' own error: "cannot insert point, already exists"
        raise ConfigError(f"--metric: {metric!r} is not allowed (expected a measured column, not "
                          f"one the summary groups by: {', '.join(by)})")
    res, fixed = select(res, args.where)
    t = summary_table(res, by, metric, table=table)
    for c in by:  # values that are different points print differently (not %g's 0.1 twice)
        t[c] = ax.labels(t[c])
    import pandas as pd  # noqa: PLC0415
    where = "".join(f", {k}={ax.labels([v])[0]}" for k, v in fixed.items())
    print(f"\n{metric}: mean over seeds and 95% CI{where}")
    with pd.option_context("display.width", 160, "display.max_rows", args.rows,
                           "display.max_columns", 30):
        print(t.to_string(index=False, max_rows=args.rows, float_format=lambda v: f"{v:.5g}"))
    return 0


def _threads_used(m: dict) -> str:
    """The threads of the folder's last run: the count the engine used, else the one asked for
    (the manifest's 0 means "all OpenMP threads", which used to print as "threads 0")."""
    runs = m.get("runs") or []
    used = ((runs[-1].get("meta") or {}).get("threads") if runs else None)
    asked = m.get("threads")
    if isinstance(used, int) and used > 0:
        return _n(used, "thread")
    if isinstance(asked, int) and asked > 0:
        return _n(asked, "thread")
    return "threads: the default (all OpenMP threads)"


#: ``show --table T`` without --metric summarises T's main column.
TABLE_METRIC = {"flows": "goodput_bps", "queues": "mean_queue_pkts", "sources": "throughput_bps",
                "intervals": "goodput_bps", "transfers": "completion_s", "traffic": "completed",
                "cwnd_trace": "cwnd_pkts"}


#: ``plot --dpi``: 10 (a thumbnail) to 1200 (print; a 6.4 x 4.2 in figure is then 7680 x 5040
#: pixels, about 150 MB of RGBA: a larger dpi ran out of memory, std::bad_alloc at 100000)
PLOT_DPI = (10, 1200)
#: ``plot --out``'s file types: the formats matplotlib writes for a figure people open
PLOT_FORMATS = ("png", "pdf", "svg")


def _cmd_plot(args) -> int:
    from diffsweep.sweep.folder import (check_measure, describe, dims_of, plot,  # noqa: PLC0415
                                        select)

    # checked before the folder is read: matplotlib's own errors were tracebacks
    lo, hi = PLOT_DPI
    if not lo <= args.dpi <= hi:
        raise ConfigError(f"--dpi: {args.dpi!r} is not allowed (expected an integer from {lo} "
                          f"to {hi})")
    out = args.out or os.path.join(args.dir, f"plot_{args.y}_vs_{args.x}.png")
    ext = os.path.splitext(out)[1].lower().lstrip(".")
    if ext not in PLOT_FORMATS:
        raise ConfigError(f"--out: {out!r} is not allowed (expected a file name ending in "
                          f"{', '.join('.' + f for f in PLOT_FORMATS)})")
    # pandas' own errors were tracebacks ("Grouper for 'ef' not 1-dimensional")
    if args.hue is not None and args.hue == args.x:
        raise ConfigError(f"--hue: {args.hue!r} is not allowed (expected a column other than "
                          "--x's: one line per value of another parameter)")
    if args.facet is not None and args.facet in (args.x, args.hue):
        raise ConfigError(f"--facet: {args.facet!r} is not allowed (expected an axis other than "
                          "--x's and --hue's: one panel per value of another axis)")
    if args.y in (args.x, args.hue, args.facet):
        raise ConfigError(f"--y: {args.y!r} is not allowed (expected a measured column, not "
                          "--x's, --hue's or --facet's)")
    m, res, _ = _load_reporting(args.dir, describe)
    check_measure(res, "--y", args.y, args.table, dims_of(m))  # an identifier: pandas' error
    res = select(res, args.where)[0]
    fig = plot(res, args.x, args.y, hue=args.hue, table=args.table,
               logx=True if args.logx else None, facet=args.facet,
               remedy="keep one value of each with --where AXIS=VALUE, or draw it with --hue "
               "AXIS or --facet AXIS")
    import io  # noqa: PLC0415

    from diffsweep.sweep.store import atomic_write_files  # noqa: PLC0415
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, dpi=args.dpi)
    try:  # drawn in memory, then renamed into place: a full disk leaves no truncated file
        atomic_write_files({out: buf.getvalue()})
    except OSError as e:
        from diffsweep.core.errors import store_error  # noqa: PLC0415
        raise store_error(e, out, "write the figure") from None
    print(out)
    return 0


def _load_reporting(path, describe):
    """describe(path), each damaged or repeated chunk said as one warning line on stderr."""
    m, res, f = describe(path)
    for line in f["problems"]:
        print(f"diffsweep: warning: {line}", file=sys.stderr)
    return m, res, f


def _cmd_export(args) -> int:
    from diffsweep.sweep.folder import describe, export, rerun_command  # noqa: PLC0415

    m, res, f = _load_reporting(args.dir, describe)
    if f["missing"] and not args.allow_partial:
        # an export is read later without the folder's show: files with some replicas
        # silently missing would pass for the whole sweep
        why = (f", {f['damaged_replicas']} of them in damaged chunks" if f["damaged_replicas"]
               else "")
        raise IncompleteResults(
            f"{args.dir}: {f['missing']} of {f['expected']} replicas of the sweep are missing"
            f"{why}; nothing was exported: rerun `{rerun_command(m, args.dir)}` to compute them, "
            f"or pass --allow-partial to export the {f['done'] + f['extra']} that are there")
    out = args.out or os.path.join(args.dir, f"export-{args.format}")
    for path in export(res, out, args.format, args.tables):
        print(path)
    return 0


def _debug_requested(argv: list[str]) -> tuple[bool, list[str]]:
    """``--debug`` anywhere on the line (or DIFFSWEEP_DEBUG=1): show tracebacks."""
    debug = "--debug" in argv or os.environ.get("DIFFSWEEP_DEBUG", "") not in ("", "0")
    return debug, [a for a in argv if a != "--debug"]


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that the exit flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _exiting_on_interrupt() -> None:
    """After a Ctrl-C (SIGTERM) the command is on its way out with status 130 (143): a further
    Ctrl-C or SIGTERM (the "stop at once" one) must not turn that into a death by the signal
    halfway through."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def entry() -> None:
    """The ``diffsweep`` program: main(), leaving a Ctrl-C after an interrupt ignored until the
    process has exited (Python's finalizer would otherwise restore SIGINT's default action)."""
    sys.exit(main(_program=True))


def main(argv: list[str] | None = None, *, _program: bool = False) -> int:
    """The command line, callable in-process (``main(["run", ...])``): returns the exit
    status; the SIGINT and SIGTERM handlers are as they were on return."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug, argv = _debug_requested(argv)
    in_main = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGINT) if in_main else None
    before_term = signal.getsignal(signal.SIGTERM) if in_main else None
    if before_term == signal.SIG_DFL:
        # SIGTERM (kill, systemd, a batch system's time limit) stops like Ctrl-C: the runner
        # saves what finished and releases the lock, instead of the process dying at once
        signal.signal(signal.SIGTERM, raise_terminated)
    try:
        return _main(argv, debug)
    except BrokenPipeError:  # e.g. diffsweep reproduce ... | head
        _silence_stdout()
        return 141
    except SweepInterrupted as e:
        _exiting_on_interrupt()
        print(f"\ndiffsweep: {e}", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt as e:  # Terminated (SIGTERM) too
        _exiting_on_interrupt()
        print(f"\ndiffsweep: {str(e) or 'interrupted'}", file=sys.stderr)
        return 128 + getattr(e, "signum", signal.SIGINT)
    except (DiffsweepError, OSError) as e:
        if debug:
            raise
        code = 2 if isinstance(e, ConfigError) else 3 if isinstance(e, IncompleteResults) else 1
        if isinstance(e, StoreError) or not isinstance(e, OSError):
            msg = str(e)
        else:  # an OSError diffsweep did not expect: still one line, with the path
            where = e.filename or "?"
            msg = f"{where}: {e.strerror or e}"
        print(f"diffsweep: error: {msg}", file=sys.stderr)
        return code
    except Exception as e:  # a bug: one line and how to see more
        if debug:
            raise
        print(f"diffsweep: internal error: {type(e).__name__}: {e} (rerun with --debug for the "
              "traceback, and please report it)", file=sys.stderr)
        return 1
    finally:
        if in_main and not _program and before is not None:
            signal.signal(signal.SIGINT, before)
            if before_term is not None:
                signal.signal(signal.SIGTERM, before_term)


def _main(argv: list[str], debug: bool) -> int:
    p = argparse.ArgumentParser(prog="diffsweep", description=__doc__,
                                epilog="--debug (anywhere): show the traceback of an error")
    p.add_argument("--version", action="version", version=f"diffsweep {engine.version()}")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("info", help="version, backends built, threads, CUDA device")
    s.set_defaults(fn=_cmd_info)
    s = sub.add_parser("demo", help="a small built-in Kaur & Vin sweep (EF vs CBR over T_on)")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS, help=BACKEND_HELP)
    s.add_argument("--seeds", type=int, default=3)
    s.add_argument("--duration-s", type=float, default=60.0)
    s.set_defaults(fn=_cmd_demo)
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
    s.add_argument("--dry-run", action="store_true",
                   help="print the size estimate and the first points; run nothing")
    s.add_argument("--force", action="store_true",
                   help="run even above the size limits (points, replicas, memory)")
    s.add_argument("--break-lock", action="store_true",
                   help="take the results folder even if its lock names another run (refused "
                   "while that run is alive on this host)")
    s.set_defaults(fn=_cmd_run)
    s = sub.add_parser("reproduce", help="reproduce a paper's figures and check its claims",
                       description="Run the paper's sweeps (the packaged sweeps/<paper>/*.toml, or "
                       "--sweeps DIR) through resumable results folders under DIR, draw every "
                       "figure (PNG, PDF) and write DIR/report.md and DIR/report.html: each "
                       "claim of the paper beside the measured numbers and a verdict. DIR holds "
                       "one paper: another paper's reproduction into it is refused.")
    s.add_argument("paper", choices=papers.names())
    s.add_argument("--figure", nargs="+", default=None, metavar="N",
                   help="figure families to make (default: all): " + "; ".join(
                       f"{p}: {' '.join(papers.get(p).figure_choices())}"
                       for p in papers.names()))
    s.add_argument("--quick", action="store_true", help="the sweeps' [quick] overrides")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="output folder (default results/<paper>[-quick])")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS, help=BACKEND_HELP)
    s.add_argument("--seeds", type=int, default=None, metavar="N", help="override the seeds")
    s.add_argument("--threads", type=int, default=None, metavar="N", help="CPU threads")
    s.add_argument("--sweeps", default=None, metavar="DIR",
                   help="read the sweep files from DIR/<paper package>/<sweep>.toml (default: "
                   "the packaged sweep files; a ./sweeps folder is not read)")
    s.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes drawing the figures (default: one per core; 1: no extra "
                   "process)")
    s.add_argument("--redraw", action="store_true",
                   help="draw the figures and write the report again even when DIR holds "
                   "every result and the report this diffsweep made from them (kept otherwise)")
    s.add_argument("--quiet", action="store_true", help="no progress bars and no summary")
    s.add_argument("--dry-run", action="store_true",
                   help="say what would run (sweeps, replicas, what --out already holds) and "
                   "roughly how long; run nothing")
    s.set_defaults(fn=_cmd_reproduce)
    s = sub.add_parser("atlas", help="map where a paper's claim holds over parameters the "
                       "paper did not vary",
                       description="Run a claim's sweeps at every cell of a 1-3 axis grid "
                       "around the paper's set-up, rate the claim in each cell with the "
                       "report's rule and 95%% intervals (adding seeds where the intervals "
                       "are too wide to decide), and write DIR/verdicts.csv, DIR/atlas.png "
                       "and DIR/atlas.md/.html. A rerun resumes. `--list` shows the claims "
                       "that can be mapped and their parameters.")
    s.add_argument("paper", choices=papers.names())
    s.add_argument("claim", nargs="?", default=None, help="the claim's id (e.g. C4)")
    s.add_argument("--list", action="store_true",
                   help="the paper's claims that can be mapped, their parameters and ranges")
    s.add_argument("--axes", nargs="+", default=None, metavar="NAME=VALUES",
                   help="1-3 axes: NAME=V1,V2,... or NAME=lin:LO:HI:N or NAME=log:LO:HI:N")
    s.add_argument("--quick", action="store_true", help="the sweeps' [quick] overrides")
    s.add_argument("--seeds", type=int, default=None, metavar="N",
                   help="seeds per point in the first round (default: the sweep files')")
    s.add_argument("--max-seeds", type=int, default=None, metavar="N",
                   help="most seeds per point where a cell is undecided (default 4 x the "
                   "first round's; equal to --seeds: none added)")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="output folder (default results/atlas-<paper>-<claim>)")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS, help=BACKEND_HELP)
    s.add_argument("--threads", type=int, default=None, metavar="N", help="CPU threads")
    s.add_argument("--sweeps", default=None, metavar="DIR",
                   help="read the sweep files from DIR/<paper package>/<sweep>.toml")
    s.add_argument("--quiet", action="store_true", help="no progress bars and no summary")
    s.set_defaults(fn=_cmd_atlas)
    from diffsweep.report.builders_page import add_subcommand as _add_builders  # noqa: PLC0415
    _add_builders(sub)
    from diffsweep.cli.sensitivity import add_subcommand as _add_sensitivity  # noqa: PLC0415
    _add_sensitivity(sub, engine.BACKENDS, BACKEND_HELP, _check_int)
    s = sub.add_parser("show", help="what a results folder holds: sweep, points done and "
                       "missing, runs and timings, a summary with CIs",
                       description="What a results folder holds, and a summary of --metric: "
                       "mean over seeds and 95%% CI for each point, grouped by every axis of "
                       "the sweep (a name is the sweep's axis even where an engine column "
                       "shares it); --where AXIS=VALUE keeps the points with that value.")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--metric", default=None, metavar="COLUMN",
                   help="column to summarise (default tcp_goodput_bps, or the --table's own: "
                   "completion_s of transfers, cwnd_pkts of cwnd_trace, ...; completion_s of "
                   "the transfers table for a sweep of short-lived traffic only)")
    s.add_argument("--table", default=None, choices=TABLES)
    s.add_argument("--rows", type=int, default=40, metavar="N",
                   help="most summary rows shown (>= 1, default 40)")
    s.add_argument("--where", action="append", default=[], metavar="AXIS=VALUE",
                   help="only the points with this value of an axis (or column); repeatable")
    s.set_defaults(fn=_cmd_show)
    s = sub.add_parser("plot", help="plot a column against an axis: mean over seeds, CI band",
                       description="Plot Y (mean over seeds, with its 95%% CI band) against X, "
                       "one line per value of --hue, one panel per value of --facet. A name "
                       "is the sweep's axis even where an engine column shares it. Every other "
                       "axis with several values must be fixed with --where AXIS=VALUE (the "
                       "plot is refused, naming them): averaged together, different points "
                       "would pass for seeds.")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--x", required=True, metavar="COLUMN")
    s.add_argument("--y", required=True, metavar="COLUMN")
    s.add_argument("--hue", default=None, metavar="COLUMN", help="one line per value")
    s.add_argument("--facet", default=None, metavar="AXIS", help="one panel per value")
    s.add_argument("--where", action="append", default=[], metavar="AXIS=VALUE",
                   help="only the points with this value of an axis (or column); repeatable")
    s.add_argument("--table", default=None, choices=TABLES)
    s.add_argument("--logx", action="store_true", help="log x axis (default: when x spans "
                   "two decades)")
    s.add_argument("--dpi", type=int, default=120,
                   help=f"resolution, {PLOT_DPI[0]} to {PLOT_DPI[1]} (default 120)")
    s.add_argument("--out", default=None, metavar="FILE.png",
                   help="a .png, .pdf or .svg file (default DIR/plot_<y>_vs_<x>.png)")
    s.set_defaults(fn=_cmd_plot)
    s = sub.add_parser("export", help="write the folder's tables as CSV or Parquet files")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--format", required=True, choices=("csv", "parquet"))
    s.add_argument("--tables", nargs="+", default=None, metavar="TABLE")
    s.add_argument("--out", default=None, metavar="FOLDER", help="default DIR/export-<format>")
    s.add_argument("--allow-partial", action="store_true",
                   help="export even when replicas of the sweep are missing (else exit 3)")
    s.set_defaults(fn=_cmd_export)
    from diffsweep.cli.repair import add_subcommand as _add_repair  # noqa: PLC0415
    _add_repair(sub)
    args = p.parse_args(argv)
    args.argv = argv
    return args.fn(args)


if __name__ == "__main__":
    entry()
