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
from dataclasses import dataclass, replace

import numpy as np

from diffsweep.core.errors import ConfigError
from diffsweep.scenario import Scenario, default_slot_s
from diffsweep.scenario.checks import trace_samples_of
from diffsweep.engine.pack.flows import DELACK_S, delack_slots, delay_columns, flow_rows
from diffsweep.scenario.fq_hash import fq_queues
from diffsweep.engine.pack.layout import layout
from diffsweep.engine.pack.links import MAX_CAP, UNLIMITED_CLASS_PKTS, acks_in_flight, link_rows
from diffsweep.engine.pack.markers import TCP_AWARE, marker_rows
from diffsweep.engine.pack.traffic import pool_flows, records_needed, traffic_rows
from diffsweep.engine.pack.sources import source_rows

__all__ = ["DELACK_S", "Packed", "UNLIMITED_CLASS_PKTS", "default_slot_s", "layout", "pack",
           "replica_shape", "shape_key"]


@dataclass
class Packed:
    """One batch: the shape, the input arrays, and per-replica facts the results need."""

    shape: dict
    arrays: dict
    slot_s: np.ndarray  # [R] slot length, seconds
    delay_rounding_ms: np.ndarray  # [R] worst |rounded - exact| round-trip delay over flows
    nic_pool: str = "compact"      # how the access-link pools were sized (pack's nic_pool)


def trace_samples(sc: Scenario) -> int:
    """Samples of the cwnd trace: at 0, trace_interval_s, ... up to duration_s (0: no trace)."""
    return trace_samples_of(sc.duration_s, sc.trace_interval_s) if sc.trace_flows else 0


def qtrace_samples(sc: Scenario) -> int:
    """Samples of the queue trace: at 0, queue_trace_interval_s, ... (0: no trace)."""
    return trace_samples_of(sc.duration_s, sc.queue_trace_interval_s)


def qtrace_links(sc: Scenario) -> tuple[int, ...]:
    """The links whose class queues the queue trace samples, in column order."""
    if sc.queue_trace_interval_s is None:
        return ()
    return tuple(range(len(sc.links))) if sc.queue_trace_links is None else sc.queue_trace_links


def _slots(seconds: float, slot_s: float) -> int:
    return int(round(seconds / slot_s))


def end_slot(sc: Scenario) -> int:
    """The slots a replica of ``sc`` runs (its packed ``end_slot``), without packing it."""
    return _slots(sc.duration_s, default_slot_s(sc))


def shape_key(sc: Scenario) -> tuple:
    """Replicas with the same key go into one batch (one launch): flows rounded up to a power
    of two, so that a sweep over N = 8..128 flows is a handful of launches rather than one per
    N, at most half of a batch's flow rows being padding; links and sources exactly."""
    n = sc.engine_flows  # pool slots are flows to the engine
    return (1 << max(0, n - 1).bit_length() if n else 0, len(sc.links), len(sc.sources))


#: the dimensions of a batch that pack sizes by its largest replica (replica_shape)
SHAPE_DIMS = ("max_flows", "max_links", "max_sources", "max_intervals", "max_markers",
              "max_gens", "max_transfers", "max_sessions", "max_trace_samples", "max_traced",
              "max_qtrace_samples", "max_qtrace_links", "qdelay_bins")


def replica_shape(sc: Scenario) -> dict:
    """The dimensions (SHAPE_DIMS) of ``pack([sc], ...)``, without packing: a batch takes each
    one's largest over its replicas, so the bytes of its arrays follow from these
    (``engine.batch_bytes``). The same formulas as ``pack`` and its packers."""
    sl = default_slot_s(sc)
    end, iv = _slots(sc.duration_s, sl), _slots(sc.interval_s, sl) if sc.interval_s else 0
    return {"max_flows": max(1, sc.engine_flows), "max_links": len(sc.links),
            "max_sources": max(1, len(sc.sources)),
            "max_intervals": max(1, int(math.ceil(end / iv)) if iv > 0 else 1),
            "max_markers": max(1, len(sc.markers)), "max_gens": max(1, len(sc.traffic)),
            "max_transfers": max(1, sum(records_needed(sc, t) for t in sc.traffic)),
            "max_sessions": max(1, sum(t.sessions for t in sc.traffic if t.kind == "web")),
            "max_trace_samples": max(1, trace_samples(sc)), "max_traced": max(1, len(sc.trace_flows)),
            "max_qtrace_samples": max(1, qtrace_samples(sc)),
            "max_qtrace_links": max(1, len(qtrace_links(sc))),
            "qdelay_bins": layout().limits["qdelay_bins_on"] if sc.queue_delay_hist else 0}


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


