"""Kaur & Vin's question asked for today's Internet (issue 52): does a high-priority EF class
hurt TCP throughput and fairness when the senders run CUBIC (RFC 9438) and the best-effort
class is CoDel (RFC 8289), PIE (RFC 8033) or FQ-CoDel (RFC 8290) rather than drop-tail? Not a paper: claims restated
from Kaur & Vin (UT Austin TR2001-1, 2000) and the RFCs before the runs (``claims``).

Builder ``todays_kaur_vin`` (``scenario``): the registered ``kaur_vin`` builder, called by
name, with ``congestion_control`` and the best-effort class's ``aqm`` (per DiffServ class,
under the priority scheduler). Sweeps ``tk2`` (one flow vs T_on) and ``tk5`` (32 flows, with
and without EF).
"""
from __future__ import annotations

from diffsweep.papers import Family, Paper

__all__ = ["PAPER"]

FAMILIES = (
    Family("TK2", "2", ("tk2",),
           "Fig. 2 today: one TCP flow beside EF, NewReno / CUBIC x drop-tail / CoDel / PIE / "
           "FQ-CoDel"),
    Family("TK5", "5", ("tk5",),
           "Figs. 5-7 today: 32 flows with and without EF, fairness and aggregate throughput"),
)

ASSUMPTIONS = (
    "Kaur & Vin's topology and defaults as the kaur_vin builder has them (docs/builders.md, "
    "the kaur-vin report's assumptions): every link 40 Mb/s, EF 30% exponential on-off at line "
    "rate in its own strict-priority class, 200 KB best-effort buffer, 536 B + 40 B segments, "
    "Reno loss recovery, RTP 8 ms, ns-2.35 timers; same-slot arrivals in random order.",
    "Today's changes: every TCP flow's window grows as NewReno's AIMD or as CUBIC (ns-3.44 "
    "TcpCubic defaults, HyStart on) over Reno's loss recovery; the best-effort class is "
    "drop-tail, CoDel (target 5 ms, interval 100 ms, MinBytes 1500), PIE (reference 15 ms, "
    "byte mode with its 1000-B mean packet size: the class's limit is in bytes) or FQ-CoDel "
    "(1024 buckets of the flow index, quantum 1500 B, CoDel per flow queue as above), the "
    "200 KB buffer their hard limit (FQ-CoDel's in packets: 200 KB / 576 B = 347). CoDel and PIE measure a packet's sojourn including the time the "
    "EF class holds the link (the priority scheduler serves EF first). No ECN.",
    "U: the TCP flows' throughput on the wire over the bandwidth left by EF (Kaur & Vin sec. "
    "2.3); fairness: Jain's index of the flows' goodput.",
    "Claims were written and committed before the first run (git log of "
    "python/diffsweep/papers/todays_kaur_vin/claims.py).",
)

SETUP = (
    "Kaur & Vin's dumbbell (40 Mb/s, strict-priority EF at 30% of the link, exponential on-off) "
    "with CUBIC or NewReno windows and drop-tail, CoDel, PIE or FQ-CoDel in the best-effort class: one "
    "TCP flow over EF's T_on 0.4..400 ms, and 32 flows of equal RTP with and without EF."
)

PAPER = Paper(
    name="todays-kaur-vin",
    package="todays_kaur_vin",
    title="Kaur & Vin today: EF priority beside CUBIC, CoDel, PIE and FQ-CoDel",
    setup=SETUP,
    families=FAMILIES,
    assumptions=ASSUMPTIONS,
    builders={"todays_kaur_vin": "diffsweep.papers.todays_kaur_vin.scenario:todays_kaur_vin"},
    claims="diffsweep.papers.todays_kaur_vin.claims:todays_kaur_vin_claims",
    figures="diffsweep.papers.todays_kaur_vin.figures:FIGURES",
    run_note="Not a paper: the full sweeps run 100 s (10-s warm-up) with 10 seeds, the quick "
             "ones 30 s (5-s warm-up) with 2 seeds.",
)
