"""Links and their class queues -> the RL / RLC / RLCK rows of one scenario (cuda/model/link.h,
queue_droptail.h, queue_red.h, sched_*.h), and what they need of the engine's capacities."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from diffsweep.core.errors import ConfigError
from diffsweep.scenario import Scenario
from diffsweep.engine.pack.layout import layout

UNLIMITED_CLASS_PKTS = 256  # ring size of an unlimited (priority) class; overflow is an error


@dataclass
class LinkRows:
    rows: dict                 # field -> array over the scenario's links (RLC: links x classes)
    bytes_per_slot: np.ndarray # [links] rate * slot / 8
    prop_slots: np.ndarray     # [links] whole slots
    min_pkt: np.ndarray        # [links] smallest packet crossing the link (bytes)
    max_pkt: np.ndarray        # [links] largest
    class_need: list           # [class position] packets its ring must hold, on any link
    delay_need: int            # packets a delay line must hold
    max_dep_per_slot: int      # most departures of one link in one slot
    sustained: int             # most departures per slot of one link in the long run
    held: np.ndarray           # [links] packets' worth of credit a link may hold (cbq: one per class)


def _packet_sizes(sc: Scenario, link: int) -> list[int]:
    flows = list(sc.flows) + [t.flow for t in sc.traffic]
    sizes = [f.segment_bytes + f.header_bytes for f in flows
             if link in f.route or link in f.route2]
    return sizes + [s.pkt_bytes for s in sc.sources if link in s.route]


#: a capacity of the batch shape is an int32 power of two (cuda/batch.h BatchShape)
MAX_CAP = 1 << 30


def _departures(per_slot: float, held: int, max_pkt: int, min_pkt: int) -> int:
    """Most packets one link sends in one slot: the credit is at most one slot plus the
    leftover of one packet (under "cbq" one per class)."""
    return int(math.ceil((per_slot + held * max_pkt) / min_pkt)) + 1


def _check_prop_delays(sc: Scenario, slot_s: float, prop: list, deps: list) -> None:
    """A link's delay line holds the packets of its propagation delay, ``deps`` a slot, in a
    ring of at most MAX_CAP (its prop slots are int32 in the engine, a smaller bound): a longer
    delay is a ConfigError naming the link and the longest delay it may have, before numpy
    would overflow on it or the engine refuse the shape in other words."""
    for l, (p, d) in enumerate(zip(prop, deps)):
        most = MAX_CAP // d - 2  # (prop + 2) * deps <= MAX_CAP
        if most < 0:  # (only a long slot_s: a default slot is one packet at the fastest rate)
            raise ConfigError(f"slot_s: {sc.slot_s!r} is not allowed (expected a slot in which "
                              f"every link sends at most 2^29 packets: links[{l}] would send "
                              f"up to {d:,})")
        if p > most:
            raise ConfigError(
                f"links[{l}].prop_delay_ms: {sc.links[l].prop_delay_ms!r} is not allowed "
                f"(expected a number >= 0 and <= {most * slot_s * 1e3:.6g} ms: {most:,} slots "
                f"of {slot_s:.4g} s, as the engine's delay line of a link holds at most 2^30 "
                f"packets, here up to {d} a slot)")


def codel_time(ms: float) -> int:
    """A time in ns-3's CoDel units: whole nanoseconds >> 10 (Time2CoDel, CODEL_SHIFT)."""
    return int(round(ms * 1e6)) >> 10