def _scenario_rows(sc: Scenario, memo: dict | None = None) -> _Rows:
    lay = layout()
    sl = default_slot_s(sc)
    end = end_slot(sc)  # in 1..max_slots: Scenario checks (_check_slots)
    scalars = {
        "n_flows": sc.engine_flows, "n_links": len(sc.links),
        "n_sources": len(sc.sources), "n_markers": len(sc.markers), "n_gens": len(sc.traffic),
        "end_slot": end, "warmup_slot": _slots(sc.warmup_s, sl),
        "interval_slots": _slots(sc.interval_s, sl) if sc.interval_s else 0,
        "tie_break": lay.enums["tie_break"][sc.tie_break],
        "slot_ns": sl * 1e9, "qdelay_hist": int(sc.queue_delay_hist),
        "tick_slots": sc.tcp_tick_s / sl, "min_rto_slots": sc.min_rto_s / sl,
        "max_rto_slots": sc.max_rto_s / sl, "init_rto_slots": sc.init_rto_s / sl,
        "delack_slots": delack_slots(sl),
        "trace_interval_slots": (sc.trace_interval_s or 0.0) / sl,
        "trace_samples": trace_samples(sc),
        "qtrace_interval_slots": (sc.queue_trace_interval_s or 0.0) / sl,
        "qtrace_samples": qtrace_samples(sc),
    }
    # Parts that scenarios of a batch share as objects (a builder's flows, links) are packed
    # once: each memo key names every object and value its packer reads.
    memo = {} if memo is None else memo
    shared = (id(sc.links), id(sc.flows), id(sc.traffic), sl)
    key = ("links", *shared, tuple((s.route, s.pkt_bytes) for s in sc.sources))
    links = memo.get(key) or memo.setdefault(key, link_rows(sc, sl))
    slots, flow_gen, first = pool_flows(sc)
    key = ("flows", *shared)
    flows = memo.get(key) or memo.setdefault(key, flow_rows(sc, sl, links, slots))
    flows = replace(flows, rows=dict(flows.rows))  # (its own, for the keys added here)
    flows.rows["flow_gen"] = flow_gen
    scalars["cubic_params"] = flows.cubic_sets
    trace = np.full(len(slots), -1, dtype=np.int64)
    trace[list(sc.trace_flows)] = np.arange(len(sc.trace_flows))
    flows.rows["flow_trace"] = trace
    qcol = np.full(len(sc.links), -1, dtype=np.int64)  # each link's queue-trace column
    qcol[list(qtrace_links(sc))] = np.arange(len(qtrace_links(sc)))
    links = replace(links, rows={**links.rows, "link_qtrace": qcol})
    sources, src_burst = source_rows(sc, sl)
    if sc.markers:
        mk = marker_rows(sc, sl, slots, first)
    else:  # (only which senders there are, and their colours)
        key = ("markers", id(sc.flows), id(sc.traffic), tuple(s.colour for s in sc.sources))
        mk = memo.get(key) or memo.setdefault(key, marker_rows(sc, sl, slots, first))
    if sc.traffic:
        gens, records, sessions = traffic_rows(sc, sl, first)
    else:
        gens, records, sessions = memo.get("traffic") or memo.setdefault(
            "traffic", traffic_rows(sc, sl, first))
    max_loop = int(flows.loop_slots.max(initial=1))
    stage = 1 + int(flows.per_slot.sum()) + src_burst + len(sc.links) * links.max_dep_per_slot
    acks = acks_in_flight(links, max_loop, len(slots))
    lookahead = int(flows.loop_slots.min()) if len(slots) else 1

    def describe(member, i):
        f = slots[i]
        name = f"flows[{i}]" if i < sc.n_flows else f"traffic[{int(flow_gen[i])}].flow"
        return name, sc.route_rtp_ms(f), sc.after_last_link_ms(f) + f.reverse_delay_ms
    _check_loops(flows.loop_slots[None], [acks], np.array([lookahead]), links, len(slots),
                 int(flows.per_slot.max(initial=1)), sl, describe)
    if scalars["delack_slots"] > INT32_MAX:  # (only a tiny slot_s)
        raise ConfigError(f"slot_s: {sc.slot_s!r} is not allowed (expected a number >= "
                          f"{DELACK_S / INT32_MAX:.3g} s: the delayed-ACK timer, {DELACK_S} s, "
                          "is an int32 count of slots)")
    fq_flow, fq_src, scalars["fq_n_queues"] = fq_queues(sc)  # FQ-CoDel's flow queues (fq.py)
    sender = {**mk["sender"], "flow_fq_queue": fq_flow, "src_fq_queue": fq_src}
    return _Rows(scalars, links, flows, sources, mk["markers"], sender, gens, records,
                 sessions, sl, stage, acks, flows.per_slot, lookahead, links.sustained)


