"""TCP flows -> the RF / RFH / RFD rows of one scenario (cuda/model/tcp_*.h,
access_link.h), and what they need of the engine's capacities. Per-flow values are
computed as numpy vectors over the scenario's flows, in the same floating-point order as
the scalar formulas they stand for."""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from ..errors import ConfigError
from ..scenario import Scenario
from .layout import layout
from .links import LinkRows

DELACK_S = 0.1  # ns-2 DelAckSink interval_

_ATTRS = ("segment_bytes", "header_bytes", "max_window_pkts", "init_window_pkts",
          "access_delay_ms", "egress_delay_ms", "reverse_delay_ms", "start_s", "send_jitter_s")
_get = attrgetter(*_ATTRS)
# every other attribute flow_rows reads (all hashable: flows equal in these share their rows)
_get_static = attrgetter("route", "route2", "cls", "variant", "split", "split_pkts",
                         "init_ssthresh_pkts", "size_pkts", "delayed_ack", "reno_bugfix",
                         "limited_transmit", "access_buffer_pkts", "telnet_interval_s",
                         "access_rate_bps", "drop_seqs")


@dataclass
class FlowRows:
    rows: dict                # field -> array over the scenario's flows (RFH/RFD: x hops/drops)
    delay_rounding_ms: float  # worst |rounded - exact| round-trip delay over flows
    nic_need: int             # segments an access FIFO must hold
    per_slot: np.ndarray      # [flows] most packets one flow hands to its first link per slot
    loop_slots: np.ndarray    # [flows]


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
    split = lay.enums["split"]
    v = np.array([_get(f) for f in flows], dtype=np.float64).reshape(n, len(_ATTRS))
    seg, hdr, mw, iw, acc, egr, rev, start, jitter = (v[:, k] for k in range(len(_ATTRS)))
    wire = seg + hdr
    # Everything else once per distinct set of these attributes (flows that differ only in
    # their delays, as a builder's RTP draws make them, share one), then spread by index:
    # a 64-flow scenario is packed for every seed of a point with random RTPs.
    first: dict = {}  # distinct attributes -> (their row, the first flow with them)
    row = np.empty(n, dtype=np.int64)
    for j, k in enumerate(map(_get_static, flows)):
        hit = first.get(k)
        if hit is None:
            hit = first[k] = (len(first), j)
        row[j] = hit[0]
    pad_h, pad_d = (-1,) * H, (-1,) * D
    ints, floats, routes, routes2, drops = [], [], [], [], []
    for k, (_, i) in first.items():
        (r, r2, cls, var, spl, spl_pkts, ssthresh, size, delack, bugfix, limited, access_buf,
         ti, access_rate, drop_seqs) = k
        routes.append(r + pad_h[len(r):])
        routes2.append(r2 + pad_h[len(r2):])
        drops.append(drop_seqs + pad_d[len(drop_seqs):])  # <= 8: TcpFlow checks
        ints.append((variant[var], class_index(sc, r + r2, cls, f"flows[{i}].cls"), len(r),
                     len(r2), split[spl], spl_pkts or 0, ssthresh or 0,
                     -1 if size is None else size, int(delack),
                     1 if var == "newreno" else int(bugfix), int(limited), access_buf or 0))
        # > 0: exponential mean in slots; < 0: tcplib gaps, -value slots per second; 0: bulk.
        floats.append((0.0 if ti is None else ti / slot_s if ti > 0 else -1.0 / slot_s,
                       sc.links[r[0]].rate_bps if access_rate is None else access_rate))
    iv = np.array(ints, dtype=np.int64).reshape(-1, 12)[row]
    fv = np.array(floats, dtype=np.float64).reshape(-1, 2)[row]
    route = np.array(routes, dtype=np.int64).reshape(-1, H)[row]
    route2 = np.array(routes2, dtype=np.int64).reshape(-1, H)[row]
    drop_rows = np.array(drops, dtype=np.int64).reshape(-1, D)[row]
    n_hops, n_hops2 = iv[:, 2], iv[:, 3]
    last = route[np.arange(n), n_hops - 1]
    last_prop_ms = np.array([sc.links[l].prop_delay_ms for l in last]) if n else np.zeros(0)
    # Constant delays after the last link (and the access delay, by shifting the sender's
    # clock) fold into the ACK's flight time (docs/model.md, "Delays").
    loop_s = (last_prop_ms + egr + rev + acc) / 1e3
    loop = np.maximum(1, np.rint(loop_s / slot_s)).astype(np.int64)
    prop_ms = np.array([l.prop_delay_ms for l in sc.links])
    worst = 0.0
    base_ms = None
    for rt, nh in ((route, n_hops), (route2, n_hops2)):
        hops = np.zeros(n, dtype=np.int64)   # propagation slots before the last link
        route_ms = np.zeros(n)               # sum of the route's link delays, in route order
        for h in range(H):
            on = h < nh
            if not on.any():
                break
            lk = np.where(on, rt[:, h], 0)
            route_ms = np.where(on, route_ms + prop_ms[lk], route_ms)
            hops += np.where(h < nh - 1, links.prop_slots[lk], 0)
        exact_ms = acc + route_ms + egr + rev
        if base_ms is None:
            base_ms = exact_ms  # the first route's propagation round trip
        err = np.abs((loop + hops) * slot_s * 1e3 - exact_ms)
        worst = max(worst, float(np.where(nh > 0, err, 0.0).max(initial=0.0)))
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
        "flow_base_rtt_slots": base_ms / 1e3 / slot_s,
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
    }
    # Access FIFO: its buffer, or (unlimited) a window plus a go-back-N window.
    nic = np.where(access_buf > 0, access_buf, 2 * mw + 16)
    # Packets one flow event hands over: the access link's output in one slot, or (unpaced)
    # a window plus what its ACKs retransmit (engine/team.h, emit_need).
    with np.errstate(divide="ignore", invalid="ignore"):
        paced = np.ceil(pace / wire) + 1
    per_slot = np.where(pace > 0, paced, 2 * mw + 16).astype(np.int64)
    return FlowRows(rows, worst, int(nic.max(initial=1)), per_slot, loop)


def delack_slots(slot_s: float) -> int:
    return max(1, int(round(DELACK_S / slot_s)))
