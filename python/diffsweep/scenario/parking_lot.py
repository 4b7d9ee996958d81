"""The standard parking lot (``builder = "parking_lot"`` in a sweep file): K bottlenecks in a
chain, long TCP flows crossing all of them and cross flows on each, with the defaults of
ns-2.35 (``tcl/lib/ns-default.tcl`` and ``queue/red.cc``), exactly as the dumbbell's.

The classic multi-bottleneck experiment: a flow crossing several congested links gets less
than the flows that cross one of them (its round trip is longer and it is dropped at every
link). Every parameter, its unit, its default and the ns-2 default it follows are listed in
the docstring of :func:`parking_lot` and in docs/model.md ("The standard parking lot"); the
names, defaults, checks and RED configuration are the dumbbell's
(:mod:`diffsweep.scenario.dumbbell`, imported, not copied). Errors name the builder's own
parameters. benchmarks/ns2/parking_lot/ runs the real ns-2.35 beside it.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from diffsweep.core.errors import check
from diffsweep.scenario.checks import (CONGESTION_CONTROLS, MAX_FLOWS, MAX_ROUTE_LINKS, as_float,
                                       as_int,
                                       check_count, check_nonneg, check_number, check_positive,
                                       is_int, plain, renamed_errors)
from diffsweep.scenario.dumbbell import (_START_STREAM, _choice, _copy, _flag, _seed_matters,
                                         _slot, _variant, red_class)
from diffsweep.scenario.links import (CODEL_INTERVAL_MS, CODEL_TARGET_MS, codel_class,
                                      fq_codel_class, pie_class)
from diffsweep.scenario.flows import CUBIC_OPTIONS, TcpFlow, cubic_options
from diffsweep.scenario.links import Link, QueueClass
from diffsweep.scenario.scenario import Scenario

__all__ = ["parking_lot", "AQMS", "DEFAULT_ACCESS_DELAY_MS"]

#: Queues a parking-lot link may have (the dumbbell's RIO and WRED need an edge conditioner
#: per link, which this builder does not make).
AQMS = ("droptail", "red", "codel", "pie", "fq_codel")
#: The one-way delay of each host's access link: with one link of the default 10 ms the round
#: trip is the dumbbell's DEFAULT_RTT_MS, 2 (20 + 10 + 20) = 100 ms.
DEFAULT_ACCESS_DELAY_MS = 20.0


def _per_link(name: str, value, k: int, one, allowed: str) -> list:
    """``value`` for every link: one value (``one(name, v)`` checks and normalises it) or a
    list of n_links values, one per link (the dumbbell's ``_per_flow``, per link)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, Sequence) and not isinstance(value, str):
        check(len(value) == k, name, value,
              f"{allowed} or a list of n_links ({k}) of them, one per link; in a sweep axis "
              f"wrap a per-link list: {name} = [[...]]")
        return [one(f"{name}[{i}]", v) for i, v in enumerate(value)]
    return [one(name, value)] * k


def _rate(path, v):
    v = as_float(plain(v))
    check_positive(path, v)
    return v


def _delay(path, v):
    v = as_float(plain(v))
    check_nonneg(path, v)
    return v


def _buffer(path, v):
    v = as_int(plain(v))
    check(is_int(v) and 1 <= v <= 2**30 - 2, path, v, "an integer in 1..1073741822 (packets)")
    return v


def _aqm(path, v):
    return _choice(path, v, AQMS)


def parking_lot(n_links=2, n_long=1, n_cross=1, tcp="newreno", bottleneck_bps=10e6,
                bottleneck_delay_ms=10.0, buffer_pkts=50, aqm="droptail",
                access_delay_ms=DEFAULT_ACCESS_DELAY_MS, red_min_th_pkts=None,
                red_max_th_pkts=None, red_max_p=0.1, red_w_q=None, red_gentle=True,
                red_wait=True, red_bytes=True, red_mean_pkt_bytes=500, segment_bytes=1000,
                header_bytes=40, max_window_pkts=20, init_window_pkts=2,
                congestion_control="newreno", cubic_c=0.4, cubic_beta=0.7,
                cubic_fast_convergence=True, cubic_tcp_friendliness=True, cubic_hystart=True,
                cubic_hystart_low_window_pkts=16, cubic_hystart_detect="both",
                cubic_hystart_min_samples=8, cubic_hystart_ack_delta_ms=2.0,
                cubic_hystart_delay_min_ms=4.0, cubic_hystart_delay_max_ms=1000.0,
                cubic_delta_ms=10.0, cubic_cnt_clamp=20, delayed_ack=False,
                limited_transmit=True, reno_bugfix=True, syn=True, delay_growth=True,
                access_bps=100e6, access_buffer_pkts=50, start_spread_s=1.0,
                send_jitter_s=0.0, duration_s=100.0, warmup_s=20.0, tcp_tick_s=0.01,
                min_rto_s=0.2, max_rto_s=60.0, init_rto_s=3.0, tie_break="random",
                codel_target_ms=CODEL_TARGET_MS, codel_interval_ms=CODEL_INTERVAL_MS,
                pie_qdelay_ref_ms=15.0, pie_t_update_ms=15.0, pie_max_burst_ms=150.0,
                pie_alpha=0.125, pie_beta=1.25, queue_delay_hist=False, slot_s=None,
                seed=0) -> Scenario:
    """A parking lot: ``n_links`` bottlenecks in a chain (link k from router k to router
    k+1), ``n_long`` backlogged TCP flows from router 0 to router n_links over every link,
    and ``n_cross`` backlogged TCP flows on each link k (entering at router k, leaving at
    router k+1); ACKs return uncongested. Defaults are ns-2.35's where ns-2 has one
    (``ns-default.tcl``, named in brackets), else a stated choice; every name, default and
    check is the dumbbell's (``diffsweep.scenario.dumbbell``).

    Flows, in this order (``flows`` table index): the long flows 0..n_long-1, then link 0's
    cross flows, link 1's, ...; at least one flow in all.

    - ``n_links=2``: 1..4 (a long flow's route holds at most 4 links); with 1 the scenario
      is the dumbbell of n_long + n_cross flows with the same round trip, link and seed.
    - ``n_long=1``, ``n_cross=1``: integers >= 0.

    TCP (every flow): ``tcp="newreno"`` ("reno", "newreno" or "sack"),
    ``segment_bytes=1000`` [Agent/TCP packetSize_ 1000], ``header_bytes=40``
    [tcpip_base_hdr_size_ 40], ``max_window_pkts=20`` [window_ 20], ``init_window_pkts=2``
    [windowInit_ 2], ``delayed_ack=False`` (ns-2's plain TCPSink), ``limited_transmit=True``
    [singledup_ 1], ``reno_bugfix=True`` [bugFix_ true], ``syn=True`` [syn_ true],
    ``delay_growth=True`` [delay_growth_ true], ``send_jitter_s=0.0`` [overhead_ 0],
    ``tcp_tick_s=0.01`` [tcpTick_], ``min_rto_s=0.2`` [minrto_], ``max_rto_s=60`` [maxrto_],
    ``init_rto_s=3.0`` [rtxcur_init_]; start times uniform in [0, ``start_spread_s``) = [0, 1)
    s, drawn from the seed as the dumbbell's (at most the run's first half).
    ``congestion_control="newreno"`` ("newreno" or "cubic": RFC 9438 as ns-3.44's TcpCubic,
    docs/model.md "CUBIC") with the dumbbell's ``cubic_*`` options and ns-3's defaults
    (``cubic_c=0.4``, ``cubic_beta=0.7``, ...: the dumbbell's table).

    Links (each one value for every link or a list of n_links values, link k first):

    - ``bottleneck_bps=10e6``, ``bottleneck_delay_ms=10.0`` (choices: ns-2's duplex-link has
      no default), ``buffer_pkts=50`` [Queue limit_ 50].
    - ``aqm``: "droptail" or "red" [Queue/RED with the dumbbell's parameters, the same for
      every RED link: ``red_min_th_pkts`` / ``red_max_th_pkts`` / ``red_w_q`` None =
      ns-2.35's automatic values from that link's rate and delay (red.cc
      ``initialize_params``), ``red_max_p=0.1`` [linterm_ 10], ``red_gentle=True``,
      ``red_wait=True``, ``red_bytes=True``, ``red_mean_pkt_bytes=500``; in byte mode the
      buffer is ``buffer_pkts`` x 500 B, as the dumbbell's], or "codel" [ns-3.44
      CoDelQueueDisc: ``codel_target_ms=5``, ``codel_interval_ms=100``, the same for every
      CoDel link; the buffer ``buffer_pkts`` waiting packets, as the dumbbell's], or "pie"
      [ns-3.44 PieQueueDisc: ``pie_qdelay_ref_ms=15``, ``pie_t_update_ms=15``,
      ``pie_max_burst_ms=150``, ``pie_alpha=0.125``, ``pie_beta=1.25``, the same for every
      PIE link; the buffer ``buffer_pkts`` waiting packets, as the dumbbell's], or
      "fq_codel" [ns-3.44 FqCoDelQueueDisc with its defaults (Flows 1024, Quantum 1500,
      DropBatchSize 64) and the CoDel times above; the buffer ``buffer_pkts`` waiting packets
      over all flow queues].
    - Each host's access link (sender to its first router) and egress link (last router to
      receiver): ``access_delay_ms=20`` one way each (a choice: with one 10-ms link the round
      trip is the dumbbell's 100 ms), ``access_bps=100e6``, ``access_buffer_pkts=50`` [Queue
      limit_ 50]; one per flow.

    Round trips (propagation, ms) follow from the chain: a long flow's is 2 (2 x
    access_delay_ms + the sum of every link's delay), link k's cross flows' 2 (2 x
    access_delay_ms + link k's delay); with the defaults and 3 links, 140 and 100 ms. The ACK
    path takes half of it (as the dumbbell's).

    Run: ``duration_s=100``, ``warmup_s=20`` (choices), ``tie_break="random"``;
    ``queue_delay_hist=False`` (true: every link's histogram of waits, as the dumbbell's);
    ``slot_s=None`` (the engine's slot, as the dumbbell's: one data packet's time at the
    fastest rate, ``access_bps`` when it is faster than the links; benchmarks/ns2/parking_lot/
    README.md measures it and the links' packet time against ns-2.35).

    ``params`` (grid columns): ``n_flows`` (all flows), ``rtt_long_ms`` (a long flow's round
    trip), ``rtt_cross_mean_ms`` (the cross flows' mean; None without cross flows) and
    ``rtt_mean_ms`` (all flows' mean).
    """
    k = as_int(plain(n_links))
    check(is_int(k) and 1 <= k <= MAX_ROUTE_LINKS, "n_links", k,
          f"an integer in 1..{MAX_ROUTE_LINKS} (bottlenecks in the chain; a long flow's route "
          f"holds at most {MAX_ROUTE_LINKS} links)")
    n_l, n_c = as_int(plain(n_long)), as_int(plain(n_cross))
    check_count("n_long", n_l, 0, MAX_FLOWS, "TCP flows per scenario")
    check_count("n_cross", n_c, 0, MAX_FLOWS, "TCP flows per scenario")
    n = n_l + k * n_c
    check(n >= 1, "n_long", n_l, "an integer >= 1 when n_cross is 0 (no flow at all)")
    check_count("n_long", n, 1, MAX_FLOWS, "TCP flows per scenario (n_long + n_links x n_cross)")
    seed = as_int(plain(seed))
    check(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    rates = _per_link("bottleneck_bps", bottleneck_bps, k, _rate, "a number > 0")
    delays = _per_link("bottleneck_delay_ms", bottleneck_delay_ms, k, _delay, "a number >= 0")
    bufs = _per_link("buffer_pkts", buffer_pkts, k, _buffer, "an integer in 1..1073741822")
    aqms = _per_link("aqm", aqm, k, _aqm, "'droptail', 'red', 'codel', 'pie' or 'fq_codel'")
    acc = as_float(plain(access_delay_ms))
    check_nonneg("access_delay_ms", acc)
    access = as_float(plain(access_bps))
    check_positive("access_bps", access)
    spread = as_float(plain(start_spread_s))
    check_nonneg("start_spread_s", spread)
    duration = as_float(plain(duration_s))
    check_positive("duration_s", duration)
    spread = min(spread, duration / 2.0)  # as the dumbbell: starts in the run's first half
    variant = _variant("tcp", tcp)
    cc = _choice("congestion_control", congestion_control, CONGESTION_CONTROLS)
    cubic = cubic_options([cc], locals())
    dack = _flag("delayed_ack", delayed_ack)
    flags = {f: _flag(f, v) for f, v in (("limited_transmit", limited_transmit),
                                         ("reno_bugfix", reno_bugfix), ("syn", syn),
                                         ("delay_growth", delay_growth))}
    w_q = None if red_w_q is None else as_float(plain(red_w_q))
    if w_q is not None:
        check_number("red_w_q", w_q, lambda x: 0 < x <= 1,
                     "None (ns-2.35's automatic q_weight) or a number in (0, 1]")
    seg, hdr = as_int(plain(segment_bytes)), as_int(plain(header_bytes))
    wire = seg + hdr if is_int(seg) and is_int(hdr) else None

    # --- the links: each its own queue, RED configured from its own rate and delay ---
    links = []
    for j in range(k):
        if aqms[j] == "droptail":
            q = dict(limit_pkts=bufs[j])
        elif aqms[j] == "codel":
            q = codel_class(bufs[j], codel_target_ms, codel_interval_ms)
        elif aqms[j] == "fq_codel":  # ns-3.44 FqCoDelQueueDisc's defaults (docs/model.md)
            q = fq_codel_class(bufs[j], codel_target_ms, codel_interval_ms)
        elif aqms[j] == "pie":
            q = pie_class(bufs[j], **dict(pie_qdelay_ref_ms=pie_qdelay_ref_ms, pie_t_update_ms=pie_t_update_ms,
                                               pie_max_burst_ms=pie_max_burst_ms, pie_alpha=pie_alpha, pie_beta=pie_beta))
        else:
            q, _ = red_class(rates[j], delays[j], bufs[j], wire, red_min_th_pkts,
                             red_max_th_pkts, red_max_p, w_q, red_gentle, red_wait, red_bytes,
                             red_mean_pkt_bytes)
        with renamed_errors({"QueueClass.red_w_q": "red_w_q"}):
            links.append(Link(rate_bps=rates[j], prop_delay_ms=delays[j],
                              classes=(QueueClass("be", **q),), scheduler="priority"))

    # --- the flows: one checked template per route, copied with each flow's delays ---
    starts = (np.random.default_rng([seed, _START_STREAM]).uniform(0.0, spread, n).tolist()
              if spread > 0 else [0.0] * n)
    renames = {f"TcpFlow.{f}": f for f in (
        "segment_bytes", "header_bytes", "max_window_pkts", "init_window_pkts",
        "send_jitter_s", "access_buffer_pkts", *CUBIC_OPTIONS)}
    renames["TcpFlow.access_rate_bps"] = "access_bps"
    routes = [(tuple(range(k)), sum(delays))] * n_l
    for j in range(k):
        routes += [((j,), delays[j])] * n_c
    templates: dict = {}
    flows = []
    with renamed_errors(renames):
        for i, (route, chain_ms) in enumerate(routes):
            tmpl = templates.get(route)
            if tmpl is None:
                tmpl = templates[route] = TcpFlow(
                    route=route, cls="be", variant=variant, segment_bytes=seg,
                    header_bytes=hdr, max_window_pkts=max_window_pkts,
                    init_window_pkts=init_window_pkts, access_rate_bps=access,
                    access_buffer_pkts=access_buffer_pkts, delayed_ack=dack,
                    send_jitter_s=send_jitter_s, congestion_control=cc,
                    **(cubic if cc == "cubic" else {}), **flags)
            # the ACK path is half the round trip: sender, chain and receiver once more
            flows.append(_copy(tmpl, access_delay_ms=acc, egress_delay_ms=acc,
                               reverse_delay_ms=2.0 * acc + chain_ms, start_s=float(starts[i])))

    rtts = [2.0 * (2.0 * acc + chain_ms) for _, chain_ms in routes]
    params = {"n_flows": n,
              "rtt_long_ms": 2.0 * (2.0 * acc + sum(delays)),
              "rtt_cross_mean_ms": sum(rtts[n_l:]) / (n - n_l) if n > n_l else None,
              "rtt_mean_ms": sum(rtts) / n}
    with renamed_errors({f"links[{j}].classes[0].limit_bytes": "red_mean_pkt_bytes"
                         for j in range(k)}):
        return Scenario(links=tuple(links), flows=tuple(flows), duration_s=duration,
                        warmup_s=warmup_s, tcp_tick_s=tcp_tick_s, min_rto_s=min_rto_s,
                        max_rto_s=max_rto_s, init_rto_s=init_rto_s, tie_break=tie_break,
                        queue_delay_hist=_flag("queue_delay_hist", queue_delay_hist),
                        slot_s=_slot(slot_s), params=params)


parking_lot.seed_matters = _seed_matters
