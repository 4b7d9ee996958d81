"""The builder ``todays_kaur_vin``: Kaur & Vin's dumbbell (the registered ``kaur_vin`` builder,
called by name: a paper imports no other paper) with today's sender and queue: every TCP flow's
``congestion_control`` ("newreno" or "cubic", RFC 9438 as ns-3.44's TcpCubic) and the
best-effort class's ``aqm`` at the bottleneck ("droptail", "codel", "pie" or "fq_codel": per
DiffServ class, under the strict-priority scheduler, the EF class staying an unlimited priority
queue).
"""
from __future__ import annotations

from dataclasses import replace

from diffsweep.core.errors import check
from diffsweep.scenario import Scenario, plain
from diffsweep.scenario.registry import resolve_builder

__all__ = ["todays_kaur_vin", "AQMS", "CONGESTION_CONTROLS"]

#: the best-effort queues offered
AQMS = ("droptail", "codel", "pie", "fq_codel")
CONGESTION_CONTROLS = ("newreno", "cubic")


def todays_kaur_vin(congestion_control="cubic", aqm="droptail", n_flows=1, rtp_ms=None,
                    rtp_intervals=None, ef="onoff", ef_fraction=0.3, t_on_ms=10.0, tcp="reno",
                    duration_s=100.0, warmup_s=10.0, buffer_bytes=200_000, seed=0,
                    **params) -> Scenario:
    """``kaur_vin(**params)`` (its parameters and defaults: docs/builders.md) with every TCP
    flow's ``congestion_control`` set and the bottleneck's best-effort class (its buffer
    ``buffer_bytes`` the hard limit) under ``aqm``: "droptail", "codel" (RFC 8289, ns-3.44's
    CoDelQueueDisc defaults: target 5 ms, interval 100 ms) or "pie" (RFC 8033, ns-3.44's
    PieQueueDisc defaults: reference 15 ms) or "fq_codel" (RFC 8290, ns-3.44's
    FqCoDelQueueDisc defaults: 1024 buckets, quantum 1500 B, each flow queue's CoDel as
    "codel"; its limit in packets, as ns-3's MaxSize: ``buffer_bytes`` over the largest TCP
    packet on the wire, 200 KB / 576 B = 347 at the defaults). kaur_vin's own ``aqm="red"`` is
    not offered here.
    The parameters named here are kaur_vin's most swept ones, with its defaults; every other
    kaur_vin parameter passes through ``params``."""
    congestion_control, aqm = plain(congestion_control), plain(aqm)
    check(congestion_control in CONGESTION_CONTROLS, "congestion_control", congestion_control,
          "one of " + ", ".join(repr(c) for c in CONGESTION_CONTROLS))
    check(aqm in AQMS, "aqm", aqm, "one of " + ", ".join(repr(a) for a in AQMS))
    sc = resolve_builder("kaur_vin")(
        n_flows=n_flows, rtp_ms=rtp_ms, rtp_intervals=rtp_intervals, ef=ef,
        ef_fraction=ef_fraction, t_on_ms=t_on_ms, tcp=tcp, duration_s=duration_s,
        warmup_s=warmup_s, buffer_bytes=buffer_bytes, seed=seed, **params)
    link = sc.links[0]
    be = {"aqm": aqm}
    if aqm == "fq_codel":  # a packet limit (ns-3 MaxSize): the buffer in the largest packets
        wire = max(f.segment_bytes + f.header_bytes for f in sc.flows)
        be.update(limit_bytes=None, limit_pkts=max(1, int(buffer_bytes) // wire))
    classes = tuple(replace(c, **be) if c.name == "be" else c for c in link.classes)
    links = (replace(link, classes=classes),) + tuple(sc.links[1:])
    flows = tuple(f if f.telnet_interval_s else replace(f, congestion_control=congestion_control)
                  for f in sc.flows)
    return replace(sc, links=links, flows=flows)


def _seed_matters(rtp_intervals=None, **_) -> bool:
    """As kaur_vin: only its stratified RTP draw uses the seed."""
    return rtp_intervals is not None


todays_kaur_vin.seed_matters = _seed_matters
