"""The scenario builders of Habib, Bhargava & Fahmy, "A Round Trip Time and Time-out Aware
Traffic Conditioner for Differentiated Services Networks" (``builder = "habib_2a"`` /
``"habib_2b"`` in a sweep file).

``habib_2a`` matches the ns-2.35 reference of ``benchmarks/ns2/habib/`` (``habib_2a.tcl`` and
its README): the same links, delays, queues, TCP and conditioner parameters, so that the two
can be set side by side. ``habib_2b`` is the multi-domain topology of Fig. 2(b), whose figure is
not in the text: its links and delays are derived from what the text says (the module
docstring of each builder lists every choice). Errors name the builders' own parameters.
"""
from __future__ import annotations

import numpy as np

from diffsweep.core.errors import check
from diffsweep.scenario import (MAX_FLOWS, Link, Marker, QueueClass, RedThresholds, Scenario,
                                TcpFlow, Traffic, as_float, as_int, check_count, check_number,
                                check_positive, is_int, plain, renamed_errors)

__all__ = ["habib_2a", "habib_2b", "one_way_ms", "CONDITIONERS", "RIO_THRESHOLDS", "AGGREGATES_2B"]

#: The conditioners compared: the standard one (TSW rate estimator + TSW3CM), with small-window
#: protection, the basic RTT-aware one (Nandy et al.), RTT-RTO, RTT-aware with SW; "none"
#: leaves every packet green (plain RED at the core).
CONDITIONERS = ("standard", "standard_sw", "rtt_aware", "rtt_rto", "rtt_sw", "none")
#: Core RIO {min_th, max_th, max_p} per drop precedence DP0, DP1, DP2 (sec. IV), w_q 0.002.
RIO_THRESHOLDS = ((40.0, 55.0, 0.02), (25.0, 40.0, 0.05), (10.0, 25.0, 0.1))
W_Q = 0.002
PAYLOAD_BYTES = 1024   # ns-2 packetSize_ 1024; 40 B of TCP/IP header on top: 1064 B
HEADER_BYTES = 40
MAX_WINDOW = 64
#: Objects per web page: ns-2 WebTraf's default pageSize (tcl/ex/web-traffic.tcl: Constant 1);
#: the paper speaks of "a variable number of objects" and uses "the default ns-2
#: distributions" (4 per page overloads the 1-Mb/s network far beyond Table II's times).
WWW_OBJECTS = 1
LINK_DELAY_MS = 2.5    # every link of Fig. 2(a) (benchmarks/ns2/habib: ours)
FAST_BPS = 100e6       # every link but the bottleneck
BIG_BUFFER = 2000      # packets: no loss anywhere but at the core (see habib_2a)
_START_STREAM = 0x484246  # "HBF": start-time draws, independent of the engine's streams


def _start_times(seed: int, n: int) -> np.ndarray:
    return np.random.default_rng([int(seed), _START_STREAM]).uniform(0.0, 1.0, n)


def _core(buffer_pkts: int, rate_bps: float, delay_ms: float, domain=None) -> Link:
    red = tuple(RedThresholds(lo, hi, p) for lo, hi, p in RIO_THRESHOLDS)
    q = QueueClass("af", limit_pkts=buffer_pkts, aqm="rio-c", red=red, red_w_q=W_Q,
                   red_mean_pkt_bytes=PAYLOAD_BYTES + HEADER_BYTES)
    return Link(rate_bps=rate_bps, prop_delay_ms=delay_ms, classes=(q,), domain=domain)


def _edge(domain=None) -> Link:
    return Link(rate_bps=FAST_BPS, prop_delay_ms=LINK_DELAY_MS,
                classes=(QueueClass("af", limit_pkts=BIG_BUFFER),), domain=domain)