INT32_MAX = 2**31 - 1


def _max_loop_slots(links, n_slots: int, worst: int) -> int:
    """The longest ACK loop (slots) a replica's capacities hold: it is an int32 slot count in
    the engine, the ACKs in flight over it fill the ACK pool, and two lookahead windows of it
    at the busiest link's rate an emission ring, each at most MAX_CAP (with one lane; more
    lanes share the ring). 0: none (the links alone overflow the ACK pool)."""
    top = min(INT32_MAX, (MAX_CAP - worst) // (2 * max(1, links.sustained)))
    if top < 1 or acks_in_flight(links, 1, n_slots) > MAX_CAP:
        return 0
    lo, hi = 1, top  # acks_in_flight grows with the loop: the largest that fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if acks_in_flight(links, mid, n_slots) <= MAX_CAP:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _check_loops(loop: np.ndarray, acks, lookahead: np.ndarray, links, n_slots: int,
                 worst: int, slot_s: float, describe) -> None:
    """The flows' ACK loops ([members, flow slots], slots) fit the engine: a ConfigError
    naming the flow with the longest loop, its round-trip propagation delay (rtp_ms) and the
    longest it may have, before the capacities overflow the batch shape's int32 (a round
    trip of 2e8 ms was "Unable to cast Python instance of type <class 'int'> to C++ type").
    ``describe(member, flow slot)`` -> (name, rtp_ms, loop ms) of a flow slot."""
    most = int(loop.max(initial=1))
    if (most <= INT32_MAX and max(acks) <= MAX_CAP
            and 2 * int(lookahead.max(initial=1)) * links.sustained + worst <= MAX_CAP):
        return
    top = _max_loop_slots(links, n_slots, worst)
    if top < 1:
        return  # the loops are not the cause: pack's shape check names the capacity
    m, i = np.unravel_index(int(np.argmax(loop)), loop.shape)
    name, rtp, loop_ms = describe(int(m), int(i))
    # the loop is the round trip less the links before the last: those stay as they are
    allowed = rtp - loop_ms + top * slot_s * 1e3
    raise ConfigError(
        f"{name}: a round-trip propagation delay (rtp_ms: access + links + egress + reverse) "
        f"of {rtp:.6g} ms is not allowed (expected at most {allowed:.6g} ms: the engine holds "
        f"an ACK loop of at most {top:,} slots of {slot_s:.4g} s here, its ACKs in flight and "
        "lookahead in rings of at most 2^30)")


@dataclass
class _Family:
    """Scenarios of a batch that differ at most in their flows' delays: one ``_Rows`` for all
    of them (their base's) and, per member, the columns that depend on those delays."""

    rows: _Rows
    loop: np.ndarray       # [members, flow slots] flow_loop_slots
    base_rtt: np.ndarray   # [members, flow slots] flow_base_rtt_slots
    rounding: np.ndarray   # [members] delay_rounding_ms
    acks: list             # [members] ACKs in flight
    lookahead: np.ndarray  # [members]


def _plain_family(u: _Rows) -> _Family:
    return _Family(u, u.flows.loop_slots[None], u.flows.rows["flow_base_rtt_slots"][None],
                   np.array([u.flows.delay_rounding_ms]), [u.acks], np.array([u.lookahead]))


