"""Habib, Bhargava & Fahmy, "A Round Trip Time and Time-out Aware Traffic Conditioner for
Differentiated Services Networks" (``shared/papers/habib-bhargava-fahmy-rtt-rto-conditioner.md``):
families H3-H6, HT1 and HT2 of ``shared/FIGURES.md``.

Modules: ``scenario`` (builders ``habib_2a``, ``habib_2b``), ``tables`` (per-seed tables),
``figures``, ``claims``; ``data/results_ns2_habib.csv``: ns-2.35 on topology 2(a) with the
standard conditioner (``benchmarks/ns2/habib``).
"""
from __future__ import annotations

from diffsweep.papers import Family, Paper

__all__ = ["PAPER"]

FAMILIES = (
    Family("H3", "3", ("h3",), "Fig. 3: standard conditioner with and without small-window "
           "protection, throughput of F1 and F2 vs F2's RTT"),
    Family("H4", "4", ("h4",), "Fig. 4: basic RTT-aware, RTT-RTO and RTT-SW conditioners, "
           "throughput of F1 and F2 vs F2's RTT"),
    Family("H5", "5", ("h5",), "Fig. 5: cwnd of one F1 micro-flow, RTT-aware with and without "
           "small-window protection"),
    Family("H6", "6", ("h6",), "Fig. 6: multiple domains, throughput per aggregate per "
           "conditioner"),
    Family("HT1", "t1", ("ht1",), "Table I: telnet, per-packet and per-session delay"),
    Family("HT2", "t2", ("ht2",), "Table II: WWW, response time to the first packet and to "
           "all data"),
)

ASSUMPTIONS = (
    "Topology 2(a) as the ns-2.35 reference benchmarks/ns2/habib: every link 2.5 ms, 100 Mb/s "
    "but the 10 Mb/s bottleneck (the paper prints no rate; the text's F1 + F2 ~ 9.8 Mb/s "
    "suggests 10 Mb/s), 2000-packet edge queues (ns-2's reference: 20000; neither fills), "
    "F2's host link takes the rest of its round trip (so F2's RTT is at "
    "least 15 ms: the paper's 4-ms point is not run), ACKs return uncongested; RIO-C at the "
    "core with the paper's thresholds in 1064-B packets and a 100-packet buffer (ours).",
    "TCP NewReno (Reno for telnet and WWW, as the paper says), 1024-B segments + 40 B, window "
    "64, ns-2.35's initial window 2, timer tick 10 ms, minimum RTO 0.2 s, no SYN (ns-2.35 "
    "sends one); micro-flows start at uniform times in [0, 1) s.",
    "Conditioners per aggregate at its edge, CIR 2 Mb/s, PIR 3 Mb/s, TSW window 1 s (ns-2.35's "
    "fixed winLen): standard = TSW3CM; SW: a packet whose sender's cwnd was below k = 3 when "
    "sent is DP0; basic RTT-aware (Nandy et al.): out of profile w.p. (rate - CIR)/rate, then "
    "DP2 w.p. (RTT_ref/RTT)^2, else DP1; RTT-RTO (eq. 9): DP2 w.p. (RTT_ref/RTT) "
    "sqrt(RTO_ref/RTO), a flow at or below the references by its own RTT/RTO; RTT-SW: "
    "RTT-aware with SW. RTT and RTO are the sender's smoothed RTT (queueing included) and "
    "current RTO when it sends; RTT_ref is the shortest propagation round trip of the "
    "network's TCP-aware flows (F1's 20 ms, or F2's when shorter), RTO_ref max(0.2 s, RTT_ref) "
    "(docs/model.md, 'TCP-aware conditioners'). The DP2 share rides in 4 bits: within 1/28.",
    "Topology 2(b) is not in the text: two domains in a row (diffsweep.papers.habib.scenario."
    "habib_2b), F1 and F2 crossing both cores and conditioned at both domains' edges, F4 in "
    "domain A only, F3 and F5 in domain B only; propagation round trips F1 115, F2 165, F3 15, "
    "F4 45, F5 30 ms; both cores 10 Mb/s RIO-C; every aggregate 200 micro-flows (1,000 "
    "flows per replica).",
    "Tables I and II: all links 1 Mb/s, the edge links with the cores' RIO-C queue (at equal "
    "rates they are where the aggregates meet and queues build), and the conditioners' CIR/PIR scaled by the same 1/10 (0.2 / "
    "0.3 Mb/s: the paper gives no rates; at 2 Mb/s on 1 Mb/s links nothing is out of "
    "profile and every conditioner is the same); 100 telnet sessions per aggregate, each a "
    "uniform 5..35 segments of 1024 B at ns-2 tcplib telnet gaps; a segment's delay is from "
    "its write to its delivery, a session's delay the sum over its segments. CALIBRATED: the "
    "paper gives neither start times nor telnet packet sizes; sessions start at uniform times "
    "over the first 50 s, chosen so that the standard conditioner's delays sit at Table I's "
    "level (3.68 s per packet, 74 s per session, against 3.62 and 72.1; sessions all in the "
    "first second give 27 s per packet, spread over 60 s 1.5 s). The claims compare the "
    "conditioners, not the levels. Time slot 0.5 ms: the engine's default, one packet's time "
    "on the fastest link, is 8.512 ms at 1 Mb/s and would run F3's 15-ms round trip as "
    "8.512 ms; at 0.5 ms every propagation delay of the topology runs exactly.",
    "Table II: 50 web sessions over F1, F2, F3 (17, 17, 16), 5 pages each of one object (ns-2 "
    "WebTraf's default; the paper's 'variable number of objects' is not given), pages at "
    "exponential intervals of 1 s, objects ns-2 ParetoII (mean 10 packets, shape 1.2), links "
    "1 Mb/s, CIR/PIR 0.2/0.3 Mb/s; the server sits at the route's source (links are one-way). "
    "Response time: from the request (the object's arrival at the server, plus the "
    "uncongested request path back, one way) to the first data packet, and to the last.",
    "Throughput: payload bytes received per second after the warm-up; 95% CIs over seeds.",
)