def _marker(conditioner: str, name: str, link: int, flows, cir_bps: float, pir_bps: float,
            sw_k: int, traffic=()) -> Marker | None:
    """The edge conditioner of one aggregate; None for "none"."""
    common = dict(name=name, link=link, flows=tuple(flows), traffic=tuple(traffic),
                  cir_bps=cir_bps, cbs_bytes=1.0, window_s=1.0)
    if conditioner == "none":
        return None
    if conditioner in ("standard", "standard_sw"):
        return Marker(kind="tsw3cm", pir_bps=pir_bps,
                      small_window_pkts=sw_k if conditioner == "standard_sw" else None, **common)
    if conditioner in ("rtt_aware", "rtt_sw"):
        return Marker(kind="rtt_aware", small_window_pkts=sw_k if conditioner == "rtt_sw"
                      else None, **common)
    return Marker(kind="rtt_rto", **common)


def _tcp(variant="newreno", **kw) -> TcpFlow:
    """A micro-flow: 1024-B segments, window 64, initial window 2 and limited transmit when
    asked (both ns-2 defaults since 2001: ns-2.1b9's of May 2002, the paper's time, and
    ns-2.35's); its host link at 100 Mb/s with an unlimited buffer (it never holds more than a
    window and its retransmissions: ns-2's 20000-packet host queues never drop either)."""
    kw.setdefault("access_rate_bps", FAST_BPS)
    return TcpFlow(cls="af", variant=variant, segment_bytes=PAYLOAD_BYTES,
                   header_bytes=HEADER_BYTES, max_window_pkts=MAX_WINDOW, init_window_pkts=2,
                   **kw)


def _flag(name: str, value) -> bool:
    """A builder's on/off parameter: a bool only ("no" or 0.5 from a sweep file would
    otherwise count as true)."""
    value = plain(value)
    check(isinstance(value, (bool, np.bool_)), name, value, "true or false")
    return bool(value)


