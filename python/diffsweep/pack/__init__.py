"""pack: a list of Scenarios -> the flat arrays of one engine batch (cuda/batch.h).

One packer per model fills its rows (``links`` with their queue disciplines, ``flows``,
``sources``, ``markers``, ``traffic``: generators and the pools of flow slots their transfers
use); this module assembles the batch and sizes the engine's
capacities, each from what one replica can hold, never from the batch. Every delay and
rate is converted to slots here, once; the rounding error of the delays is returned so
that the results can report it (DESIGN: Time). Dtypes and dimensions come from the compiled
engine (``layout``), so ``cuda/batch.h`` is their only definition.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError
from ..scenario import Scenario
from .flows import DELACK_S, delack_slots, flow_rows
from .layout import layout
from .links import UNLIMITED_CLASS_PKTS, acks_in_flight, link_rows
from .markers import marker_rows
from .traffic import pool_flows, traffic_rows
from .sources import source_rows

__all__ = ["DELACK_S", "Packed", "UNLIMITED_CLASS_PKTS", "default_slot_s", "layout", "pack",
           "shape_key"]


@dataclass
class Packed:
    """One batch: the shape, the input arrays, and per-replica facts the results need."""

    shape: dict
    arrays: dict
    slot_s: np.ndarray  # [R] slot length, seconds
    delay_rounding_ms: np.ndarray  # [R] worst |rounded - exact| round-trip delay over flows
    nic_pool: str = "compact"      # how the access-link pools were sized (pack's nic_pool)


def default_slot_s(sc: Scenario) -> float:
    """One TCP data packet's transmission time on the fastest link (DESIGN: Time)."""
    if sc.slot_s is not None:
        return float(sc.slot_s)
    fastest = max(link.rate_bps for link in sc.links)
    wire = ([f.segment_bytes + f.header_bytes for f in sc.flows]
            + [t.flow.segment_bytes + t.flow.header_bytes for t in sc.traffic]
            or [s.pkt_bytes for s in sc.sources])
    return max(wire) * 8.0 / fastest


def trace_samples(sc: Scenario) -> int:
    """Samples of the cwnd trace: at 0, trace_interval_s, ... up to duration_s (0: no trace)."""
    if not sc.trace_flows:
        return 0
    return int(math.floor(sc.duration_s / sc.trace_interval_s + 1e-9)) + 1


def _slots(seconds: float, slot_s: float) -> int:
    return int(round(seconds / slot_s))


def shape_key(sc: Scenario) -> tuple:
    """Replicas with the same key go into one batch (one launch): flows rounded up to a power
    of two, so that a sweep over N = 8..128 flows is a handful of launches rather than one per
    N, at most half of a batch's flow rows being padding; links and sources exactly."""
    n = sc.engine_flows  # pool slots are flows to the engine
    return (1 << max(0, n - 1).bit_length() if n else 0, len(sc.links), len(sc.sources))


@dataclass
class _Rows:
    """Everything of one scenario except its seed: computed once per distinct scenario."""

    scalars: dict
    links: object
    flows: object
    sources: dict
    markers: dict     # RM rows
    sender: dict      # flow_/src_ marker and colour rows
    gens: dict        # RG / RGZ rows
    records: int      # transfer records one replica keeps
    sessions: int     # web sessions
    slot_s: float
    stage: int        # arrivals at links in one slot
    acks: int         # ACKs in flight
    per_slot: np.ndarray
    lookahead: int
    sustained: int


def _scenario_rows(sc: Scenario) -> _Rows:
    lay = layout()
    sl = default_slot_s(sc)
    end = _slots(sc.duration_s, sl)
    if end > lay.limits["max_slots"]:
        raise ConfigError(f"duration_s: {sc.duration_s!r} is not allowed (expected fewer than "
                          f"2^32 slots of {sl:.3g} s, i.e. at most {lay.limits['max_slots'] * sl:.4g} s)")
    scalars = {
        "n_flows": sc.engine_flows, "n_links": len(sc.links),
        "n_sources": len(sc.sources), "n_markers": len(sc.markers), "n_gens": len(sc.traffic),
        "end_slot": end, "warmup_slot": _slots(sc.warmup_s, sl),
        "interval_slots": _slots(sc.interval_s, sl) if sc.interval_s else 0,
        "tie_break": lay.enums["tie_break"][sc.tie_break],
        "tick_slots": sc.tcp_tick_s / sl, "min_rto_slots": sc.min_rto_s / sl,
        "max_rto_slots": sc.max_rto_s / sl, "init_rto_slots": sc.init_rto_s / sl,
        "delack_slots": delack_slots(sl),
        "trace_interval_slots": (sc.trace_interval_s or 0.0) / sl,
        "trace_samples": trace_samples(sc),
    }
    links = link_rows(sc, sl)
    slots, flow_gen, first = pool_flows(sc)
    flows = flow_rows(sc, sl, links, slots)
    flows.rows["flow_gen"] = flow_gen
    trace = np.full(len(slots), -1, dtype=np.int64)
    trace[list(sc.trace_flows)] = np.arange(len(sc.trace_flows))
    flows.rows["flow_trace"] = trace
    sources, src_burst = source_rows(sc, sl)
    mk = marker_rows(sc, sl, slots, first)
    gens, records, sessions = traffic_rows(sc, sl, first)
    max_loop = int(flows.loop_slots.max(initial=1))
    stage = 1 + int(flows.per_slot.sum()) + src_burst + len(sc.links) * links.max_dep_per_slot
    return _Rows(scalars, links, flows, sources, mk["markers"], mk["sender"], gens, records,
                 sessions, sl, stage,
                 acks_in_flight(links, max_loop, len(slots)), flows.per_slot,
                 int(flows.loop_slots.min()) if len(slots) else 1, links.sustained)


