"""The scenario builder of Matta & Guo, "Differentiated Predictive Fair Service for TCP Flows"
(``builder = "matta_guo"`` in a sweep file): the dumbbell of Fig. 2 with Table 2's values,
isolation (class-based queueing, one pipe per class) or sharing (one drop-tail or RED FIFO).

Each class is one traffic generator of N sessions (``short``, ``long``; one connection at a
time per session), and each transfer record names its session (``res.transfers.slot``), so
per-session goodput is read from ``res.transfers``. Errors name the builder's parameters.
"""
from __future__ import annotations

from diffsweep.core.errors import check
from diffsweep.scenario import (MAX_FLOWS, Link, QueueClass, RedThresholds, Scenario, TcpFlow,
                                Traffic, as_float, as_int, check_count, check_number,
                                check_positive, is_int, plain, renamed_errors)

__all__ = ["matta_guo", "matta_guo_web", "SCHEMES", "C_U_BPS", "B_U_PKTS", "WIRE_BYTES", "SHORT_PKTS", "LONG_PKTS",
           "CLASSES", "FIRST_START_S"]

#: Capacity unit C_u = 2.5 Mb/s (542 packets/s of 576 B).
C_U_BPS = 2.5e6
#: Buffer unit B_u = 50 packets (about C_u x RTT).
B_U_PKTS = 50
#: 536-B segments + 40 B of headers = 576 B on the wire.
WIRE_BYTES = 576
SHORT_PKTS = 10
LONG_PKTS = 1000
#: The traffic generators, one per class of sessions.
CLASSES = ("short", "long")
#: Sec. 4.1: "each session starts at a randomly chosen time in the first 5 seconds".
FIRST_START_S = 5.0


def _records(sessions: int, duration_s: float, min_conn_s: float) -> int:
    """Records to keep: a connection lasts at least ``min_conn_s`` (a 10-packet one needs 4
    round trips of 100 ms; a 1000-packet one 0.46 s at the 10 Mb/s access rate)."""
    return int(sessions * (duration_s / min_conn_s + 2)) + 8