def _common_checks(conditioner, n_micro, duration_s, warmup_s, seed, sw_k):
    seed = as_int(plain(seed))
    check(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    conditioner = plain(conditioner)
    check(conditioner in CONDITIONERS, "conditioner", conditioner,
          "one of " + ", ".join(repr(c) for c in CONDITIONERS))
    n = as_int(plain(n_micro))
    check(is_int(n) and 1 <= n <= 2000, "n_micro", n,
          "an integer in 1..2000 (micro-flows per aggregate)")
    k = as_int(plain(sw_k))
    check(is_int(k) and k >= 1, "sw_k", k, "an integer >= 1 (cwnd < k is protected)")
    duration_s = as_float(plain(duration_s))
    check_positive("duration_s", duration_s)
    warmup_s = as_float(plain(warmup_s))
    check(isinstance(warmup_s, float) and 0 <= warmup_s < duration_s, "warmup_s", warmup_s,
          f"a number >= 0 and < duration_s ({duration_s})")
    return conditioner, n, k, duration_s, warmup_s, seed


def habib_2a(conditioner="standard", rtt2_ms=100.0, rtt1_ms=20.0, n_micro=200,
             bottleneck_bps=10e6, buffer_pkts=100, cir_bps=2e6, pir_bps=3e6, sw_k=3,
             duration_s=100.0, warmup_s=20.0, trace=False, trace_interval_s=0.1,
             limited_transmit=True, seed=0) -> Scenario:
    """Habib et al., topology 2(a) (sec. IV, V.A-B; Figs. 3-5), as ``benchmarks/ns2/habib``.

    Two aggregates of ``n_micro`` = 200 TCP NewReno micro-flows (1024-B segments + 40 B,
    window 64, initial window 2, backlogged, starting at uniform times in [0, 1) s): F1
    (flows 0..n-1) from n1 through edge e1, F2 (flows n..2n-1) from n2 through edge e2, into
    core c and over the bottleneck c -> d (``bottleneck_bps`` = 10 Mb/s, 2.5 ms, RIO-C with
    DP0 {40, 55, 0.02}, DP1 {25, 40, 0.05}, DP2 {10, 25, 0.1}, w_q 0.002, ``buffer_pkts`` =
    100) to their receivers. Links 0 (e1 -> c) and 1 (e2 -> c): 100 Mb/s, 2.5 ms, with the
    aggregate's edge conditioner at their ingress. Every link is 2.5 ms one way; F2's host
    link takes the rest of its round trip: F1's propagation round trip is ``rtt1_ms`` (20: the
    2.5-ms links), F2's ``rtt2_ms`` (>= 15 with this split); ACKs return uncongested over
    half the round trip. Host links: 100 Mb/s; edge queues 2000 packets (ns-2's reference uses
    20000; neither ever fills: at most 3 packets wait at an edge after the warm-up, so no
    packet is lost anywhere but at the core, and the replica's state stays small).

    ``conditioner`` (per aggregate, CIR ``cir_bps`` = 2 Mb/s, PIR ``pir_bps`` = 3 Mb/s, TSW
    window 1 s: ns-2.35's fixed winLen): "standard" (TSW3CM), "standard_sw" (with small-window
    protection, k = ``sw_k`` = 3), "rtt_aware" (Nandy et al.), "rtt_rto" (Habib et al.),
    "rtt_sw" (RTT-aware with SW), "none" (all green). ``trace``: the cwnd of F1's first
    micro-flow every ``trace_interval_s`` (Fig. 5). ``limited_transmit`` (RFC 3042, ns-2's
    ``singledup_``: on, as in ns-2 since 2001 and in ``benchmarks/ns2/habib``'s ns-2.35; with
    windows of a few packets it is what lets a micro-flow reach three duplicate ACKs instead
    of timing out, docs/ns2-gaps.md section 2). ``params``: ``conditioner``, ``rtt2_ms``.
    """
    conditioner, n, k, duration_s, warmup_s, seed = _common_checks(
        conditioner, n_micro, duration_s, warmup_s, seed, sw_k)
    lt = _flag("limited_transmit", limited_transmit)
    rtt1 = as_float(plain(rtt1_ms))
    rtt2 = as_float(plain(rtt2_ms))
    floor = 6 * LINK_DELAY_MS
    for name, v in (("rtt1_ms", rtt1), ("rtt2_ms", rtt2)):
        check(isinstance(v, float) and floor <= v <= 2000, name, v,
              f"a round trip in [{floor:g}, 2000] ms (four 2.5-ms links each way, the host "
              "link takes the rest)")
    with renamed_errors({"Link.rate_bps": "bottleneck_bps",
                         "QueueClass.limit_pkts": "buffer_pkts"}):
        links = (_edge(), _edge(), _core(as_int(plain(buffer_pkts)),
                                         as_float(plain(bottleneck_bps)), LINK_DELAY_MS))
    starts = _start_times(seed, 2 * n)
    flows = []
    for a, rtt in enumerate((rtt1, rtt2)):
        host_ms = rtt / 2.0 - 3 * LINK_DELAY_MS
        for i in range(n):
            flows.append(_tcp(route=(a, 2), access_delay_ms=host_ms,
                              egress_delay_ms=LINK_DELAY_MS, reverse_delay_ms=rtt / 2.0,
                              start_s=float(starts[a * n + i]), limited_transmit=lt))
    with renamed_errors({"Marker.cir_bps": "cir_bps", "Marker.pir_bps": "pir_bps"}):
        markers = tuple(m for m in (
            _marker(conditioner, "F1", 0, range(n), as_float(plain(cir_bps)),
                    as_float(plain(pir_bps)), k),
            _marker(conditioner, "F2", 1, range(n, 2 * n), as_float(plain(cir_bps)),
                    as_float(plain(pir_bps)), k)) if m is not None)
    trace_kw = {}
    if _flag("trace", trace):
        trace_kw = dict(trace_flows=(0,), trace_interval_s=as_float(plain(trace_interval_s)))
    params = {"conditioner": conditioner, "rtt2_ms": rtt2, "n_micro": n}
    with renamed_errors({"duration_s": "duration_s", "trace_interval_s": "trace_interval_s"}):
        return Scenario(links=links, flows=tuple(flows), markers=markers, duration_s=duration_s,
                        warmup_s=warmup_s, tcp_tick_s=0.01, params=params, **trace_kw)


#: Fig. 2(b)'s five aggregates: (name, source -> destination in the text, route, one-way host
#: delay in ms). Routes over the links of ``habib_2b``: 0 = A's edge for F1/F2, 1 = A's edge
#: for F4, 2 = A's core link (domain A's bottleneck), 3 = B's edge (where F1/F2 enter domain
#: B, and F3/F5 enter it), 4 = B's core link (domain B's bottleneck).
AGGREGATES_2B = (
    ("F1", "n1 -> n7", (0, 2, 3, 4), 45.0),
    ("F2", "n2 -> n8", (0, 2, 3, 4), 70.0),
    ("F3", "n3 -> n4", (3, 4), 0.0),
    ("F4", "n0 -> n9", (1, 2), 15.0),
    ("F5", "n5 -> n6", (3, 4), 7.5),
)


def one_way_ms(route, host_ms: float) -> float:
    """An aggregate of 2(b)'s one-way propagation: its host link, its route's links and the
    link to its receiver (2.5 ms each but the host's)."""
    return host_ms + LINK_DELAY_MS * (len(route) + 1)


def habib_2b(conditioner="rtt_rto", n_micro=200, core_bps=10e6, edge_bps=100e6,
             buffer_pkts=100, cir_bps=2e6, pir_bps=3e6, sw_k=3, duration_s=100.0,
             warmup_s=20.0, app="ftp", telnet_sessions=100, telnet_min_pkts=5,
             telnet_max_pkts=35, telnet_start_s=50.0, www_sessions=50, www_pool=512,
             edge_queue="fifo", limited_transmit=True, slot_s=None, seed=0) -> Scenario:
    """Habib et al., the multiple-domain topology 2(b) (sec. V.C-D; Fig. 6, Tables I-II).

    The figure is not reproduced in the text; from what the text says (F1 = n1 -> n7 and F2 =
    n2 -> n8 traverse two domains with long RTTs, F3 = n3 -> n4 very short, F4 = n0 -> n9 in the
    middle, F5 = n5 -> n6 short; F3, F4, F5 are cross traffic) we derive two DiffServ domains
    in a row (``AGGREGATES_2B``): domain A (links 0, 1: 100 Mb/s edges; link 2: A's core,
    ``core_bps`` = 10 Mb/s, RIO-C as in 2(a)) and domain B (link 3: its 100 Mb/s edge; link 4:
    B's core, 10 Mb/s RIO-C). F1 and F2 cross A's core and B's core: conditioned at A's edge
    (link 0) and again at B's (link 3); F4 crosses A only, F3 and F5 B only. Every link 2.5 ms;
    host links with one-way delays F1 45, F2 70, F3 0, F4 15, F5 7.5 ms, so that the
    propagation round trips are F1 115, F2 165, F3 15, F4 45, F5 30 ms (ours). Each aggregate:
    CIR ``cir_bps`` = 2 Mb/s, PIR ``pir_bps`` = 3 Mb/s at every edge it crosses (each core
    carries at most four aggregates: 8 of its 10 Mb/s committed, over-provisioned as the
    paper's runs are).

    ``app``: "ftp": ``n_micro`` = 200 backlogged NewReno micro-flows per aggregate (1,000
    flows; Fig. 6). "telnet" (Table I): ``telnet_sessions`` = 100 sessions per aggregate, each
    a TCP Reno connection whose application writes one 1024-B segment per ns-2 tcplib telnet
    gap, a uniform ``telnet_min_pkts``..``telnet_max_pkts`` segments in all ("less than 10 to
    more than 30"), starting at uniform times in [0, ``telnet_start_s``) = [0, 50) s (at most
    the run's first half). The paper gives no start times: 50 s is calibrated (with
    ``sweeps/habib/ht1.toml``'s 0.5-ms slot, 5 seeds) so that the standard conditioner's delays
    sit at the paper's level: 3.68 s per packet and 74 s per session against Table I's 3.62
    and 72.1 (45 s, calibrated on 2026-11-23 to 3.2 s and 64 s, gave 5.1 s and 101 s after
    later changes to the model; the level is steep in the window, the network being near
    saturation: 48 s 4.1 s, 52 s 3.2 s; all sessions in the first second 27 s, over 60 s
    1.5 s); the claims compare the conditioners, not the levels. "www" (Table II): ``www_sessions``
    = 50 web sessions in all, spread over F1, F2, F3 (the paper's servers n7, n8, n4 and
    clients n1, n2, n3), each of 5 pages at ns-2 WebTraf's defaults (``WWW_OBJECTS`` = 1
    object per page, pages at exponential intervals of 1 s, sizes ParetoII of mean 10 packets
    and shape 1.2), HTTP/1.0 over TCP Reno; the data cross the aggregate's route (the links are one-way here, so the
    server sits at the route's source). Table I and II's networks have every link at
    ``core_bps`` = ``edge_bps`` = 1 Mb/s and ``edge_queue`` = "rio" (set by their sweeps): at
    equal rates the edge links, where aggregates meet, are where queues build, so they get the
    core's RIO-C queue instead of the over-provisioned edges' large FIFO ("fifo", 20000
    packets). Every TCP connection with ``limited_transmit`` (on; as ``habib_2a``).
    ``slot_s``: the engine's time slot (None: its default, one 1064-B packet's time on the
    fastest link, 85 us at 100 Mb/s but 8.5 ms when every link is at 1 Mb/s, which would run
    F3's 15-ms round trip as 8.5 ms and drop a packet time of store-and-forward at every hop:
    Tables I and II's sweeps set a finer one; a slot shorter than a packet's time is exact,
    the link's byte credit carrying over from slot to slot, docs/model.md "Time").
    ``params``: ``conditioner``, ``app``, ``n_micro``.
    """
    conditioner, n, k, duration_s, warmup_s, seed = _common_checks(
        conditioner, n_micro, duration_s, warmup_s, seed, sw_k)
    lt = _flag("limited_transmit", limited_transmit)
    app = plain(app)
    check(app in ("ftp", "telnet", "www"), "app", app, "'ftp', 'telnet' or 'www'")
    slot = as_float(plain(slot_s))
    if slot is not None:
        check_number("slot_s", slot, lambda x: x > 0, "a number of seconds > 0, or None (the "
                     "engine's default slot)")
    core = as_float(plain(core_bps))
    edge = as_float(plain(edge_bps))
    buf = as_int(plain(buffer_pkts))
    with renamed_errors({"Link.rate_bps": "core_bps", "QueueClass.limit_pkts": "buffer_pkts"}):
        core_a = _core(buf, core, LINK_DELAY_MS, domain=0)
        core_b = _core(buf, core, LINK_DELAY_MS, domain=1)
    eq = plain(edge_queue)
    check(eq in ("fifo", "rio"), "edge_queue", eq, "'fifo' (a 20000-packet drop-tail queue) or "
          "'rio' (RIO-C as the cores)")
    with renamed_errors({"Link.rate_bps": "edge_bps"}):
        if eq == "rio":
            edges = [_core(buf, edge, LINK_DELAY_MS, domain=d) for d in (0, 0, 1)]
        else:
            edges = [Link(rate_bps=edge, prop_delay_ms=LINK_DELAY_MS,
                          classes=(QueueClass("af", limit_pkts=BIG_BUFFER),), domain=d)
                     for d in (0, 0, 1)]
    links = (edges[0], edges[1], core_a, edges[2], core_b)
    cir, pir = as_float(plain(cir_bps)), as_float(plain(pir_bps))
    flows, traffic, members = [], [], {}
    if app == "telnet":
        m = as_int(plain(telnet_sessions))
        check_count("telnet_sessions", m, 1, MAX_FLOWS, "TCP flows per scenario")
        lo, hi = as_int(plain(telnet_min_pkts)), as_int(plain(telnet_max_pkts))
        check(is_int(lo) and lo >= 1, "telnet_min_pkts", lo, "an integer >= 1")
        check(is_int(hi) and hi >= lo, "telnet_max_pkts", hi, f"an integer >= {lo}")
        t_start = as_float(plain(telnet_start_s))
        check_positive("telnet_start_s", t_start)
        t_start = min(t_start, duration_s / 2)  # a short (test) run: the first half
    if app == "www":
        w = as_int(plain(www_sessions))
        check(is_int(w) and w >= 3, "www_sessions", w, "an integer >= 3 (over F1, F2, F3)")
    for a, (name, _, route, host_ms) in enumerate(AGGREGATES_2B):
        one_way = one_way_ms(route, host_ms)
        kw = dict(route=route, access_delay_ms=host_ms, egress_delay_ms=LINK_DELAY_MS,
                  reverse_delay_ms=one_way, limited_transmit=lt)
        rng = np.random.default_rng([int(seed), _START_STREAM, a])
        if app == "ftp":
            members[name] = ("flows", list(range(len(flows), len(flows) + n)))
            flows += [_tcp(start_s=float(t), **kw) for t in rng.uniform(0.0, 1.0, n)]
        elif app == "telnet":
            members[name] = ("flows", list(range(len(flows), len(flows) + m)))
            sizes = rng.integers(lo, hi + 1, m)
            with renamed_errors({"TcpFlow.access_rate_bps": "edge_bps"}):
                flows += [_tcp(variant="reno", telnet_interval_s=0.0, size_pkts=int(z),
                               start_s=float(t), **dict(kw, access_rate_bps=edge))
                          for t, z in zip(rng.uniform(0.0, t_start, m), sizes)]
        elif name in ("F1", "F2", "F3"):
            share = w // 3 + (1 if a < w % 3 else 0)
            with renamed_errors({"TcpFlow.access_rate_bps": "edge_bps"}):
                tmpl = _tcp(variant="reno", **dict(kw, access_rate_bps=edge))
            members[name] = ("traffic", [len(traffic)])
            with renamed_errors({"Traffic.pool": "www_pool"}):
                traffic.append(Traffic(name=name, flow=tmpl, kind="web", sessions=share,
                                       pages_per_session=5, objects_per_page=WWW_OBJECTS,
                                       inter_page_s=1.0, inter_object_s=0.01,
                                       size_dist="paretoII", size_mean_pkts=10.0,
                                       size_alpha=1.2, pool=as_int(plain(www_pool))))
    markers = []
    with renamed_errors({"Marker.cir_bps": "cir_bps", "Marker.pir_bps": "pir_bps"}):
        for name, _, route, _ in AGGREGATES_2B:
            if name not in members:
                continue
            what, idx = members[name]
            for j, l in enumerate(x for x in route if x in (0, 1, 3)):
                kw = {"flows": idx} if what == "flows" else {"flows": (), "traffic": idx}
                mk = _marker(conditioner, name + ("" if j == 0 else "@B"), l, cir_bps=cir,
                             pir_bps=pir, sw_k=k, **kw)
                if mk is not None:
                    markers.append(mk)
    params = {"conditioner": conditioner, "app": app, "n_micro": n}
    with renamed_errors({"duration_s": "duration_s"}):
        return Scenario(links=links, flows=tuple(flows), traffic=tuple(traffic),
                        markers=tuple(markers), duration_s=duration_s, warmup_s=warmup_s,
                        slot_s=slot, tcp_tick_s=0.01, params=params)

#: units of the parameters whose names carry none (diffsweep.report.builders_page, docs/builders.md)
habib_2a.units = {"sw_k": "packets (cwnd below it is protected)"}
habib_2b.units = {"sw_k": "packets (cwnd below it is protected)", "telnet_sessions": "count (per aggregate)",
                  "www_sessions": "count", "www_pool": "count (transfers alive at once)"}
