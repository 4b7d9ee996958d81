"""``diffsweep trace SOURCE --point P --seed S -o FILE``: the packet trace of one replica of a
results folder (or a sweep file), rerun on the CPU with its packet events recorded, written as
an ns-2 trace or a pcap file (``diffsweep.sweep.packet_trace``; docs/traces.md)."""
from __future__ import annotations

import sys

from diffsweep.engine.events import MAX_EVENT_BYTES
from diffsweep.sweep.trace_formats import FORMATS


def _format_of(args) -> str:
    """``--format``, else from ``-o``'s name: .pcap is pcap, anything else ns-2."""
    if args.format is not None:
        return args.format
    return "pcap" if str(args.out).lower().endswith(".pcap") else "ns2"


def _cmd_trace(args) -> int:
    from diffsweep.engine.events import check_max_event_bytes  # noqa: PLC0415
    from diffsweep.sweep.packet_trace import trace  # noqa: PLC0415

    check_max_event_bytes(args.max_bytes, "--max-bytes")
    if args.until_s is not None and not args.until_s > 0:
        from diffsweep.core.errors import ConfigError  # noqa: PLC0415
        raise ConfigError(f"--until-s: {args.until_s!r} is not allowed (expected a time in "
                          "seconds > 0; without it, the whole run)")
    t = trace(args.source, args.point, args.seed, _format_of(args), args.link, args.until_s,
              args.out, args.max_bytes)
    rec = t.recording
    print(t.path)
    what = {"same": "equal the folder's stored ones bit for bit",
            "not stored": "not compared (the replica is not stored there)"}
    print(f"diffsweep: {len(rec.events)} events of replica (point {args.point}, seed "
          f"{args.seed}); its tables {what.get(t.stored, 'DIFFER from the stored ones: ' + t.stored)}",
          file=sys.stderr)
    if t.stored not in what:
        print("diffsweep: warning: the folder was made by other code or settings: the trace is "
              "of this code's run", file=sys.stderr)
    if t.note:
        print(f"diffsweep: note: {t.note}", file=sys.stderr)
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep trace`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("trace", help="the packet trace of one replica (ns-2 trace or pcap)",
                       description="Rerun replica (--point, --seed) of a results folder (or a "
                       "sweep file) on the CPU with its packet events recorded, and write them "
                       "as an ns-2 trace (every link's enqueues, dequeues, drops and receives "
                       "and the ACKs: ns-2 users' awk scripts read it) or a pcap file (one "
                       "link's departures and its flows' ACKs with synthetic IPv4/TCP headers: "
                       "Wireshark, tshark, tcpdump and tcptrace read it). A folder's replica's "
                       "tables are checked against the stored ones. docs/traces.md.")
    s.add_argument("source", metavar="SOURCE", help="a results folder, or a sweep .toml file")
    s.add_argument("--point", required=True, metavar="P", help="the point index (the tables' "
                   "point column)")
    s.add_argument("--seed", required=True, metavar="S", help="one of the sweep's seeds")
    s.add_argument("--format", default=None, choices=FORMATS,
                   help="ns2 or pcap (default: pcap for an -o ending in .pcap, else ns2)")
    s.add_argument("--link", default=None, metavar="INDEX",
                   help="the link (its index: the queues table's link column; links have no "
                   "names). ns2: only its events and its flows' ACKs (default: every link); "
                   "pcap: the link captured (default 0)")
    s.add_argument("--until-s", type=float, default=None, metavar="T",
                   help="only the events before T seconds (the replica still runs to its end)")
    s.add_argument("--max-bytes", type=int, default=MAX_EVENT_BYTES, metavar="N",
                   help=f"cap on the events recorded, 32 bytes each (default {MAX_EVENT_BYTES}: "
                   f"{MAX_EVENT_BYTES // 32} events); reached, the trace ends there with a note")
    s.add_argument("-o", "--out", required=True, metavar="FILE")
    s.set_defaults(fn=_cmd_trace)
