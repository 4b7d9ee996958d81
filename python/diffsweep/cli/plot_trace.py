"""``diffsweep plot-trace FILE``: the time-sequence graph of a packet trace (an ns-2 trace or a
pcap file from ``diffsweep trace``): each flow's sequence numbers against time at one link,
its drops and its ACKs (``diffsweep.report.trace_plot``)."""
from __future__ import annotations

import os

from diffsweep.cli.plot import PLOT_DPI, check_figure_options, write_figure
from diffsweep.core.errors import ConfigError


def _cmd_plot_trace(args) -> int:
    from diffsweep.report.trace_plot import time_sequence_figure  # noqa: PLC0415

    out, ext = check_figure_options(args.dpi, args.out or os.path.splitext(args.file)[0] + ".png")
    if not os.path.isfile(args.file):
        raise ConfigError(f"{args.file}: no such trace file")
    flows = args.flows.split(",") if args.flows else None
    write_figure(time_sequence_figure(args.file, args.link, flows), out, ext, args.dpi)
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep plot-trace`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("plot-trace", help="time-sequence graph of a packet trace file",
                       description="Draw a trace file of `diffsweep trace` (ns-2 or pcap) as a "
                       "time-sequence graph (tcptrace, Stevens): each TCP flow's segments "
                       "leaving the link as dots, its drops there as black crosses (ns-2 traces "
                       "only: a capture sees no drops), the ACKs reaching its sender as a "
                       "line.")
    s.add_argument("file", metavar="FILE")
    s.add_argument("--link", type=int, default=None, metavar="NODE",
                   help="ns-2 trace: the link by its from node (= its index; default: the "
                   "link with the most departures)")
    s.add_argument("--flows", default=None, metavar="F,F,...",
                   help="the flows drawn: ns-2 fids (0,1), pcap SRC>DST address pairs "
                   "(default: the first 16)")
    s.add_argument("--dpi", type=int, default=120,
                   help=f"resolution, {PLOT_DPI[0]} to {PLOT_DPI[1]} (default 120)")
    s.add_argument("-o", "--out", default=None, metavar="FIG.png",
                   help="a .png, .pdf or .svg file (default: FILE with .png)")
    s.set_defaults(fn=_cmd_plot_trace)