SETUP = (
    'Habib, Bhargava & Fahmy, "A Round Trip Time and Time-out Aware Traffic Conditioner for '
    'Differentiated Services Networks". Aggregates of 200 TCP NewReno micro-flows (1024 B, '
    "window 64) conditioned at their edges (CIR 2, PIR 3 Mb/s) into RIO-C cores with three "
    "drop precedences DP0 {40, 55, 0.02}, DP1 {25, 40, 0.05}, DP2 {10, 25, 0.1}, w_q 0.002. "
    "Topology 2(a): F1 (RTT 20 ms) and F2 (RTT varied) over one 10 Mb/s bottleneck; 2(b): "
    "five aggregates over two domains. Conditioners: standard (TSW3CM), small-window "
    "protection (SW, k = 3), basic RTT-aware (Nandy et al.), RTT-RTO, RTT-SW."
)

PAPER = Paper(
    name="habib",
    package="habib",
    title='Habib, Bhargava & Fahmy, "A Round Trip Time and Time-out Aware Traffic Conditioner"',
    setup=SETUP,
    families=FAMILIES,
    assumptions=ASSUMPTIONS,
    builders={"habib_2a": "diffsweep.papers.habib.scenario:habib_2a",
              "habib_2b": "diffsweep.papers.habib.scenario:habib_2b"},
    claims="diffsweep.papers.habib.claims:habib_claims",
    figures="diffsweep.papers.habib.figures:FIGURES",
    metrics="diffsweep.papers.habib.sensitivity:METRICS",
    run_note="The paper gives no run length or number of runs; the full sweeps run 100 s "
             "(20-s warm-up) with 5 seeds, the quick ones 40 s with 2 seeds.",
)
