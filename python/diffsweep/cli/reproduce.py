"""``diffsweep reproduce PAPER``: a paper's sweeps run, its figures drawn and its claims checked
(``diffsweep.studies.reproduce``), or with ``--dry-run`` what would run."""
from __future__ import annotations

import shlex

from diffsweep.cli.common import BACKEND_HELP, _check_int, _check_threads
from diffsweep.core import registry as papers
from diffsweep import engine


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


def add_subcommand(sub) -> None:
    """The ``diffsweep reproduce`` parser, added to the CLI's subparsers ``sub``."""
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