def link_rows(sc: Scenario, slot_s: float) -> LinkRows:
    lay = layout()
    C = lay.limits["max_classes"]
    K = lay.limits["max_colours"]
    nl = len(sc.links)
    sched = lay.enums["scheduler"]
    kind = lay.enums["limit_kind"]
    sizes = [_packet_sizes(sc, l) for l in range(nl)]
    min_pkt = np.array([max(1, min(s, default=1500)) for s in sizes])
    max_pkt = np.array([max(s, default=1500) for s in sizes])
    per_slots = [l.rate_bps * slot_s / 8.0 for l in sc.links]
    helds = [len(link.classes) if link.scheduler == "cbq" else 1 for link in sc.links]
    deps_of = [_departures(per_slots[l], helds[l], int(max_pkt[l]), int(min_pkt[l]))
               for l in range(nl)]
    prop = [int(round(l.prop_delay_ms / 1e3 / slot_s)) for l in sc.links]
    _check_prop_delays(sc, slot_s, prop, deps_of)
    rows = {
        "link_bytes_per_slot": np.array(per_slots),
        "link_prop_slots": np.array(prop),
        "link_loss_prob": np.array([l.loss_prob for l in sc.links]),
        "link_sched": np.array([sched[l.scheduler] for l in sc.links]),
        "link_n_classes": np.array([len(l.classes) for l in sc.links]),
        "link_cbq_lend": np.array([int(l.cbq_lend) for l in sc.links]),
        "link_devq_pkts": np.array([l.device_queue_pkts for l in sc.links]),
        "class_limit": np.zeros((nl, C), dtype=np.int64),
        "class_limit_kind": np.full((nl, C), kind["none"]),
        "class_weight": np.ones((nl, C), dtype=np.int64),
        "class_share": np.zeros((nl, C)),
        "class_aqm": np.zeros((nl, C), dtype=np.int64),
        "red_w_q": np.zeros((nl, C)), "red_gentle": np.zeros((nl, C), dtype=np.int64),
        "red_wait": np.zeros((nl, C), dtype=np.int64), "red_bytes": np.zeros((nl, C), dtype=np.int64),
        "red_queue_in_bytes": np.zeros((nl, C), dtype=np.int64),
        "red_mean_pkt_bytes": np.ones((nl, C)), "red_ptc": np.zeros((nl, C)),
        "red_min_th": np.zeros((nl, C, K)), "red_max_th": np.ones((nl, C, K)),
        "red_max_p": np.ones((nl, C, K)),
        "codel_target": np.zeros((nl, C), dtype=np.int64),
        "codel_interval": np.zeros((nl, C), dtype=np.int64),
        "codel_min_bytes": np.zeros((nl, C), dtype=np.int64),
        "pie_qdelay_ref_s": np.zeros((nl, C)), "pie_alpha": np.zeros((nl, C)),
        "pie_beta": np.zeros((nl, C)),
        "pie_t_update_ns": np.ones((nl, C), dtype=np.int64),
        "pie_max_burst_ns": np.zeros((nl, C), dtype=np.int64),
        "pie_mean_pkt_bytes": np.ones((nl, C)),
        "pie_cap_drop_adjustment": np.zeros((nl, C), dtype=np.int64),
        "pie_derandomize": np.zeros((nl, C), dtype=np.int64),
        "class_ecn": np.zeros((nl, C), dtype=np.int64),
        "fq_quantum": np.zeros((nl, C), dtype=np.int64),
        "fq_drop_batch": np.zeros((nl, C), dtype=np.int64),
    }
    aqm = lay.enums["aqm"]
    class_need = [1] * C
    delay_need, max_dep, sustained = 1, 1, 1
    for l, link in enumerate(sc.links):
        per_slot = float(rows["link_bytes_per_slot"][l])
        mn = int(min_pkt[l])
        # Departures per slot (_departures); in the long run at most rate/min_packet per slot.
        deps = deps_of[l]
        max_dep = max(max_dep, deps)
        sustained = max(sustained, int(math.ceil(per_slot / mn)))
        delay_need = max(delay_need, (int(rows["link_prop_slots"][l]) + 2) * deps)
        for c, qc in enumerate(link.classes):
            rows["class_weight"][l, c] = qc.weight
            # ECN marking (model/tcp_ecn.h): 1 mark, 2 RED's forced drops marked too
            rows["class_ecn"][l, c] = (int(qc.ecn) | (2 if qc.ecn and not qc.red_hard_drop
                                                      else 0))
            if link.scheduler == "cbq":
                rows["class_share"][l, c] = qc.share
            if qc.aqm != "droptail":
                rows["class_aqm"][l, c] = aqm[qc.aqm]
            if qc.aqm in ("codel", "fq_codel"):  # FQ-CoDel: every flow queue's CoDel
                rows["codel_target"][l, c] = codel_time(qc.codel_target_ms)
                rows["codel_interval"][l, c] = codel_time(qc.codel_interval_ms)
                rows["codel_min_bytes"][l, c] = qc.codel_min_bytes
                rows["fq_quantum"][l, c] = qc.fq_quantum_bytes
                rows["fq_drop_batch"][l, c] = qc.fq_drop_batch
            elif qc.aqm == "pie":
                rows["pie_qdelay_ref_s"][l, c] = qc.pie_qdelay_ref_ms / 1e3
                rows["pie_alpha"][l, c] = qc.pie_alpha
                rows["pie_beta"][l, c] = qc.pie_beta
                # whole nanoseconds, as ns-3's Time (its burst allowance counts down exactly)
                rows["pie_t_update_ns"][l, c] = int(round(qc.pie_t_update_ms * 1e6))
                rows["pie_max_burst_ns"][l, c] = int(round(qc.pie_max_burst_ms * 1e6))
                rows["pie_mean_pkt_bytes"][l, c] = qc.pie_mean_pkt_bytes
                rows["pie_cap_drop_adjustment"][l, c] = qc.pie_cap_drop_adjustment
                rows["pie_derandomize"][l, c] = qc.pie_derandomize
            elif qc.aqm != "droptail":
                rows["red_w_q"][l, c] = qc.red_w_q
                rows["red_gentle"][l, c] = qc.red_gentle
                rows["red_wait"][l, c] = qc.red_wait
                rows["red_bytes"][l, c] = qc.red_bytes
                rows["red_queue_in_bytes"][l, c] = qc.queue_in_bytes
                rows["red_mean_pkt_bytes"][l, c] = qc.red_mean_pkt_bytes
                # the idle-time correction counts mean-size packets the link could have sent
                rows["red_ptc"][l, c] = per_slot / qc.red_mean_pkt_bytes
                for k, t in enumerate(qc.thresholds()):
                    rows["red_min_th"][l, c, k] = t.min_th
                    rows["red_max_th"][l, c, k] = t.max_th
                    rows["red_max_p"][l, c, k] = t.max_p
            # a RED, dsRED, CoDel or PIE limit counts the packets waiting, the one on the wire
            # besides (engine/queue_side.h: arrive_full)
            # (FQ-CoDel: and the arrival that puts it over the limit, before FqCoDelDrop)
            on_wire = 0 if qc.aqm == "droptail" else 2 if qc.aqm == "fq_codel" else 1
            # a device queue (Link.device_queue_pkts): every limit counts the packets before
            # it, the device queue's and the wire's besides (ns-3's queue disc)
            if link.device_queue_pkts:
                on_wire = max(on_wire, 1) + link.device_queue_pkts
            if qc.limit_pkts is not None:
                rows["class_limit"][l, c], rows["class_limit_kind"][l, c] = qc.limit_pkts, kind["pkts"]
                class_need[c] = max(class_need[c], qc.limit_pkts + on_wire)
            elif qc.limit_bytes is not None:
                rows["class_limit"][l, c], rows["class_limit_kind"][l, c] = qc.limit_bytes, kind["bytes"]
                class_need[c] = max(class_need[c], qc.limit_bytes // mn + 1 + on_wire)
            else:
                # the ring is UNLIMITED_CLASS_PKTS (pack adds one packet to every need)
                class_need[c] = max(class_need[c], UNLIMITED_CLASS_PKTS - 1)
    return LinkRows(rows, rows["link_bytes_per_slot"], rows["link_prop_slots"], min_pkt, max_pkt,
                    class_need, delay_need, max_dep, sustained, np.array(helds, dtype=np.int64))


def acks_in_flight(links: LinkRows, max_loop_slots: int, n_flows: int) -> int:
    """ACKs the replica's pool must hold: every ACK generated while the oldest one in flight
    waits (one loop delay): one per departure, and a link sends at most its credit's worth of
    minimum-size packets; plus the delayed ACKs held back (engine/replica.h, push_ack)."""
    n = n_flows + 8
    for l in range(len(links.bytes_per_slot)):
        n += int(math.ceil(((max_loop_slots + 2) * float(links.bytes_per_slot[l])
                            + int(links.held[l]) * int(links.max_pkt[l])) / int(links.min_pkt[l]))) + 1
    return n
