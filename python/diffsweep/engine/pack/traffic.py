"""Traffic generators -> the RG / RGZ rows of one scenario, their pools of flow slots, and the
transfer records a replica keeps (cuda/model/traffic_gen.h, cuda/engine/traffic.h).

A generator's pool is a block of flow slots after the scenario's own flows, each with the
generator's template TcpFlow: the engine starts its transfers there (``flow_gen`` names the
generator of each slot, -1 for the scenario's own flows)."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from diffsweep.scenario import Scenario, TcpFlow
from diffsweep.engine.pack.layout import layout


def pool_flows(sc: Scenario) -> tuple[list[TcpFlow], np.ndarray, list[int]]:
    """Every flow slot of the replica: the scenario's flows, then each generator's pool (copies
    of its template); the generator of each slot (-1: the scenario's own); each pool's first
    slot."""
    flows = list(sc.flows)
    gen = [-1] * len(flows)
    first = []
    for g, tr in enumerate(sc.traffic):
        first.append(len(flows))
        # The engine sets size and start per transfer; the template's are placeholders.
        slot = tr.flow if (tr.flow.size_pkts, tr.flow.start_s) == (1, 0.0) else \
            replace(tr.flow, size_pkts=1, start_s=0.0)
        flows.extend([slot] * tr.pool)
        gen.extend([g] * tr.pool)
    return flows, np.array(gen, dtype=np.int64), first


def records_needed(sc: Scenario, tr) -> int:
    """Transfer records one generator may write: its expected starts plus six standard
    deviations (Poisson), or each session back to back with no think time at most every
    round trip (bounded by one per think time on average, taken three times over), plus the
    pool (transfers still running at the end also get a record)."""
    if tr.max_records is not None:
        return int(tr.max_records)
    t_stop = sc.duration_s if tr.t_stop_s is None else tr.t_stop_s
    if tr.kind == "web":
        return tr.sessions * tr.pages_per_session * tr.objects_per_page + tr.pool
    if tr.kind == "poisson":
        mean = t_stop / tr.mean_interarrival_s
        return int(math.ceil(mean + 6.0 * math.sqrt(mean) + 16)) + tr.pool
    return int(math.ceil(3.0 * tr.pool * (t_stop / tr.think_s + 1.0))) + 16


def traffic_rows(sc: Scenario, slot_s: float, first: list[int]) -> tuple[dict, int, int]:
    """The RG / RGZ rows, the records one replica needs (at least 1) and its web sessions."""
    lay = layout()
    Z = lay.limits["max_size_set"]
    kind, size_kind = lay.enums["gen_kind"], lay.enums["size_kind"]
    trs = sc.traffic
    sizes = np.zeros((len(trs), Z), dtype=np.int64)
    for g, tr in enumerate(trs):
        sizes[g, :len(tr.size_set_pkts)] = tr.size_set_pkts
    rows = {
        "gen_kind": np.array([kind[t.kind] for t in trs], dtype=np.int64),
        "gen_first_flow": np.array(first, dtype=np.int64),
        "gen_pool": np.array([t.pool for t in trs], dtype=np.int64),
        "gen_mean_iat_slots": np.array([(t.mean_interarrival_s or 1.0) / slot_s for t in trs]),
        "gen_t_stop_slot": np.array([(sc.duration_s if t.t_stop_s is None else t.t_stop_s) / slot_s
                                     for t in trs]),
        # the think time of sessions, the gap between pages of web sessions
        "gen_think_slots": np.array([(t.inter_page_s if t.kind == "web" else t.think_s) / slot_s
                                     for t in trs]),
        "gen_size_kind": np.array([size_kind[t.size_dist] for t in trs], dtype=np.int64),
        "gen_size_mean": np.array([t.size_mean_pkts for t in trs]),
        "gen_size_min": np.array([t.size_min_pkts for t in trs]),
        "gen_size_max": np.array([t.size_max_pkts for t in trs]),
        "gen_size_alpha": np.array([t.size_alpha for t in trs]),
        "gen_size_n": np.array([len(t.size_set_pkts) for t in trs], dtype=np.int64),
        "gen_size_set": sizes,
        "gen_sessions": np.array([t.sessions if t.kind == "web" else 0 for t in trs],
                                 dtype=np.int64),
        "gen_pages": np.array([t.pages_per_session for t in trs], dtype=np.int64),
        "gen_objects": np.array([t.objects_per_page for t in trs], dtype=np.int64),
        "gen_inter_obj_slots": np.array([t.inter_object_s / slot_s for t in trs]),
        "gen_first_start_slots": np.array([(t.first_start_s or 0.0) / slot_s for t in trs]),
    }
    rows["gen_first_session"] = np.concatenate([[0], np.cumsum(rows["gen_sessions"])[:-1]]) \
        if len(trs) else np.zeros(0, dtype=np.int64)
    return (rows, max(1, sum(records_needed(sc, t) for t in trs)),
            max(1, int(rows["gen_sessions"].sum())))