def _variant_family(u: _Rows, variants: list) -> _Family:
    """The delay-dependent columns of scenarios made by ``Scenario.with_flow_delays`` from the
    scenario whose rows are ``u``, all at once: the same arithmetic as ``flow_rows``, over a
    [members, flows] array (a traffic pool's slots keep the base's delays)."""
    m, own = len(variants), len(variants[0].access_delay_ms)
    full = []
    for k, d in enumerate(u.flows.delays):
        x = np.repeat(d[None], m, axis=0)
        x[:, :own] = [v[1 + k] for v in variants]
        full.append(x)
    loop, base_rtt, rounding = delay_columns(u.flows.terms, u.slot_s, *full)
    n_slots = loop.shape[1]
    most = loop.max(axis=1, initial=1).tolist()
    acks = {v: acks_in_flight(u.links, v, n_slots) for v in set(most)}
    lookahead = loop.min(axis=1) if n_slots else np.ones(m, dtype=np.int64)
    route_ms = u.flows.terms.routes[0][1]

    def describe(member, i):
        acc, egr, rev = (x[member, i] for x in full)
        gen = int(u.flows.rows["flow_gen"][i])
        name = f"flows[{i}]" if gen < 0 else f"traffic[{gen}].flow"
        return (name, float(acc + route_ms[i] + egr + rev),
                float(u.flows.terms.last_prop_ms[i] + egr + rev + acc))
    _check_loops(loop, list(acks.values()), lookahead, u.links, n_slots,
                 int(u.per_slot.max(initial=1)), u.slot_s, describe)
    return _Family(u, loop, base_rtt, rounding, [acks[v] for v in most], lookahead)


def _delays_only(v) -> bool:
    """Whether a delay variant's rows are its base's but for ``_variant_family``'s columns:
    a TCP-aware conditioner without a reference RTT takes it from the flows' delays."""
    return v is not None and not any(mk.kind in TCP_AWARE and mk.ref_rtt_s is None
                                     for mk in v.base.markers)


