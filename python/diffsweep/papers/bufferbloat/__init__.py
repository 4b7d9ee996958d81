"""Bufferbloat today (issue 52, "the seeds' questions for today's Internet"): CUBIC over a FIFO
(drop-tail), CoDel (RFC 8289) and PIE (RFC 8033) at a dumbbell bottleneck, over buffer size x
flows x RTT: the queueing delay against utilisation and fairness, with 95% intervals. Not a
paper: a family of claims stated from the RFCs before the runs (``claims``).

Sweeps ``sweeps/bufferbloat/bb_delay.toml`` (family BD) and ``bb_rtt.toml`` (BR), on the
generic ``dumbbell`` builder; FQ-CoDel (RFC 8290) joined both sweeps' aqm axis when it was
merged, after the first runs (claim BR.3 was stated with the others, before any run).
"""
from __future__ import annotations

from diffsweep.papers import Family, Paper

__all__ = ["PAPER"]

FAMILIES = (
    Family("BD", "d", ("bb_delay",),
           "Queueing delay vs utilisation: CUBIC over FIFO, CoDel, PIE, FQ-CoDel x buffer x N x RTT"),
    Family("BR", "r", ("bb_rtt",),
           "RTT fairness: NewReno vs CUBIC, 8 flows at 20..200 ms, over FIFO, CoDel, PIE, FQ-CoDel"),
)

ASSUMPTIONS = (
    "The standard dumbbell (builder dumbbell, docs/model.md): one 10 Mb/s bottleneck, 10 ms "
    "each way, 100 Mb/s access links, ACKs uncongested; 1000-B segments + 40 B; window 4000 "
    "packets (never the limit); NewReno loss recovery under CUBIC's window.",
    "CUBIC as ns-3.44's TcpCubic with its defaults (C 0.4, beta 0.7, fast convergence, "
    "TCP-friendly region, HyStart); CoDel target 5 ms, interval 100 ms; PIE reference 15 ms, "
    "update 15 ms, burst allowance 150 ms (ns-3.44's defaults); no ECN (drops).",
    "Queueing delay: each packet's wait at the bottleneck from arrival to departure, from the "
    "histogram queue_delay_hist (docs/columns.md); utilisation: the bottleneck's bytes sent "
    "over its capacity after the warm-up.",
    "BR: round trips evenly spread over 20..200 ms (rtt_min_ms/rtt_max_ms), buffer 250 "
    "packets (about the bandwidth-delay product at the mean RTT).",
    "Claims were written and committed before the first run (git log of "
    "python/diffsweep/papers/bufferbloat/claims.py).",
)

SETUP = (
    "Bufferbloat (Gettys & Nichols 2011) asked of today's stack: CUBIC senders (RFC 9438) over "
    "a FIFO, CoDel (RFC 8289), PIE (RFC 8033) and FQ-CoDel (RFC 8290) at a 10 Mb/s dumbbell "
    "bottleneck, buffer 100 "
    "or 1000 packets, 4 or 16 flows, RTT 20 or 100 ms; and NewReno against CUBIC with flows of "
    "round trips 20..200 ms."
)

PAPER = Paper(
    name="bufferbloat",
    package="bufferbloat",
    title="Bufferbloat today: CUBIC over FIFO, CoDel, PIE and FQ-CoDel",
    setup=SETUP,
    families=FAMILIES,
    assumptions=ASSUMPTIONS,
    builders={},
    claims="diffsweep.papers.bufferbloat.claims:bufferbloat_claims",
    figures="diffsweep.papers.bufferbloat.figures:FIGURES",
    run_note="Not a paper: the full sweeps run 120 s (20-s warm-up) with 10 seeds, the quick "
             "ones 40 s (10-s warm-up) with 4 seeds.",
)
