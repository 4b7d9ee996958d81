"""``diffsweep export DIR --format csv|parquet``: the folder's tables written as files, refused
(exit status 3) while replicas of the sweep are missing unless ``--allow-partial``."""
from __future__ import annotations

import os

from diffsweep.cli.common import _load_reporting, said_as_warnings
from diffsweep.core.errors import IncompleteResults


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
    for path in said_as_warnings(export, res, out, args.format, args.tables):
        print(path)
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep export`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("export", help="write the folder's tables as CSV or Parquet files")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--format", required=True, choices=("csv", "parquet"))
    s.add_argument("--tables", nargs="+", default=None, metavar="TABLE")
    s.add_argument("--out", default=None, metavar="FOLDER", help="default DIR/export-<format>")
    s.add_argument("--allow-partial", action="store_true",
                   help="export even when replicas of the sweep are missing (else exit 3)")
    s.set_defaults(fn=_cmd_export)
