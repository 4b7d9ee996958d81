"""Edge conditioners -> the RM rows of one scenario, and each sender's marker and colour
(cuda/model/marker.h; docs/model.md, "Edge conditioners")."""
from __future__ import annotations

import numpy as np

from diffsweep.scenario import Scenario
from diffsweep.engine.pack.layout import layout


TCP_AWARE = ("rtt_aware", "rtt_rto")


def references(sc: Scenario, mk, members) -> tuple[float, float]:
    """A TCP-aware conditioner's reference RTT and RTO in seconds: as given, else the shortest
    propagation round trip of the flows metered by any RTT-aware or RTT-RTO conditioner of the
    scenario (Habib et al.: "the minimum aggregate RTT", which the edges exchange) and the RTO
    a TCP with that RTT has at the floor: max(min_rto_s, RTT) (docs/model.md)."""
    rtt = mk.ref_rtt_s
    if rtt is None:
        rtts = [sc.route_rtp_ms(f) / 1e3 for f in members] or [0.0]
        rtt = min(rtts)
    rto = mk.ref_rto_s if mk.ref_rto_s is not None else max(sc.min_rto_s, rtt)
    return rtt, rto


def marker_rows(sc: Scenario, slot_s: float, flows=None, first=()) -> dict:
    """RM rows (rates in bytes per slot, times in slots), and the RF/RS rows saying which
    conditioner meters each flow slot and source and the colour its packets start with
    (``flows``: every flow slot, pools included; ``first``: each pool's first slot)."""
    flows = list(sc.flows) if flows is None else flows
    lay = layout()
    kind, colour = lay.enums["marker_kind"], lay.enums["colour"]
    mks = sc.markers
    per_slot = slot_s / 8.0
    rows = {
        "marker_kind": np.array([kind[m.kind] for m in mks], dtype=np.int64),
        "marker_link": np.array([m.link for m in mks], dtype=np.int64),
        "marker_colour_aware": np.array([m.colour_aware for m in mks], dtype=np.int64),
        "marker_cir": np.array([m.cir_bps * per_slot for m in mks]),
        "marker_cbs": np.array([m.cbs_bytes for m in mks]),
        "marker_pir": np.array([(m.pir_bps or m.cir_bps) * per_slot for m in mks]),
        "marker_pbs": np.array([m.pbs_bytes or 0.0 for m in mks]),
        "marker_win": np.array([m.window_s / slot_s for m in mks]),
        "marker_b1": np.array([m.b1_bytes or 0.0 for m in mks]),
        "marker_w_lo": np.array([m.w_lo for m in mks]),
        "marker_w_hi": np.array([m.w_hi for m in mks]),
        "marker_p_max": np.array([m.p_max for m in mks]),
        "marker_active_slots": np.array([m.active_s / slot_s for m in mks]),
        "marker_sw_k": np.array([m.small_window_pkts or 0 for m in mks], dtype=np.int64),
    }
    aware = [sc.flows[i] for mk in mks if mk.kind in TCP_AWARE for i in mk.flows]
    aware += [sc.traffic[g].flow for mk in mks if mk.kind in TCP_AWARE for g in mk.traffic]
    refs = [references(sc, mk, aware) for mk in mks]
    rows["marker_ref_rtt"] = np.array([r[0] / slot_s for r in refs])
    rows["marker_ref_rto"] = np.array([r[1] / slot_s for r in refs])
    # A flow metered in two domains (Scenario checks: at most two conditioners, on different
    # links of its route): flow_marker is the one it meets first, flow_marker2 the other.
    flow_marker = np.full(len(flows), -1, dtype=np.int64)
    flow_marker2 = np.full(len(flows), -1, dtype=np.int64)
    src_marker = np.full(len(sc.sources), -1, dtype=np.int64)
    for m, mk in enumerate(mks):
        src_marker[list(mk.sources)] = m
        slots = list(mk.flows)
        for g in mk.traffic:
            slots += list(range(first[g], first[g] + sc.traffic[g].pool))
        for i in slots:
            if flow_marker[i] < 0:
                flow_marker[i] = m
                continue
            route = flows[i].route
            a, b = int(flow_marker[i]), m
            if route.index(mks[b].link) < route.index(mks[a].link):
                a, b = b, a
            flow_marker[i], flow_marker2[i] = a, b
    sender = {
        "flow_marker": flow_marker,
        "flow_marker2": flow_marker2,
        "flow_colour": np.array([colour[f.colour or "green"] for f in flows], dtype=np.int64),
        "src_marker": src_marker,
        "src_colour": np.array([colour[s.colour or "green"] for s in sc.sources], dtype=np.int64),
    }
    return {"markers": rows, "sender": sender}
