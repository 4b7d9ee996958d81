"""The bufferbloat family's claims, written before any run (what the RFCs say should happen),
rated with the papers' rules (``diffsweep.analysis.claims``) through the own-claim forms of
``diffsweep.analysis.own_claims`` (compare, trend, level) on the replicas of one queue
discipline or congestion control at a time.

Families: ``BD`` (sweep ``bb_delay``: CUBIC, aqm x buffer_pkts x n_flows x rtt_ms) and ``BR``
(sweep ``bb_rtt``: congestion_control x aqm, 8 flows at RTTs 20..200 ms).
"""
from __future__ import annotations

from diffsweep.analysis import claims as cl
from diffsweep.analysis.claims import Claim
from diffsweep.analysis.own_claims import OwnClaim

__all__ = ["bufferbloat_claims", "CODEL_TARGET_MS", "PIE_REFERENCE_MS"]

CODEL_TARGET_MS = 5.0     # RFC 8289 sec. 4.3 / ns-3.44 CoDelQueueDisc Target
PIE_REFERENCE_MS = 15.0   # RFC 8033 sec. 4.1 QDELAY_REF (ns-3.44 QueueDelayReference)


def _own(cid, text, metric, kind, **kw) -> OwnClaim:
    return OwnClaim(id=cid, text=text, metric=metric, kind=kind, **kw)


def bufferbloat_claims() -> list[Claim]:
    c = cl.paper_claim
    return [
        c("BD.1", "RFC 8289 sec. 1, 5",
          "CoDel keeps the median queueing delay near its 5-ms target at every buffer size, "
          "flow count and RTT ('near': the 95% CI of the median wait at most 2 x target = "
          "10 ms holds, beyond 4 x target = 20 ms does not).",
          _own("BD.1", "codel median", "queue_delay_p50_ms", "level",
               direction="lower", hold_at=2 * CODEL_TARGET_MS,
               partly_at=4 * CODEL_TARGET_MS).check_on(aqm="codel"), "BD"),
        c("BD.2", "RFC 8289 sec. 1",
          "CoDel's delay does not depend on the buffer size: the median wait with 1000 "
          "packets of buffer is within +-2 ms of that with 100 (paired per seed).",
          _own("BD.2", "codel buffer-insensitive", "queue_delay_p50_ms", "compare",
               axis="buffer_pkts", a=1000, b=100, within=2.0).check_on(aqm="codel"), "BD"),
        c("BD.3", "RFC 8289 sec. 1; Gettys & Nichols 2011",
          "A FIFO's standing delay grows with its buffer: the median wait of drop-tail with "
          "1000 packets is above that with 100 (paired per seed, CI above 0).",
          _own("BD.3", "fifo bloats", "queue_delay_p50_ms", "compare",
               axis="buffer_pkts", a=1000, b=100, direction="higher")
          .check_on(aqm="droptail"), "BD"),
        c("BD.4", "RFC 8033 sec. 1, 4.2",
          "PIE holds the median queueing delay near its 15-ms reference at every cell "
          "('near': CI at most 2 x 15 = 30 ms holds, beyond 60 ms does not).",
          _own("BD.4", "pie median", "queue_delay_p50_ms", "level",
               direction="lower", hold_at=2 * PIE_REFERENCE_MS,
               partly_at=4 * PIE_REFERENCE_MS).check_on(aqm="pie"), "BD"),
        c("BD.5", "RFC 8289 sec. 1; RFC 8033 sec. 1",
          "With a large (1000-packet) buffer CoDel cuts the 95th-percentile wait below "
          "FIFO's (paired per seed, CI below 0).",
          _own("BD.5", "codel vs fifo p95", "queue_delay_p95_ms", "compare",
               axis="aqm", a="codel", b="droptail", direction="lower")
          .check_on(buffer_pkts=1000), "BD"),
        c("BD.6", "RFC 8033 sec. 1",
          "With a large (1000-packet) buffer PIE cuts the 95th-percentile wait below FIFO's "
          "(paired per seed, CI below 0).",
          _own("BD.6", "pie vs fifo p95", "queue_delay_p95_ms", "compare",
               axis="aqm", a="pie", b="droptail", direction="lower")
          .check_on(buffer_pkts=1000), "BD"),
        c("BD.7", "RFC 8289 sec. 1 ('high utilization'); Nichols & Jacobson 2012",
          "CoDel's low delay costs little throughput: the bottleneck's utilisation with CoDel "
          "is within 0.05 of FIFO's (partly within 0.10) at the 1000-packet buffer.",
          _own("BD.7", "codel utilisation", "utilization", "compare", axis="aqm",
               a="codel", b="droptail", within=0.05, partly_within=0.10)
          .check_on(buffer_pkts=1000), "BD"),
        c("BR.1", "RFC 9438 sec. 3.3 (Principle 3, RTT-fairness)",
          "CUBIC shares the link more evenly than NewReno among flows of different RTTs "
          "(20..200 ms) over a FIFO: Jain's index of CUBIC above NewReno's (paired per seed).",
          _own("BR.1", "cubic rtt-fairer", "jain_index", "compare",
               axis="congestion_control", a="cubic", b="newreno", direction="higher")
          .check_on(aqm="droptail"), "BR"),
        c("BR.2", "RFC 9438 sec. 3.3 with RFC 8289",
          "The same under CoDel: CUBIC's Jain index across RTTs above NewReno's.",
          _own("BR.2", "cubic rtt-fairer codel", "jain_index", "compare",
               axis="congestion_control", a="cubic", b="newreno",
               direction="higher").check_on(aqm="codel"), "BR"),
        c("BR.3", "RFC 8290 sec. 1, 4 (FQ-CoDel)",
          "FQ-CoDel gives near-equal shares across RTTs: Jain's index of CUBIC flows at RTTs "
          "20..200 ms at least 0.95.",
          _own("BR.3", "fq_codel equal shares", "jain_index", "level", hold_at=0.95,
               partly_at=0.8).check_on(aqm="fq_codel", congestion_control="cubic"), "BR"),
    ]
