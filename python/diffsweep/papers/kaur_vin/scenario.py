"""The scenario builder of Kaur & Vin (``builder = "kaur_vin"`` in a sweep file): returns a
validated :class:`~diffsweep.scenario.Scenario`.

The builder's errors name the builder's own parameters (``tcp: 'vegas' is not allowed ...``),
not the scenario fields they end up in, since the builder's parameters are what a sweep sets.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from diffsweep.core.errors import check
from diffsweep.scenario import (MAX_ACCESS_BUFFER_PKTS, MAX_FLOWS, Link, OnOffSource, QueueClass,
                                RedThresholds, Scenario, TcpFlow, as_float, as_int, check_bool,
                                check_count,
                                check_nonneg, check_number, check_positive, is_int, is_real, plain,
                                renamed_errors)

# Stream key of the RTP draws: keeps them independent of any engine stream that uses the seed.
_RTP_STREAM = 0x525450  # "RTP"
_DEFAULT_RTP_MS = 8.0


def _unit_fraction(path, v) -> None:
    check_number(path, v, lambda x: 0 < x < 1, "a number in (0, 1)")


def _kaur_vin_rtps(n_flows, rtp_ms, rtp_intervals, min_rtp_ms, seed) -> list[float] | np.ndarray:
    """One RTP per flow, from a scalar, a per-flow sequence or stratified intervals (a
    read-only array)."""
    if rtp_intervals is not None:
        check(rtp_ms is None, "rtp_ms", rtp_ms,
              "None when rtp_intervals is given: give one of the two")
        iv = rtp_intervals.tolist() if isinstance(rtp_intervals, np.ndarray) else rtp_intervals
        shape = "(lo_ms, hi_ms, k); in a Grid axis wrap it: rtp_intervals=[(12, 26, 8)]"
        check(isinstance(iv, (tuple, list)) and len(iv) == 3, "rtp_intervals", rtp_intervals,
              shape)
        lo, hi, k = as_float(iv[0]), as_float(iv[1]), as_int(iv[2])
        check(is_real(lo) and is_real(hi) and lo < hi, "rtp_intervals", rtp_intervals,
              f"{shape}, with finite lo_ms < hi_ms")
        check(is_int(k) and k >= 1, "rtp_intervals", rtp_intervals, f"{shape}, with k >= 1")
        check(lo >= min_rtp_ms, "rtp_intervals", rtp_intervals,
              f"lo_ms >= 2 * bottleneck_delay_ms = {min_rtp_ms}: the bottleneck link alone "
              "takes that much of the round trip")
        check(n_flows % k == 0, "n_flows", n_flows,
              f"a multiple of k = {k}, the number of rtp_intervals, so that every interval "
              "gets as many flows")
        return _stratified(lo, hi, k, n_flows, seed)

    if rtp_ms is None:
        rtp_ms = _DEFAULT_RTP_MS
    allowed = (f"a number >= 2 * bottleneck_delay_ms = {min_rtp_ms}: the bottleneck link "
               "alone takes that much of the round trip")
    if isinstance(rtp_ms, (Sequence, np.ndarray)) and not isinstance(rtp_ms, str):
        values = [as_float(v) for v in (rtp_ms.tolist() if isinstance(rtp_ms, np.ndarray)
                                         else rtp_ms)]
        check(len(values) == n_flows, "rtp_ms", rtp_ms,
              f"a number or n_flows ({n_flows}) numbers, one per flow; in a Grid axis wrap "
              "a per-flow list: rtp_ms=[[...]]")
        for i, v in enumerate(values):
            check_number(f"rtp_ms[{i}]", v, lambda x: x >= min_rtp_ms, allowed)
        return values
    rtp_ms = as_float(rtp_ms)
    check_number("rtp_ms", rtp_ms, lambda x: x >= min_rtp_ms, allowed)
    return [rtp_ms] * n_flows


@functools.lru_cache(maxsize=4096)
def _stratified(lo: float, hi: float, k: int, n_flows: int, seed: int) -> np.ndarray:
    """The stratified RTP draw (read-only): the same for every point of a sweep with these
    intervals, flows and seed, so it is drawn once."""
    edges = np.linspace(lo, hi, k + 1)
    per = n_flows // k
    rng = np.random.default_rng([seed, _RTP_STREAM])
    # Flows are listed interval by interval (flow 0 in the lowest); tie_break="random"
    # keeps the flow index from mattering to the engine.
    draws = rng.uniform(np.repeat(edges[:-1], per), np.repeat(edges[1:], per))
    draws.setflags(write=False)
    return draws


# The points of a sweep differ mostly in their EF and UDP sources: their equal links and flows
# are made once, as one object, so that pack computes their rows once per batch (it
# memoises them by object).
_MADE: dict = {}
_PLAIN = (int, float, bool, str, type(None))


def _made(make, *args):
    """``make(*args)``, made once per distinct plain arguments (the same types, values and
    float signs: the same repr); others are made every time."""
    if not all(type(a) in _PLAIN for a in args):
        return make(*args)
    key = (make.__name__, repr(args))
    obj = _MADE.get(key)
    if obj is None:
        if len(_MADE) > 4096:
            _MADE.clear()
        obj = _MADE[key] = make(*args)
    return obj


def _link(rate_bps, prop_delay_ms, buffer_bytes, aqm="droptail", red_min_th=None,
          red_max_th=None, red_max_p=0.1, wire_bytes=576) -> Link:
    if aqm == "red":
        be = QueueClass("be", limit_bytes=buffer_bytes, aqm="red",
                        red=(RedThresholds(red_min_th, red_max_th, red_max_p),),
                        red_gentle=True, red_mean_pkt_bytes=wire_bytes)
    else:
        be = QueueClass("be", limit_bytes=buffer_bytes)
    return Link(rate_bps=rate_bps, prop_delay_ms=prop_delay_ms,
                classes=(QueueClass("ef"), be), scheduler="priority")


def _flow(tcp, segment_bytes, header_bytes, max_window_pkts, init_window, side_ms, half_ms,
          link_rate_bps, reno_bugfix, access_pkts, send_jitter_s) -> TcpFlow:
    return TcpFlow(route=(0,), cls="be", variant=tcp, segment_bytes=segment_bytes,
                   header_bytes=header_bytes, max_window_pkts=max_window_pkts,
                   init_window_pkts=init_window, access_delay_ms=side_ms,
                   egress_delay_ms=side_ms, reverse_delay_ms=half_ms,
                   access_rate_bps=link_rate_bps, reno_bugfix=reno_bugfix,
                   access_buffer_pkts=access_pkts, send_jitter_s=send_jitter_s)


def _telnet(n, segment_bytes, header_bytes, interval_s, side_ms, half_ms, link_rate_bps,
            access_pkts) -> tuple[TcpFlow, ...]:
    """The telnet share: ``n`` telnet-like flows (ns-2 Application/Telnet with an exponential
    ``interval_``), one segment per gap, on their own access links like the TCP flows."""
    flow = TcpFlow(route=(0,), cls="be", variant="reno", segment_bytes=segment_bytes,
                   header_bytes=header_bytes, max_window_pkts=1000, init_window_pkts=2,
                   access_delay_ms=side_ms, egress_delay_ms=side_ms, reverse_delay_ms=half_ms,
                   access_rate_bps=link_rate_bps, access_buffer_pkts=access_pkts,
                   telnet_interval_s=interval_s)
    return (flow,) * n


def _seed_matters(rtp_intervals=None, **_) -> bool:
    """kaur_vin's only use of the seed is the stratified RTP draw (Grid._seed_matters)."""
    return rtp_intervals is not None


