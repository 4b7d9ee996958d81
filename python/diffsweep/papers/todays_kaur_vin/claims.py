"""The claims of todays-kaur-vin, written before any run: Kaur & Vin's findings (UT Austin
TR2001-1, 2000; ``shared/papers/kaur-vin-ef-priority-tcp.md``, Conclusions 1-4) restated for
CUBIC senders (RFC 9438) and for CoDel (RFC 8289) / PIE (RFC 8033) in the best-effort class,
rated with the papers' rules through the own-claim forms (``diffsweep.analysis.own_claims``)
on the replicas of one setting at a time.

``tcp_utilization``: Kaur & Vin's U (sec. 2.3), the TCP flows' throughput on the wire (segment
+ header per payload segment) over the bandwidth left by EF (``available_bps``).
"""
from __future__ import annotations

import pandas as pd

from diffsweep.analysis import claims as cl
from diffsweep.analysis.registry import metric
from diffsweep.analysis.claims import Claim
from diffsweep.analysis.own_claims import OwnClaim

__all__ = ["todays_kaur_vin_claims", "tcp_utilization", "U"]

#: the metric reference of Kaur & Vin's U (diffsweep.analysis.registry: module:function)
U = "diffsweep.papers.todays_kaur_vin.claims:tcp_utilization"
WIRE_PER_PAYLOAD = 576 / 536  # kaur_vin's 536-B segments + 40 B of TCP/IP header


@metric(unit="fraction", bounds=(0.0, None))
def tcp_utilization(res) -> pd.DataFrame:
    """Per replica: the TCP flows' goodput x 576/536 over ``available_bps`` (Kaur & Vin's U)."""
    fl = res.flows
    g = fl.groupby(["point", "seed"], sort=True)["goodput_bps"].sum().rename("g").reset_index()
    rep = res.replicas[["point", "seed", "available_bps"]]
    d = rep.merge(g, on=["point", "seed"], how="left")
    d["tcp_utilization"] = d["g"] * WIRE_PER_PAYLOAD / d["available_bps"]
    return d[["point", "seed", "tcp_utilization"]]


def _own(cid, metric, kind, **kw) -> OwnClaim:
    return OwnClaim(id=cid, text=cid, metric=metric, kind=kind, **kw)


def todays_kaur_vin_claims() -> list[Claim]:
    c = cl.paper_claim
    return [
        c("TK2.1", "K&V Fig. 2a, Concl. 1",
          "Burstier EF costs a lone CUBIC flow throughput: over drop-tail its U falls as T_on "
          "grows 0.4 -> 400 ms (per-seed slope against log2 T_on below 0).",
          _own("TK2.1", U, "trend", axis="t_on_ms", direction="lower", log=True)
          .check_on(congestion_control="cubic", aqm="droptail"), "TK2"),
        c("TK2.2", "K&V Concl. 1 with RFC 8289",
          "CoDel in the best-effort class does not remove that loss: a lone CUBIC flow's U "
          "still falls with T_on (slope below 0).",
          _own("TK2.2", U, "trend", axis="t_on_ms", direction="lower", log=True)
          .check_on(congestion_control="cubic", aqm="codel"), "TK2"),
        c("TK2.3", "K&V Concl. 1 with RFC 8289 sec. 5",
          "CoDel counts the time EF holds the link as sojourn (RFC 8289 sec. 5.4), so at "
          "long bursts (T_on 400 ms) it drops more than drop-tail: a lone CUBIC flow's U with "
          "CoDel below its U with drop-tail (paired per seed).",
          _own("TK2.3", U, "compare", axis="aqm", a="codel", b="droptail",
               direction="lower")
          .check_on(congestion_control="cubic", t_on_ms=400.0), "TK2"),
        c("TK2.4", "RFC 9438 sec. 1, 4 (window growth after loss)",
          "CUBIC recovers from EF-induced losses faster than NewReno's AIMD: its U above "
          "NewReno's at every T_on and queue (paired per seed).",
          _own("TK2.4", U, "compare", axis="congestion_control", a="cubic",
               b="newreno", direction="higher").check_on(), "TK2"),
        c("TK5.1", "K&V Fig. 4a / 6, Concl. 3",
          "With many flows EF costs the aggregate little: the 32 CUBIC flows' U with EF at "
          "least 0.95 (partly at 0.9) over every queue and T_on.",
          _own("TK5.1", U, "level", hold_at=0.95, partly_at=0.9)
          .check_on(congestion_control="cubic", ef="onoff"), "TK5"),
        c("TK5.2", "K&V Fig. 5, Concl. 4",
          "EF bursts make the sharing among equal-RTP CUBIC flows over drop-tail less fair: "
          "Jain's index with EF below that without (paired per seed).",
          _own("TK5.2", "jain_index", "compare", axis="ef", a="onoff", b="none",
               direction="lower")
          .check_on(congestion_control="cubic", aqm="droptail"), "TK5"),
        c("TK5.3", "Floyd & Jacobson 1992 (K&V sec. 5's remedy) with RFC 8289",
          "An AQM in the best-effort class keeps the CUBIC flows fair despite EF: Jain's index "
          "at least 0.95 (partly 0.9) with CoDel at every T_on.",
          _own("TK5.3", "jain_index", "level", hold_at=0.95, partly_at=0.9)
          .check_on(congestion_control="cubic", aqm="codel", ef="onoff"), "TK5"),
        c("TK5.4", "Floyd & Jacobson 1992 with RFC 8033",
          "The same with PIE: Jain's index at least 0.95 (partly 0.9) at every T_on.",
          _own("TK5.4", "jain_index", "level", hold_at=0.95, partly_at=0.9)
          .check_on(congestion_control="cubic", aqm="pie", ef="onoff"), "TK5"),
        # FQ-CoDel (RFC 8290), added in the sixteenth session, written before its first run
        c("TK2.5", "K&V Concl. 1 with RFC 8290 sec. 1.3",
          "FQ-CoDel does not remove the loss either: one flow is one flow queue under CoDel "
          "(RFC 8290 sec. 4), so a lone CUBIC flow's U still falls with T_on (slope below 0).",
          _own("TK2.5", U, "trend", axis="t_on_ms", direction="lower", log=True)
          .check_on(congestion_control="cubic", aqm="fq_codel"), "TK2"),
        c("TK5.5", "RFC 8290 sec. 1, 4.2 (flow isolation, deficit round robin)",
          "FQ-CoDel's round robin keeps the 32 CUBIC flows fair despite EF: Jain's index at "
          "least 0.98 (partly 0.95) at every T_on.",
          _own("TK5.5", "jain_index", "level", hold_at=0.98, partly_at=0.95)
          .check_on(congestion_control="cubic", aqm="fq_codel", ef="onoff"), "TK5"),
        # TK5.5 as first written (before its run) also said "fairer than CoDel alone", which
        # its level test did not rate; that part is rated here, added after the first run
        c("TK5.6", "RFC 8290 sec. 1 (TK5.5's first text)",
          "FQ-CoDel is fairer than CoDel alone: the 32 CUBIC flows' Jain's index with "
          "FQ-CoDel above that with CoDel (paired per seed), with EF.",
          _own("TK5.6", "jain_index", "compare", axis="aqm", a="fq_codel", b="codel",
               direction="higher").check_on(congestion_control="cubic", ef="onoff"), "TK5"),
    ]
