"""The scenario builder of Rossi, Casetti & Mellia, "A Simulation Study of Web Traffic over
DiffServ Networks" (``builder = "rossi"`` in a sweep file): returns a validated
:class:`~diffsweep.scenario.Scenario`.

It matches the ns-2.35 scenario recorded in ``benchmarks/ns2/rossi/`` (``rossi_web.tcl`` and
its README), so that the two can be set side by side. The builder's errors name the builder's
own parameters (``rho: ...``), not the scenario fields they end up in.
"""
from __future__ import annotations

import numpy as np

from diffsweep.core.errors import check
from diffsweep.scenario import (MAX_FLOWS, Link, Marker, QueueClass, RedThresholds, Scenario,
                                TcpFlow, Traffic, as_float, as_int, check_count, check_nonneg,
                                check_number, check_positive, is_int, plain, renamed_errors)

__all__ = ["rossi", "SIZE_SET_PKTS", "RIO_THRESHOLDS", "MEAN_FLOW_BYTES", "ALPHA_AF_TH",
           "mean_interarrival_s"]

#: Transfer sizes in packets, drawn uniformly (mean 13.6 packets = 13.6 KB of 1000-B packets):
#: diffsweep's choice, the paper does not print its set.
SIZE_SET_PKTS = (1, 2, 3, 4, 5, 6, 7, 8, 10, 90)
#: The paper's mean flow length (13.6 KB).
MEAN_FLOW_BYTES = 13_600.0
#: RIO-C thresholds (min_th, max_th, max_p) in packets: green, red (Sec. II).
RIO_THRESHOLDS = ((20, 40, 0.02), (5, 10, 0.20))
#: The paper's alpha_AF threshold between in- and out-of-profile AF traffic (Sec. IV-B).
ALPHA_AF_TH = 0.589
# Stream key of the FTP start-time draws (independent of any engine stream of the seed).
_START_STREAM = 0x525353  # "RSS"


def mean_interarrival_s(rho: float, alpha: float, link_rate_bps: float = 10e6,
                        mean_flow_bytes: float = MEAN_FLOW_BYTES) -> float:
    """The paper's tau_i = lambda / (alpha_i rho B): mean interarrival of one cloud's transfers."""
    return mean_flow_bytes * 8.0 / (alpha * rho * link_rate_bps)