def matta_guo(n_flows=30, k=4, isolation=True, short_k=1, buffer_ratio=1.0, aqm="droptail",
              duration_s=200.0, think_s=0.001, telnet_sessions=6, telnet_interval_s=0.0,
              max_window_pkts=128, red_min_th=None, red_max_th=None, red_max_p=0.02,
              lifetime_pkts=None, seed=0) -> Scenario:
    """Matta & Guo, Sec. 4.2-4.3 (Fig. 2, Table 2).

    Bottleneck: 40 ms. Isolation (``isolation`` True): CBQ without lending, the short pipe at
    ``short_k`` x C_u with ``buffer_ratio`` x ``short_k`` x B_u packets, the long pipe at
    ``k`` x C_u with ``buffer_ratio`` x ``k`` x B_u packets (k_c = ``k``, k_b = ``buffer_ratio``
    x k_c; Sec. 4.2 has ``buffer_ratio`` = 1, Sec. 4.3 varies it). Sharing: one FIFO of
    (``short_k`` + ``k``) C_u and the sum of both buffers, drop-tail or ``aqm="red"``
    (thresholds ``red_min_th``/``red_max_th`` in packets, default 1/4 and 3/4 of the buffer,
    ``red_max_p``). Buffers are rounded to whole packets (at least 1).

    Traffic: ``n_flows`` sessions of back-to-back 10-packet (short) connections and
    ``n_flows`` of 1000-packet (long) ones, one generator per class; each session's first
    connection starts at a uniform time in the first 5 s, the next one an exponential
    ``think_s`` after the last one was received. ``telnet_sessions`` telnet flows, half on
    each pipe under isolation: ns-2's tcplib telnet gaps (``telnet_interval_s`` 0, ns-2's
    ``interval_ 0``) or exponential ones of that mean. TCP Reno, 576-B packets, window
    ``max_window_pkts``, timer tick 0.5 s; access links 4 C_u, 5 ms, 4000-packet buffers;
    round trip 100 ms. ``params``: ``n_flows``, ``k``, ``isolation``, ``short_k``,
    ``buffer_ratio``, ``aqm``, ``duration_s``, ``lifetime_pkts``.

    Classification (isolation only). ``lifetime_pkts=None``: size-based, as the paper's
    Sec. 4.2 (the classifier knows each connection's size: short connections in the short
    pipe, long ones in the long pipe). An integer N: lifetime-based (Sec. 6: a flow is
    classified as long after observing it for some number of packets), every connection's
    segments with sequence number < N in the short pipe and the later ones in the long pipe,
    whatever its size (a retransmission of an early segment goes to the short pipe again).
    The engine classifies per packet by route, not by class (``TcpFlow.split="lifetime"``,
    docs/model.md, "Two paths and the edge classifier"), so the two pipes are two links of
    the pipes' rates and buffers (40 ms each) rather than two CBQ classes of one link: the same
    rates, buffers and isolation without lending, but each pipe serialises a packet at its
    own rate (1.8 ms at C_u) where a CBQ class sends it at the link's. Telnet flows stay on
    their pipes. Under sharing ``lifetime_pkts`` changes nothing (one FIFO for all).
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
    check_count("telnet_sessions", tel, 0, MAX_FLOWS, "TCP flows per scenario")
    check_number("telnet_interval_s", as_float(plain(telnet_interval_s)), lambda x: x >= 0,
                 "a number >= 0 (0: tcplib's telnet distribution, as ns-2's interval_ 0)")
    lifetime_pkts = as_int(plain(lifetime_pkts))
    check(lifetime_pkts is None or (is_int(lifetime_pkts) and 1 <= lifetime_pkts <= 100_000),
          "lifetime_pkts", lifetime_pkts, "None (size-based classification) or an integer in "
          "1..100000 (a connection's first N packets in the short pipe)")
    lifetime = iso and lifetime_pkts is not None

    def buf(kk: float) -> int:
        return max(1, int(round(ratio * kk * B_U_PKTS)))

    rate = (short_k + k) * C_U_BPS
    renames = {"Link.rate_bps": "k", "QueueClass.limit_pkts": "buffer_ratio",
               "RedThresholds.min_th": "red_min_th", "RedThresholds.max_th": "red_max_th",
               "RedThresholds.max_p": "red_max_p"}
    with renamed_errors(renames):
        if lifetime:
            # one link per pipe: the engine's lifetime classifier picks a route per packet
            links = (Link(rate_bps=short_k * C_U_BPS, prop_delay_ms=40.0,
                          classes=(QueueClass("pipe", limit_pkts=buf(short_k)),)),
                     Link(rate_bps=k * C_U_BPS, prop_delay_ms=40.0,
                          classes=(QueueClass("pipe", limit_pkts=buf(k)),)))
            cls = {"short": "pipe", "long": "pipe"}
        elif iso:
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
        if not lifetime:
            links = (link,)
    with renamed_errors({"TcpFlow.max_window_pkts": "max_window_pkts",
                         "TcpFlow.telnet_interval_s": "telnet_interval_s"}):
        tmpl = TcpFlow(route=(0,), cls=cls["short"], variant="reno", segment_bytes=536,
                       header_bytes=40, max_window_pkts=max_window_pkts, init_window_pkts=1,
                       access_delay_ms=5.0, egress_delay_ms=5.0, reverse_delay_ms=50.0,
                       access_rate_bps=4 * C_U_BPS, access_buffer_pkts=4000)
        # (under lifetime-based isolation a telnet flow's pipe is its route: half on each)
        telnets = tuple(TcpFlow(**{**tmpl.__dict__, "cls": cls["short" if i % 2 == 0 else "long"],
                                   "telnet_interval_s": telnet_interval_s,
                                   **({"route": (i % 2,)} if lifetime else {})})
                        for i in range(tel))
        if lifetime:
            tmpl = TcpFlow(**{**tmpl.__dict__, "route2": (1,), "split": "lifetime",
                              "split_pkts": lifetime_pkts})
    long_t = TcpFlow(**{**tmpl.__dict__, "cls": cls["long"]})
    with renamed_errors({"Traffic.think_s": "think_s"}):
        traffic = (Traffic(name="short", flow=tmpl, kind="sessions", pool=n, think_s=think_s,
                           first_start_s=FIRST_START_S, size_set_pkts=(SHORT_PKTS,),
                           max_records=_records(n, duration_s, 0.3)),
                   Traffic(name="long", flow=long_t, kind="sessions", pool=n, think_s=think_s,
                           first_start_s=FIRST_START_S, size_set_pkts=(LONG_PKTS,),
                           max_records=_records(n, duration_s, 0.4)))
    params = {"n_flows": n, "k": k, "isolation": iso, "short_k": short_k, "buffer_ratio": ratio,
              "aqm": aqm, "duration_s": duration_s}
    if lifetime_pkts is not None:
        params["lifetime_pkts"] = lifetime_pkts
    with renamed_errors({"duration_s": "duration_s"}):
        return Scenario(links=links, flows=telnets, traffic=traffic, duration_s=duration_s,
                        tcp_tick_s=0.5, interval_s=min(20.0, duration_s), params=params)


#: Fig. 7's schemes at the edge node 4: the split of flows over the two paths, and the queues.
SCHEMES = ("load-balanced", "size-based", "lifetime-based", "red")
#: Table 3: the size-based threshold (a transfer below it takes path 1) and the lifetime one
#: (a flow's first 32 packets take path 1, the rest path 2).
SIZE_SPLIT_PKTS = 75
LIFETIME_SPLIT_PKTS = 32
#: Table 3: each path's bottleneck C = 5 Mb/s, buffer 250 packets, C x round trip 238 packets
#: (0.219 s at 576 B), RED thresholds 20 / 245 packets and max_p 0.2 %.
WEB_C_BPS = 5e6
WEB_BUFFER_PKTS = 250
WEB_PATH_DELAY_MS = 100.0


def matta_guo_web(scheme="size-based", duration_s=200.0, n_long=10, n_short=10,
                  web_sessions=200, web_connections=1900, web_interarrival_s=2.4,
                  web_pool=2048, think_s=0.001, max_window_pkts=128, seed=0) -> Scenario:
    """Matta & Guo, Sec. 4.4 (Fig. 6, Table 3): the diamond of Fig. 6 with web background.

    Two parallel paths from the edge node 4 to node 6, each a ``WEB_C_BPS`` bottleneck with
    ``WEB_BUFFER_PKTS`` of buffer and ``WEB_PATH_DELAY_MS`` of propagation (with access 5 ms,
    egress 4.5 ms and the uncongested ACK path 109.5 ms: a round trip of 219 ms, C x RTT =
    238 packets as Table 3 says). ``scheme``: "load-balanced" (each flow on either path with
    probability 1/2, drop-tail), "size-based" (a transfer below 75 packets on path 1, others
    on path 2), "lifetime-based" (a flow's first 32 packets on path 1, the rest on path 2),
    "red" (load-balanced over RED queues, thresholds 20 / 245 packets, max_p 0.002).
    Foreground: ``n_long`` sessions of back-to-back 1000-packet connections and ``n_short`` of
    10-packet ones (generators ``long`` and ``short``, first connections in the first 5 s).
    Background (generator ``web``): ``web_sessions`` sessions of ``web_connections`` one-object
    pages at exponential intervals of mean ``web_interarrival_s``, sizes bounded Pareto on
    [4, 2e5] packets, shape 1.2 (Table 3), at most ``web_pool`` alive at once. Every flow is
    routed by the scheme (the paper: "both foreground TCP connections and the Web background
    connections are routed according to the routing scheme"). TCP Reno, 576-B packets, window
    ``max_window_pkts``, initial window 1, timer tick 0.5 s; access links 3 C = 15 Mb/s with
    4000-packet buffers. ``params``: ``scheme``, ``duration_s``.
    """
    seed = as_int(plain(seed))
    check(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    scheme = plain(scheme)
    check(scheme in SCHEMES, "scheme", scheme, "one of " + ", ".join(repr(s) for s in SCHEMES))
    duration_s = as_float(plain(duration_s))
    check_positive("duration_s", duration_s)
    for name, v in (("n_long", n_long), ("n_short", n_short), ("web_sessions", web_sessions),
                    ("web_connections", web_connections), ("web_pool", web_pool)):
        v = as_int(plain(v))
        check(is_int(v) and v >= 1, name, v, "an integer >= 1")
    check_positive("web_interarrival_s", as_float(plain(web_interarrival_s)))
    check_positive("think_s", as_float(plain(think_s)))
    if scheme == "red":
        q = QueueClass("be", limit_pkts=WEB_BUFFER_PKTS, aqm="red",
                       red=(RedThresholds(20.0, 245.0, 0.002),), red_mean_pkt_bytes=WIRE_BYTES)
    else:
        q = QueueClass("be", limit_pkts=WEB_BUFFER_PKTS)
    links = tuple(Link(rate_bps=WEB_C_BPS, prop_delay_ms=WEB_PATH_DELAY_MS, classes=(q,))
                  for _ in range(2))
    split = {"load-balanced": ("random", None), "red": ("random", None),
             "size-based": ("size", SIZE_SPLIT_PKTS),
             "lifetime-based": ("lifetime", LIFETIME_SPLIT_PKTS)}[scheme]
    with renamed_errors({"TcpFlow.max_window_pkts": "max_window_pkts"}):
        tmpl = TcpFlow(route=(0,), route2=(1,), split=split[0], split_pkts=split[1], cls="be",
                       variant="reno", segment_bytes=536, header_bytes=40,
                       max_window_pkts=max_window_pkts, init_window_pkts=1, access_delay_ms=5.0,
                       egress_delay_ms=4.5, reverse_delay_ms=109.5,
                       access_rate_bps=3 * WEB_C_BPS, access_buffer_pkts=4000)
    n_long, n_short = as_int(plain(n_long)), as_int(plain(n_short))
    with renamed_errors({"Traffic.think_s": "think_s", "Traffic.pool": "web_pool",
                         "Traffic.sessions": "web_sessions",
                         "Traffic.pages_per_session": "web_connections",
                         "Traffic.inter_page_s": "web_interarrival_s"}):
        traffic = (
            Traffic(name="short", flow=tmpl, kind="sessions", pool=n_short, think_s=think_s,
                    first_start_s=FIRST_START_S, size_set_pkts=(SHORT_PKTS,),
                    max_records=_records(n_short, duration_s, 0.5)),
            Traffic(name="long", flow=tmpl, kind="sessions", pool=n_long, think_s=think_s,
                    first_start_s=FIRST_START_S, size_set_pkts=(LONG_PKTS,),
                    max_records=_records(n_long, duration_s, 0.5)),
            Traffic(name="web", flow=tmpl, kind="web", sessions=as_int(plain(web_sessions)),
                    pages_per_session=as_int(plain(web_connections)), objects_per_page=1,
                    inter_page_s=as_float(plain(web_interarrival_s)), size_dist="pareto",
                    size_min_pkts=4.0, size_max_pkts=2e5, size_alpha=1.2,
                    pool=as_int(plain(web_pool))))
    params = {"scheme": scheme, "duration_s": duration_s}
    with renamed_errors({"duration_s": "duration_s"}):
        return Scenario(links=links, traffic=traffic, duration_s=duration_s, tcp_tick_s=0.5,
                        interval_s=min(20.0, duration_s), params=params)

#: units of the parameters whose names carry none (diffsweep.report.builders_page, docs/builders.md)
matta_guo.units = {"k": "C_u (2.5 Mb/s)", "short_k": "C_u (2.5 Mb/s)", "telnet_sessions": "count",
                   "lifetime_pkts": "packets",
                   "red_min_th": "packets", "red_max_th": "packets", "red_max_p": "probability"}
matta_guo_web.units = {"web_sessions": "count", "web_connections": "count (pages per session)",
                       "web_pool": "count (transfers alive at once)"}