def kaur_vin(n_flows=1, rtp_ms=None, rtp_intervals=None, ef="onoff", ef_fraction=0.3,
             t_on_ms=10.0, udp=False, udp_fraction=0.05, udp_t_on_ms=4.0, udp_pkt_bytes=1000,
             tcp="reno", duration_s=100.0, warmup_s=10.0, link_rate_bps=40e6,
             buffer_bytes=200_000, segment_bytes=536, header_bytes=40, ef_pkt_bytes=1500,
             max_window_pkts=1000, bottleneck_delay_ms=0.5, min_rto_s=0.2, tcp_tick_s=0.01,
             reno_bugfix=False, tie_break="random", access_buffer_bytes=None,
             send_jitter_s=0.0, aqm="droptail", red_min_th=None, red_max_th=None,
             red_max_p=0.1, telnet_fraction=0.0, telnet_flows=16, telnet_segment_bytes=200,
             seed=0) -> Scenario:
    """Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP Throughput and Fairness"
    (UT Austin TR2001-1, 2000): best-effort TCP flows sharing a drop-tail bottleneck with
    strict-priority EF traffic.

    Network: one bottleneck link (link 0, R1 -> R2) with classes ``ef`` (first: strict
    priority, unlimited, since EF arrives on its own input link and takes no best-effort
    buffer, sec. 2.1.1 and its footnote 1) and ``be`` (drop-tail, ``buffer_bytes``).

    Parameters and where their defaults come from:

    - ``n_flows=1``: sec. 3.1 (one TCP flow); sec. 3.2 and 4.2 use 8, 16, 32, 64, 128.
    - ``rtp_ms``: round-trip propagation latency; None means 8 ms, the single-flow RTP of
      sec. 3.1.1 (sec. 3.1.2 uses 6..12 ms; sec. 4's equal-RTP setting 8 ms). A number gives
      every flow that RTP; a sequence gives one per flow.
    - ``rtp_intervals=(lo_ms, hi_ms, k)``: the unequal-RTP setting of sec. 3.2 and 4, which
      is ``(12, 26, 8)``: k adjacent equal intervals spanning [lo, hi], n_flows/k flows drawn
      uniformly in each, from ``numpy.random.default_rng([seed, 0x525450])``, so each seed
      is another RTP draw ("we repeat the experiment with different combinations of RTPs",
      sec. 4). Excludes ``rtp_ms``.
    - ``ef="onoff"``: sec. 2.1.2, exponential on/off, ``ef_pkt_bytes=1500`` packets at the
      link rate while on, ``t_off_ms = t_on_ms (1 - f) / f``. ``"cbr"``: the TCP-CBR network
      of sec. 2.3, CBR at the same mean rate ``f * link_rate_bps``. None: no EF (the TCP-only
      and TCP+UDP networks of sec. 4).
    - ``ef_fraction=0.3``: f; sec. 2.2 reports 30% (5, 10, 20% "hold as well").
    - ``t_on_ms=10.0``: mean on time. The paper sweeps 0.4..400 ms (sec. 3.1.1, 4.1) and
      uses 1 ms in sec. 4.2; 10 ms is only a mid-range default.
    - ``udp=False``: True adds the best-effort UDP aggregate of sec. 4, an on/off source of
      ``udp_fraction=0.05`` of the link (sec. 4; sec. 2.2 says "5% of the total best-effort
      traffic", we follow sec. 4) with mean burst ``udp_t_on_ms=4.0`` (sec. 4), sharing the
      TCP buffer.
    - ``tcp="reno"``: sec. 2.1.2 (TCP-Reno; sec. 5 mentions SACK giving the same results:
      ``tcp="sack"``, family Ks).
    - ``link_rate_bps=40e6``: sec. 2.1.1, every link 40 Mb/s, so the senders' access links
      (``access_rate_bps``) are 40 Mb/s too.
    - ``buffer_bytes=200_000``: sec. 2.1.1, delay-bandwidth product at the largest RTP,
      40 Mb/s x 40 ms.
    - ``access_buffer_bytes=None`` (= ``buffer_bytes``): sec. 2.1.1 provisions *link* buffers
      by the delay-bandwidth product, so each sender's 40 Mb/s access link gets a drop-tail
      buffer of the same size. Each flow has its own access link here (the paper's 8 input
      links are shared; docs/model.md). In whole packets (bytes // (segment + header));
      at least one packet (0 is not "unlimited": a smaller value is refused).
    - ``segment_bytes=536``: sec. 2.1.2 ("packets of size 536B").
    - ``max_window_pkts=1000``: sec. 2.1.2 asks for a "large" receiver window; 1000 is the
      engine's limit, far above any window the 200 KB buffer lets a flow use.
    - backlogged senders (``size_pkts=None``): sec. 2.1.2.

    Choices the paper leaves open (defaults here, all parameters):

    - ``header_bytes=40``: whether 536 B is payload or packet; we read it as ns-2's
      ``packetSize_`` (payload) plus 40 B of TCP/IP header, 576 B on the wire.
    - How an RTP splits over the path: ``bottleneck_delay_ms=0.5`` on R1 -> R2; the ACK path
      (uncongested) takes rtp/2; access and egress links each take (rtp/2 - 0.5)/2.
    - ``duration_s=100.0`` and ``warmup_s=10.0``: not given in the paper.
    - Timer constants ``min_rto_s=0.2`` and ``tcp_tick_s=0.01`` (today's ns-2 defaults). The
      ns-2 of 1999 had ``tcpTick_ 0.1``, ``minrto_ 0``, ``windowInit_ 1`` and
      ``rtxcur_init_ 6``; the scenario keeps its own defaults for the initial window (2) and
      RTO (3 s). ``reno_bugfix=False``: ns-2's ``bugFix_`` is not mentioned. No delayed ACKs.
    - UDP: packet size ``udp_pkt_bytes=1000`` and a peak rate equal to the link rate are not
      in the paper (we mirror the EF source's shape); the UDP source enters the ``be`` class
      at R1 directly.
    - All flows start at t = 0; the warm-up hides the common slow start.
    - ``tie_break="random"``: order of simultaneous events (ns-2 uses insertion order).
    - ``send_jitter_s=0.0``: ns-2's ``overhead_`` (0 in ns-2 and, by its silence, in the paper);
      ns-2 users set 1e-4 s to break phase effects (``TcpFlow.send_jitter_s``).
    - EF packets with T_on = 0.4 ms: the paper's "burst size ~1 packet" is 0.4 ms x 40 Mb/s
      / 1500 B = 1.3 packets; bursts are drawn in time, not packets.

    The two remedies for phase effects the paper cites (sec. 5, after Floyd & Jacobson), for
    its future work "the effects of assigning higher priority to EF traffic on TCP throughput
    and fairness with RED routers" (families Kr and Kt; not the paper's own set-up):

    - ``aqm="droptail"``: ``"red"`` puts RED on the best-effort class of the bottleneck (the
      buffer ``buffer_bytes`` stays its hard limit): average-queue thresholds ``red_min_th``
      and ``red_max_th`` in packets (None: 1/4 and 3/4 of the buffer in 576-B packets, as
      the matta_guo builder), ``red_max_p=0.1`` (ns-2's ``linterm_`` 10), ``w_q`` 0.002,
      gentle (ns-2.35's defaults), the mean packet size one TCP packet on the wire.
    - ``telnet_fraction=0.0``: > 0 adds ``telnet_flows=16`` telnet-like flows (ns-2
      Application/Telnet, exponential gaps) of ``telnet_segment_bytes=200`` payload (+
      ``header_bytes``: 240 B on the wire, "other packet sizes" than the FTP flows' 576 B)
      whose offered load is ``telnet_fraction`` of the link (Floyd & Jacobson: 15 % or more):
      each gap has the mean (segment + header) x 8 x telnet_flows / (telnet_fraction x
      link_rate_bps). They enter the best-effort class and come first in flow order (flow
      indices 0 .. telnet_flows - 1: under ``tie_break="index"`` the last of a slot's arrivals
      are dropped at a full queue, which would lock out telnet flows placed last), with the
      mean RTP of the TCP flows; the Kaur & Vin tables leave them out of N, fairness and
      throughput (``params`` ``telnet_flows``).

    ``params`` of the scenario (shown as Grid columns):
    ``t_off_ms`` is the EF on/off pattern's mean off time at this ``t_on_ms`` and f, the same
    for ``ef="cbr"`` and None so that the networks' rows line up (None if f is not in (0, 1));
    ``ef_rate_bps`` and ``udp_rate_bps`` are the mean rates (0 when absent);
    ``available_bps = link_rate_bps - ef_rate_bps - udp_rate_bps`` is the bandwidth left to
    TCP, the denominator of the paper's U (sec. 2.3); with a telnet share also
    ``telnet_flows`` and ``telnet_rate_bps`` (its offered load, subtracted from
    ``available_bps`` like UDP's).
    """
    n_flows, seed = as_int(plain(n_flows)), as_int(plain(seed))
    check_count("n_flows", n_flows, 1, MAX_FLOWS, "TCP flows per scenario")
    check(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    link_rate_bps = as_float(link_rate_bps)
    check_positive("link_rate_bps", link_rate_bps)
    bottleneck_delay_ms = as_float(bottleneck_delay_ms)
    check_nonneg("bottleneck_delay_ms", bottleneck_delay_ms)
    t_on_ms = as_float(t_on_ms)
    check_positive("t_on_ms", t_on_ms)
    ef = plain(ef)
    if ef == "none":  # TOML has no null: sweep files say "none"
        ef = None
    check(ef in ("onoff", "cbr", None), "ef", ef, "one of 'onoff', 'cbr', 'none' (or None)")
    ef_fraction = as_float(ef_fraction)
    if ef is not None:
        _unit_fraction("ef_fraction", ef_fraction)
    udp = plain(udp)
    check_bool("udp", udp)
    if udp:
        udp_fraction = as_float(udp_fraction)
        _unit_fraction("udp_fraction", udp_fraction)
        udp_t_on_ms = as_float(udp_t_on_ms)
        check_positive("udp_t_on_ms", udp_t_on_ms)

    aqm = plain(aqm)
    check(aqm in ("droptail", "red"), "aqm", aqm, "'droptail' or 'red'")
    telnet_fraction = as_float(plain(telnet_fraction))
    check_number("telnet_fraction", telnet_fraction, lambda x: 0 <= x < 1,
                 "a number in [0, 1) (the telnet share of the link; 0: none)")
    n_telnet = 0
    if telnet_fraction > 0:
        n_telnet = as_int(plain(telnet_flows))
        check_count("telnet_flows", n_telnet, 1, MAX_FLOWS - n_flows,
                    f"telnet flows beside the {n_flows} TCP flows")

    rtps = _kaur_vin_rtps(n_flows, rtp_ms, rtp_intervals, 2 * bottleneck_delay_ms, seed)

    with renamed_errors({"Link.rate_bps": "link_rate_bps", "Link.prop_delay_ms": "bottleneck_delay_ms",
                   "QueueClass.limit_bytes": "buffer_bytes", "RedThresholds.min_th": "red_min_th",
                   "RedThresholds.max_th": "red_max_th", "RedThresholds.max_p": "red_max_p"}):
        # (a bad size is named by the Scenario's own checks: a buffer that is no number
        # makes the drop-tail link, which names buffer_bytes)
        seg_, hdr_, buf_ = (as_int(plain(v)) for v in (segment_bytes, header_bytes,
                                                      buffer_bytes))
        if aqm == "red" and is_real(buf_):
            wire_pkt = seg_ + hdr_ if is_int(seg_) and is_int(hdr_) and seg_ > 0 else 576
            b_pkts = buf_ / wire_pkt
            link = _made(_link, link_rate_bps, bottleneck_delay_ms, buffer_bytes, aqm,
                         b_pkts / 4 if red_min_th is None else as_float(plain(red_min_th)),
                         3 * b_pkts / 4 if red_max_th is None else as_float(plain(red_max_th)),
                         as_float(plain(red_max_p)), wire_pkt)
        else:
            link = _made(_link, link_rate_bps, bottleneck_delay_ms, buffer_bytes)

    with renamed_errors({"TcpFlow.variant": "tcp", "TcpFlow.segment_bytes": "segment_bytes",
                   "TcpFlow.header_bytes": "header_bytes",
                   "TcpFlow.max_window_pkts": "max_window_pkts",
                   "TcpFlow.reno_bugfix": "reno_bugfix",
                   "TcpFlow.send_jitter_s": "send_jitter_s",
                   # the access links run at the bottleneck's rate (Sec. 2.1.1)
                   "TcpFlow.access_rate_bps": "link_rate_bps"}):
        # A window of 1 cannot start at 2.
        init_window = min(2, max_window_pkts) if is_int(max_window_pkts) else 2
        # Sec. 2.1.1 provisions *link* buffers by the delay-bandwidth product: the 40 Mb/s
        # access links get the same 200 KB drop-tail buffer, so a lone flow's window is
        # bounded by losses at its access link even without EF.
        # Sizes as the Scenario takes them (2e5 from TOML is 200000: a float buffer_bytes
        # used to leave the access buffers unlimited).
        access_buffer_bytes = as_int(plain(access_buffer_bytes))
        seg, hdr = as_int(plain(segment_bytes)), as_int(plain(header_bytes))
        wire = seg + hdr if is_int(seg) and is_int(hdr) else None
        if access_buffer_bytes is not None and wire is not None:
            # Like buffer_bytes: a buffer must hold one packet (0 or 100 bytes used to become
            # a one-packet buffer without a word). None, not 0, is "as buffer_bytes".
            top = MAX_ACCESS_BUFFER_PKTS * wire
            check(is_int(access_buffer_bytes) and wire <= access_buffer_bytes <= top,
                  "access_buffer_bytes", access_buffer_bytes,
                  f"None (= buffer_bytes) or an integer in {wire}..{top}: one packet "
                  f"(segment_bytes {seg} + header_bytes {hdr}) must fit, and at most "
                  f"{MAX_ACCESS_BUFFER_PKTS} packets")
        access_bytes = (as_int(plain(buffer_bytes)) if access_buffer_bytes is None
                        else access_buffer_bytes)
        # (max(1, ...): a buffer_bytes below one packet is refused by the Scenario, naming it)
        access_pkts = (max(1, access_bytes // wire) if is_int(access_bytes) and wire is not None
                       else None)
        # The flows differ only in their delays: one flow (with the first RTP), then the
        # others' delays set all at once (Scenario.with_flow_delays).
        rtp = float(rtps[0])
        side_ms = (rtp / 2 - bottleneck_delay_ms) / 2
        flow = _made(_flow, tcp, segment_bytes, header_bytes, max_window_pkts, init_window,
                     side_ms, rtp / 2, link_rate_bps, reno_bugfix, access_pkts, send_jitter_s)

    sources = []
    t_off_ms = (t_on_ms * (1 - ef_fraction) / ef_fraction
                if is_real(ef_fraction) and 0 < ef_fraction < 1 else None)
    ef_rate_bps = 0.0
    if ef is not None:
        ef_rate_bps = ef_fraction * link_rate_bps
        with renamed_errors({"OnOffSource.t_on_ms": "t_on_ms", "OnOffSource.pkt_bytes": "ef_pkt_bytes"}):
            if ef == "onoff":
                sources.append(OnOffSource(name="ef", cls="ef", peak_bps=link_rate_bps,
                                           pkt_bytes=ef_pkt_bytes, t_on_ms=t_on_ms,
                                           t_off_ms=t_off_ms))
            else:
                sources.append(OnOffSource(name="ef", cls="ef", peak_bps=ef_rate_bps,
                                           pkt_bytes=ef_pkt_bytes, t_on_ms=t_on_ms,
                                           t_off_ms=0.0))
    udp_rate_bps = 0.0
    if udp:
        udp_rate_bps = udp_fraction * link_rate_bps
        with renamed_errors({"OnOffSource.t_on_ms": "udp_t_on_ms",
                       "OnOffSource.pkt_bytes": "udp_pkt_bytes"}):
            # Assumed shape (the paper gives neither): line-rate bursts of 1000 B packets.
            sources.append(OnOffSource(name="udp", cls="be", peak_bps=link_rate_bps,
                                       pkt_bytes=udp_pkt_bytes, t_on_ms=udp_t_on_ms,
                                       t_off_ms=udp_t_on_ms * (1 - udp_fraction) / udp_fraction))

    params = {"t_off_ms": t_off_ms, "ef_rate_bps": ef_rate_bps, "udp_rate_bps": udp_rate_bps,
              "available_bps": link_rate_bps - ef_rate_bps - udp_rate_bps}
    # (keyed by the objects: _MADE holds them, and forgets these tuples with them)
    links = _MADE.setdefault(("links", id(link)), (link,))
    flows = _MADE.setdefault(("flows", id(flow), n_flows), (flow,) * n_flows)
    rtp_telnet = float(np.mean(rtps))
    if n_telnet:
        tel_seg = as_int(plain(telnet_segment_bytes))
        tel_wire = tel_seg + as_int(plain(header_bytes)) if is_int(tel_seg) else None
        check(tel_wire is not None and tel_seg >= 1, "telnet_segment_bytes",
              telnet_segment_bytes, "an integer >= 1 (payload bytes of a telnet segment)")
        telnet_rate_bps = telnet_fraction * link_rate_bps
        interval_s = tel_wire * 8 * n_telnet / telnet_rate_bps
        tside = (rtp_telnet / 2 - bottleneck_delay_ms) / 2
        with renamed_errors({"TcpFlow.segment_bytes": "telnet_segment_bytes",
                             "TcpFlow.access_rate_bps": "link_rate_bps"}):
            # First in flow order: with tie_break="index" the last same-slot arrivals at a
            # full drop-tail queue are the ones dropped, so telnet flows placed after the 64
            # TCP flows were locked out (3 % of the link carried instead of 15 % in the quick
            # kt_k5); placed first they carry the share they offer, as the remedy assumes.
            flows = _made(_telnet, n_telnet, tel_seg, header_bytes, interval_s, tside,
                          rtp_telnet / 2, link_rate_bps, access_pkts) + flows
        params.update(telnet_flows=n_telnet, telnet_rate_bps=telnet_rate_bps,
                      available_bps=params["available_bps"] - telnet_rate_bps)
    with renamed_errors({"links[0].classes[1].limit_bytes": "buffer_bytes"}):
        sc = Scenario(links=links, flows=flows, sources=tuple(sources),
                      duration_s=duration_s, warmup_s=warmup_s, tcp_tick_s=tcp_tick_s,
                      min_rto_s=min_rto_s, tie_break=tie_break, params=params)
    rtps = np.asarray(rtps, dtype=np.float64)
    if (rtps == rtp).all() and (not n_telnet or rtp_telnet == rtp):
        return sc
    rtps = np.concatenate([np.full(n_telnet, rtp_telnet), rtps])
    side = (rtps / 2 - bottleneck_delay_ms) / 2
    return sc.with_flow_delays(side, side, rtps / 2)


def _reseed(first: Scenario, seed, rtp_intervals=None, **_) -> Scenario:
    """``kaur_vin(**params, seed=seed)`` given ``first``, what it returned for the same params
    and another seed (Grid): only the stratified RTP draw uses the seed, and the RTPs set only
    the flows' delays."""
    if rtp_intervals is None:
        return first
    iv = rtp_intervals.tolist() if isinstance(rtp_intervals, np.ndarray) else rtp_intervals
    n_telnet = int(first.params.get("telnet_flows", 0))
    side, half = _delays(tuple(iv), first.n_flows - n_telnet, first.links[0].prop_delay_ms,
                         int(seed), n_telnet)
    return first.with_flow_delays(side, side, half)


@functools.lru_cache(maxsize=4096)
def _delays(rtp_intervals: tuple, n_flows: int, bottleneck_delay_ms: float, seed: int,
            n_telnet: int = 0):
    """The flows' access (= egress) and reverse delays for a seed's stratified RTP draw (after
    the ``n_telnet`` telnet flows, at the draw's mean RTP)."""
    rtps = _kaur_vin_rtps(n_flows, None, rtp_intervals, 2 * bottleneck_delay_ms, seed)
    if n_telnet:
        rtps = np.concatenate([np.full(n_telnet, float(np.mean(rtps))), rtps])
    side, half = (rtps / 2 - bottleneck_delay_ms) / 2, rtps / 2
    side.setflags(write=False)
    half.setflags(write=False)
    return side, half


kaur_vin.seed_matters = _seed_matters
kaur_vin.reseed = _reseed

#: units of the parameters whose names carry none (diffsweep.report.builders_page, docs/builders.md)
kaur_vin.units = {"rtp_intervals": "(ms, ms, count)", "red_min_th": "packets",
                  "red_max_th": "packets", "red_max_p": "probability",
                  "telnet_fraction": "fraction of the link", "telnet_flows": "count"}
