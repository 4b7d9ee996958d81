"""``diffsweep atlas PAPER CLAIM --axes ...``: where a paper's claim holds over parameters the
paper did not vary (``diffsweep.studies.atlas``); ``--list``: the claims that can be mapped."""
from __future__ import annotations

import shlex

from diffsweep.cli.common import BACKEND_HELP, _check_int, _check_threads
from diffsweep.core import registry as papers
from diffsweep.core.errors import ConfigError
from diffsweep import engine


def _cmd_atlas(args) -> int:
    from diffsweep.studies import atlas as at  # noqa: PLC0415

    from diffsweep.studies import own_atlas  # noqa: PLC0415
    own = own_atlas.is_own(args.paper)
    if own and (args.list or args.claim is not None):
        raise ConfigError(f"{'--list' if args.list else 'claim'}: not allowed with a claim of "
                          f"one's own ({args.paper}: the claim is the file or module:NAME "
                          "itself; any parameter of its sweep's builder may be an axis)")
    spec = None if own else papers.get(args.paper)
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
    if args.claim is None and not own:
        raise ConfigError("claim: missing (expected a claim id, e.g. `diffsweep atlas "
                          f"{spec.name} --list` shows the claims that can be mapped)")
    if not args.axes:
        raise ConfigError("--axes: missing (expected 1 to 3 NAME=VALUES; `diffsweep atlas "
                          f"{spec.name} --list` shows each claim's parameters)")
    _check_threads(args.threads)
    _check_int("--seeds", args.seeds, 1)
    _check_int("--max-seeds", args.max_seeds, 1)
    log = (lambda *a, **k: None) if args.quiet else print
    res = at.atlas(args.paper if own else spec.name, args.claim, args.axes, seeds=args.seeds, quick=args.quick,
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


def _paper_or_claim(text: str) -> str:
    """A paper's name, or a claim of one's own (checked when the atlas reads it)."""
    import argparse  # noqa: PLC0415

    from diffsweep.studies.own_atlas import is_own  # noqa: PLC0415
    if text in papers.names() or is_own(text):
        return text
    choices = ", ".join(repr(n) for n in papers.names())
    raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {choices}, or a "
                                     "claim of your own: CLAIM.toml or module:NAME)")


def add_subcommand(sub) -> None:
    """The ``diffsweep atlas`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("atlas", help="map where a paper's claim holds over parameters the "
                       "paper did not vary",
                       description="Run a claim's sweeps (a paper's, or the sweep file a claim of your own "
                       "names) at every cell of a 1-3 axis grid "
                       "around the paper's set-up, rate the claim in each cell with the "
                       "report's rule and 95% intervals (adding seeds where the intervals "
                       "are too wide to decide), and write DIR/verdicts.csv, DIR/atlas.png "
                       "and DIR/atlas.md/.html. A rerun resumes. `--list` shows the claims "
                       "that can be mapped and their parameters.")
    s.add_argument("paper", type=_paper_or_claim, metavar="PAPER|CLAIM",
                   help="a paper (" + ", ".join(papers.names()) + ") or a claim of your own: "
                   "a claim file CLAIM.toml or module:NAME (docs/metrics.md)")
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