def pack(scenarios: list[Scenario], seeds: list[int], lanes: int = 1,
         nic_pool: str = "compact", emit_ring: str = "lookahead") -> Packed:
    """The batch of ``scenarios`` (one replica each, with its seed), for teams of ``lanes``.
    ``nic_pool``: "compact" sizes each lane's access-link pool from what its flows hold at once
    in practice (a replica that runs out is rerun with "full" by ``engine.simulate``), "full"
    from every flow's access buffer (it cannot run out). ``emit_ring``: "lookahead" sizes each
    lane's emission ring for two lookahead windows (rounds rarely cut short), "min" at the
    smallest size that still lets every lane move (rounds end early and often; the results
    are the same: tests/test_schedule.py)."""
    if nic_pool not in NIC_POOLS:
        raise ValueError(f"pack: nic_pool={nic_pool!r} is not allowed (expected one of {NIC_POOLS})")
    if emit_ring not in EMIT_RINGS:
        raise ValueError(f"pack: emit_ring={emit_ring!r} is not allowed (expected one of {EMIT_RINGS})")
    if len(scenarios) != len(seeds):
        raise ValueError("pack: one seed per scenario")
    lay = layout()
    R = len(scenarios)
    # A scenario object used by several replicas (seeds of one point) is packed once; the
    # scenarios made from one base by Scenario.with_flow_delays (a builder's RTP draws) are
    # one family: the base's rows once, and only the delay-dependent columns per scenario.
    index: dict[int, int] = {}
    which = np.empty(R, dtype=np.int64)
    distinct: list[Scenario] = []
    for r, sc in enumerate(scenarios):
        k = index.get(id(sc))
        if k is None:
            k = index[id(sc)] = len(distinct)
            distinct.append(sc)
        which[r] = k
    memo: dict = {}  # parts shared by scenarios of this batch (_scenario_rows)
    fams: list[_Family] = []
    members: list[list[int]] = []  # each family's distinct scenarios, in member order
    groups: dict[int, list[int]] = {}
    for k, sc in enumerate(distinct):
        v = sc.delay_variant
        if _delays_only(v):
            groups.setdefault(id(v.base), []).append(k)
            continue
        fams.append(_plain_family(_scenario_rows(sc, memo)))
        members.append([k])
    for ks in groups.values():
        variants = [distinct[k].delay_variant for k in ks]
        fams.append(_variant_family(_scenario_rows(variants[0].base, memo), variants))
        members.append(ks)
    unit_fam = np.empty(len(distinct), dtype=np.int64)  # distinct scenario -> its family
    for f, ks in enumerate(members):
        unit_fam[ks] = f
    uniq = [f.rows for f in fams]
    fam = unit_fam[which]  # replica -> family
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
    Q = max(1, max(int((u.flows.rows["flow_trace"] >= 0).sum()) for u in uniq))
    Y = max(1, max(u.scalars["qtrace_samples"] for u in uniq))
    N = max(1, max(int((u.links.rows["link_qtrace"] >= 0).sum()) for u in uniq))
    shape = {"n_replicas": R, "max_flows": F, "max_links": L, "max_sources": S, "max_intervals": I,
             "max_markers": M, "max_gens": G, "max_transfers": T, "max_sessions": W,
             "max_trace_samples": X, "max_traced": Q, "max_qtrace_samples": Y,
             "max_qtrace_links": N}
    a = {name: lay.zeros(name, shape) for name in lay.inputs}
    # Padding rows (flows, links, sources a replica does not use) hold harmless values.
    for name, v in (("class_weight", 1), ("class_limit_kind", lay.enums["limit_kind"]["none"]),
                    ("flow_drop_seq", -1), ("flow_size_pkts", -1), ("flow_route", -1),
                    ("flow_route2", -1),
                    ("src_route", -1), ("flow_n_hops", 1), ("src_n_hops", 1),
                    ("flow_max_window", 1), ("flow_init_window", 1), ("flow_loop_slots", 1),
                    ("flow_wire_bytes", 1), ("src_pkt_bytes", 1), ("link_n_classes", 1),
                    ("flow_marker", -1), ("flow_marker2", -1), ("src_marker", -1), ("flow_trace", -1),
                    ("marker_link", -1), ("link_qtrace", -1),
                    ("flow_gen", -1), ("gen_size_n", 1), ("gen_pool", 1)):
        a[name][:] = v
    a["seed"][:] = np.asarray(seeds, dtype=np.uint64)
    for name in uniq[0].scalars:
        a[name][:] = np.array([u.scalars[name] for u in uniq])[fam]
    # Each field's rows once per family (after a padding row), then gathered for the replicas.
    stacks: dict[str, np.ndarray] = {}

    def put(name: str, f: int, n: int, v) -> None:
        st = stacks.get(name)
        if st is None:
            st = stacks[name] = np.repeat(a[name][:1], len(uniq), axis=0)
        st[f, :n] = v

    for f, u in enumerate(uniq):
        for rows, n in ((u.links.rows, u.scalars["n_links"]), (u.flows.rows, u.scalars["n_flows"]),
                        (u.sources, u.scalars["n_sources"]), (u.markers, u.scalars["n_markers"]),
                        (u.gens, u.scalars["n_gens"])):
            if n:
                for name, v in rows.items():
                    put(name, f, n, v)
        for name, v in u.sender.items():
            if len(v):
                put(name, f, len(v), v)
    # The delay-dependent columns: per distinct scenario (its member of its family).
    per_scenario = {}
    for name, col in (("flow_loop_slots", "loop"), ("flow_base_rtt_slots", "base_rtt")):
        st = per_scenario[name] = np.repeat(a[name][:1], len(distinct), axis=0)
        for fm, ks in zip(fams, members):
            x = getattr(fm, col)
            st[ks, :x.shape[1]] = x
    for name, st in stacks.items():
        if name not in per_scenario:
            a[name][:] = st[fam]
    for name, st in per_scenario.items():
        a[name][:] = st[which]

    # Capacities: each the largest one replica needs (engine/replica.h).
    def most(f) -> int:
        return max(int(f(u)) for u in uniq)

    ring_classes = int(max(1, max(int(np.max(u.links.rows["link_n_classes"], initial=1))
                                  for u in uniq)))
    emit = 1
    for fm in fams:
        u = fm.rows
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
        emit = max(emit, (per_lane + 1) * worst)
        if emit_ring == "lookahead":
            for lookahead in set(fm.lookahead.tolist()):
                emit = max(emit, int(math.ceil(2 * int(lookahead) * u.sustained * share)) + worst)
    shape.update({
        # class rings only for the classes a link of the batch has, each as large as its
        # class needs on any link of any replica (engine/replica.h)
        "ring_classes": ring_classes,
        "class_caps": [_pow2(max(int(u.links.class_need[c]) for u in uniq) + 1)
                       for c in range(ring_classes)],
        "ack_cap": _pow2(max(int(n) for fm in fams for n in fm.acks)),
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
        # (a device queue takes the AQM's arrival path: engine/features.h)
        "aqm_states": int(any(np.any(u.links.rows["class_aqm"] != lay.enums["aqm"]["droptail"])
                              or np.any(u.links.rows["link_devq_pkts"] > 0) for u in uniq)),
        "sack_states": int(any(np.any(u.flows.rows["flow_variant"] ==
                                      lay.enums["tcp_variant"]["sack"]) for u in uniq)),
        # the receivers' out-of-order bitmap (model/tcp_receiver.h): 1024 bits up to a window
        # of 1000, wider only for a batch with a larger window (a window of W puts at most W - 1
        # segments beyond rcv_next; RX_BITMAP_SLACK keeps the margin 1024 - 1000 had)
        "rx_bits": max(RX_BITMAP_BITS, _pow2(most(lambda u: int(np.max(
            u.flows.rows["flow_max_window"], initial=1))) + RX_BITMAP_SLACK)),
        "cubic_states": int(any(np.any(u.flows.rows["flow_cc"] ==
                                       lay.enums["congestion_control"]["cubic"]) for u in uniq)),
        "ecn_states": int(any(np.any(u.flows.rows["flow_ecn"] != 0) or
                              np.any(u.links.rows["class_ecn"] != 0) for u in uniq)),
        "qdelay_bins": lay.limits["qdelay_bins_on"] if any(u.scalars["qdelay_hist"]
                                                           for u in uniq) else 0,
        "fq_queues": max(int(u.scalars["fq_n_queues"]) for u in uniq),
    })
    if nic_pool == "compact":
        # a replica whose compact pool runs out is rerun with full pools (engine.simulate):
        # refused now rather than then, after other replicas finished
        shape_full = {**shape, "nic_chunks": nic_pool_chunks(uniq, F, lanes, "full")}
        _check_shape(shape_full)
    _check_shape(shape)
    slot = np.array([u.slot_s for u in uniq])[fam]
    rounding = np.empty(len(distinct))
    for fm, ks in zip(fams, members):
        rounding[ks] = fm.rounding
    return Packed(shape=shape, arrays=a, slot_s=slot, delay_rounding_ms=rounding[which],
                  nic_pool=nic_pool)


