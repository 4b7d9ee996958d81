"""``diffsweep repair DIR``: the command line of ``diffsweep.sweep.repair`` (a results folder made
usable again)."""
from __future__ import annotations

from diffsweep.core.errors import ConfigError


def _cmd_repair(args) -> int:
    """diffsweep repair DIR: rebuild a lost or damaged manifest from the chunks, move damaged
    and repeated chunks aside (diffsweep.sweep.repair.repair)."""
    from diffsweep.sweep.folder import describe, rerun_command, repair_folder  # noqa: PLC0415

    if args.sweep is None and (args.quick or args.seeds is not None):
        raise ConfigError("--quick/--seeds: only with --sweep SWEEP.toml")
    r = repair_folder(args.dir, args.sweep, args.quick, args.seeds, args.argv)
    for cid, d in r["damaged"].items():
        n = d["replicas"] if d["replicas"] is not None else "?"
        print(f"{args.dir}: chunk {cid} is damaged ({d['why']}): moved to corrupt/, its {n} "
              "replicas are missing")
    for cid, n in r["redundant"].items():
        print(f"{args.dir}: chunk {cid} repeats all its {n} replicas from older chunks: moved "
              "to corrupt/")
    for cid, n in r["overlapping"].items():
        print(f"{args.dir}: chunk {cid} repeats {n} replicas from older chunks: kept (the older "
              "rows are used)")
    if r["manifest"] == "rebuilt":
        kept = f" (the damaged one is kept as {r['previous']})" if r["previous"] else ""
        print(f"{args.dir}: manifest.json rebuilt from {r['chunks']} chunks, {r['replicas']} "
              f"replicas, {r['runs']} run(s){kept}")
    else:
        print(f"{args.dir}: manifest.json is readable: kept")
    m, _, f = describe(args.dir)
    if f["missing"]:
        print(f"{args.dir}: {f['missing']} of {f['expected']} replicas are missing: rerun "
              f"`{rerun_command(m, args.dir)}` to compute them")
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep repair DIR`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("repair", help="rebuild a lost or damaged manifest.json from the chunks",
                       description="Make a results folder usable again: a missing or damaged "
                       "manifest.json is rebuilt from the chunks (the damaged one is kept in "
                       "DIR/corrupt/), damaged chunks and chunks repeating older ones are moved "
                       "to DIR/corrupt/. Chunks written by diffsweep before it recorded the "
                       "sweep in them need --sweep.")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--sweep", default=None, metavar="SWEEP.toml",
                   help="the sweep file the folder was run from (needed only for chunks that "
                   "do not record their sweep; each is checked against its grid)")
    s.add_argument("--quick", action="store_true", help="with --sweep: the runs used --quick")
    s.add_argument("--seeds", type=int, default=None, metavar="N",
                   help="with --sweep: the runs used --seeds N")
    s.set_defaults(fn=_cmd_repair)
