"""On-off and CBR sources -> the RS / RSH rows of one scenario (cuda/model/source_onoff.h)."""
from __future__ import annotations

import math

import numpy as np

from diffsweep.scenario import Scenario
from diffsweep.engine.pack.flows import class_index
from diffsweep.engine.pack.layout import layout


def source_rows(sc: Scenario, slot_s: float) -> tuple[dict, int]:
    """The rows, and the packets the sources can emit in one slot (arrival buffer)."""
    H = layout().limits["max_hops"]
    srcs = sc.sources
    route = np.full((len(srcs), H), -1, dtype=np.int64)
    for i, s in enumerate(srcs):
        route[i, :len(s.route)] = s.route
    peak = np.array([s.peak_bps * slot_s / 8.0 for s in srcs])
    rows = {
        "src_cls": np.array([class_index(sc, s.route, s.cls, f"sources[{i}].cls")
                             for i, s in enumerate(srcs)]),
        "src_n_hops": np.array([len(s.route) for s in srcs]),
        "src_route": route,
        "src_pkt_bytes": np.array([s.pkt_bytes for s in srcs]),
        "src_peak_bytes_per_slot": peak,
        "src_t_on_slots": np.array([s.t_on_ms / 1e3 / slot_s for s in srcs]),
        "src_t_off_slots": np.array([s.t_off_ms / 1e3 / slot_s for s in srcs]),
        "src_fixed": np.array([s.onoff == "fixed" for s in srcs], dtype=np.int64),
    }
    burst = sum(int(math.ceil(pk / s.pkt_bytes)) + 2 for pk, s in zip(peak, srcs))
    return rows, burst
