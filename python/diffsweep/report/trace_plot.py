"""Time-sequence graphs of a packet trace (issue 53; docs/traces.md): tcptrace's and Stevens's
picture, each TCP flow's sequence numbers against time at one link, its ACKs' and its drops.

* ``read_ns2(path)``: an ns-2 trace (``diffsweep trace --format ns2``, or ns-2's own) as a
  DataFrame, one row per line (``#`` lines are notes).
* ``read_pcap(path)``: a classic libpcap file of IPv4 packets (LINKTYPE_RAW or Ethernet) as a
  DataFrame: time, addresses, protocol, TCP sequence and ACK numbers, length, DSCP.
* ``time_sequence_figure(path, link=None, flows=None)``: for an ns-2 trace, each flow's
  segments leaving the link ('-', dots), its drops there ('d', crosses) and the ACKs reaching
  its sender ('r', a line), sequence numbers in packets; for a pcap, its data segments (dots)
  and ACK numbers (line) in bytes. ``diffsweep plot-trace FILE`` draws it.
"""
from __future__ import annotations

import struct
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.report.figures import new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NS2_COLUMNS = ("event", "t_s", "from_node", "to_node", "type", "size", "flags", "fid", "src",
               "dst", "seq", "id")
#: the most flows one figure draws in colour (more: choose with --flows)
MAX_FLOWS = 16


def read_ns2(path) -> pd.DataFrame:
    """An ns-2 trace file as a DataFrame (columns NS2_COLUMNS)."""
    rows = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            if len(parts) < len(NS2_COLUMNS) or parts[0] not in ("+", "-", "d", "r"):
                raise ConfigError(f"{path}: line {n} is not an ns-2 trace line (expected 12 "
                                  "fields: event time from to type size flags fid src dst seq "
                                  "id)")
            rows.append(parts[:len(NS2_COLUMNS)])
    df = pd.DataFrame(rows, columns=list(NS2_COLUMNS))
    for c in ("t_s",):
        df[c] = df[c].astype(float)
    for c in ("from_node", "to_node", "size", "fid", "seq", "id"):
        df[c] = df[c].astype(np.int64)
    return df


def read_pcap(path) -> pd.DataFrame:
    """A classic libpcap file's IPv4 packets (LINKTYPE_RAW 101 or Ethernet 1)."""
    data = Path(path).read_bytes()
    if len(data) < 24:
        raise ConfigError(f"{path}: not a pcap file (shorter than its 24-byte header)")
    magic = struct.unpack("<I", data[:4])[0]
    order = {0xA1B2C3D4: ("<", 1e-6), 0xA1B23C4D: ("<", 1e-9)}.get(magic)
    if order is None:
        big = struct.unpack(">I", data[:4])[0]
        order = {0xA1B2C3D4: (">", 1e-6), 0xA1B23C4D: (">", 1e-9)}.get(big)
    if order is None:
        raise ConfigError(f"{path}: not a classic pcap file (magic {magic:#x}; pcapng is not "
                          "read: convert it with `editcap -F pcap`)")
    e, unit = order
    link_type = struct.unpack(e + "I", data[20:24])[0]
    skip = {101: 0, 1: 14}.get(link_type)
    if skip is None:
        raise ConfigError(f"{path}: link type {link_type} is not read (expected 101, raw IPv4, "
                          "or 1, Ethernet)")
    rows, at = [], 24
    while at + 16 <= len(data):
        sec, frac, caplen, _ = struct.unpack(e + "IIII", data[at:at + 16])
        pkt = data[at + 16 + skip:at + 16 + caplen]
        at += 16 + caplen
        if len(pkt) < 20 or pkt[0] >> 4 != 4:
            continue
        ihl = (pkt[0] & 15) * 4
        total, proto = struct.unpack("!H", pkt[2:4])[0], pkt[9]
        row = {"t_s": sec + frac * unit, "src": ".".join(map(str, pkt[12:16])),
               "dst": ".".join(map(str, pkt[16:20])), "proto": proto, "dscp": pkt[1] >> 2,
               "ip_len": total, "seq": np.nan, "ack": np.nan, "payload": 0}
        if proto == 6 and len(pkt) >= ihl + 20:
            seq, ack, off = struct.unpack("!IIB", pkt[ihl + 4:ihl + 13])
            row.update(seq=seq, ack=ack, payload=total - ihl - (off >> 4) * 4)
        rows.append(row)
    return pd.DataFrame(rows, columns=["t_s", "src", "dst", "proto", "dscp", "ip_len", "seq",
                                       "ack", "payload"])


