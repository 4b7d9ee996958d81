"""The standard dumbbell (``builder = "dumbbell"`` in a sweep file): N TCP flows over one
bottleneck, with the defaults of ns-2.35 (``tcl/lib/ns-default.tcl`` and ``queue/red.cc``).

The experiment people run first: equal or unequal RTTs, a drop-tail, RED, RIO or WRED
bottleneck (RIO/WRED with an edge conditioner colouring the packets), optional CBR or on/off
cross traffic (best effort, or EF with strict priority) and optional web-like short flows.
Every parameter, its unit, its default and the ns-2 default it follows are listed in the
docstring of :func:`dumbbell` and in docs/model.md ("The standard dumbbell"). Errors name the
builder's own parameters, as the papers' builders do.
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np

from diffsweep.core.errors import ConfigError, check
from diffsweep.scenario.checks import (AQMS, CONGESTION_CONTROLS, MAX_FLOWS, MAX_MARKERS, VARIANTS,
                                       _new_object, carry_renamed,
                                       as_float, as_int, check_count, check_nonneg, check_number,
                                       check_positive, is_int, is_real, plain, renamed_errors)
from diffsweep.scenario.flows import TcpFlow, cubic_options
from diffsweep.scenario.links import (CODEL_INTERVAL_MS, CODEL_TARGET_MS, Link, QueueClass,
                                      RedThresholds, RedThresholdWarning, codel_class,
                                      fq_codel_class, pie_class)
from diffsweep.scenario.markers import Marker
from diffsweep.scenario.red_config import _flag, red_auto, red_class
from diffsweep.scenario.scenario import Scenario
from diffsweep.scenario.sources import OnOffSource
from diffsweep.scenario.traffic import Traffic

__all__ = ["dumbbell", "red_auto", "red_class", "MARKERS", "CROSS", "CROSS_CLASSES",
           "DEFAULT_RTT_MS"]

#: The round trip when neither ``rtt_ms`` nor ``rtt_min_ms``/``rtt_max_ms`` is given.
DEFAULT_RTT_MS = 100.0
#: Edge conditioners a RIO/WRED dumbbell may use (Lee & Jeong's "balancing" marker needs its
#: own per-connection parameters: use the lee_jeong builder for it).
MARKERS = ("none", "token_bucket", "tsw2cm", "tsw3cm", "srtcm", "trtcm", "rtt_aware", "rtt_rto")
#: Cross-traffic shapes: ns-2's Application/Traffic/CBR and Application/Traffic/Exponential.
CROSS = ("none", "cbr", "exponential")
#: Where cross traffic goes: the TCP flows' queue, or an EF queue served first.
CROSS_CLASSES = ("be", "ef")
#: ns-2.35's default rate_ of each cross-traffic shape (ns-default.tcl: CBR 448Kb,
#: Exponential 64Kb, the on-period rate).
_CROSS_RATE_BPS = {"cbr": 448e3, "exponential": 64e3}
_RIO_AQMS = ("rio-c", "rio-d", "wred")
#: dsredq.cc (``redQueue::config``) fixes every virtual queue's q_w at 0.002.
_DSRED_W_Q = 0.002
_START_STREAM = 0x444D42  # "DMB": the start-time draws, independent of the engine's streams


def _choice(name: str, value, options) -> str:
    """One of ``options``; the message adds a did-you-mean for a close name ("rio": both
    RIO modes)."""
    value = plain(value)
    if isinstance(value, str) and value in options:
        return value
    hint = ""
    if isinstance(value, str) and value:
        import difflib  # noqa: PLC0415 - only on the error path
        close = ([o for o in options if o.startswith(value)]
                 or difflib.get_close_matches(value, options, n=1))
        if close:
            hint = "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    raise ConfigError(f"{name}: {value!r} is not allowed (expected one of "
                      + ", ".join(repr(o) for o in options) + hint + ")")


def _per_flow(name: str, value, n: int, one, allowed: str) -> list:
    """``value`` for every flow: one value (``one(name, v)`` checks and normalises it) or a
    list of n values, one per flow."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, Sequence) and not isinstance(value, str):
        check(len(value) == n, name, value,
              f"{allowed} or a list of n_flows ({n}) of them, one per flow; in a sweep axis "
              f"wrap a per-flow list: {name} = [[...]]")
        return [one(f"{name}[{i}]", v) for i, v in enumerate(value)]
    return [one(name, value)] * n


