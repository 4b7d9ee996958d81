"""TCP flows -> the RF / RFH / RFD rows of one scenario (cuda/model/tcp_*.h,
access_link.h), and what they need of the engine's capacities. Per-flow values are
computed as numpy vectors over the scenario's flows, in the same floating-point order as
the scalar formulas they stand for."""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from diffsweep.core.errors import ConfigError
from diffsweep.scenario import Scenario
from diffsweep.engine.pack.layout import layout
from diffsweep.engine.pack.links import LinkRows

DELACK_S = 0.1  # ns-2 DelAckSink interval_
_CLIP = float(2**62)  # below int64's end, far above any capacity the engine takes

_ATTRS = ("segment_bytes", "header_bytes", "max_window_pkts", "init_window_pkts",
          "access_delay_ms", "egress_delay_ms", "reverse_delay_ms", "start_s", "send_jitter_s")
_get = attrgetter(*_ATTRS)
# every other attribute flow_rows reads (all hashable: flows equal in these share their rows)
_get_static = attrgetter("route", "route2", "cls", "variant", "split", "split_pkts",
                         "init_ssthresh_pkts", "size_pkts", "delayed_ack", "reno_bugfix",
                         "limited_transmit", "access_buffer_pkts", "telnet_interval_s",
                         "access_rate_bps", "drop_seqs", "syn", "delay_growth",
                         "congestion_control", "cubic_params", "ecn", "ssthresh_from",
                         "rto_restart")


@dataclass
class FlowRows:
    rows: dict                # field -> array over the scenario's flows (RFH/RFD: x hops/drops)
    delay_rounding_ms: float  # worst |rounded - exact| round-trip delay over flows
    nic_need: int             # segments an access FIFO must hold
    per_slot: np.ndarray      # [flows] most packets one flow hands to its first link per slot
    loop_slots: np.ndarray    # [flows]
    terms: "DelayTerms"       # what the delay-dependent columns add to the flows' delays
    delays: tuple             # [flows] access, egress, reverse delays (ms)
    cubic_sets: np.ndarray    # [kMaxCubicSets, kCubicParams] the CUBIC flows' parameter sets


def class_index(sc: Scenario, route, name: str, path: str) -> int:
    """The engine gives a packet one class index for its whole route (both routes of a flow
    with a second path: pass their links together)."""
    idx = {sc.links[l].class_index(name) for l in route}
    if len(idx) != 1 or None in idx:
        raise ConfigError(f"{path}: {name!r} is not allowed (expected a class at the same "
                          f"position on every link of the route {tuple(route)})")
    return int(idx.pop())


