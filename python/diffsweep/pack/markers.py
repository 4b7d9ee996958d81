"""Edge conditioners -> the RM rows of one scenario, and each sender's marker and colour
(cuda/model/marker.h; docs/model.md, "Edge conditioners")."""
from __future__ import annotations

import numpy as np

from ..scenario import Scenario
from .layout import layout


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
    }
    flow_marker = np.full(len(flows), -1, dtype=np.int64)
    src_marker = np.full(len(sc.sources), -1, dtype=np.int64)
    for m, mk in enumerate(mks):
        flow_marker[list(mk.flows)] = m
        src_marker[list(mk.sources)] = m
        for g in mk.traffic:
            flow_marker[first[g]:first[g] + sc.traffic[g].pool] = m
    sender = {
        "flow_marker": flow_marker,
        "flow_colour": np.array([colour[f.colour or "green"] for f in flows], dtype=np.int64),
        "src_marker": src_marker,
        "src_colour": np.array([colour[s.colour or "green"] for s in sc.sources], dtype=np.int64),
    }
    return {"markers": rows, "sender": sender}
