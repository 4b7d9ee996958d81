"""RED's configuration as ns-2.35 computes it (queue/red.cc): the automatic thresholds and
weight (``red_auto``), and one RED bottleneck class from a builder's parameters
(``red_class``), shared by the dumbbell and the parking lot."""
from __future__ import annotations

import math
import warnings

import numpy as np

from diffsweep.core.errors import check
from diffsweep.scenario.checks import as_float, as_int, check_number, is_int, plain, renamed_errors
from diffsweep.scenario.links import RedThresholds, RedThresholdWarning

__all__ = ["red_auto", "red_class"]

#: ns-2.35 red.cc: targetdelay_ 0.005 s (the automatic minimum threshold is half the queue
#: that delay makes at the link rate).
_RED_TARGET_DELAY_S = 0.005

def red_auto(rate_bps: float, delay_ms: float, mean_pkt_bytes: int,
             min_th_pkts=None, max_th_pkts=None, w_q=None) -> tuple[float, float, float]:
    """ns-2.35's automatic RED configuration (queue/red.cc ``initialize_params``), for the
    values left None: ``min_th_pkts`` = max(5, targetdelay x ptc / 2), ``max_th_pkts`` = 3 x
    min_th_pkts, ``w_q`` = 1 - exp(-1 / (10 x rtt x ptc)) with rtt = max(0.1 s, 3 (delay +
    1/ptc)); ptc = rate / (8 mean_pkt_bytes), the link's rate in mean-size packets per
    second (ns-default.tcl: ``thresh_ 0``, ``maxthresh_ 0``, ``q_weight_ -1``,
    ``targetdelay_ 0.005``). Thresholds in mean-size packets, as ns-2's ``thresh_``."""
    ptc = rate_bps / (8.0 * mean_pkt_bytes)
    if min_th_pkts is None:
        min_th_pkts = max(5.0, _RED_TARGET_DELAY_S * ptc / 2.0)
    if max_th_pkts is None:
        max_th_pkts = 3.0 * min_th_pkts
    if w_q is None:
        rtt = max(0.1, 3.0 * (delay_ms / 1000.0 + 1.0 / ptc))
        w_q = 1.0 - math.exp(-1.0 / (10.0 * rtt * ptc))
    return float(min_th_pkts), float(max_th_pkts), float(w_q)


def red_class(rate, delay, buf, wire, red_min_th_pkts, red_max_th_pkts, red_max_p, w_q,
              red_gentle, red_wait, red_bytes, red_mean_pkt_bytes,
              red_queue_in_bytes=None) -> tuple[dict, dict]:
    """A "red" bottleneck [Queue/RED] of ``rate`` b/s, ``delay`` ms and ``buf`` packets
    (``wire``: the TCP packets' bytes on the wire, or None): the ``QueueClass`` keywords and
    the ``params`` columns (``red_min_th``, ``red_max_th``, ``red_w_q_used``), the builder's
    RED parameters checked under their own names (``w_q`` already checked; None: automatic).
    Shared by the dumbbell and the parking lot (one bottleneck each, or one per link).
    ``red_bytes`` is ns-2's bytes_ (p scaled by size), ``red_queue_in_bytes`` its
    queue_in_bytes_ (the average, thresholds and limit in bytes; None: as red_bytes)."""
    p_bytes = _flag("red_bytes", red_bytes)
    in_bytes = (p_bytes if red_queue_in_bytes is None
                else _flag("red_queue_in_bytes", red_queue_in_bytes))
    mean = as_int(plain(red_mean_pkt_bytes))
    check(is_int(mean) and 1 <= mean <= 65535, "red_mean_pkt_bytes", mean,
          "an integer number of bytes in 1..65535 (ns-2's mean_pktsize_)")
    lo_th = None if red_min_th_pkts is None else as_float(plain(red_min_th_pkts))
    hi_th = None if red_max_th_pkts is None else as_float(plain(red_max_th_pkts))
    for name, v in (("red_min_th_pkts", lo_th), ("red_max_th_pkts", hi_th)):
        if v is not None:
            check_number(name, v, lambda x: x > 0, "None (ns-2.35's automatic threshold) "
                         "or a number of packets > 0")
    given = lo_th is not None
    lo_th, hi_th, w = red_auto(rate, delay, mean, lo_th, hi_th, w_q)
    check(hi_th > lo_th, "red_max_th_pkts", hi_th,
          f"a number > red_min_th_pkts ({lo_th:g}): thresholds in order")
    _red_fits_buffer(lo_th, hi_th, buf, given)
    scale = mean if in_bytes else 1
    with renamed_errors({"RedThresholds.max_p": "red_max_p"}):
        th = RedThresholds(lo_th * scale, hi_th * scale, as_float(plain(red_max_p)))
    if in_bytes:
        # red.cc: a packet is forced out when the waiting bytes reach limit_ x
        # mean_pktsize_ before it joins; the engine takes a packet that fits. Adding one
        # TCP packet less a byte makes the two the same for the TCP packets.
        limit = dict(limit_bytes=buf * mean + ((wire or 1) - 1))
    else:
        limit = dict(limit_pkts=buf)
    # red_queue_in_bytes None when it equals red_bytes: the QueueClass of every scenario
    # made before the two were split keeps its digest
    q = dict(aqm="red", red=(th,), red_w_q=w, red_gentle=_flag("red_gentle", red_gentle),
             red_wait=_flag("red_wait", red_wait), red_bytes=p_bytes,
             red_queue_in_bytes=None if in_bytes == p_bytes else in_bytes,
             red_mean_pkt_bytes=mean, **limit)
    red_params = {"red_min_th": lo_th, "red_max_th": hi_th, "red_w_q_used": w}
    return q, red_params


def _flag(name: str, value) -> bool:
    value = plain(value)
    check(isinstance(value, (bool, np.bool_)), name, value, "true or false")
    return bool(value)


def _red_fits_buffer(lo_th: float, hi_th: float, buf: int, given: bool) -> None:
    """RED's thresholds against the buffer, all in mean-size packets (red.cc scales the
    thresholds and qlim by mean_pktsize_ alike): min_th at or above it can never be reached
    (an error), max_th above it is reached only through forced drops (a warning)."""
    how = "" if given else " (ns-2.35's automatic threshold, red_auto)"
    check(lo_th < buf, "red_min_th_pkts", lo_th,
          f"a number < buffer_pkts ({buf}){how}: at or above the buffer the average queue "
          "never reaches min_th and RED never drops early; lower red_min_th_pkts or raise "
          "buffer_pkts")
    if hi_th > buf:
        warnings.warn(f"red_max_th_pkts {hi_th:g} is above buffer_pkts ({buf}): RED drops "
                      f"early from red_min_th_pkts {lo_th:g}, but the buffer overflows before "
                      "the average reaches max_th, cutting its ramp to max_p short; raise "
                      "buffer_pkts or lower red_max_th_pkts", RedThresholdWarning, stacklevel=3)