def pack(scenarios: list[Scenario], seeds: list[int], lanes: int = 1,
         nic_pool: str = "compact") -> Packed:
    """The batch of ``scenarios`` (one replica each, with its seed), for teams of ``lanes``.
    ``nic_pool``: "compact" sizes each lane's access-link pool from what its flows hold at once
    in practice (a replica that runs out is rerun with "full" by ``engine.simulate``), "full"
    from every flow's access buffer (it cannot run out)."""
    if nic_pool not in NIC_POOLS:
        raise ValueError(f"pack: nic_pool={nic_pool!r} is not allowed (expected one of {NIC_POOLS})")
    if len(scenarios) != len(seeds):
        raise ValueError("pack: one seed per scenario")
    lay = layout()
    R = len(scenarios)
    # A scenario object used by several replicas (seeds of one point) is packed once.
    index: dict[int, int] = {}
    uniq: list[_Rows] = []
    which = np.empty(R, dtype=np.int64)
    for r, sc in enumerate(scenarios):
        k = index.get(id(sc))
        if k is None:
            k = index[id(sc)] = len(uniq)
            uniq.append(_scenario_rows(sc))
        which[r] = k
    F = max(1, max((u.scalars["n_flows"] for u in uniq), default=1))
    L = max(u.scalars["n_links"] for u in uniq)
    S = max(1, max((u.scalars["n_sources"] for u in uniq), default=1))
    ends = np.array([u.scalars["end_slot"] for u in uniq], dtype=np.int64)
    ivs = np.array([u.scalars["interval_slots"] for u in uniq], dtype=np.int64)
    I = max(1, max((int(math.ceil(e / i)) for e, i in zip(ends, ivs) if i > 0), default=1))

    M = max(1, max(u.scalars["n_markers"] for u in uniq))
    G = max(1, max(u.scalars["n_gens"] for u in uniq))
    T = max(u.records for u in uniq)
    W = max(u.sessions for u in uniq)
    X = max(1, max(u.scalars["trace_samples"] for u in uniq))
    shape = {"n_replicas": R, "max_flows": F, "max_links": L, "max_sources": S, "max_intervals": I,
             "max_markers": M, "max_gens": G, "max_transfers": T, "max_sessions": W,
             "max_trace_samples": X}
    a = {name: lay.zeros(name, shape) for name in lay.inputs}
    # Padding rows (flows, links, sources a replica does not use) hold harmless values.
    for name, v in (("class_weight", 1), ("class_limit_kind", lay.enums["limit_kind"]["none"]),
                    ("flow_drop_seq", -1), ("flow_size_pkts", -1), ("flow_route", -1),
                    ("flow_route2", -1),
                    ("src_route", -1), ("flow_n_hops", 1), ("src_n_hops", 1),
                    ("flow_max_window", 1), ("flow_init_window", 1), ("flow_loop_slots", 1),
                    ("flow_wire_bytes", 1), ("src_pkt_bytes", 1), ("link_n_classes", 1),
                    ("flow_marker", -1), ("flow_marker2", -1), ("src_marker", -1), ("flow_trace", -1),
                    ("marker_link", -1),
                    ("flow_gen", -1), ("gen_size_n", 1), ("gen_pool", 1)):
        a[name][:] = v
    a["seed"][:] = np.asarray(seeds, dtype=np.uint64)
    for name in uniq[0].scalars:
        a[name][:] = np.array([u.scalars[name] for u in uniq])[which]
    for k, u in enumerate(uniq):
        rs = np.nonzero(which == k)[0]
        for rows, n in ((u.links.rows, u.scalars["n_links"]), (u.flows.rows, u.scalars["n_flows"]),
                        (u.sources, u.scalars["n_sources"]), (u.markers, u.scalars["n_markers"]),
                        (u.gens, u.scalars["n_gens"])):
            if n == 0:
                continue
            for name, v in rows.items():
                a[name][rs, :n] = v
        for name, v in u.sender.items():
            if len(v):
                a[name][rs, :len(v)] = v

    # Capacities: each the largest one replica needs (engine/replica.h).
    def most(f) -> int:
        return max(int(f(u)) for u in uniq)

    ring_classes = int(max(1, max(int(np.max(u.links.rows["link_n_classes"], initial=1))
                                  for u in uniq)))
    emit = 1
    for u in uniq:
        # A lane's emission ring: every packet its flows can hand over in one slot plus one
        # event's worth (so a lane can always move), and room for two lookahead windows at
        # the bottleneck's rate so that rounds are rarely cut short (engine/flow_side.h). A
        # lane of a team holds twice its flows' fair share of that: all 16 lanes of a 64-flow
        # team at the full rate were 80 of its 164 KiB. A fuller lane only ends a round
        # early (bit-identical: tests/test_engine_golden.py, small emission rings).
        worst = int(u.per_slot.max(initial=1))
        n_flows = max(1, u.scalars["n_flows"])
        per_lane = -(-n_flows // lanes)
        share = min(1.0, 2.0 * per_lane / n_flows)
        emit = max(emit, (per_lane + 1) * worst,
                   int(math.ceil(2 * u.lookahead * u.sustained * share)) + worst)
    shape.update({
        # class rings only for the classes a link of the batch has, each as large as its
        # class needs on any link of any replica (engine/replica.h)
        "ring_classes": ring_classes,
        "class_caps": [_pow2(max(int(u.links.class_need[c]) for u in uniq) + 1)
                       for c in range(ring_classes)],
        "ack_cap": _pow2(most(lambda u: u.acks)),
        "delay_cap": _pow2(most(lambda u: u.links.delay_need)),
        "stage_cap": most(lambda u: u.stage),
        "nic_chunks": nic_pool_chunks(uniq, F, lanes, nic_pool),
        "lanes": int(lanes), "emit_cap": _pow2(emit),
        # state only some replicas need is kept only when one of the batch does (replica.h)
        "flow_ext": int(any(u.scalars["n_gens"] > 0 or
                            np.any(u.flows.rows["flow_app_iat_slots"] != 0) for u in uniq)),
        "conn_meters": int(any(np.any(u.markers.get("marker_kind", np.zeros(0)) ==
                                      lay.enums["marker_kind"]["balancing"]) for u in uniq
                               if u.scalars["n_markers"])),
        "aqm_states": int(any(np.any(u.links.rows["class_aqm"] != lay.enums["aqm"]["droptail"])
                              for u in uniq)),
    })
    slot = np.array([u.slot_s for u in uniq])[which]
    rounding = np.array([u.flows.delay_rounding_ms for u in uniq])[which]
    return Packed(shape=shape, arrays=a, slot_s=slot, delay_rounding_ms=rounding, nic_pool=nic_pool)


NIC_POOLS = ("compact", "full")
#: segments per chunk of a lane's access-link pool (cuda/model/access_link.h kNicChunkSegs)
NIC_CHUNK_SEGS = 8


def nic_pool_chunks(uniq: list, max_flows: int, lanes: int, nic_pool: str) -> int:
    """Chunks in each lane's access-link pool (engine/replica.h). Lane k owns flows
    [k*m, (k+1)*m), m = P / lanes (P: the flow tree's leaves, a power of two >= flows, lanes).
    "full": a FIFO holding n segments spans at most ceil(n/8) + 1 chunks, for every flow of
    the lane at its access buffer at once: it cannot run out.
    "compact": a chunk per flow of the lane plus one flow's whole buffer. Measured (quick
    Kaur & Vin, Habib, Matta & Guo, Lee & Jeong sweeps, teams of 1 and 16 lanes): a lane's
    most chunks in use at once is one flow's full buffer (a flow with a large share fills its
    347-packet access buffer in slow start: 45 chunks) or a chunk per flow (all 64 flows
    start together), never more than this rule; a replica that runs out anyway is rerun with
    "full" (engine.simulate), so results never depend on the choice (docs/design.md)."""
    P = _pow2(max(max_flows, lanes))
    per_lane = P // lanes
    need = max(int(u.flows.nic_need) for u in uniq)
    one_flow = -(-need // NIC_CHUNK_SEGS) + 1
    full = per_lane * one_flow
    if nic_pool == "full":
        return full
    return min(full, per_lane + one_flow)


def _pow2(n: int) -> int:
    return 1 << max(0, int(n - 1).bit_length())