#: what fills each capacity and count of the batch shape, for the message of _check_shape:
#: (the fields to change, what they need); the capacities are powers of two
_SHAPE_LIMITS = {
    "max_intervals": ("interval_s", "goodput intervals per flow (duration_s / interval_s)"),
    "max_transfers": ("traffic", "transfer records per replica (Traffic.max_records, or each "
                                 "generator's expected transfers)"),
    "max_sessions": ("traffic", "web sessions per replica (Traffic.sessions)"),
    "class_caps": ("links", "packets of one class queue (limit_pkts, limit_bytes)"),
    "ack_cap": ("flows", "ACKs in flight (round trips x the links' packets per slot)"),
    "delay_cap": ("links", "packets on a link's propagation delay (prop_delay_ms x rate_bps)"),
    "stage_cap": ("links", "arrivals at the links in one slot (rate_bps, access_rate_bps, "
                           "peak_bps over packet sizes)"),
    "emit_cap": ("flows", "packets a lane hands over ahead of the queues (access_rate_bps, "
                          "round trips)"),
    "nic_chunks": ("flows", "chunks of 8 segments in a lane's access-link pool "
                            "(access_buffer_pkts x flows)"),
}
_POW2 = ("class_caps", "ack_cap", "delay_cap", "emit_cap")


def _check_shape(shape: dict) -> None:
    """Every count and capacity of the batch shape fits the engine's int32 (capacities: a
    power of two, so at most 2^30): a ConfigError naming what fills it, rather than the
    engine's cast error. The fields' own checks (Scenario, _check_loops, the links' delay
    lines) name the field in most cases first; this covers their combinations."""
    for key, (path, what) in _SHAPE_LIMITS.items():
        v = shape[key]
        v = max(v) if isinstance(v, list) else int(v)
        top = MAX_CAP if key in _POW2 else INT32_MAX
        if v > top:
            need = f"{v:,}" if v < 10**15 else f"{float(v):.3g}"
            raise ConfigError(f"{path}: too large for the engine: the {what} need {need}, "
                              f"above its limit of {top:,} (batch shape {key})")


NIC_POOLS = ("compact", "full")
EMIT_RINGS = ("lookahead", "min")
#: segments per chunk of a lane's access-link pool (cuda/model/access_link.h kNicChunkSegs)
NIC_CHUNK_SEGS = 8
#: cuda/batch.h kRxBitmapBits, kRxBitmapSlack: the receivers' bitmap's least width and margin
RX_BITMAP_BITS = 1024
RX_BITMAP_SLACK = 24


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