def _rtts(n, rtt_ms, rtt_min_ms, rtt_max_ms, floor_ms) -> list[float]:
    """One round-trip propagation delay per flow (ms)."""
    allowed = (f"a number of ms >= 2 x bottleneck_delay_ms = {floor_ms:g} (the bottleneck "
               "alone takes that much of the round trip)")

    def one(path, v):
        v = as_float(plain(v))
        check_number(path, v, lambda x: x >= floor_ms, allowed)
        return v

    if rtt_min_ms is not None or rtt_max_ms is not None:
        check(rtt_ms is None, "rtt_ms", rtt_ms, "None (not given) with rtt_min_ms/rtt_max_ms: "
              "give one RTT (or a per-flow list) or an even spread, not both")
        check(rtt_min_ms is not None, "rtt_min_ms", None,
              "a number with rtt_max_ms: the spread's shortest RTT")
        check(rtt_max_ms is not None, "rtt_max_ms", None,
              "a number with rtt_min_ms: the spread's longest RTT")
        lo, hi = one("rtt_min_ms", rtt_min_ms), one("rtt_max_ms", rtt_max_ms)
        check(hi >= lo, "rtt_max_ms", hi, f"a number >= rtt_min_ms ({lo:g})")
        # flow i at lo + i (hi - lo)/(n - 1): both ends included; one flow takes lo
        return np.linspace(lo, hi, n).tolist()
    if rtt_ms is None:
        rtt_ms = DEFAULT_RTT_MS
    return _per_flow("rtt_ms", rtt_ms, n, one, "a number of ms")


def _variant(path, v):
    return _choice(path, v, VARIANTS)


def _congestion_control(path, v):
    return _choice(path, v, CONGESTION_CONTROLS)


def _bool_of(path, v):
    return _flag(path, v)


def _rio_thresholds(value, buffer_pkts) -> tuple[RedThresholds, ...]:
    shape = ("a list of 2 (green, red) or 3 (green, yellow, red) [min_th, max_th, max_p] "
             "triples, thresholds in packets")
    if value is None:
        # ns-2's dsRED has no default thresholds (configQ sets them): ours scale with the
        # buffer, the protected colour's band above the other's (Clark & Fang's RIO shape):
        # green [0.4, 0.8] x buffer, max_p 0.02; red [0.1, 0.3] x buffer, max_p 0.1
        b = float(buffer_pkts)
        return (RedThresholds(0.4 * b, 0.8 * b, 0.02), RedThresholds(0.1 * b, 0.3 * b, 0.1))
    if isinstance(value, np.ndarray):
        value = value.tolist()
    check(isinstance(value, Sequence) and not isinstance(value, str) and len(value) in (2, 3),
          "rio_thresholds", value, shape)
    out = []
    for k, t in enumerate(value):
        check(isinstance(t, Sequence) and not isinstance(t, str) and len(t) == 3,
              f"rio_thresholds[{k}]", t, "[min_th, max_th, max_p]")
        with renamed_errors({"RedThresholds": f"rio_thresholds[{k}]"}):
            out.append(RedThresholds(*(as_float(plain(x)) for x in t)))
    return tuple(out)


def _copy(flow: TcpFlow, **changes) -> TcpFlow:
    """``flow`` with ``changes`` (plain floats the caller has checked), without its checks:
    what ``TcpFlow.with_delays`` does for the delays alone."""
    new = _new_object(TcpFlow)
    new.__dict__.update(flow.__dict__)
    new.__dict__.update(changes)
    carry_renamed(flow, new)
    return new


def _seed_matters(start_spread_s=1.0, start_s=None, **_) -> bool:
    """The seed draws only the start times (Grid._seed_matters), and not those ``start_s``
    gives."""
    if start_s is not None:
        return False
    v = plain(start_spread_s)
    return not (is_real(v) and v == 0)


def _starts(start_s, spread: float, duration: float, n: int, seed: int) -> list[float]:
    """Each flow's start time (s): ``start_s`` (one for all, or one per flow), else uniform
    draws in [0, spread) from the seed."""
    if start_s is None:
        return (np.random.default_rng([seed, _START_STREAM]).uniform(0.0, spread, n).tolist()
                if spread > 0 else [0.0] * n)
    half = duration / 2.0
    allowed = (f"a number of s >= 0 and < duration_s / 2 ({half:g} s): a flow starts in the "
               "run's first half, as with start_spread_s")

    def one(path, v):
        v = as_float(plain(v))
        check_number(path, v, lambda x: 0 <= x < half, allowed)
        return v

    return _per_flow("start_s", start_s, n, one, "None (start_spread_s's draw), " + allowed)


