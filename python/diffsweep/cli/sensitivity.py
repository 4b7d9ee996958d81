"""``diffsweep sensitivity``: the command line of ``diffsweep.studies.sensitivity`` (which
parameters move a metric: factorial designs, Morris screening, Sobol' indices)."""
from __future__ import annotations

from diffsweep.cli.common import BACKEND_HELP, _check_int
from diffsweep.core.errors import ConfigError
from diffsweep import engine
from diffsweep.studies.sensitivity import (AGGREGATES, DEFAULT_MAX_REPLICAS, METHODS, paper_metrics,
                                           sensitivity)
from diffsweep.studies.designs import _scalar

__all__ = ["add_subcommand", "run_cli"]


def add_subcommand(sub) -> None:
    """The ``diffsweep sensitivity`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser(
        "sensitivity", help="which parameters move a metric: factorial designs, Morris "
        "screening, Sobol' indices",
        description="Run a design over FACTORS of the BASE scenario (a builder name or a "
        "sweep file), measure METRIC at every design point and seed (the same seeds at every "
        "point), and write DIR/sensitivity.csv, DIR/sensitivity.png and DIR/sensitivity.md/"
        ".html: Sobol' indices, Morris mu*/sigma or 2^k r factorial effects with the "
        "allocation of variation, each with its interval. A rerun resumes; Ctrl-C stops "
        "after saving the finished replicas.")
    s.add_argument("base", metavar="BASE", help="a builder (e.g. kaur_vin) or a sweep file")
    s.add_argument("--factors", nargs="+", required=True, metavar="NAME=SPEC",
                   help="builder parameters: NAME=LO:HI, NAME=LO:HI:log or NAME=A,B,C (levels)")
    s.add_argument("--metric", required=True, metavar="METRIC",
                   help="a metric name (jain_index, loss_rate, queue_delay_ms, ...: "
                   "`diffsweep metrics`), TABLE.COLUMN[:AGG] (AGG: " + ", ".join(AGGREGATES)
                   + ", jain, minmax, p95, ...; default mean), an expression "
                   "(sum(flows.drops) / sum(flows.pkts_sent)), module:function "
                   "(@diffsweep.metric) or a paper metric: " + ", ".join(paper_metrics()))
    s.add_argument("--method", default="sobol", choices=METHODS,
                   help="sobol (default), morris or factorial (2^k r, Jain ch. 17-19)")
    s.add_argument("--n", type=int, default=None, metavar="N",
                   help="sobol: base samples, a power of 2 (default 64: n (k+2) design "
                   "points); morris: trajectories (default 10: n (k+1) points)")
    s.add_argument("--fraction", type=int, default=0, metavar="P",
                   help="factorial: a 2^(k-P) fractional design (default 0: full)")
    s.add_argument("--seeds", type=int, default=None, metavar="N",
                   help="seeds per design point in the first round (default 2; factorial 3: "
                   "the replications r)")
    s.add_argument("--target-ci", type=float, default=None, metavar="X",
                   help="add seeds until every interval's half-width is at most X (sobol: in "
                   "index units; morris, factorial: X times the largest mu* or |effect|)")
    s.add_argument("--max-seeds", type=int, default=None, metavar="N",
                   help="--target-ci: most seeds per design point (default 4 x --seeds)")
    s.add_argument("--max-replicas", type=int, default=DEFAULT_MAX_REPLICAS, metavar="N",
                   help=f"refuse a design needing more replicas (default {DEFAULT_MAX_REPLICAS:,})")
    s.add_argument("--set", nargs="+", default=None, metavar="NAME=VALUE", dest="set_",
                   help="builder parameters fixed at every design point (e.g. duration_s=20)")
    s.add_argument("--level", type=float, default=0.95, metavar="L",
                   help="confidence of the intervals (default 0.95)")
    s.add_argument("--sample-seed", type=int, default=0, metavar="N",
                   help="seed of the design's sampling and of the bootstrap (default 0)")
    s.add_argument("--quick", action="store_true", help="the sweep file's [quick] overrides")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="output folder (default results/sensitivity-<base>-<method>)")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS, help=BACKEND_HELP)
    s.add_argument("--threads", type=int, default=None, metavar="N", help="CPU threads")
    s.add_argument("--dry-run", action="store_true",
                   help="print the design's size and a rough time; run nothing")
    s.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    s.set_defaults(fn=run_cli)


def _parse_set(items) -> dict:
    out = {}
    for a in items or []:
        k, eq, v = str(a).partition("=")
        k = k.strip()
        if not eq or not k or not v.strip():
            raise ConfigError(f"--set: {a!r} is not allowed (expected NAME=VALUE)")
        out[k] = _scalar(v)
    return out


def run_cli(args, check_int=_check_int) -> int:
    """``diffsweep sensitivity``: exit status 0, or an error raised for cli.main to print;
    ``check_int(option, value, lo)``: the check of an integer option."""
    import shlex  # noqa: PLC0415

    check_int("--threads", args.threads, 0)
    check_int("--seeds", args.seeds, 1)
    check_int("--max-replicas", args.max_replicas, 1)
    check_int("--sample-seed", args.sample_seed, 0)
    log = (lambda *a, **k: None) if args.quiet else print
    kw = dict(n=args.n, fraction=args.fraction, seeds=args.seeds, target_ci=args.target_ci,
              max_seeds=args.max_seeds, max_replicas=args.max_replicas, level=args.level,
              fixed=_parse_set(args.set_), quick=args.quick, out=args.out,
              backend=args.backend, threads=args.threads, sample_seed=args.sample_seed,
              progress=False if args.quiet else None, log=log)
    if args.dry_run:
        info = sensitivity(args.base, args.factors, args.metric, args.method, dry_run=True,
                           **kw)
        print(f"design      : {args.method}, {info['samples']:,} samples, "
              f"{info['design_points']:,} distinct design points")
        print(f"inner points: {info['inner_points']:,} per design point (the base's axes)")
        print(f"seeds       : {info['seeds']} per point"
              + (f" (up to {info['max_seeds']} with --target-ci: "
                 f"{info['most_replicas']:,} replicas at most)"
                 if args.target_ci is not None else ""))
        est = info["estimate"]
        for line in est.lines():
            print(line)
        if args.target_ci is not None and info["max_seeds"] > info["seeds"]:
            print(f"              (the first round; --target-ci may take up to "
                  f"{info['max_seeds'] / info['seeds']:g} times as long)")
        print("nothing was run (--dry-run)")
        return 0
    resume = shlex.join(["diffsweep", *args.argv])
    res = sensitivity(args.base, args.factors, args.metric, args.method, resume=resume,
                      manifest={"argv": args.argv}, **kw)
    if not args.quiet:
        head, rows = _table_text(res)
        print(head)
        for r in rows:
            print(r)
        print(f"sensitivity: {res.paths['md']}\n             {res.paths['html']}")
    return 0


def _table_text(res) -> tuple[str, list[str]]:
    from diffsweep.report.sensitivity_page import table_rows  # noqa: PLC0415

    head, rows = table_rows(res.table, res.meta["method"])
    if res.meta["method"] == "factorial":
        head, rows = head[:-1], [r[:-1] for r in rows]
    width = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    fmt = lambda r: "  ".join(str(x).ljust(w) for x, w in zip(r, width)).rstrip()
    return fmt(head), [fmt(r) for r in rows]
