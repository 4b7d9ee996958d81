"""trace_formats: a replica's packet events (``diffsweep.engine.events.Recording``) written as
an ns-2 trace or a classic libpcap file (docs/traces.md says every field and why both).

* ``ns2_text(rec, scenario, link=None)``: ns-2's trace format, one line an event
  (``+ 1.84375 0 1 tcp 1040 ---g--- 1 3.0 4.0 29 199``: event, time, from node, to node,
  type, size, flags, flow id, source and destination address, sequence number, packet id), so
  that ns-2 users' awk scripts read it. Enqueues, dequeues, drops and receives at every link
  (or one), and the ACKs' return. Node numbering: ``nodes``.
* ``pcap_bytes(rec, scenario, link)``: the packets leaving one link (its '-' events, at the
  start of their transmission) and the ACKs of the TCP flows that cross it, as IPv4 packets
  (LINKTYPE_RAW, nanosecond timestamps) with synthetic headers: addresses from the flow,
  the DSCP from the class and colour, TCP sequence and ACK numbers in bytes. Headers only
  are captured (the original length says the size), as ``tcpdump -s 40`` would.
"""
from __future__ import annotations

import struct

import numpy as np

from diffsweep.engine.events import DROP_REASONS, FLAG_ACK, FLAG_REXMIT, FLAG_SOURCE

FORMATS = ("ns2", "pcap")

#: a drop's reason in the ns-2 line's flags (4th character): buffer full, RED's forced drop,
#: RED's early drop, the loss element (or an injected drop), an unlimited class's ring full
DROP_LETTERS = {"buffer": "b", "forced": "f", "early": "e", "loss": "l", "ring": "o"}
COLOUR_LETTERS = "gyr"

#: DiffServ code points (RFC 3246 EF; RFC 2597 AFxy = 8x + 2y, drop precedence y from colour)
DSCP_EF = 46


def nodes(scenario) -> dict:
    """The ns-2 node numbering: link l runs from node l to node l + 1 (a chain, as in a
    parking lot; a dumbbell's bottleneck is 0 -> 1); then TCP flow f's sender is node
    L + 1 + 2f and its receiver L + 2 + 2f (L links, F flows), then source s's sender
    L + 1 + 2F + 2s and its sink L + 2 + 2F + 2s."""
    L, F = len(scenario.links), len(scenario.flows)
    return {"link_from": np.arange(L), "link_to": np.arange(L) + 1,
            "flow_src": L + 1 + 2 * np.arange(F), "flow_dst": L + 2 + 2 * np.arange(F),
            "source_src": L + 1 + 2 * F + 2 * np.arange(len(scenario.sources)),
            "source_dst": L + 2 + 2 * F + 2 * np.arange(len(scenario.sources))}


def _coloured(scenario) -> bool:
    return bool(scenario.markers) or any(getattr(x, "colour", None) is not None
                                         for x in (*scenario.flows, *scenario.sources))


def dscp(cls_name: str, colour: int, coloured: bool) -> int:
    """The DSCP of a packet of class ``cls_name`` with drop precedence ``colour`` (0 green, 1
    yellow, 2 red): "ef" is EF (46); "af1".."af4" (and "af", AF1) are AFx1..AFx3 by colour
    (RFC 2597); any other class is AF1x in a scenario that colours packets (markers or
    coloured senders), else best effort (0)."""
    name = cls_name.lower()
    if name == "ef":
        return DSCP_EF
    if name.startswith("af") and (name[2:] in ("", "1", "2", "3", "4")):
        return 8 * int(name[2:] or 1) + 2 * (colour + 1)
    return 8 + 2 * (colour + 1) if coloured else 0


def _sides(rec, scenario):
    """Per event: is it a source's, its flow or source index, its two end nodes."""
    ev = rec.events
    n = nodes(scenario)
    src = (ev["flags"] & FLAG_SOURCE) != 0
    idx = np.where(src, ev["sender"].astype(np.int64) - rec.max_flows, ev["sender"])
    a = np.zeros(len(ev), dtype=np.int64)
    b = np.zeros(len(ev), dtype=np.int64)
    a[~src], b[~src] = n["flow_src"][idx[~src]], n["flow_dst"][idx[~src]]
    a[src], b[src] = n["source_src"][idx[src]], n["source_dst"][idx[src]]
    return src, idx, a, b


def ns2_text(rec, scenario, link: int | None = None) -> str:
    """The events as ns-2 trace lines (every link's, or ``link``'s and its flows' ACKs)."""
    ev = rec.events
    src, idx, a, b = _sides(rec, scenario)
    n = nodes(scenario)
    ack = (ev["flags"] & FLAG_ACK) != 0
    keep = np.ones(len(ev), dtype=bool) if link is None else (
        (ev["link"] == link) | (ack & np.isin(idx, _flows_on(scenario, link))))
    F = len(scenario.flows)
    hdr = [f.header_bytes for f in scenario.flows]
    lines = []
    for i in np.nonzero(keep)[0]:
        e = ev[i]
        k = chr(e["kind"])
        if ack[i]:
            frm, to, typ, size = b[i], a[i], "ack", hdr[idx[i]]
        else:
            lk = int(e["link"])
            frm, to, size = n["link_from"][lk], n["link_to"][lk], int(e["bytes"])
            typ = _source_type(scenario.sources[idx[i]]) if src[i] else "tcp"
        flags = ["-"] * 7
        if k == "d":
            flags[3] = DROP_LETTERS[DROP_REASONS[int(e["reason"])]]
        if not ack[i]:
            flags[4] = COLOUR_LETTERS[int(e["colour"])]
        if e["flags"] & FLAG_REXMIT:
            flags[5] = "x"
        fid = F + idx[i] if src[i] else idx[i]
        s_addr, d_addr = (b[i], a[i]) if ack[i] else (a[i], b[i])
        lines.append(f"{k} {e['t_s']:.9f} {frm} {to} {typ} {size} {''.join(flags)} {fid} "
                     f"{s_addr}.0 {d_addr}.0 {int(e['seq'])} {int(e['id'])}")
    if rec.truncated:
        lines.append(truncation_note(rec, "#"))
    return "\n".join(lines) + ("\n" if lines else "")