def rossi(rho=0.5, alpha_af=0.5, ftp_per_cloud=0, t_stop_s=600.0, t_halt_s=900.0, pool=8192,
          warmup_s=0.0, cir_fraction=0.5, link_rate_bps=10e6, buffer_pkts=50,
          max_window_pkts=20, size_set_pkts=SIZE_SET_PKTS, tsw_window_s=1.0,
          limited_transmit=True, syn=True, delay_growth=True, seed=0) -> Scenario:
    """Rossi, Casetti & Mellia, web traffic over DiffServ (Sec. II-III), as
    ``benchmarks/ns2/rossi/README.md`` fixes it.

    Network: one bottleneck S -> R, ``link_rate_bps`` = 10 Mb/s, 10 ms, one RIO-C queue of
    ``buffer_pkts`` = 50 packets, green thresholds 20/40/0.02, red 5/10/0.20 (packets of a
    1000-B mean packet, w_q 0.002, not gentle). Hosts: access 100 Mb/s, 1 ms; destination 1 ms;
    ACKs back uncongested over the same delays (reverse 12 ms): round trip 24 ms.

    Traffic (in this order): generator "af" (the DS cloud; absent if ``alpha_af`` = 0) and
    generator "be" (the BE cloud, coloured red, unmarked; absent if ``alpha_af`` = 1). Each:
    Poisson arrivals, mean interarrival lambda x 8 / (alpha_i ``rho`` B), lambda = the mean
    of ``size_set_pkts`` x 1000 B (13.6 KB, the paper's mean) with alpha_be = 1 -
    alpha_af (:func:`mean_interarrival_s`), sizes uniform over ``size_set_pkts`` (default
    {1, 2, 3, 4, 5, 6, 7, 8, 10, 90}, mean 13.6 packets), no new transfer at or after
    ``t_stop_s``, ``pool`` slots per cloud (transfers alive at once; 8192: at rho 0.95 the BE
    cloud peaks near 2100 alive, near 4000 with FTP, and an arrival finding none free is refused). Every transfer is a fresh
    TCP Reno connection (960 B + 40 B = 1000 B on the wire, window ``max_window_pkts`` = 20,
    initial window 2, ns-2.35 timers). ``syn`` and ``delay_growth`` (both on): each transfer
    opens with a 40-B SYN and its window starts growing after the SYN's ACK, as ns-2's
    defaults since June 2001 (``syn_ true``, ``delay_growth_ true``; the set this builder's
    initial window 2, limited transmit and timers come from: docs/ns2-gaps.md);
    ``syn=False, delay_growth=False`` is the connection that sends data at once.

    ``ftp_per_cloud`` backlogged Reno flows per cloud (flows 0..n-1 AF, n..2n-1 BE, red), start
    times uniform in [0, 1) s from the seed.

    Marker: one TSW2CM aggregate (CIR = ``cir_fraction`` x B = 5 Mb/s, SLA50, window
    ``tsw_window_s`` = 1 s) metering the AF generator and the AF FTP flows (none if the AF cloud
    is empty). The run halts at ``t_halt_s`` (the scenario's duration), warm-up ``warmup_s``
    (0: every transfer counts).

    ``params`` (grid columns): ``rho``, ``alpha_af``, ``ftp_per_cloud``.
    """
    seed = as_int(plain(seed))
    check(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    rho = as_float(plain(rho))
    check_number("rho", rho, lambda x: 0 < x < 10, "a number > 0 and < 10 (the offered load "
                 "over the bottleneck rate)")
    alpha_af = as_float(plain(alpha_af))
    check_number("alpha_af", alpha_af, lambda x: 0 <= x <= 1,
                 "a number in [0, 1] (the AF cloud's share; alpha_be = 1 - alpha_af)")
    ftp = as_int(plain(ftp_per_cloud))
    check_count("ftp_per_cloud", ftp, 0, MAX_FLOWS, "TCP flows per scenario")
    pool = as_int(plain(pool))
    check(is_int(pool) and pool >= 1, "pool", pool, "an integer >= 1 (slots per cloud)")
    t_stop_s = as_float(plain(t_stop_s))
    check_positive("t_stop_s", t_stop_s)
    t_halt_s = as_float(plain(t_halt_s))
    check_positive("t_halt_s", t_halt_s)
    check_number("t_halt_s", t_halt_s, lambda x: x >= t_stop_s,
                 f"a number >= t_stop_s ({t_stop_s:g})")
    warmup_s = as_float(plain(warmup_s))
    check_nonneg("warmup_s", warmup_s)
    cir_fraction = as_float(plain(cir_fraction))
    check_number("cir_fraction", cir_fraction, lambda x: 0 < x <= 1, "a number in (0, 1]")
    link_rate_bps = as_float(plain(link_rate_bps))
    check_positive("link_rate_bps", link_rate_bps)
    check_positive("tsw_window_s", as_float(plain(tsw_window_s)))
    sizes = plain(size_set_pkts)
    if isinstance(sizes, np.ndarray):
        sizes = sizes.tolist()
    check(isinstance(sizes, (list, tuple)) and len(sizes) >= 1, "size_set_pkts", sizes,
          "a non-empty sequence of transfer sizes in packets")
    sizes = tuple(as_int(s) for s in sizes)
    for i, s in enumerate(sizes):
        check(is_int(s) and s >= 1, f"size_set_pkts[{i}]", s, "an integer >= 1")

    red = tuple(RedThresholds(*t) for t in RIO_THRESHOLDS)
    with renamed_errors({"Link.rate_bps": "link_rate_bps",
                         "QueueClass.limit_pkts": "buffer_pkts"}):
        link = Link(rate_bps=link_rate_bps, prop_delay_ms=10.0,
                    classes=(QueueClass("q", limit_pkts=buffer_pkts, aqm="rio-c", red=red,
                                        red_w_q=0.002, red_mean_pkt_bytes=1000),))
    with renamed_errors({f"TcpFlow.{f}": f for f in ("max_window_pkts", "limited_transmit",
                                                      "syn", "delay_growth")}):
        tmpl = TcpFlow(route=(0,), cls="q", variant="reno", segment_bytes=960, header_bytes=40,
                       max_window_pkts=max_window_pkts, init_window_pkts=2,
                       access_delay_ms=1.0, egress_delay_ms=1.0, reverse_delay_ms=12.0,
                       access_rate_bps=100e6, reno_bugfix=True,
                       limited_transmit=limited_transmit, syn=syn,
                       delay_growth=delay_growth)
    tmpl_be = TcpFlow(**{**tmpl.__dict__, "colour": "red"})
    wire = tmpl.segment_bytes + tmpl.header_bytes
    mean_bytes = float(np.mean(sizes)) * wire

    traffic, af_gen = [], ()
    renames = {f"Traffic.{f}": f for f in ("pool", "t_stop_s")}
    with renamed_errors(renames):
        for name, alpha, t in (("af", alpha_af, tmpl), ("be", 1.0 - alpha_af, tmpl_be)):
            if alpha <= 0:
                continue
            if name == "af":
                af_gen = (len(traffic),)
            traffic.append(Traffic(name=name, flow=t, kind="poisson",
                                   mean_interarrival_s=mean_interarrival_s(
                                       rho, alpha, link_rate_bps, mean_bytes),
                                   t_stop_s=t_stop_s, size_dist="set", size_set_pkts=sizes,
                                   pool=pool))

    rng = np.random.default_rng([seed, _START_STREAM])
    starts = rng.uniform(0.0, 1.0, 2 * ftp)
    flows = [TcpFlow(**{**tmpl.__dict__, "start_s": float(starts[i])}) for i in range(ftp)]
    flows += [TcpFlow(**{**tmpl_be.__dict__, "start_s": float(starts[ftp + i])})
              for i in range(ftp)]

    markers = ()
    if af_gen or ftp:
        # one aggregate: the AF web generator and the AF FTP flows
        with renamed_errors({"Marker.window_s": "tsw_window_s"}):
            markers = (Marker(name="af", kind="tsw2cm", cir_bps=cir_fraction * link_rate_bps,
                              cbs_bytes=1, window_s=tsw_window_s,
                              flows=tuple(range(ftp)), traffic=af_gen),)

    params = {"rho": rho, "alpha_af": alpha_af, "ftp_per_cloud": ftp}
    with renamed_errors({"duration_s": "t_halt_s", "warmup_s": "warmup_s"}):
        return Scenario(links=(link,), flows=tuple(flows), traffic=tuple(traffic),
                        markers=markers, duration_s=t_halt_s, warmup_s=warmup_s,
                        params=params)

#: units of the parameters whose names carry none (diffsweep.report.builders_page, docs/builders.md)
rossi.units = {"rho": "load (offered / bottleneck rate)", "alpha_af": "share (0..1)",
               "ftp_per_cloud": "count", "pool": "count (transfers alive at once, per cloud)"}
