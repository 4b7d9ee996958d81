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
    # the metrics are computed before anything is written: a typo'd name leaves no half export
    per_replica = None
    if args.metric:
        from diffsweep.analysis.registry import with_metrics  # noqa: PLC0415
        per_replica = with_metrics(res, args.metric).replicas
    for path in said_as_warnings(export, res, out, args.format, args.tables):
        print(path)
    if per_replica is not None:
        print(_export_metrics(per_replica, out, args.format))
    return 0


def _export_metrics(df, out: str, fmt: str) -> str:
    """``--metric``: one row per replica (the replicas table's columns) and a column per metric,
    written as ``metrics.<fmt>`` beside the tables."""
    from pathlib import Path  # noqa: PLC0415

    from diffsweep.sweep.store import atomic_write_files  # noqa: PLC0415

    path = Path(out) / f"metrics.{fmt}"
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        data = df.to_csv(index=False).encode("utf-8")
    else:
        import io  # noqa: PLC0415
        buf = io.BytesIO()
        df.to_parquet(buf, index=False)
        data = buf.getvalue()
    atomic_write_files({str(path): data})
    return str(path)


def add_subcommand(sub) -> None:
    """The ``diffsweep export`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("export", help="write the folder's tables as CSV or Parquet files")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--format", required=True, choices=("csv", "parquet"))
    s.add_argument("--tables", nargs="+", default=None, metavar="TABLE")
    s.add_argument("--out", default=None, metavar="FOLDER", help="default DIR/export-<format>")
    s.add_argument("--metric", action="append", default=None, metavar="METRIC",
                   help="also write metrics.<format>: one row per replica with this metric "
                   "(jain_index, an expression, module:function: `diffsweep metrics`); "
                   "repeatable")
    s.add_argument("--allow-partial", action="store_true",
                   help="export even when replicas of the sweep are missing (else exit 3)")
    s.set_defaults(fn=_cmd_export)