def truncation_note(rec, prefix: str = "") -> str:
    t = float(rec.events["t_s"][-1]) if len(rec.events) else 0.0
    return (f"{prefix}{' ' if prefix else ''}trace truncated at t = {t:.6f} s: the cap of "
            f"{rec.max_event_bytes} bytes of events ({rec.max_event_bytes // 32} events) was "
            "reached (--max-bytes); the replica ran to its end")


def _source_type(src) -> str:
    return "cbr" if float(src.t_off_ms) == 0.0 else "exp"


def _flows_on(scenario, link: int) -> np.ndarray:
    """The TCP flows whose route (or second path) crosses ``link``."""
    return np.array([f for f, fl in enumerate(scenario.flows)
                     if link in fl.route or link in (fl.route2 or ())], dtype=np.int64)


def _ip_checksum(h: bytes) -> int:
    s = sum(struct.unpack("!10H", h))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def flow_address(kind: str, i: int, side: int) -> bytes:
    """IPv4 address of TCP flow (``kind`` "tcp") or source ("src") ``i``'s sender (side 0)
    or receiver (1): 10.1.x.y / 10.2.x.y for flows, 10.3 / 10.4 for sources (x.y = i)."""
    net = (1 if kind == "tcp" else 3) + side
    return bytes((10, net, (i >> 8) & 0xFF, i & 0xFF))


TCP_PORTS = (10000, 5001)  # (sender, receiver); each flow has its own addresses
PCAP_MAGIC_NS = 0xA1B23C4D  # classic libpcap, nanosecond timestamps
LINKTYPE_RAW = 101


def _tcp(ports, seq: int, ack: int, flags: int) -> bytes:
    return struct.pack("!HHIIBBHHH", *ports, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, 0x50, flags,
                       65535, 0, 0)


TCP_SYN, TCP_ACK = 0x02, 0x10


def _data_numbers(fl, seq: int) -> tuple[int, int, int]:
    """(TCP sequence number, ack number, flags) of the sender's segment ``seq`` (packets):
    byte 1 + seq x segment (the initial sequence number 0); with ``syn`` segment 0 is the SYN
    (it takes sequence number 0) and segment n starts at byte 1 + (n - 1) x segment."""
    if fl.syn and seq == 0:
        return 0, 0, TCP_SYN
    return 1 + (seq - int(fl.syn)) * fl.segment_bytes, 1, TCP_ACK


def _ack_numbers(fl, ackno: int) -> tuple[int, int, int]:
    """The receiver's ACK of every segment up to ``ackno`` (ns-2's cumulative ACK, packets):
    the next byte it expects; the SYN's is a SYN-ACK."""
    if fl.syn and ackno == 0:
        return 0, 1, TCP_SYN | TCP_ACK
    return 1, 1 + (ackno + 1 - int(fl.syn)) * fl.segment_bytes, TCP_ACK


def pcap_bytes(rec, scenario, link: int) -> bytes:
    """The departures from ``link`` and its TCP flows' ACKs as a classic pcap file."""
    ev = rec.events
    src, idx, _, _ = _sides(rec, scenario)
    ack = (ev["flags"] & FLAG_ACK) != 0
    on = _flows_on(scenario, link)
    keep = (ev["kind"] == ord("-")) & ((ev["link"] == link) | (ack & np.isin(idx, on)))
    coloured = _coloured(scenario)
    names = [c.name for c in scenario.links[link].classes]
    out = [struct.pack("<IHHiIII", PCAP_MAGIC_NS, 2, 4, 0, 0, 65535, LINKTYPE_RAW)]
    for i in np.nonzero(keep)[0]:
        e = ev[i]
        f = int(idx[i])
        if src[i]:
            proto, total = 17, int(e["bytes"])
            s_ip, d_ip = flow_address("src", f, 0), flow_address("src", f, 1)
            l4 = struct.pack("!HHHH", *TCP_PORTS, max(total - 20, 8), 0)
        else:
            fl = scenario.flows[f]
            proto, seq = 6, int(e["seq"])
            if ack[i]:
                total = 40
                s_ip, d_ip = flow_address("tcp", f, 1), flow_address("tcp", f, 0)
                l4 = _tcp(TCP_PORTS[::-1], *_ack_numbers(fl, seq))
            else:
                total = 40 + max(int(e["bytes"]) - fl.header_bytes, 0)
                s_ip, d_ip = flow_address("tcp", f, 0), flow_address("tcp", f, 1)
                l4 = _tcp(TCP_PORTS, *_data_numbers(fl, seq))
        cls = names[int(e["cls"])] if not ack[i] and int(e["cls"]) < len(names) else "be"
        code = 0 if ack[i] else dscp(cls, int(e["colour"]), coloured)
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, code << 2, total, int(e["id"]) & 0xFFFF, 0x4000,
                         64, proto, 0, s_ip, d_ip)
        ip = ip[:10] + struct.pack("!H", _ip_checksum(ip)) + ip[12:]
        pkt = ip + l4
        t = float(e["t_s"])
        sec = int(t)
        nsec = min(int(round((t - sec) * 1e9)), 999_999_999)
        out.append(struct.pack("<IIII", sec, nsec, len(pkt), total) + pkt)
    return b"".join(out)