def flow_rows(sc: Scenario, slot_s: float, links: LinkRows, flows=None) -> FlowRows:
    """``flows``: every flow slot (the scenario's flows and its traffic pools; default the
    scenario's flows)."""
    lay = layout()
    H, D = lay.limits["max_hops"], lay.limits["max_injected_drops"]
    flows = sc.flows if flows is None else flows
    n = len(flows)
    variant = lay.enums["tcp_variant"]
    cc = lay.enums["congestion_control"]
    split = lay.enums["split"]
    cubic_sets: dict = {}  # a CUBIC parameter tuple -> its row of cubic_params
    # Each distinct flow object once (a builder's base lists one flow n times), then spread.
    obj: dict = {}  # id -> its row among the distinct objects
    of = np.fromiter((obj.setdefault(id(f), len(obj)) for f in flows), dtype=np.int64, count=n)
    distinct = list({id(f): f for f in flows}.values())
    v = np.array([_get(f) for f in distinct], dtype=np.float64).reshape(-1, len(_ATTRS))[of]
    seg, hdr, mw, iw, acc, egr, rev, start, jitter = (v[:, k] for k in range(len(_ATTRS)))
    wire = seg + hdr
    # Everything else once per distinct set of these attributes (flows that differ only in
    # their delays, as a builder's RTP draws make them, share one), then spread by index.
    first: dict = {}  # distinct attributes -> (their row, the first flow with them)
    static = np.empty(len(distinct), dtype=np.int64)
    for j, k in enumerate(map(_get_static, distinct)):
        hit = first.get(k)
        if hit is None:
            hit = first[k] = (len(first), int(np.argmax(of == j)))
        static[j] = hit[0]
    row = static[of]
    pad_h, pad_d = (-1,) * H, (-1,) * D
    ints, floats, routes, routes2, drops = [], [], [], [], []
    for k, (_, i) in first.items():
        (r, r2, cls, var, spl, spl_pkts, ssthresh, size, delack, bugfix, limited, access_buf,
         ti, access_rate, drop_seqs, syn, delay_growth, cong, cubic, ecn, ss_from, rto) = k
        cset = 0 if cubic is None else cubic_sets.setdefault(cubic, len(cubic_sets))
        if cset >= lay.limits["max_cubic_sets"]:
            raise ConfigError(
                f"flows[{i}].cubic_c: {cubic[0]!r} is not allowed (expected at most "
                f"{lay.limits['max_cubic_sets']} distinct sets of CUBIC parameters (cubic_*) in "
                "one scenario: the engine keeps that many per replica)")
        routes.append(r + pad_h[len(r):])
        routes2.append(r2 + pad_h[len(r2):])
        drops.append(drop_seqs + pad_d[len(drop_seqs):])  # <= 8: TcpFlow checks
        ints.append((variant[var], class_index(sc, r + r2, cls, f"flows[{i}].cls"), len(r),
                     len(r2), split[spl], spl_pkts or 0, ssthresh or 0,
                     -1 if size is None else size, int(delack),
                     1 if var == "newreno" else int(bugfix), int(limited), access_buf or 0,
                     int(syn), int(delay_growth), cc[cong], cset,
                     # flow_ecn (model/tcp_ecn.h): 2 DCTCP (ECN forced on), 1 RFC 3168, 0 off
                     2 if cong == "dctcp" else int(ecn),
                     # flow_ssthresh_flight (model/tcp_sack.h: sack_dupack_action)
                     int(ss_from == "flight"),
                     # flow_rto_new_ack (model/tcp_sender.h dupack_action, tcp_sack.h)
                     int(rto == "new_ack")))
        # > 0: exponential mean in slots; < 0: tcplib gaps, -value slots per second; 0: bulk.
        floats.append((0.0 if ti is None else ti / slot_s if ti > 0 else -1.0 / slot_s,
                       sc.links[r[0]].rate_bps if access_rate is None else access_rate))
    iv = np.array(ints, dtype=np.int64).reshape(-1, 19)[row]
    fv = np.array(floats, dtype=np.float64).reshape(-1, 2)[row]
    route = np.array(routes, dtype=np.int64).reshape(-1, H)[row]
    route2 = np.array(routes2, dtype=np.int64).reshape(-1, H)[row]
    drop_rows = np.array(drops, dtype=np.int64).reshape(-1, D)[row]
    n_hops, n_hops2 = iv[:, 2], iv[:, 3]
    last = route[np.arange(n), n_hops - 1]
    prop_ms = np.array([l.prop_delay_ms for l in sc.links])
    # (a second route no flow has adds nothing to the rounding error)
    terms = DelayTerms(prop_ms[last] if n else np.zeros(0),
                       [_route_terms(rt, nh, prop_ms, links, H) for rt, nh in ((route, n_hops),
                                                                               (route2, n_hops2))
                        if rt is route or nh.any()])
    delays = (acc, egr, rev)
    loop, base_rtt, worst = delay_columns(terms, slot_s, *delays)
    pace = fv[:, 1] * slot_s / 8.0
    access_buf = iv[:, 11]
    rows = {
        "flow_variant": iv[:, 0],
        "flow_cls": iv[:, 1],
        "flow_n_hops": n_hops,
        "flow_route": route,
        "flow_n_hops2": n_hops2,
        "flow_route2": route2,
        "flow_split": iv[:, 4],
        "flow_split_pkts": iv[:, 5],
        "flow_wire_bytes": wire,
        "flow_payload_bytes": seg,
        "flow_max_window": mw,
        "flow_init_window": iw,
        "flow_init_ssthresh": iv[:, 6],
        "flow_loop_slots": loop,
        # TCP-aware conditioners' stand-in for the smoothed RTT before its first sample
        "flow_base_rtt_slots": base_rtt,
        "flow_pace_bytes_per_slot": pace,
        "flow_access_limit": access_buf,
        "flow_start_slot": np.rint(start / slot_s).astype(np.int64),
        "flow_size_pkts": iv[:, 7],
        "flow_delack": iv[:, 8],
        # NewReno is always "careful" (RFC 6582 section 4.1); Reno's is a choice.
        "flow_bugfix": iv[:, 9],
        "flow_drop_seq": drop_rows,
        "flow_send_jitter_slots": jitter / slot_s,
        "flow_app_iat_slots": fv[:, 0],
        "flow_limited_transmit": iv[:, 10],
        "flow_syn": iv[:, 12],
        "flow_delay_growth": iv[:, 13],
        "flow_cc": iv[:, 14],
        "flow_cubic_set": iv[:, 15],
        "flow_ecn": iv[:, 16],
        "flow_ssthresh_flight": iv[:, 17],
        "flow_rto_new_ack": iv[:, 18],
    }
    # Access FIFO: its buffer, or (unlimited) a window plus a go-back-N window.
    nic = np.where(access_buf > 0, access_buf, 2 * mw + 16)
    # Packets one flow event hands over: the access link's output in one slot, or (unpaced)
    # a window plus what its ACKs retransmit (engine/team.h, emit_need).
    with np.errstate(divide="ignore", invalid="ignore"):
        paced = np.ceil(pace / wire) + 1
    # (clipped where int64 ends, so that an absurd access rate gives an absurd capacity that
    # pack refuses, not a wrapped negative one)
    per_slot = np.minimum(np.where(pace > 0, paced, 2 * mw + 16), _CLIP).astype(np.int64)
    return FlowRows(rows, float(worst), int(nic.max(initial=1)), per_slot, loop, terms, delays,
                    cubic_param_rows(cubic_sets, slot_s))


