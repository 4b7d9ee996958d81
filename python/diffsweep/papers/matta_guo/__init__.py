"""Matta & Guo, "Differentiated Predictive Fair Service for TCP Flows"
(``shared/papers/matta-guo-isolation-short-long.md``): families M3, M4, M5 (Figs. 3-5) of
``shared/FIGURES.md``. M7 (Fig. 7, web background on a diamond) is not implemented yet.

Modules: ``scenario`` (the builder ``matta_guo``), ``tables`` (per-session goodput per 20-s
interval, Jain per class), ``figures``, ``claims``. Sweeps: ``m3``, ``m4``, ``m5``.
"""
from __future__ import annotations

from diffsweep.papers import Family, Paper

__all__ = ["PAPER"]

FAMILIES = (
    Family("M3", "3", ("m3",), "Fig. 3: large pipe (N = 30): fairness and goodput per class vs k"),
    Family("M4", "4", ("m4",), "Fig. 4: small pipe (N = 60): fairness and goodput per class vs k"),
    Family("M5", "5", ("m5",), "Fig. 5: fairness and goodput per class vs k_b/k_c (N = 30)"),
)

ASSUMPTIONS = (
    "Dumbbell of Fig. 2, Table 2: bottleneck 40 ms; access links 5 ms at 4 C_u = 10 Mb/s with "
    "4000-packet buffers (one per sender); receivers 5 ms; ACKs return uncongested over 50 ms "
    "(round trip 100 ms, the paper's estimate). TCP Reno, 536-B segments + 40 B = 576 B, "
    "window 128, initial window 1, one ACK per packet, timer tick 0.5 s (min RTO 0.2 s, "
    "initial RTO 3 s: diffsweep's defaults), no SYN.",
    "Isolation: CBQ without lending; short pipe k_c = k_b = 1 (C_u, B_u), long pipe k C_u with "
    "buffer_ratio x k x B_u; sharing: one drop-tail FIFO of the summed rate and buffers. "
    "Buffers rounded to whole packets.",
    "Sessions: N short (10-packet) and N long (1000-packet) sessions of back-to-back "
    "connections; the next connection starts an exponential think time of mean 1 ms after the "
    "last was received. DEVIATION: the first connection too starts after such a think time, so "
    "sessions start within milliseconds, not uniformly in the first 5 s.",
    "Each session is a traffic generator (the per-session goodput needs it); the engine takes at "
    "most 64 generators, so at N = 60 a generator holds 2 sessions and the fairness index is "
    "computed over 30 pairs (their mean per-session goodput): it smooths the index upward.",
    "Telnet background: 6 flows (3 per pipe under isolation) with exponential packet intervals "
    "of mean 1 s; ns-2's tcplib telnet distribution is not modelled.",
    "Goodput of a session in a 20-s interval: each connection's packets spread evenly over its "
    "lifetime (start to last packet received; an unfinished one: packets sent less "
    "retransmissions over start to run end). The first 20-s interval is left out (warm-up). "
    "Fairness: Jain's index over the class's sessions per interval, averaged over intervals; "
    "goodput: the class's mean over intervals (Mb/s of 576-B packets). 95% CIs over seeds.",
    "Run length: the paper gives none; the full sweeps run 200 s (9 measured intervals), 5 "
    "seeds; the quick ones 60 s (2 measured intervals), 2 seeds, 3 points.",
)

SETUP = (
    'Matta & Guo, "Differentiated Predictive Fair Service for TCP Flows". N sessions of short '
    "(10-packet) and N of long (1000-packet) back-to-back TCP Reno connections plus 6 telnet "
    "flows cross a 40-ms bottleneck (Fig. 2, Table 2; C_u = 2.5 Mb/s, B_u = 50 packets). "
    "Isolation: two CBQ pipes (short: C_u, B_u; long: k C_u, k B_u); sharing: one drop-tail "
    "FIFO of both. Fairness (Jain) and goodput per class over 20-s intervals."
)

PAPER = Paper(
    name="matta-guo",
    package="matta_guo",
    title='Matta & Guo, "Differentiated Predictive Fair Service for TCP Flows"',
    setup=SETUP,
    families=FAMILIES,
    assumptions=ASSUMPTIONS,
    builders={"matta_guo": "diffsweep.papers.matta_guo.scenario:matta_guo"},
    claims="diffsweep.papers.matta_guo.claims:matta_guo_claims",
    figures="diffsweep.papers.matta_guo.figures:FIGURES",
    run_note=("The paper gives no run length or number of runs; the full sweeps run 200 s with "
              "5 seeds, the quick ones 60 s with 2 seeds."),
)
