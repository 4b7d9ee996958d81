"""pack: a list of Scenarios -> the flat arrays of one engine batch (cuda/batch.h).

Every delay and rate is converted to slots here, once; the rounding error of the delays is
returned so that the results can report it (DESIGN: Time).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import ConfigError
from .scenario import Scenario

MAX_HOPS = 4
MAX_CLASSES = 4
MAX_INJECTED_DROPS = 8
UNLIMITED_CLASS_PKTS = 256  # ring size of an unlimited (priority) class; overflow is an error
DELACK_S = 0.1  # ns-2 DelAckSink interval_

_DTYPES = {
    "seed": np.uint64, "n_flows": np.int32, "n_links": np.int32, "n_sources": np.int32,
    "end_slot": np.int64, "warmup_slot": np.int64, "interval_slots": np.int64,
    "tie_break": np.uint8, "tick_slots": np.float64, "min_rto_slots": np.float64,
    "max_rto_slots": np.float64, "init_rto_slots": np.float64, "delack_slots": np.int32,
    "link_bytes_per_slot": np.float64, "link_prop_slots": np.int32,
    "link_loss_prob": np.float64, "link_sched": np.uint8, "link_n_classes": np.int32,
    "class_limit": np.int64, "class_limit_kind": np.uint8, "class_weight": np.int32,
    "flow_variant": np.uint8, "flow_cls": np.uint8, "flow_n_hops": np.uint8,
    "flow_route": np.int8, "flow_wire_bytes": np.int32, "flow_payload_bytes": np.int32,
    "flow_max_window": np.int32, "flow_init_window": np.int32, "flow_init_ssthresh": np.int32, "flow_loop_slots": np.int32,
    "flow_pace_bytes_per_slot": np.float64, "flow_access_limit": np.int32, "flow_start_slot": np.int64,
    "flow_size_pkts": np.int64, "flow_delack": np.uint8, "flow_bugfix": np.uint8,
    "flow_drop_seq": np.int32, "src_cls": np.uint8, "src_n_hops": np.uint8,
    "src_route": np.int8, "src_pkt_bytes": np.int32, "src_peak_bytes_per_slot": np.float64,
    "src_t_on_slots": np.float64, "src_t_off_slots": np.float64,
}


@dataclass
class Packed:
    """One batch: the shape, the input arrays, and per-replica facts the results need."""

    shape: dict
    arrays: dict
    slot_s: np.ndarray  # [R] slot length, seconds
    delay_rounding_ms: np.ndarray  # [R] worst |rounded - exact| round-trip delay over flows


def default_slot_s(sc: Scenario) -> float:
    """One TCP data packet's transmission time on the fastest link (DESIGN: Time)."""
    if sc.slot_s is not None:
        return float(sc.slot_s)
    fastest = max(link.rate_bps for link in sc.links)
    wire = [f.segment_bytes + f.header_bytes for f in sc.flows] or [s.pkt_bytes for s in sc.sources]
    return max(wire) * 8.0 / fastest


def _slots(seconds: float, slot_s: float) -> int:
    return int(round(seconds / slot_s))


def shape_key(sc: Scenario) -> tuple:
    """Replicas with the same key pack into one batch without padding waste."""
    return (len(sc.flows), len(sc.links), len(sc.sources))


