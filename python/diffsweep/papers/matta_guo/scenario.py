"""The scenario builder of Matta & Guo, "Differentiated Predictive Fair Service for TCP Flows"
(``builder = "matta_guo"`` in a sweep file): the dumbbell of Fig. 2 with Table 2's values,
isolation (class-based queueing, one pipe per class) or sharing (one drop-tail or RED FIFO).

Every session is its own traffic generator (``s0``..``s{N-1}`` short, ``l0``..``l{N-1}`` long,
one connection at a time), so that per-session goodput can be read from ``res.transfers``;
above 32 sessions per class (the engine takes 64 generators) a generator holds
``group_size(N)`` sessions (N = 60: pairs), whose goodput the tables average.
Errors name the builder's parameters.
"""
from __future__ import annotations

from diffsweep.errors import check
from diffsweep.scenario import (Link, QueueClass, RedThresholds, Scenario, TcpFlow, Traffic,
                                as_float, as_int, check_number, check_positive, is_int, plain,
                                renamed_errors)

__all__ = ["matta_guo", "C_U_BPS", "B_U_PKTS", "WIRE_BYTES", "SHORT_PKTS", "LONG_PKTS",
           "session_class", "group_size"]

#: Capacity unit C_u = 2.5 Mb/s (542 packets/s of 576 B).
C_U_BPS = 2.5e6
#: Buffer unit B_u = 50 packets (about C_u x RTT).
B_U_PKTS = 50
#: 536-B segments + 40 B of headers = 576 B on the wire.
WIRE_BYTES = 576
SHORT_PKTS = 10
LONG_PKTS = 1000
#: Generators per class (the engine's limit is 64 generators per scenario).
MAX_GENERATORS_PER_CLASS = 32