def _flows(wanted, have, option="--flows") -> list:
    if wanted is None:
        return sorted(have)[:MAX_FLOWS]
    missing = [f for f in wanted if f not in have]
    if missing:
        raise ConfigError(f"{option}: {missing[0]!r} is not allowed (expected flows of the "
                          f"trace: {', '.join(map(str, sorted(have)))})")
    return list(wanted)


def time_sequence_figure(path, link: int | None = None, flows=None) -> Figure:
    """The time-sequence graph of the trace file ``path`` (ns-2 or pcap, by its first bytes):
    at ``link`` (an ns-2 trace: its 'from' node; default the link with the most departures),
    ``flows`` (flow ids; default the first MAX_FLOWS)."""
    head = Path(path).read_bytes()[:4]
    if head in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        return _pcap_figure(read_pcap(path), flows, Path(path).name)
    return _ns2_figure(read_ns2(path), link, flows, Path(path).name)


def _ns2_figure(df: pd.DataFrame, link, flows, title: str) -> Figure:
    data = df[df["type"] != "ack"]
    links = data[data["event"] == "-"].groupby(["from_node", "to_node"]).size()
    if links.empty:
        raise ConfigError(f"{title}: no departures ('-' lines) of data packets to draw")
    if link is None:
        frm, to = links.idxmax()
    else:
        have = sorted(int(f) for f, _ in links.index)
        if int(link) not in have:
            raise ConfigError(f"--link: {link!r} is not allowed (expected a link of the trace, by "
                              f"its from node: {', '.join(map(str, have))})")
        frm, to = next(k for k in links.index if int(k[0]) == int(link))
    at = data[(data["from_node"] == frm) & (data["to_node"] == to)]
    tcp = at[at["type"] == "tcp"]
    if flows is not None:
        try:
            flows = [int(f) for f in flows]
        except ValueError:
            raise ConfigError(f"--flows: {flows!r} is not allowed (expected flow ids, the ns-2 "
                              "trace's fid column)") from None
    chosen = _flows(flows, set(int(f) for f in tcp["fid"].unique()))
    fig, axes = new_figure(1, f"time-sequence graph: link {frm} -> {to} ({title})",
                           width=7.5, height=4.6)
    ax = axes[0]
    acks = df[(df["type"] == "ack") & (df["event"] == "r")]
    for i, f in enumerate(chosen):
        colour = f"C{i % 10}"
        one = tcp[tcp["fid"] == f]
        sent = one[one["event"] == "-"]
        ax.plot(sent["t_s"], sent["seq"], ".", color=colour, markersize=2.5, label=f"flow {f}")
        drop = one[one["event"] == "d"]
        if len(drop):
            ax.plot(drop["t_s"], drop["seq"], "x", color="black", markersize=6,
                    label="drops" if i == 0 else None)
        ack = acks[acks["fid"] == f]
        ax.step(ack["t_s"], ack["seq"], where="post", color=colour, linewidth=0.8, alpha=0.6)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("sequence number (packets); line: ACKs at the sender")
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    return fig


def _pcap_figure(df: pd.DataFrame, flows, title: str) -> Figure:
    tcp = df[df["proto"] == 6]
    if tcp.empty:
        raise ConfigError(f"{title}: no TCP packets to draw")
    data = tcp[tcp["payload"] > 0]
    conns = sorted(set(zip(data["src"], data["dst"])))
    names = {f"{s}>{d}": (s, d) for s, d in conns}
    chosen = _flows(flows, set(names), "--flows")
    fig, axes = new_figure(1, f"time-sequence graph ({title})", width=7.5, height=4.6)
    ax = axes[0]
    for i, name in enumerate(chosen):
        s, d = names[name]
        colour = f"C{i % 10}"
        one = data[(data["src"] == s) & (data["dst"] == d)]
        ax.plot(one["t_s"], one["seq"], ".", color=colour, markersize=2.5, label=name)
        ack = tcp[(tcp["src"] == d) & (tcp["dst"] == s)]
        ax.step(ack["t_s"], ack["ack"], where="post", color=colour, linewidth=0.8, alpha=0.6)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("TCP sequence number (bytes); line: ACK numbers")
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    return fig