def pack(scenarios: list[Scenario], seeds: list[int], lanes: int = 1) -> Packed:
    if len(scenarios) != len(seeds):
        raise ValueError("pack: one seed per scenario")
    R = len(scenarios)
    F = max(1, max((len(s.flows) for s in scenarios), default=1))
    L = max(len(s.links) for s in scenarios)
    S = max(1, max((len(s.sources) for s in scenarios), default=1))
    slot = np.array([default_slot_s(s) for s in scenarios])
    end = np.array([_slots(s.duration_s, sl) for s, sl in zip(scenarios, slot)], dtype=np.int64)
    if end.max(initial=0) >= 2**32 - 2:
        raise ConfigError(f"duration_s: {scenarios[int(end.argmax())].duration_s!r} is not allowed "
                          f"(expected fewer than 2^32 slots; use a coarser slot_s)")
    iv = np.array([_slots(s.interval_s, sl) if s.interval_s else 0
                   for s, sl in zip(scenarios, slot)], dtype=np.int64)
    I = max(1, max((int(math.ceil(e / i)) for e, i in zip(end, iv) if i > 0), default=1))

    a = {name: None for name in _DTYPES}
    dims = {"R": (R,), "RL": (R, L), "RLC": (R, L, MAX_CLASSES), "RF": (R, F),
            "RFH": (R, F, MAX_HOPS), "RFD": (R, F, MAX_INJECTED_DROPS), "RS": (R, S),
            "RSH": (R, S, MAX_HOPS)}
    fields = {
        "R": ["seed", "n_flows", "n_links", "n_sources", "end_slot", "warmup_slot",
              "interval_slots", "tie_break", "tick_slots", "min_rto_slots", "max_rto_slots",
              "init_rto_slots", "delack_slots"],
        "RL": ["link_bytes_per_slot", "link_prop_slots", "link_loss_prob", "link_sched",
               "link_n_classes"],
        "RLC": ["class_limit", "class_limit_kind", "class_weight"],
        "RF": ["flow_variant", "flow_cls", "flow_n_hops", "flow_wire_bytes",
               "flow_payload_bytes", "flow_max_window", "flow_init_window", "flow_init_ssthresh", "flow_loop_slots",
               "flow_pace_bytes_per_slot", "flow_access_limit", "flow_start_slot", "flow_size_pkts", "flow_delack",
               "flow_bugfix"],
        "RFH": ["flow_route"], "RFD": ["flow_drop_seq"],
        "RS": ["src_cls", "src_n_hops", "src_pkt_bytes", "src_peak_bytes_per_slot",
               "src_t_on_slots", "src_t_off_slots"],
        "RSH": ["src_route"],
    }
    for dim, names in fields.items():
        for n in names:
            a[n] = np.zeros(dims[dim], dtype=_DTYPES[n])
    a["class_weight"][:] = 1
    a["class_limit_kind"][:] = 2
    a["flow_drop_seq"][:] = -1
    a["flow_size_pkts"][:] = -1
    a["flow_route"][:] = -1
    a["src_route"][:] = -1
    a["flow_n_hops"][:] = 1
    a["src_n_hops"][:] = 1
    a["flow_max_window"][:] = 1
    a["flow_init_window"][:] = 1
    a["flow_loop_slots"][:] = 1
    a["flow_wire_bytes"][:] = 1
    a["src_pkt_bytes"][:] = 1
    a["link_n_classes"][:] = 1

    queue_need, ack_need, delay_need, stage_need, nic_need, emit_need = 1, 1, 1, 1, 1, 1
    rounding = np.zeros(R)
    for r, (sc, seed) in enumerate(zip(scenarios, seeds)):
        stage_r, per_flow_max, lookahead = 1, 1, None
        sl = float(slot[r])
        a["seed"][r] = np.uint64(seed)
        a["n_flows"][r], a["n_links"][r], a["n_sources"][r] = len(sc.flows), len(sc.links), len(sc.sources)
        a["end_slot"][r] = end[r]
        a["warmup_slot"][r] = _slots(sc.warmup_s, sl)
        a["interval_slots"][r] = iv[r]
        a["tie_break"][r] = 0 if sc.tie_break == "random" else 1
        a["tick_slots"][r] = sc.tcp_tick_s / sl
        a["min_rto_slots"][r] = sc.min_rto_s / sl
        a["max_rto_slots"][r] = sc.max_rto_s / sl
        a["init_rto_slots"][r] = sc.init_rto_s / sl
        a["delack_slots"][r] = max(1, _slots(DELACK_S, sl))
        max_dep_per_slot, sustained = 1, 1
        max_loop = max([1] + [_slots((sc.links[fl.route[-1]].prop_delay_ms + fl.egress_delay_ms
                                      + fl.reverse_delay_ms + fl.access_delay_ms) / 1e3, sl)
                              for fl in sc.flows])
        acks_r = len(sc.flows) + 8  # delayed ACKs held back, plus slack
        for l, link in enumerate(sc.links):
            per_slot = link.rate_bps * sl / 8.0
            a["link_bytes_per_slot"][r, l] = per_slot
            a["link_prop_slots"][r, l] = _slots(link.prop_delay_ms / 1e3, sl)
            a["link_loss_prob"][r, l] = link.loss_prob
            a["link_sched"][r, l] = 0 if link.scheduler == "priority" else 1
            a["link_n_classes"][r, l] = len(link.classes)
            min_pkt = _min_packet_on(sc, l)
            # Departures per slot: the credit is at most one slot plus the leftover of one
            # packet; in the long run at most rate/min_packet per slot.
            deps = int(math.ceil((per_slot + _max_packet_on(sc, l)) / min_pkt)) + 1
            max_dep_per_slot = max(max_dep_per_slot, deps)
            sustained = max(sustained, int(math.ceil(per_slot / min_pkt)))
            # ACKs generated while the oldest one in flight waits (one loop delay): one per
            # departure, and a link sends at most its credit's worth of minimum-size packets.
            acks_r += int(math.ceil(((max_loop + 2) * per_slot + _max_packet_on(sc, l)) / min_pkt)) + 1
            delay_need = max(delay_need, (a["link_prop_slots"][r, l] + 2) * deps)
            for c, qc in enumerate(link.classes):
                a["class_weight"][r, l, c] = qc.weight
                if qc.limit_pkts is not None:
                    a["class_limit"][r, l, c], a["class_limit_kind"][r, l, c] = qc.limit_pkts, 0
                    queue_need = max(queue_need, qc.limit_pkts)
                elif qc.limit_bytes is not None:
                    a["class_limit"][r, l, c], a["class_limit_kind"][r, l, c] = qc.limit_bytes, 1
                    queue_need = max(queue_need, qc.limit_bytes // min_pkt + 1)
                else:
                    queue_need = max(queue_need, UNLIMITED_CLASS_PKTS)
        worst = 0.0
        for f, fl in enumerate(sc.flows):
            route = list(fl.route)
            cls = _class_index(sc, route, fl.cls, f"flows[{f}].cls")
            a["flow_variant"][r, f] = 0 if fl.variant == "reno" else 1
            a["flow_cls"][r, f] = cls
            a["flow_n_hops"][r, f] = len(route)
            a["flow_route"][r, f, :len(route)] = route
            a["flow_wire_bytes"][r, f] = fl.segment_bytes + fl.header_bytes
            a["flow_payload_bytes"][r, f] = fl.segment_bytes
            a["flow_max_window"][r, f] = fl.max_window_pkts
            a["flow_init_window"][r, f] = fl.init_window_pkts
            a["flow_init_ssthresh"][r, f] = fl.init_ssthresh_pkts or 0
            # Constant delays after the last link (and the access delay, by shifting the
            # sender's clock) fold into the ACK's flight time (docs/model.md, "Delays").
            last = sc.links[route[-1]]
            loop_s = (last.prop_delay_ms + fl.egress_delay_ms + fl.reverse_delay_ms
                      + fl.access_delay_ms) / 1e3
            loop = max(1, _slots(loop_s, sl))
            a["flow_loop_slots"][r, f] = loop
            hops = sum(int(a["link_prop_slots"][r, l]) for l in route[:-1])
            exact_ms = sc.flow_rtp_ms(f)
            worst = max(worst, abs((loop + hops) * sl * 1e3 - exact_ms))
            rate = sc.links[route[0]].rate_bps if fl.access_rate_bps is None else fl.access_rate_bps
            a["flow_pace_bytes_per_slot"][r, f] = rate * sl / 8.0
            a["flow_access_limit"][r, f] = fl.access_buffer_pkts or 0
            a["flow_start_slot"][r, f] = _slots(fl.start_s, sl)
            a["flow_size_pkts"][r, f] = -1 if fl.size_pkts is None else fl.size_pkts
            a["flow_delack"][r, f] = int(fl.delayed_ack)
            # NewReno is always "careful" (RFC 6582 section 4.1); Reno's is a choice.
            a["flow_bugfix"][r, f] = 1 if fl.variant == "newreno" else int(fl.reno_bugfix)
            a["flow_drop_seq"][r, f, :len(fl.drop_seqs)] = fl.drop_seqs  # <= 8: TcpFlow checks
            # Access FIFO: its buffer, or (unlimited) a window plus a go-back-N window.
            nic_need = max(nic_need, fl.access_buffer_pkts or 2 * fl.max_window_pkts + 16)
            pace = a["flow_pace_bytes_per_slot"][r, f]
            per_flow = 2 * fl.max_window_pkts + 16 if pace <= 0 else int(math.ceil(pace / (fl.segment_bytes + fl.header_bytes))) + 1
            stage_r += per_flow
            per_flow_max = max(per_flow_max, per_flow)
            lookahead = loop if lookahead is None else min(lookahead, loop)
        rounding[r] = worst
        for s, src in enumerate(sc.sources):
            route = list(src.route)
            a["src_cls"][r, s] = _class_index(sc, route, src.cls, f"sources[{s}].cls")
            a["src_n_hops"][r, s] = len(route)
            a["src_route"][r, s, :len(route)] = route
            a["src_pkt_bytes"][r, s] = src.pkt_bytes
            peak = src.peak_bps * sl / 8.0
            a["src_peak_bytes_per_slot"][r, s] = peak
            a["src_t_on_slots"][r, s] = src.t_on_ms / 1e3 / sl
            a["src_t_off_slots"][r, s] = src.t_off_ms / 1e3 / sl
            stage_r += int(math.ceil(peak / src.pkt_bytes)) + 2
        stage_r += len(sc.links) * max_dep_per_slot
        ack_need = max(ack_need, acks_r)
        # One replica's arrivals in one slot: a per-replica maximum, never a batch sum.
        stage_need = max(stage_need, stage_r)
        # A lane's emission ring: every packet its flows can hand over in one slot plus one
        # event's worth (so a lane can always move), and room for a lookahead window at the
        # bottleneck's rate so that rounds are rarely cut short (engine/flow_side.h).
        flows_per_lane = -(-len(sc.flows) // lanes)
        emit_need = max(emit_need, (flows_per_lane + 1) * per_flow_max,
                        2 * (lookahead or 1) * sustained + per_flow_max)

    shape = {
        "n_replicas": R, "max_flows": F, "max_links": L, "max_sources": S, "max_intervals": I,
        "queue_cap": _pow2(queue_need + 1), "ack_cap": _pow2(ack_need),
        "delay_cap": _pow2(delay_need), "stage_cap": int(stage_need),
        "nic_cap": _pow2(nic_need), "lanes": int(lanes), "emit_cap": _pow2(emit_need),
    }
    return Packed(shape=shape, arrays=a, slot_s=slot, delay_rounding_ms=rounding)


def _pow2(n: int) -> int:
    return 1 << max(0, int(n - 1).bit_length())


def _min_packet_on(sc: Scenario, link: int) -> int:
    sizes = [f.segment_bytes + f.header_bytes for f in sc.flows if link in f.route]
    sizes += [s.pkt_bytes for s in sc.sources if link in s.route]
    return max(1, min(sizes, default=1500))


def _max_packet_on(sc: Scenario, link: int) -> int:
    sizes = [f.segment_bytes + f.header_bytes for f in sc.flows if link in f.route]
    sizes += [s.pkt_bytes for s in sc.sources if link in s.route]
    return max(sizes, default=1500)


def _class_index(sc: Scenario, route, name: str, path: str) -> int:
    """The engine gives a packet one class index for its whole route."""
    idx = {sc.links[l].class_index(name) for l in route}
    if len(idx) != 1 or None in idx:
        raise ConfigError(f"{path}: {name!r} is not allowed (expected a class at the same "
                          f"position on every link of the route {tuple(route)})")
    return int(idx.pop())