def group_size(n_flows: int) -> int:
    """Sessions per traffic generator: 1 up to 32 sessions per class (the engine takes at most
    64 generators), else ceil(n_flows / 32) (N = 60: pairs of sessions)."""
    return max(1, -(-int(n_flows) // MAX_GENERATORS_PER_CLASS))


def _records(sessions: int, duration_s: float, min_conn_s: float) -> int:
    """Records to keep: a connection lasts at least ``min_conn_s`` (a 10-packet one needs 4
    round trips of 100 ms; a 1000-packet one 0.46 s at the 10 Mb/s access rate)."""
    return int(sessions * (duration_s / min_conn_s + 2)) + 8


def session_class(traffic_name: str) -> str | None:
    """"short" for a generator ``s<i>``, "long" for ``l<i>``, None otherwise."""
    if traffic_name[:1] == "s" and traffic_name[1:].isdigit():
        return "short"
    if traffic_name[:1] == "l" and traffic_name[1:].isdigit():
        return "long"
    return None


def matta_guo(n_flows=30, k=4, isolation=True, short_k=1, buffer_ratio=1.0, aqm="droptail",
              duration_s=200.0, think_s=0.001, telnet_sessions=6, telnet_interval_s=1.0,
              max_window_pkts=128, red_min_th=None, red_max_th=None, red_max_p=0.02,
              seed=0) -> Scenario:
    """Matta & Guo, Sec. 4.2-4.3 (Fig. 2, Table 2).

    Bottleneck: 40 ms. Isolation (``isolation`` True): CBQ without lending, the short pipe at
    ``short_k`` x C_u with ``buffer_ratio`` x ``short_k`` x B_u packets, the long pipe at
    ``k`` x C_u with ``buffer_ratio`` x ``k`` x B_u packets (k_c = ``k``, k_b = ``buffer_ratio``
    x k_c; Sec. 4.2 has ``buffer_ratio`` = 1, Sec. 4.3 varies it). Sharing: one FIFO of
    (``short_k`` + ``k``) C_u and the sum of both buffers, drop-tail or ``aqm="red"``
    (thresholds ``red_min_th``/``red_max_th`` in packets, default 1/4 and 3/4 of the buffer,
    ``red_max_p``). Buffers are rounded to whole packets (at least 1).

    Traffic: ``n_flows`` sessions of back-to-back 10-packet (short) connections and
    ``n_flows`` of 1000-packet (long) ones, one generator each; the next connection of a
    session starts an exponential ``think_s`` after the last one was received (also the first
    one's start). ``telnet_sessions`` telnet flows (exponential intervals of mean
    ``telnet_interval_s``), half on each pipe under isolation. TCP Reno, 576-B packets, window
    ``max_window_pkts``, timer tick 0.5 s; access links 4 C_u, 5 ms, 4000-packet buffers;
    round trip 100 ms. ``params``: ``n_flows``, ``k``, ``isolation``, ``short_k``,
    ``buffer_ratio``, ``aqm``, ``duration_s``.
    """
    seed = as_int(plain(seed))
    check(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    n = as_int(plain(n_flows))
    check(is_int(n) and 1 <= n <= 2000, "n_flows", n, "an integer in 1..2000 (sessions per class)")
    k = as_float(plain(k))
    check_number("k", k, lambda x: 0 < x <= 64, "a number in (0, 64] (the long pipe in C_u)")
    short_k = as_float(plain(short_k))
    check_number("short_k", short_k, lambda x: 0 < x <= 64,
                 "a number in (0, 64] (the short pipe in C_u)")
    ratio = as_float(plain(buffer_ratio))
    check_number("buffer_ratio", ratio, lambda x: 0 < x <= 100, "a number in (0, 100] (k_b / k_c)")
    iso = plain(isolation)
    check(isinstance(iso, bool), "isolation", iso, "true (two pipes) or false (one shared FIFO)")
    aqm = plain(aqm)
    check(aqm in ("droptail", "red"), "aqm", aqm, "'droptail' or 'red'")
    check(not (iso and aqm == "red"), "aqm", aqm, "'droptail' under isolation (RED is a "
          "sharing variant)")
    duration_s = as_float(plain(duration_s))
    check_positive("duration_s", duration_s)
    check_positive("think_s", as_float(plain(think_s)))
    tel = as_int(plain(telnet_sessions))
    check(is_int(tel) and tel >= 0, "telnet_sessions", tel, "an integer >= 0")
    check_positive("telnet_interval_s", as_float(plain(telnet_interval_s)))

    def buf(kk: float) -> int:
        return max(1, int(round(ratio * kk * B_U_PKTS)))

    rate = (short_k + k) * C_U_BPS
    renames = {"Link.rate_bps": "k", "QueueClass.limit_pkts": "buffer_ratio",
               "RedThresholds.min_th": "red_min_th", "RedThresholds.max_th": "red_max_th",
               "RedThresholds.max_p": "red_max_p"}
    with renamed_errors(renames):
        if iso:
            classes = (QueueClass("short", limit_pkts=buf(short_k), share=short_k / (short_k + k)),
                       QueueClass("long", limit_pkts=buf(k), share=k / (short_k + k)))
            link = Link(rate_bps=rate, prop_delay_ms=40.0, scheduler="cbq", cbq_lend=False,
                        classes=classes)
            cls = {"short": "short", "long": "long"}
        else:
            b = buf(short_k) + buf(k)
            if aqm == "red":
                lo = b / 4 if red_min_th is None else as_float(plain(red_min_th))
                hi = 3 * b / 4 if red_max_th is None else as_float(plain(red_max_th))
                q = QueueClass("shared", limit_pkts=b, aqm="red",
                               red=(RedThresholds(lo, hi, as_float(plain(red_max_p))),),
                               red_mean_pkt_bytes=WIRE_BYTES)
            else:
                q = QueueClass("shared", limit_pkts=b)
            link = Link(rate_bps=rate, prop_delay_ms=40.0, classes=(q,))
            cls = {"short": "shared", "long": "shared"}
    with renamed_errors({"TcpFlow.max_window_pkts": "max_window_pkts",
                         "TcpFlow.telnet_interval_s": "telnet_interval_s"}):
        tmpl = TcpFlow(route=(0,), cls=cls["short"], variant="reno", segment_bytes=536,
                       header_bytes=40, max_window_pkts=max_window_pkts, init_window_pkts=1,
                       access_delay_ms=5.0, egress_delay_ms=5.0, reverse_delay_ms=50.0,
                       access_rate_bps=4 * C_U_BPS, access_buffer_pkts=4000)
        telnets = tuple(TcpFlow(**{**tmpl.__dict__, "cls": cls["short" if i % 2 == 0 else "long"],
                                   "telnet_interval_s": telnet_interval_s})
                        for i in range(tel))
    long_t = TcpFlow(**{**tmpl.__dict__, "cls": cls["long"]})
    g = group_size(n)
    sizes = [g] * (n // g) + ([n % g] if n % g else [])
    with renamed_errors({"Traffic.think_s": "think_s"}):
        traffic = tuple(Traffic(name=f"s{i}", flow=tmpl, kind="sessions", pool=p,
                                think_s=think_s, size_set_pkts=(SHORT_PKTS,),
                                max_records=_records(p, duration_s, 0.3))
                        for i, p in enumerate(sizes))
        traffic += tuple(Traffic(name=f"l{i}", flow=long_t, kind="sessions", pool=p,
                                 think_s=think_s, size_set_pkts=(LONG_PKTS,),
                                 max_records=_records(p, duration_s, 0.4))
                         for i, p in enumerate(sizes))
    params = {"n_flows": n, "k": k, "isolation": iso, "short_k": short_k, "buffer_ratio": ratio,
              "aqm": aqm, "duration_s": duration_s}
    with renamed_errors({"duration_s": "duration_s"}):
        return Scenario(links=(link,), flows=telnets, traffic=traffic, duration_s=duration_s,
                        tcp_tick_s=0.5, interval_s=min(20.0, duration_s), params=params)
