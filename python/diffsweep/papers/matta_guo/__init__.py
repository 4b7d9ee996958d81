"""Matta & Guo, "Differentiated Predictive Fair Service for TCP Flows"
(``shared/papers/matta-guo-isolation-short-long.md``): families M3, M4, M5 (Figs. 3-5) of
``shared/FIGURES.md``, M7 (Fig. 7: web background on the two-path diamond of Fig. 6), and ML
(Sec. 6's open question: lifetime-based classification over its threshold; full reproduction
only, or ``--figure l``).

Modules: ``scenario`` (the builders ``matta_guo`` and ``matta_guo_web``), ``tables``
(per-session goodput per 20-s interval, Jain per class), ``figures``, ``claims``, ``atlas``
(the claims ``diffsweep atlas`` maps over the threshold). Sweeps: ``m3``, ``m4``, ``m5``,
``m7``, ``ml``.
"""
from __future__ import annotations

from diffsweep.papers import Family, Paper

__all__ = ["PAPER"]

FAMILIES = (
    Family("M3", "3", ("m3",), "Fig. 3: large pipe (N = 30): fairness and goodput per class vs k"),
    Family("M4", "4", ("m4",), "Fig. 4: small pipe (N = 60): fairness and goodput per class vs k"),
    Family("M5", "5", ("m5",), "Fig. 5: fairness and goodput per class vs k_b/k_c (N = 30)"),
    Family("M7", "7", ("m7",), "Fig. 7: web background on two paths: fairness and goodput of "
           "short and long sessions per splitting scheme"),
    # Not a paper figure: the paper's open question of Sec. 6, the threshold of lifetime-based
    # classification (full reproduction only, or --figure l; its atlas: docs/atlas/).
    Family("ML", "l", ("ml",), "Sec. 6: lifetime-based classification, where isolation stops "
           "paying over the threshold N", full_only=True),
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
    "connections, one traffic generator per class with a pool slot per session; a session's "
    "first connection starts at a uniform time in the first 5 s (Sec. 4.1), each next one an "
    "exponential think time of mean 1 ms after the last was received.",
    "Telnet background: 6 flows (3 per pipe under isolation), ns-2 Application/Telnet with "
    "interval_ 0: gaps from tcplib's telnet distribution (diffsweep's 161-number summary of "
    "ns-2's 10,000-sample table: mean 1.10 s vs 1.09 s, same median 0.236 s), one 576-B "
    "segment per gap.",
    "Goodput of a session in a 20-s interval: each connection's packets spread evenly over its "
    "lifetime (start to last packet received; an unfinished one: packets sent less "
    "retransmissions over start to run end). The first 20-s interval is left out (warm-up). "
    "Fairness: Jain's index over the class's sessions per interval, averaged over intervals; "
    "goodput: the class's mean over intervals (Mb/s of 576-B packets). 95% CIs over seeds.",
    "Run length: the paper gives none; the full sweeps run 200 s (9 measured intervals), 5 "
    "seeds; the quick ones 60 s (2 measured intervals), 2 seeds, 3 points of k.",
    "Fig. 7 (Sec. 4.4, Table 3): the diamond of Fig. 6 as two parallel 5 Mb/s links of 100 ms "
    "with 250-packet buffers (RED: 20 / 245 packets, max_p 0.002, w_q 0.002, gentle); access "
    "5 ms at 3 C = 15 Mb/s with 4000-packet buffers, egress 4.5 ms, ACKs back over 109.5 ms: "
    "a round trip of 219 ms, i.e. Table 3's C x RTT = 238 packets (the paper prints no "
    "delays). The rest of Fig. 6 (the pools' own links) is not modelled.",
    "ML (Sec. 6, not in the paper's figures): lifetime-based classification, a connection's "
    "first N packets in the short pipe and the rest in the long pipe; the pipes are two links "
    "of the pipes' rates and buffers (40 ms each; each serialises at its own rate) because the "
    "engine classifies per packet by route; telnet flows stay on their pipes. N = 30 sessions "
    "per class, k = 1, 4, 8, N = 1..1000 packets.",
    "Fig. 7 foreground: 10 sessions of back-to-back 1000-packet and 10 of 10-packet "
    "connections (Table 3's 'connections', read as the sessions of Sec. 4.2), measured like "
    "Figs. 3-5. Background: Table 3's web model, 200 sessions of 1,900 one-object pages at "
    "exponential intervals of mean 2.4 s (83 connections/s), bounded Pareto sizes on [4, "
    "2e5] packets with shape 1.2 (mean 21 packets): about 81% of the two paths' 10 Mb/s. "
    "Every flow, foreground and background, is routed by the scheme; under lifetime-based "
    "splitting a flow's packets in flight stay on path 1 when it moves.",
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
    builders={"matta_guo": "diffsweep.papers.matta_guo.scenario:matta_guo",
              "matta_guo_web": "diffsweep.papers.matta_guo.scenario:matta_guo_web"},
    claims="diffsweep.papers.matta_guo.claims:matta_guo_claims",
    figures="diffsweep.papers.matta_guo.figures:FIGURES",
    maps="diffsweep.papers.matta_guo.atlas:MAPS",
    run_note=("The paper gives no run length or number of runs; the full sweeps run 200 s with "
              "5 seeds, the quick ones 60 s with 2 seeds."),
)
