"""``diffsweep plot DIR --x X --y Y``: a column against an axis, the mean over seeds with its
95% CI band, drawn into a PNG, PDF or SVG file. ``--table queue_trace`` (or ``cwnd_trace``)
with ``--x t_s``: the time series instead, a panel per traced series, replicas faint and
means bold (``diffsweep.report.timeseries``)."""
from __future__ import annotations

import os
import re

from diffsweep.cli.common import _load_reporting, said_as_warnings
from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES

#: ``plot --dpi``: 10 (a thumbnail) to 1200 (print; a 6.4 x 4.2 in figure is then 7680 x 5040
#: pixels, about 150 MB of RGBA: a larger dpi ran out of memory, std::bad_alloc at 100000)
PLOT_DPI = (10, 1200)
#: ``plot --out``'s file types: the formats matplotlib writes for a figure people open
PLOT_FORMATS = ("png", "pdf", "svg")


def _cmd_plot(args) -> int:
    from diffsweep.sweep.folder import (check_measure, describe, dims_of, plot,  # noqa: PLC0415
                                        select)

    # an expression's characters (/, *, spaces, brackets) do not belong in a file name
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", args.y).strip("_") or "metric"
    out, ext = check_figure_options(args.dpi,
                                    args.out or os.path.join(args.dir, f"plot_{safe}_vs_{args.x}.png"))
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
    if _time_series(args):
        res = select(res, args.where)[0]
        from diffsweep.report.timeseries import trace_figure  # noqa: PLC0415
        fig = trace_figure(res, args.table, args.y)
    else:
        check_measure(res, "--y", args.y, args.table, dims_of(m))  # an identifier: pandas' error
        res = select(res, args.where)[0]
        fig = said_as_warnings(plot, res, args.x, args.y, hue=args.hue, table=args.table,
                               logx=True if args.logx else None, facet=args.facet,
                               remedy="keep one value of each with --where AXIS=VALUE, or draw "
                               "it with --hue AXIS or --facet AXIS")
    write_figure(fig, out, ext, args.dpi)
    return 0


def check_figure_options(dpi: int, out: str) -> tuple[str, str]:
    """(out, its format) after ``--dpi`` and ``--out`` are checked, before anything is read
    or drawn: matplotlib's own errors were tracebacks."""
    lo, hi = PLOT_DPI
    if not lo <= dpi <= hi:
        raise ConfigError(f"--dpi: {dpi!r} is not allowed (expected an integer from {lo} "
                          f"to {hi})")
    ext = os.path.splitext(out)[1].lower().lstrip(".")
    if ext not in PLOT_FORMATS:
        raise ConfigError(f"--out: {out!r} is not allowed (expected a file name ending in "
                          f"{', '.join('.' + f for f in PLOT_FORMATS)})")
    return out, ext


def write_figure(fig, out: str, ext: str, dpi: int) -> None:
    """``fig`` drawn into ``out`` and its path printed."""
    import io  # noqa: PLC0415

    from diffsweep.sweep.store import atomic_write_files  # noqa: PLC0415
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, dpi=dpi)
    import matplotlib.pyplot as plt  # noqa: PLC0415
    plt.close(fig)  # drawn and kept: pyplot's "more than 20 figures" warning otherwise
    try:  # drawn in memory, then renamed into place: a full disk leaves no truncated file
        atomic_write_files({out: buf.getvalue()})
    except OSError as e:
        from diffsweep.core.errors import store_error  # noqa: PLC0415
        raise store_error(e, out, "write the figure") from None
    print(out)


def _time_series(args) -> bool:
    """A trace table against its time: every replica's series, not a mean per x value."""
    return args.table in ("queue_trace", "cwnd_trace") and args.x == "t_s"


def add_subcommand(sub) -> None:
    """The ``diffsweep plot`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("plot", help="plot a metric or column against an axis: mean over seeds, CI band",
                       description="Plot Y (mean over seeds, with its 95% CI band) against X, "
                       "one line per value of --hue, one panel per value of --facet. A name "
                       "is the sweep's axis even where an engine column shares it. Every other "
                       "axis with several values must be fixed with --where AXIS=VALUE (the "
                       "plot is refused, naming them): averaged together, different points "
                       "would pass for seeds. --table queue_trace (or cwnd_trace) --x t_s "
                       "draws the time series: a panel per traced (link, class) or flow, each "
                       "replica faint, the mean over a point's seeds bold.")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--x", required=True, metavar="COLUMN")
    s.add_argument("--y", required=True, metavar="METRIC",
                   help="a metric (jain_index, loss_rate, ...: `diffsweep metrics`; an "
                   "expression; module:function) or a column; a bounded metric's band stays "
                   "inside its range")
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