_DETECT = {"packet_train": 1, "delay": 2, "both": 3}  # cuda/model/tcp_cubic.h HystartDetect


def cubic_param_rows(sets: dict, slot_s: float) -> np.ndarray:
    """The rows of cubic_params (cuda/batch.h CubicParam) for the parameter tuples of
    ``TcpFlow.cubic_params`` (key -> row): times in seconds, the slot length last."""
    lay = layout()
    out = np.zeros((lay.limits["max_cubic_sets"], lay.limits["cubic_params"]))
    for (c, beta, fc, friendly, hystart, low, detect, samples, ack_ms, dmin_ms, dmax_ms,
         delta_ms, clamp), k in sets.items():
        out[k] = (c, beta, float(fc), float(friendly), float(hystart), low, _DETECT[detect],
                  samples, ack_ms / 1e3, dmin_ms / 1e3, dmax_ms / 1e3, delta_ms / 1e3, clamp,
                  slot_s)
    return out


@dataclass
class DelayTerms:
    """What a flow's delay-dependent columns add to its own constant delays (all but those)."""

    last_prop_ms: np.ndarray  # [flows] the last link's propagation delay
    routes: list              # (route, route2): (n_hops, sum of link delays, slots before the last link)


def _route_terms(rt, nh, prop_ms: np.ndarray, links: LinkRows, H: int):
    n = len(nh)
    hops = np.zeros(n, dtype=np.int64)   # propagation slots before the last link
    route_ms = np.zeros(n)               # sum of the route's link delays, in route order
    for h in range(H):
        on = h < nh
        if not on.any():
            break
        lk = np.where(on, rt[:, h], 0)
        route_ms = np.where(on, route_ms + prop_ms[lk], route_ms)
        hops += np.where(h < nh - 1, links.prop_slots[lk], 0)
    return nh, route_ms, hops


def delay_columns(terms: DelayTerms, slot_s: float, acc, egr, rev):
    """The columns that depend on the flows' access, egress and reverse delays (arrays over
    flows, or [scenarios, flows] for many scenarios that differ only in those): the ACK loop
    in slots, the base RTT in slots, and the worst rounding error of a round trip (ms; one
    per scenario). Element by element the same arithmetic either way."""
    # Constant delays after the last link (and the access delay, by shifting the sender's
    # clock) fold into the ACK's flight time (docs/model.md, "Delays").
    loop_s = (terms.last_prop_ms + egr + rev + acc) / 1e3
    # (clipped where int64 ends: pack refuses a loop the engine cannot hold, by its value)
    loop = np.clip(np.rint(loop_s / slot_s), 1, _CLIP).astype(np.int64)
    worst = np.zeros(np.shape(loop)[:-1])
    base_ms = None
    for nh, route_ms, hops in terms.routes:
        exact_ms = acc + route_ms + egr + rev
        if base_ms is None:
            base_ms = exact_ms  # the first route's propagation round trip
        err = np.abs((loop + hops) * slot_s * 1e3 - exact_ms)
        worst = np.maximum(worst, np.where(nh > 0, err, 0.0).max(axis=-1, initial=0.0))
    return loop, base_ms / 1e3 / slot_s, worst


def delack_slots(slot_s: float) -> int:
    return max(1, int(round(DELACK_S / slot_s)))
