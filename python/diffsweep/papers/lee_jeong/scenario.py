"""The scenario builder of Lee & Jeong, "Balancing Marker" (``builder = "lee_jeong"`` in a sweep
file): returns a validated :class:`~diffsweep.scenario.Scenario`.

It matches the ns-2.35 scenario recorded in ``benchmarks/ns2/lee_jeong/`` (``lee_jeong_m1.tcl``
and its README), so that the two can be set side by side. The builder's errors name the
builder's own parameters (``method: 'x' is not allowed ...``), not the scenario fields they end
up in.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from diffsweep.core.errors import check
from diffsweep.scenario import (MAX_FLOWS, MAX_SOURCES, Link, Marker, OnOffSource, QueueClass,
                                RedThresholds, Scenario, TcpFlow, as_float, as_int, check_bool,
                                check_count, check_nonneg, check_number, check_positive, is_int,
                                plain, renamed_errors)

__all__ = ["lee_jeong", "ACCESS_DELAYS_MS", "METHODS", "RIO_THRESHOLDS", "N_AGG"]

# Stream key of the start-time draws: keeps them independent of any engine stream of the seed.
_START_STREAM = 0x4C4A53  # "LJS"

#: One-way delays of S1..S7 to the (B)Marker, Table 3 (ms).
ACCESS_DELAYS_MS = (100.0, 80.0, 60.0, 40.0, 20.0, 10.0, 2.0)
#: Number of connections of the aggregated source.
N_AGG = len(ACCESS_DELAYS_MS)
#: "marker": Method 1 (one token bucket, 2 colours); "bmarker": Method 2 (Balancing Marker).
METHODS = ("marker", "bmarker")
#: RIO thresholds (min_th, max_th, max_p) in packets for GREEN, YELLOW, RED (Table 3).
RIO_THRESHOLDS = ((40, 60, 0.02), (30, 50, 0.04), (20, 40, 0.1))


def start_times(seed: int, n: int) -> list[float]:
    """The flows' start times: uniform in [0, 1) s, from ``default_rng([seed, 0x4C4A53])``, so
    each seed is another draw and the same seed always the same one."""
    rng = np.random.default_rng([int(seed), _START_STREAM])
    return [float(x) for x in rng.uniform(0.0, 1.0, n)]


def lee_jeong(cir_mbps=7.0, bucket_pkts=70, method="marker", udp=False, duration_s=60.0,
              warmup_s=0.0, w_lo=1.0, w_hi=2.0, p_max=1.0, window_s=1.0, active_s=1.0,
              n_best_effort=10, access_delays_ms=ACCESS_DELAYS_MS, be_delay_ms=2.0,
              link_rate_bps=10e6, access_rate_bps=10e6, buffer_pkts=100, segment_bytes=960,
              header_bytes=40, max_window_pkts=110, reno_bugfix=True, limited_transmit=True,
              udp_peak_bps=10e6, rtt_spread=1.0,
              udp_t_on_ms=20.0, udp_t_off_ms=20.0, n_udp=2, tie_break="random",
              tcp="reno", seed=0) -> Scenario:
    """Lee & Jeong, "Improvement of fairness between assured service TCP users in a
    differentiated service network" (the Balancing Marker), Sec. 4 and Table 3.

    Network (flows in this order):

    - flows 0..6: the aggregated source's TCP Reno connections S1..S7, one-way access delays
      ``access_delays_ms`` = 100, 80, 60, 40, 20, 10, 2 ms (Table 3) at ``access_rate_bps`` =
      10 Mb/s; all seven metered by one marker (``method``) at the bottleneck's ingress;
      ``rtt_spread`` (1) stretches them about the shortest, d_min + (d - d_min) x rtt_spread
      (``diffsweep atlas``: the fairness claims over a wider or narrower spread of RTTs);
    - flows 7..16: ``n_best_effort=10`` best-effort TCP Reno sources S8..S17, 2 ms
      (``be_delay_ms``), coloured red and unmarked;
    - with ``udp``: ``n_udp=2`` on-off UDP sources (``udp_t_on_ms=20`` on / ``udp_t_off_ms=20``
      off, fixed lengths: the paper's period 0.04 s; ``udp_peak_bps`` = 10 Mb/s while on,
      1000 B packets; the engine draws each one's phase), coloured red and unmarked;
    - link 0, the bottleneck R1 -> R2: ``link_rate_bps`` = 10 Mb/s, 1 ms, one RIO-C queue of
      ``buffer_pkts=100`` packets, thresholds GREEN {40, 60, 0.02}, YELLOW {30, 50, 0.04}, RED
      {20, 40, 0.1} in packets of 1000 B (Table 3).

    Delays as in ``benchmarks/ns2/lee_jeong/lee_jeong_m1.tcl``: edge -> core 1 ms (folded into
    the access delay: ``access_delay_ms = d + 1``), bottleneck 1 ms, destination link 1 ms
    (``egress_delay_ms = 1``), and the ACK path uncongested with the same delays back
    (``reverse_delay_ms = d + 3``): round trips 206 ms (S1) .. 10 ms (S7 and best effort).

    ``method``:

    - ``"marker"`` (Method 1): one token bucket over flows 0..6, rate ``cir_mbps`` Mb/s,
      depth ``bucket_pkts`` x 1000 B; GREEN (IN) or RED (OUT).
    - ``"bmarker"`` (Method 2): one Balancing Marker over flows 0..6: second (shared) bucket
      ``cir_mbps``, ``bucket_pkts`` x 1000 B; first buckets ``bucket_pkts`` x 1000 / 7 B each
      (Table 3: 10 packets with 70, 5 with 35) filled at cir / active connections;
      RED-to-YELLOW re-marking probability P(W) = ``p_max`` for W <= ``w_lo``, 0 for W >=
      ``w_hi``, linear between (the paper's curve is in a lost figure: 1.0, 2.0, 1.0 are
      ours); AR_x measured over ``window_s``, a connection silent ``active_s`` is inactive.

    TCP: Reno (``tcp="reno"``, or ``"newreno"``; ``tcp="sack"`` makes every TCP connection, aggregated and best
    effort, ns-2.35's Sack1 with its SACK sink, as ``benchmarks/ns2/lee_jeong/run_sack.sh``
    runs it: issue 44's side by side of SACK in a second paper), ``segment_bytes=960`` + ``header_bytes=40`` = 1000 B on the wire (the paper's
    packet size, as the ns-2 scripts), ``max_window_pkts=110``, ns-2.35 timer defaults (tick
    10 ms, min RTO 200 ms, initial window 2, ``reno_bugfix=True`` as ns-2.35's ``bugFix_``),
    one ACK per packet, backlogged. Start times uniform in [0, 1) s drawn from the seed
    (:func:`start_times`). ``duration_s=60`` (Table 3), ``warmup_s=0`` (the paper states none:
    rates count the whole run).

    ``params`` (grid columns): ``cir_mbps``, ``bucket_pkts``, ``method``, ``udp``, and the
    paper's reference rates in Mb/s: ``bab_mbps`` = cir / 7 (Basic Assured Bandwidth),
    ``excess_mbps`` = link - cir, ``atb_mbps`` = BAB + excess / (7 + n_best_effort) (the
    Available Target Bandwidth of an aggregated connection), ``atb_be_mbps`` = excess /
    (7 + n_best_effort) (of a best-effort source).
    """
    seed = as_int(plain(seed))
    check(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    method = plain(method)
    check(method in METHODS, "method", method,
          "one of 'marker' (Method 1, token bucket) or 'bmarker' (Method 2, Balancing Marker)")
    udp = plain(udp)
    check_bool("udp", udp)
    cir_mbps = as_float(plain(cir_mbps))
    check_positive("cir_mbps", cir_mbps)
    link_rate_bps = as_float(plain(link_rate_bps))
    check_positive("link_rate_bps", link_rate_bps)
    check_number("cir_mbps", cir_mbps, lambda x: x * 1e6 <= link_rate_bps,
                 f"a number > 0 and <= the bottleneck rate ({link_rate_bps / 1e6:g} Mb/s)")
    bucket_pkts = as_int(plain(bucket_pkts))
    check(is_int(bucket_pkts) and bucket_pkts >= 1, "bucket_pkts", bucket_pkts,
          "an integer >= 1 (packets of 1000 B)")
    n_best_effort = as_int(plain(n_best_effort))
    check_count("n_best_effort", n_best_effort, 0, MAX_FLOWS, "TCP flows per scenario")
    n_udp = as_int(plain(n_udp))
    check_count("n_udp", n_udp, 0, MAX_SOURCES, "traffic sources per scenario")
    delays = plain(access_delays_ms)
    if isinstance(delays, np.ndarray):
        delays = delays.tolist()
    check(isinstance(delays, Sequence) and not isinstance(delays, str) and len(delays) >= 1,
          "access_delays_ms", delays, "a non-empty sequence of delays in ms, one per connection")
    delays = [as_float(d) for d in delays]
    for i, d in enumerate(delays):
        check_nonneg(f"access_delays_ms[{i}]", d)
    rtt_spread = as_float(plain(rtt_spread))
    check_number("rtt_spread", rtt_spread, lambda x: 0 <= x <= 100,
                 "a number in [0, 100] (the access delays' spread about the shortest: 1 as given)")
    if rtt_spread != 1.0:
        # stretched about the shortest connection, whose round trip stays as it is
        lo = min(delays)
        delays = [lo + (d - lo) * rtt_spread for d in delays]
    be_delay_ms = as_float(plain(be_delay_ms))
    check_nonneg("be_delay_ms", be_delay_ms)
    check_positive("access_rate_bps", as_float(plain(access_rate_bps)))
    n_agg = len(delays)

    wire = (int(segment_bytes) + int(header_bytes)
            if is_int(as_int(segment_bytes)) and is_int(as_int(header_bytes)) else 1000)
    red = [RedThresholds(*t) for t in RIO_THRESHOLDS]
    with renamed_errors({"Link.rate_bps": "link_rate_bps", "QueueClass.limit_pkts": "buffer_pkts"}):
        link = Link(rate_bps=link_rate_bps, prop_delay_ms=1.0,
                    classes=(QueueClass("be", limit_pkts=buffer_pkts, aqm="rio-c", red=red,
                                        red_mean_pkt_bytes=1000),))

    starts = start_times(seed, n_agg + n_best_effort)
    renames = {"TcpFlow.variant": "tcp", "TcpFlow.segment_bytes": "segment_bytes", "TcpFlow.header_bytes": "header_bytes",
               "TcpFlow.max_window_pkts": "max_window_pkts",
               "TcpFlow.reno_bugfix": "reno_bugfix", "TcpFlow.access_rate_bps": "access_rate_bps",
               "TcpFlow.limited_transmit": "limited_transmit"}
    flows = []
    with renamed_errors(renames):
        common = dict(route=(0,), cls="be", variant=tcp, segment_bytes=segment_bytes,
                      header_bytes=header_bytes, max_window_pkts=max_window_pkts,
                      access_rate_bps=access_rate_bps, reno_bugfix=reno_bugfix,
                      limited_transmit=limited_transmit, egress_delay_ms=1.0,
                      access_buffer_pkts=200)
        for i, d in enumerate(delays):
            flows.append(TcpFlow(access_delay_ms=d + 1.0, reverse_delay_ms=d + 3.0,
                                 start_s=starts[i], **common))
        for j in range(n_best_effort):
            flows.append(TcpFlow(access_delay_ms=be_delay_ms + 1.0,
                                 reverse_delay_ms=be_delay_ms + 3.0,
                                 start_s=starts[n_agg + j], colour="red", **common))

    sources = []
    if udp:
        with renamed_errors({"OnOffSource.peak_bps": "udp_peak_bps", "OnOffSource.t_on_ms": "udp_t_on_ms",
                       "OnOffSource.t_off_ms": "udp_t_off_ms"}):
            for k in range(n_udp):
                sources.append(OnOffSource(name=f"udp{k}", cls="be", peak_bps=udp_peak_bps,
                                           pkt_bytes=1000, t_on_ms=udp_t_on_ms,
                                           t_off_ms=udp_t_off_ms, onoff="fixed", colour="red"))

    cir_bps = cir_mbps * 1e6
    cbs = float(bucket_pkts * wire)
    members = tuple(range(n_agg))
    with renamed_errors({"Marker.w_lo": "w_lo", "Marker.w_hi": "w_hi", "Marker.p_max": "p_max",
                   "Marker.window_s": "window_s", "Marker.active_s": "active_s"}):
        if method == "marker":
            marker = Marker(name="agg", kind="token_bucket", cir_bps=cir_bps, cbs_bytes=cbs,
                            flows=members)
        else:
            marker = Marker(name="agg", kind="balancing", cir_bps=cir_bps, cbs_bytes=cbs,
                            b1_bytes=cbs / n_agg, flows=members, w_lo=w_lo, w_hi=w_hi,
                            p_max=p_max, window_s=window_s, active_s=active_s)

    bab = cir_mbps / n_agg
    excess = link_rate_bps / 1e6 - cir_mbps
    share = excess / (n_agg + n_best_effort)
    params = {"cir_mbps": cir_mbps, "bucket_pkts": bucket_pkts, "method": method, "udp": udp,
              "bab_mbps": bab, "excess_mbps": excess, "atb_mbps": bab + share,
              "atb_be_mbps": share}
    with renamed_errors({"markers[0].w_lo": "w_lo", "markers[0].w_hi": "w_hi",
                   "markers[0].p_max": "p_max"}):
        return Scenario(links=(link,), flows=tuple(flows), sources=tuple(sources),
                        markers=(marker,), duration_s=duration_s, warmup_s=warmup_s,
                        tie_break=tie_break, params=params)

#: units of the parameters whose names carry none (diffsweep.report.builders_page, docs/builders.md)
lee_jeong.units = {"p_max": "probability", "rtt_spread": "factor"}