def dumbbell(n_flows=1, tcp="newreno", rtt_ms=None, rtt_min_ms=None, rtt_max_ms=None,
             bottleneck_bps=10e6, bottleneck_delay_ms=10.0, buffer_pkts=50, aqm="droptail",
             red_min_th_pkts=None, red_max_th_pkts=None, red_max_p=0.1, red_w_q=None,
             red_gentle=True, red_wait=True, red_bytes=True, red_queue_in_bytes=None,
             red_mean_pkt_bytes=500, rio_thresholds=None, marker="none", marker_per_flow=False, marker_cir_bps=None,
             marker_cbs_bytes=None, marker_pir_bps=None, marker_pbs_bytes=None,
             marker_window_s=1.0, cross="none", cross_class="be", cross_rate_bps=None,
             cross_pkt_bytes=210, cross_t_on_ms=500.0, cross_t_off_ms=500.0, web_sessions=0,
             web_inter_page_s=1.0, web_objects_per_page=1, web_inter_object_s=0.01,
             web_size_mean_pkts=10.0, web_size_alpha=1.2, web_rtt_ms=None, web_pool=256,
             segment_bytes=1000, header_bytes=40, max_window_pkts=20, init_window_pkts=2,
             congestion_control="newreno", cubic_c=0.4, cubic_beta=0.7,
             cubic_fast_convergence=True, cubic_tcp_friendliness=True, cubic_hystart=True,
             cubic_hystart_low_window_pkts=16, cubic_hystart_detect="both",
             cubic_hystart_min_samples=8, cubic_hystart_ack_delta_ms=2.0,
             cubic_hystart_delay_min_ms=4.0, cubic_hystart_delay_max_ms=1000.0,
             cubic_delta_ms=10.0, cubic_cnt_clamp=20,
             delayed_ack=False, limited_transmit=True, reno_bugfix=True, syn=True,
             delay_growth=True, access_bps=100e6, access_buffer_pkts=50, start_spread_s=1.0,
             start_s=None, send_jitter_s=0.0, duration_s=100.0, warmup_s=20.0, tcp_tick_s=0.01,
             min_rto_s=0.2, max_rto_s=60.0, init_rto_s=3.0, tie_break="random",
             trace_flows=(), trace_interval_s=None, queue_trace_interval_s=None,
             queue_trace_links=None, codel_target_ms=CODEL_TARGET_MS,
             codel_interval_ms=CODEL_INTERVAL_MS, pie_qdelay_ref_ms=15.0, pie_t_update_ms=15.0, pie_max_burst_ms=150.0, pie_alpha=0.125,
             pie_beta=1.25, fq_quantum_bytes=1500, fq_flows=1024, queue_delay_hist=False,
             ecn=False, step_k_pkts=10, device_queue_pkts=0, ssthresh_from="window",
             rto_restart="fast_retransmit", slot_s=None, seed=0) -> Scenario:
    """A dumbbell: ``n_flows`` backlogged TCP flows from their senders over one bottleneck
    link (link 0) to their receivers; ACKs return uncongested. Defaults are ns-2.35's where
    ns-2 has one (``ns-default.tcl``, named in brackets), else a stated choice.

    TCP (every flow; ``tcp``, ``delayed_ack`` and the RTT may differ per flow):

    - ``n_flows=1``; ``tcp="newreno"``: "reno", "newreno" or "sack", or a list of n_flows of them
      (ns-2 has no default agent: its base Agent/TCP is Tahoe, which the engine lacks).
    - ``segment_bytes=1000`` [Agent/TCP packetSize_ 1000], ``header_bytes=40``
      [tcpip_base_hdr_size_ 40]: 1040 B on the wire.
    - ``max_window_pkts=20`` [window_ 20], ``init_window_pkts=2`` [windowInit_ 2].
    - ``delayed_ack=False`` (ns-2's plain TCPSink; True: TCPSink/DelAck, interval_ 100 ms),
      true/false or a per-flow list. ``limited_transmit=True`` [singledup_ 1],
      ``reno_bugfix=True`` [bugFix_ true], ``syn=True`` [syn_ true], ``delay_growth=True``
      [delay_growth_ true], ``send_jitter_s=0.0`` [overhead_ 0].
    - ``tcp_tick_s=0.01`` [tcpTick_], ``min_rto_s=0.2`` [minrto_], ``max_rto_s=60``
      [maxrto_], ``init_rto_s=3.0`` [rtxcur_init_].
    - ``congestion_control="newreno"``: "newreno" (ns-2's slow start and AIMD) or "cubic"
      (RFC 9438 as ns-3.44's TcpCubic; docs/model.md, "CUBIC"), or a list of n_flows of them,
      over the loss recovery ``tcp`` picks. The CUBIC flows' ``cubic_*`` options are ns-3.44's
      TcpCubic attributes with its defaults (``cubic_c=0.4`` [C], ``cubic_beta=0.7`` [Beta],
      ...: TcpFlow's fields, the table in docs/model.md); one other than its default without
      a CUBIC flow is an error. For a large BDP raise ``max_window_pkts``.
    - ``ssthresh_from="window"``: NewReno's reduction at a fast retransmit, ns-2's half
      window, or "flight" (ns-3.44's: half of the SACK pipe; ``tcp="sack"`` only): TcpFlow's
      field (docs/model.md, "SACK").
    - ``rto_restart="fast_retransmit"``: when the retransmission timer restarts: ns-2's
      (also at a fast retransmit, and at every partial ACK of a SACK recovery) or "new_ack"
      (ns-3.44's TcpSocketBase: at new ACKs only, of a recovery's partial ACKs the first):
      TcpFlow's field (docs/model.md, "SACK").

    Round trips (propagation, ms; exactly one way to give them):

    - ``rtt_ms``: one value for every flow (None: ``DEFAULT_RTT_MS`` = 100 ms) or a list of
      n_flows values; or ``rtt_min_ms`` and ``rtt_max_ms``: flow i gets rtt_min_ms + i
      (rtt_max_ms - rtt_min_ms) / (n_flows - 1), evenly spread, both ends included (one flow:
      rtt_min_ms). Each at least 2 x ``bottleneck_delay_ms``. A round trip splits as
      kaur_vin's: the bottleneck's ``bottleneck_delay_ms=10`` each way, the rest of the
      forward half in equal access and egress delays, the ACK path half the round trip.

    Links:

    - ``bottleneck_bps=10e6``, ``bottleneck_delay_ms=10.0`` (choices: ns-2's duplex-link has
      no default), ``buffer_pkts=50`` [Queue limit_ 50].
    - Each sender's access link: ``access_bps=100e6`` (a choice), ``access_buffer_pkts=50``
      [Queue limit_ 50]; one access link per flow (docs/model.md, "Access link").
    - ``device_queue_pkts=0``: the bottleneck's device queue (``Link.device_queue_pkts``;
      ns-2 has none; ns-3's PointToPointNetDevice has one, 1 packet under a queue disc in
      benchmarks/ns3): that many packets between the queue and the wire, the queue's AQM
      dequeuing into it and ``buffer_pkts`` counting the queue alone (docs/model.md, "Device
      queue"). Not with ``cross_class="ef"`` (two classes).

    Bottleneck queue ``aqm``: "droptail", "red", "rio-c", "rio-d", "wred", "codel", "pie" or
    "fq_codel".

    - "red" [Queue/RED]: ``red_min_th_pkts`` / ``red_max_th_pkts`` None = ns-2.35's
      automatic thresholds [thresh_ 0, maxthresh_ 0: :func:`red_auto`], ``red_max_p=0.1``
      [linterm_ 10], ``red_w_q`` None = automatic [q_weight_ -1], ``red_gentle=True``
      [gentle_ true], ``red_wait=True`` [wait_ true], ``red_bytes=True`` [bytes_ true: the
      drop probability scaled by packet size / mean_pktsize_, the count in bytes],
      ``red_queue_in_bytes=None`` [queue_in_bytes_ true: the averaged queue, thresholds and
      buffer in bytes; None: as ``red_bytes``, so that ``red_bytes=false`` alone still puts
      the whole queue in packets; true/false to set it apart], ``red_mean_pkt_bytes=500`` [mean_pktsize_ 500]. With the queue in
      bytes ns-2 counts thresholds and the buffer in mean-size packets: the averaged queue is
      in bytes, thresholds are x 500 B and the buffer is ``buffer_pkts`` x 500 B (red.cc: qlim
      = limit_ x mean_pktsize_), so with 1040-B packets the RED buffer holds 25 packets, not
      50. The thresholds (given or automatic) are checked against ``buffer_pkts``, both in
      mean-size packets: red_min_th_pkts >= buffer_pkts is an error (RED would never drop
      early), red_max_th_pkts > buffer_pkts a warning (the buffer cuts RED's ramp short:
      ns-2.35's automatic thresholds at 10 Mb/s are 6.25 / 18.75).
    - "rio-c" / "rio-d" / "wred" [Queue/dsRED, one physical queue; mredMode RIO-C is ns-2's
      default]: ``rio_thresholds`` = [[min_th, max_th, max_p] green, (yellow,) red] in packets
      (None: green [0.4, 0.8] x buffer, max_p 0.02; red [0.1, 0.3] x buffer, max_p 0.1: ns-2
      has none), q_w 0.002 (dsredq.cc) unless ``red_w_q``; packets, not bytes (dsRED counts
      packets); each min_th below ``buffer_pkts`` (an error), each max_th at most it (a
      warning). Packets leave their host green; ``marker`` colours them at the bottleneck's
      ingress: "none", "token_bucket", "tsw2cm" (two colours), "tsw3cm", "srtcm", "trtcm"
      (three), "rtt_aware", "rtt_rto" (docs/model.md, "Edge conditioners"), one conditioner
      for all flows (``marker_per_flow=False``, the aggregate's rate ``marker_cir_bps``) or
      one per flow (each flow's own rate; at most 64 flows). ``marker_cir_bps`` is required
      with a marker; ``marker_cbs_bytes`` None = 10 packets; ``marker_pir_bps`` (tsw3cm,
      trtcm: required); ``marker_pbs_bytes`` None = marker_cbs_bytes (srtcm's EBS, trtcm's
      PBS); ``marker_window_s=1.0`` (the TSW window). Only RIO and WRED read the colours: a
      marker with "droptail" or "red" changes nothing but the per-colour counts (so that a
      sweep over ``aqm`` may keep one marker).
    - "codel" [ns-3.44 CoDelQueueDisc; RFC 8289]: ``codel_target_ms=5`` [Target 5ms],
      ``codel_interval_ms=100`` [Interval 100ms], MinBytes 1500 [MinBytes 1500], drops at
      dequeue (docs/model.md, "CoDel"); the buffer is ``buffer_pkts`` packets waiting (ns-3's
      MaxSize counts the waiting packets; its default, 1500p, is not ns-2's 50: give
      ``buffer_pkts=1500`` to run it). Both times are checked whatever ``aqm`` is and used
      only by "codel" (a sweep over ``aqm`` may keep them).
    - "pie" [ns-3.44 PieQueueDisc; RFC 8033]: ``pie_qdelay_ref_ms=15`` [QueueDelayReference
      15ms], ``pie_t_update_ms=15`` [Tupdate 15ms], ``pie_max_burst_ms=150``
      [MaxBurstAllowance 150ms], ``pie_alpha=0.125`` [A 0.125], ``pie_beta=1.25`` [B 1.25],
      MeanPktSize 1000, UseCapDropAdjustment true, UseDerandomization false; early drops at
      arrival (docs/model.md, "PIE"); the buffer is ``buffer_pkts`` packets waiting (ns-3's
      MaxSize, default 25p). Checked whatever ``aqm`` is, used only by "pie".
    - "fq_codel" [ns-3.44 FqCoDelQueueDisc; RFC 8290]: the flows hashed into ``fq_flows=1024``
      buckets [Flows 1024] (a documented hash of the flow's index, not ns-3's of the 5-tuple:
      docs/model.md, "FQ-CoDel"), deficit round robin with ``fq_quantum_bytes=1500`` [Quantum:
      the device MTU, 1500], a CoDel per flow queue with ``codel_target_ms`` and
      ``codel_interval_ms`` [Target, Interval], DropBatchSize 64; the buffer is ``buffer_pkts``
      packets waiting over all flow queues [MaxSize, default 10240p]. Checked whatever
      ``aqm`` is, used only by "fq_codel".

    Cross traffic ``cross``: "none", "cbr" [Application/Traffic/CBR: rate_ 448Kb,
    packetSize_ 210] or "exponential" [Application/Traffic/Exponential: rate_ 64Kb while on,
    burst_time_ 0.5 s, idle_time_ 0.5 s, packetSize_ 210], over UDP into the bottleneck:
    ``cross_rate_bps`` (None: ns-2's rate_ of that shape), ``cross_pkt_bytes=210``,
    ``cross_t_on_ms=500``, ``cross_t_off_ms=500``. ``cross_class``: "be" (the TCP flows'
    queue; green under RIO) or "ef" (its own drop-tail queue of ``buffer_pkts``, served
    with strict priority).

    Short flows: ``web_sessions`` (0: none) sessions of ns-2's WebTraf model
    (tcl/ex/web-traffic.tcl): pages at exponential intervals of ``web_inter_page_s=1``,
    ``web_objects_per_page=1`` objects each at intervals of ``web_inter_object_s=0.01``, each
    object a TCP transfer (the long flows' TCP settings) of ParetoII size, mean
    ``web_size_mean_pkts=10`` packets, shape ``web_size_alpha=1.2``; pages go on to the end
    of the run; RTT ``web_rtt_ms`` (None: the long flows' mean); at most ``web_pool``
    transfers at once. Their queue is the TCP flows' (green under RIO).

    Run: ``duration_s=100``, ``warmup_s=20`` (choices), ``tie_break="random"``; ``slot_s=None``:
    the engine's time slot (None: one data packet's time at the fastest rate a packet is sent
    at, ``access_bps`` when it is faster than the bottleneck, else ``bottleneck_bps``;
    docs/model.md, "Time", on why and what it costs).

    Time series (off by default; docs/columns.md): ``trace_flows`` (flow indices) and
    ``trace_interval_s`` for their cwnd (table ``cwnd_trace``); ``queue_trace_interval_s``
    for the bottleneck's queue lengths (table ``queue_trace``; ``queue_trace_links`` None:
    every link, here the one). ``queue_delay_hist=False``: true counts every departure's wait
    in a histogram (table ``queue_delay``; the queues table's ``delay_p50_ms``,
    ``delay_p95_ms``, ``delay_p99_ms``; metrics ``queue_delay_p50_ms`` ...).

    ``params`` (grid columns): ``rtt_mean_ms`` (the flows' mean round trip), ``bdp_pkts``
    (bottleneck rate x rtt_mean_ms in wire packets), ``red_min_th`` / ``red_max_th`` /
    ``red_w_q_used`` (the RED or RIO green thresholds and q_w as run, thresholds in mean-size
    packets; None for drop-tail) and ``cross_rate_used_bps`` (0 without cross traffic).
    """
    n = as_int(plain(n_flows))
    check_count("n_flows", n, 1, MAX_FLOWS, "TCP flows per scenario")
    seed = as_int(plain(seed))
    check(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    rate = as_float(plain(bottleneck_bps))
    check_positive("bottleneck_bps", rate)
    delay = as_float(plain(bottleneck_delay_ms))
    check_nonneg("bottleneck_delay_ms", delay)
    buf = as_int(plain(buffer_pkts))
    check(is_int(buf) and 1 <= buf <= 2**30 - 2, "buffer_pkts", buf,
          "an integer in 1..1073741822 (packets)")
    access = as_float(plain(access_bps))
    check_positive("access_bps", access)
    aqm = _choice("aqm", aqm, AQMS + ("step",))
    marker = _choice("marker", marker, MARKERS)
    cross = _choice("cross", cross, CROSS)
    cross_class = _choice("cross_class", cross_class, CROSS_CLASSES)
    spread = as_float(plain(start_spread_s))
    check_nonneg("start_spread_s", spread)
    duration = as_float(plain(duration_s))
    check_positive("duration_s", duration)
    # a short (test) run keeps its flows' starts in its first half
    spread = min(spread, duration / 2.0)

    rtts = _rtts(n, rtt_ms, rtt_min_ms, rtt_max_ms, 2.0 * delay)
    variants = _per_flow("tcp", tcp, n, _variant, "'reno', 'newreno' or 'sack'")
    dacks = _per_flow("delayed_ack", delayed_ack, n, _bool_of, "true or false")
    ccs = _per_flow("congestion_control", congestion_control, n, _congestion_control,
                    "'newreno', 'cubic' or 'dctcp'")
    cubic = cubic_options(ccs, locals())
    # ECN (RFC 3168, model/tcp_ecn.h): per flow; DCTCP flows always (RFC 8257)
    ecns = [e or cc == "dctcp" for e, cc in
            zip(_per_flow("ecn", ecn, n, _bool_of, "true or false"), ccs)]
    flags = {k: _flag(k, v) for k, v in (("limited_transmit", limited_transmit),
                                         ("reno_bugfix", reno_bugfix), ("syn", syn),
                                         ("delay_growth", delay_growth))}

    # --- the bottleneck's queue ---
    red_params = {"red_min_th": None, "red_max_th": None, "red_w_q_used": None}
    w_q = None if red_w_q is None else as_float(plain(red_w_q))
    if w_q is not None:
        check_number("red_w_q", w_q, lambda x: 0 < x <= 1,
                     "None (ns-2.35's automatic q_weight) or a number in (0, 1]")
    wire = None
    seg, hdr = as_int(plain(segment_bytes)), as_int(plain(header_bytes))
    if is_int(seg) and is_int(hdr):
        wire = seg + hdr
    codel = codel_class(buf, codel_target_ms, codel_interval_ms)
    pie = pie_class(buf, **dict(pie_qdelay_ref_ms=pie_qdelay_ref_ms, pie_t_update_ms=pie_t_update_ms,
                    pie_max_burst_ms=pie_max_burst_ms, pie_alpha=pie_alpha, pie_beta=pie_beta))
    fq = fq_codel_class(buf, codel_target_ms, codel_interval_ms, fq_quantum_bytes, fq_flows)
    if aqm == "droptail":
        q = dict(limit_pkts=buf)
    elif aqm == "codel":
        q = codel
    elif aqm == "fq_codel":
        q = fq
    elif aqm == "pie":
        q = pie
    elif aqm == "red":
        q, red_params = red_class(rate, delay, buf, wire, red_min_th_pkts, red_max_th_pkts,
                                  red_max_p, w_q, red_gentle, red_wait, red_bytes,
                                  red_mean_pkt_bytes, red_queue_in_bytes)
    elif aqm in _RIO_AQMS:
        th = _rio_thresholds(rio_thresholds, buf)
        for k, t in enumerate(th):
            check(t.min_th < buf, f"rio_thresholds[{k}]", [t.min_th, t.max_th, t.max_p],
                  f"a min_th < buffer_pkts ({buf}): at or above it the average never reaches "
                  "min_th and the colour is never dropped early")
            if t.max_th > buf:
                warnings.warn(f"rio_thresholds[{k}]: max_th {t.max_th:g} is above buffer_pkts "
                              f"({buf}): the buffer overflows before the average reaches max_th, "
                              "cutting the colour's ramp to max_p short", RedThresholdWarning,
                              stacklevel=2)
        w = _DSRED_W_Q if w_q is None else w_q
        q = dict(limit_pkts=buf, aqm=aqm, red=th, red_w_q=w,
                 red_mean_pkt_bytes=wire if wire is not None and wire <= 65535 else 500)
        red_params = {"red_min_th": th[0].min_th, "red_max_th": th[0].max_th, "red_w_q_used": w}
    elif aqm == "step":
        # DCTCP's step marking at K packets (RFC 8257 3.1) as ns-3 runs it (dctcp-example.cc,
        # benchmarks/ns3/dumbbell.cc): RED on the instantaneous queue (w_q 1), not gentle,
        # min_th = max_th = K (min_th just below K: the engine's thresholds must differ; the
        # queue is whole packets, so the verdict is the same), forced "drops" at or above K
        # marked (UseHardDrop false), the buffer's drops only for ECT packets
        k_pkts = as_float(plain(step_k_pkts))
        check_number("step_k_pkts", k_pkts, lambda x: 1 <= x < buf,
                     f"a number >= 1 and < buffer_pkts ({buf}): the marking threshold K")
        q = dict(limit_pkts=buf, aqm="red", red=(RedThresholds(k_pkts - 1e-6, k_pkts, 1.0),),
                 red_w_q=1.0, red_gentle=False, red_wait=True, red_bytes=False,
                 red_mean_pkt_bytes=wire if wire is not None and wire <= 65535 else 500,
                 ecn=True, red_hard_drop=False)
    if any(ecns) and aqm != "step":
        check(aqm != "droptail", "ecn", ecn, "false with aqm 'droptail' (a drop-tail queue "
              "cannot mark, as ns-3's FifoQueueDisc; ECN needs aqm 'red', 'rio-c', 'rio-d', "
              "'wred', 'codel', 'pie', 'fq_codel' or 'step'), and no 'dctcp' flow over it")
        q = dict(q, ecn=True)
    with renamed_errors({"Link.rate_bps": "bottleneck_bps",
                         "Link.prop_delay_ms": "bottleneck_delay_ms",
                         "QueueClass.limit_pkts": "buffer_pkts",
                         "QueueClass.limit_bytes": "buffer_pkts",
                         "QueueClass.red_w_q": "red_w_q",
                         "Link.device_queue_pkts": "device_queue_pkts"}):
        with warnings.catch_warnings():  # said above in the builder's own names
            warnings.simplefilter("ignore", RedThresholdWarning)
            be = QueueClass("be", **q)
        classes = (QueueClass("ef", limit_pkts=buf), be) if (
            cross != "none" and cross_class == "ef") else (be,)
        link = Link(rate_bps=rate, prop_delay_ms=delay, classes=classes, scheduler="priority",
                    device_queue_pkts=device_queue_pkts)

    # --- the TCP flows ---
    starts = _starts(start_s, spread, duration, n, seed)
    tcp_renames = {f"TcpFlow.{f}": f for f in (
        "segment_bytes", "header_bytes", "max_window_pkts", "init_window_pkts",
        "send_jitter_s", "access_buffer_pkts", "ssthresh_from", "rto_restart", *cubic)}
    tcp_renames["TcpFlow.access_rate_bps"] = "access_bps"
    # One checked flow per distinct (variant, delayed ACK); the flows are its copies with their
    # own delays and start time, values checked above (rtt >= 2 x delay, starts in [0,
    # duration/2)): building 1000 flows one TcpFlow at a time took 25 ms a scenario.
    templates: dict = {}
    flows = []
    with renamed_errors(tcp_renames):
        for i in range(n):
            key = (variants[i], dacks[i], ccs[i], ecns[i])
            tmpl = templates.get(key)
            if tmpl is None:
                tmpl = templates[key] = TcpFlow(
                    route=(0,), cls="be", variant=variants[i], segment_bytes=seg,
                    header_bytes=hdr, max_window_pkts=max_window_pkts,
                    init_window_pkts=init_window_pkts, access_rate_bps=access,
                    access_buffer_pkts=access_buffer_pkts, delayed_ack=dacks[i],
                    send_jitter_s=send_jitter_s, congestion_control=ccs[i], ecn=ecns[i],
                    ssthresh_from=ssthresh_from, rto_restart=rto_restart,
                    **(cubic if ccs[i] == "cubic" else {}),
                    **flags)
            rtt = float(rtts[i])
            side = (rtt / 2.0 - delay) / 2.0
            flows.append(_copy(tmpl, access_delay_ms=side, egress_delay_ms=side,
                               reverse_delay_ms=rtt / 2.0, start_s=float(starts[i])))

    # --- the edge conditioner ---
    markers = ()
    if marker != "none":
        check(marker_cir_bps is not None, "marker_cir_bps", None,
              f"a number > 0 with marker {marker!r}: the committed rate (of the aggregate, "
              "or of each flow with marker_per_flow)")
        per_flow = _flag("marker_per_flow", marker_per_flow)
        if per_flow:
            check(n <= MAX_MARKERS, "marker_per_flow", True,
                  f"false with more than {MAX_MARKERS} flows (n_flows {n}): the engine has at "
                  f"most {MAX_MARKERS} edge conditioners")
        cbs = (10 * wire if marker_cbs_bytes is None and wire is not None
               else as_float(plain(marker_cbs_bytes)))
        kw = dict(kind=marker, cir_bps=as_float(plain(marker_cir_bps)), cbs_bytes=cbs,
                  window_s=as_float(plain(marker_window_s)))
        if marker in ("tsw3cm", "trtcm"):
            kw["pir_bps"] = None if marker_pir_bps is None else as_float(plain(marker_pir_bps))
        elif marker_pir_bps is not None:
            check(False, "marker_pir_bps", marker_pir_bps,
                  f"None with marker {marker!r} (a peak rate is for 'tsw3cm' and 'trtcm')")
        if marker in ("srtcm", "trtcm"):
            kw["pbs_bytes"] = cbs if marker_pbs_bytes is None else as_float(plain(marker_pbs_bytes))
        elif marker_pbs_bytes is not None:
            check(False, "marker_pbs_bytes", marker_pbs_bytes,
                  f"None with marker {marker!r} (a second bucket is for 'srtcm' and 'trtcm')")
        groups = [(f"flow{i}", (i,)) for i in range(n)] if per_flow else [("tcp", tuple(range(n)))]
        with renamed_errors({"Marker.cir_bps": "marker_cir_bps",
                             "Marker.cbs_bytes": "marker_cbs_bytes",
                             "Marker.pir_bps": "marker_pir_bps",
                             "Marker.pbs_bytes": "marker_pbs_bytes",
                             "Marker.window_s": "marker_window_s"}):
            markers = tuple(Marker(name=name, link=0, flows=members, **kw)
                            for name, members in groups)

    # --- cross traffic ---
    sources = ()
    cross_rate = 0.0
    if cross != "none":
        cross_rate = (_CROSS_RATE_BPS[cross] if cross_rate_bps is None
                      else as_float(plain(cross_rate_bps)))
        check_positive("cross_rate_bps", cross_rate)
        t_on = as_float(plain(cross_t_on_ms))
        t_off = 0.0 if cross == "cbr" else as_float(plain(cross_t_off_ms))
        if cross == "exponential":
            check_positive("cross_t_off_ms", t_off)
        with renamed_errors({"OnOffSource.pkt_bytes": "cross_pkt_bytes",
                             "OnOffSource.t_on_ms": "cross_t_on_ms",
                             "OnOffSource.t_off_ms": "cross_t_off_ms",
                             "OnOffSource.peak_bps": "cross_rate_bps"}):
            src = OnOffSource(name="cross", cls=cross_class, peak_bps=cross_rate,
                              pkt_bytes=cross_pkt_bytes, t_on_ms=t_on, t_off_ms=t_off)
        cross_rate = src.mean_rate_bps
        sources = (src,)

    # --- short flows ---
    traffic = ()
    sessions = as_int(plain(web_sessions))
    check(is_int(sessions) and 0 <= sessions <= 1_000_000, "web_sessions", sessions,
          "an integer in 0..1000000 (0: no short flows)")
    if sessions > 0:
        wrtt = (sum(rtts) / n) if web_rtt_ms is None else as_float(plain(web_rtt_ms))
        check_number("web_rtt_ms", wrtt, lambda x: x >= 2.0 * delay,
                     f"None (the long flows' mean) or a number of ms >= 2 x "
                     f"bottleneck_delay_ms = {2.0 * delay:g}")
        inter_page = as_float(plain(web_inter_page_s))
        check_positive("web_inter_page_s", inter_page)
        side = (wrtt / 2.0 - delay) / 2.0
        tmpl = TcpFlow(**{**flows[0].__dict__, "access_delay_ms": side, "egress_delay_ms": side,
                          "reverse_delay_ms": wrtt / 2.0, "start_s": 0.0,
                          "variant": variants[0], "delayed_ack": dacks[0]})
        # pages go on to the end: a session has more pages than the run can start
        pages = max(1, int(math.ceil(2.0 * duration / inter_page)) + 10)
        with renamed_errors({"Traffic.pool": "web_pool",
                             "Traffic.objects_per_page": "web_objects_per_page",
                             "Traffic.inter_object_s": "web_inter_object_s",
                             "Traffic.size_mean_pkts": "web_size_mean_pkts",
                             "Traffic.size_alpha": "web_size_alpha"}):
            traffic = (Traffic(name="web", flow=tmpl, kind="web", sessions=sessions,
                               pages_per_session=pages, objects_per_page=web_objects_per_page,
                               inter_page_s=inter_page, inter_object_s=web_inter_object_s,
                               size_dist="paretoII", size_mean_pkts=web_size_mean_pkts,
                               size_alpha=web_size_alpha, pool=web_pool),)

    rtt_mean = sum(rtts) / n
    params = {"rtt_mean_ms": rtt_mean,
              "bdp_pkts": rate * rtt_mean / 1000.0 / (8.0 * wire) if wire else None,
              **red_params, "cross_rate_used_bps": cross_rate}
    with renamed_errors({"links[0].classes[0].limit_bytes": "red_mean_pkt_bytes",
                         "links[0].classes[1].limit_bytes": "red_mean_pkt_bytes"}):
        return Scenario(links=(link,), flows=tuple(flows), sources=sources, markers=markers,
                        traffic=traffic, duration_s=duration, warmup_s=warmup_s,
                        tcp_tick_s=tcp_tick_s, min_rto_s=min_rto_s, max_rto_s=max_rto_s,
                        init_rto_s=init_rto_s, tie_break=tie_break, trace_flows=trace_flows,
                        trace_interval_s=trace_interval_s,
                        queue_trace_interval_s=queue_trace_interval_s,
                        queue_trace_links=queue_trace_links,
                        queue_delay_hist=_flag("queue_delay_hist", queue_delay_hist),
                        slot_s=_slot(slot_s), params=params)


dumbbell.seed_matters = _seed_matters


def _slot(slot_s):
    """A builder's ``slot_s``: None (the engine's default slot) or seconds > 0."""
    slot = as_float(plain(slot_s))
    if slot is not None:
        check_number("slot_s", slot, lambda x: x > 0,
                     "a number of seconds > 0, or None (the engine's default slot)")
    return slot
