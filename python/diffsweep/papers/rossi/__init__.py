"""Rossi, Casetti & Mellia, "A Simulation Study of Web Traffic over DiffServ Networks"
(``shared/papers/rossi-casetti-mellia-web-over-diffserv.md``): families R2..R10 (Figs. 2-10)
of ``shared/FIGURES.md``.

Modules: ``scenario`` (the builder ``rossi``), ``tables`` (per-seed tables per cloud and size
class), ``figures``, ``claims``. Sweeps: ``r2`` (R2-R4: HTTP only, rho varies), ``r5`` (R5-R7:
plus 10 FTP sources per cloud), ``r8`` (R8-R10: rho 0.85, alpha_AF varies).
"""
from __future__ import annotations

from diffsweep.papers import Family, Paper

__all__ = ["PAPER"]

FAMILIES = (
    Family("R2", "2", ("r2",), "Fig. 2: completion time vs rho, HTTP only (underloading)"),
    Family("R3", "3", ("r2",), "Fig. 3: packet drop percentage vs rho, HTTP only"),
    Family("R4", "4", ("r2",), "Fig. 4: early-drop fraction vs rho, HTTP only"),
    Family("R5", "5", ("r5",), "Fig. 5: completion time vs rho, 10 FTP sources per cloud "
           "(overloading)"),
    Family("R6", "6", ("r5",), "Fig. 6: packet drop percentage vs rho, with FTP"),
    Family("R7", "7", ("r5",), "Fig. 7: early-drop fraction vs rho, with FTP"),
    Family("R8", "8", ("r8",), "Fig. 8: completion time vs alpha_AF at rho 0.85 "
           "(underprovisioning)"),
    Family("R9", "9", ("r8",), "Fig. 9: packet drop percentage vs alpha_AF"),
    Family("R10", "10", ("r8",), "Fig. 10: early-drop fraction vs alpha_AF"),
)

# The run's length (t_stop / t_halt) and seeds come first in the report, from the sweep files.
ASSUMPTIONS = (
    "Scenario as fixed by the ns-2.35 reference benchmarks/ns2/rossi (README): one 10 Mb/s, "
    "10 ms bottleneck S -> R; access 100 Mb/s, 1 ms; destination 1 ms; ACKs back uncongested "
    "over the same delays (round trip 24 ms); all AF senders share one access link, all BE "
    "senders another (never congested).",
    "Transfer sizes uniform over {1, 2, 3, 4, 5, 6, 7, 8, 10, 90} packets (mean 13.6 packets "
    "= 13.6 KB of 1000-B packets): our choice, the paper does not print its empirical set; it "
    "contains the reported classes pi = 1, 10 and 90. Poisson arrivals per cloud with mean "
    "interarrival 13.6 KB x 8 / (alpha_i rho 10 Mb/s); rho counts data bytes only.",
    "Marker: ONE TSW2CM aggregate over all AF transfers (and the AF FTP sources), CIR 5 Mb/s "
    "(SLA50), TSW window 1 s (ns-2's default winLen); two colours. BE packets are red (the "
    "same precedence as out-of-profile AF packets) and pass no marker.",
    "RIO-C in one 50-packet queue (the paper gives no buffer size; ours as the ns-2 "
    "reference), green 20/40/0.02, red 5/10/0.20 in packets of a 1000-B mean packet, w_q "
    "0.002 (ns-2's default), not gentle; the red average counts the whole queue (RIO-C).",
    "TCP Reno, 960 B + 40 B header = 1000 B on the wire, window 20 (ns-2's default), initial "
    "window 2, one ACK per packet, ns-2.35 timers (tick 10 ms, min RTO 0.2 s, initial RTO 3 s, "
    "bugFix_ on). Every transfer is a fresh connection (slow start, RTO re-initialised). The "
    "paper used ns-2.1b8a, whose defaults may differ.",
    "Connection set-up as ns-2's defaults since June 2001 (syn_ 1, delay_growth_ 1, the set "
    "the initial window 2 and limited transmit (singledup_ 1) come from): each transfer first "
    "sends a 40-B SYN (one extra round trip, ~24 ms; a lost SYN costs the 3-s initial RTO) and "
    "its window grows only after the SYN's ACK. The SYN counts as a packet sent and its drops "
    "as drops, as ns-2's counters. The paper's ns-2.1b8a predates both; the builder's "
    "syn=false, delay_growth=false gives the connection that sends data at once. "
    "benchmarks/ns2/rossi ran ns-2.35 with and without the SYN (docs/ns2-agreement.md).",
    "FTP background (Figs. 5-7): ftp_per_cloud = 10 backlogged Reno sources per cloud, same "
    "path and TCP as the web transfers, AF ones metered by the AF marker, BE ones red; start "
    "times uniform in [0, 1) s per seed.",
    "Measures over every transfer started before t_stop (no warm-up: the paper states none). "
    "Completion time = last data packet received - transfer start, over completed transfers "
    "(transfers unfinished at t_halt are counted in the report's tables, not in the means). "
    "Drop percentage = drops at the bottleneck / packets sent (retransmissions included); "
    "early-drop fraction = early (random) drops / all drops; red-marked share = AF packets "
    "marked red / AF packets sent. Per seed, then 95% Student-t CIs over seeds.",
    "Pool of 8192 connection slots per cloud (transfers alive at once): at rho 0.95 the BE "
    "cloud has up to ~2100 transfers alive (~4000 with FTP); the tables report refused "
    "arrivals (none expected).",
)

SETUP = (
    'Rossi, Casetti & Mellia, "A Simulation Study of Web Traffic over DiffServ Networks". Two '
    "clouds (DS/AF and BE) send web-like TCP Reno transfers (sizes from an empirical set, mean "
    "13.6 KB; Poisson arrivals with mean lambda/(alpha_i rho B)) over a 10 Mb/s bottleneck; a "
    "TSWTCM marker (CIR = half the bottleneck, SLA50) colours AF packets green or red; RIO-C "
    "(green 20/40/0.02, red 5/10/0.20). No new flows after t_stop = 600 s, halt at t_halt = "
    "900 s. Metrics per flow-length class pi = 1, 10, 90 packets: completion time, packet drop "
    "percentage, early-drop fraction; AF at the bottom, BE on top of each figure."
)

PAPER = Paper(
    name="rossi",
    package="rossi",
    title='Rossi, Casetti & Mellia, "A Simulation Study of Web Traffic over DiffServ Networks"',
    setup=SETUP,
    families=FAMILIES,
    assumptions=ASSUMPTIONS,
    builders={"rossi": "diffsweep.papers.rossi.scenario:rossi"},
    claims="diffsweep.papers.rossi.claims:rossi_claims",
    figures="diffsweep.papers.rossi.figures:FIGURES",
    maps="diffsweep.papers.rossi.atlas:MAPS",
    metrics="diffsweep.papers.rossi.sensitivity:METRICS",
    run_note=("This builder has no duration_s ('the builder's default' above): each replica "
              "runs to t_halt_s, set with t_stop_s in each sweep's [fixed] section: t_stop 600 s "
              "and t_halt 900 s in the full run (the paper's), 100 s and 150 s in the quick "
              "run. The paper averages 'at least 20,000 samples' and gives no number of runs; "
              "the full run uses 5 seeds (about 2 minutes on 2 cores)."),
)
