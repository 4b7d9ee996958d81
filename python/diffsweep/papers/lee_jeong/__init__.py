"""Lee & Jeong, "Improvement of fairness between assured service TCP users in a differentiated
service network" (the Balancing Marker; ``shared/papers/lee-jeong-balancing-marker.md``):
families LT2 (Table 2) and L4..L11 (Figs. 4-11) of ``shared/FIGURES.md``.

Modules: ``scenario`` (the builder ``lee_jeong``), ``tables`` (per-seed tables), ``figures``,
``claims``; ``data/table2.csv``: the paper's Table 2 (fairness and throughput per cell).
Every family reads the one sweep ``table2`` (all 16 cells).
"""
from __future__ import annotations

from diffsweep.papers import Family, Paper

__all__ = ["PAPER"]

_SWEEP = ("table2",)

FAMILIES = (
    Family("LT2", "t2", _SWEEP, "Table 2: Jain index and total throughput of the 7 connections, "
           "Marker vs BMarker"),
    Family("L4", "4", _SWEEP, "Fig. 4: rates per connection and best effort, (7 Mb/s, 70 pkts), "
           "no UDP"),
    Family("L5", "5", _SWEEP, "Fig. 5: rates per connection and UDP, (7 Mb/s, 70 pkts)"),
    Family("L6", "6", _SWEEP, "Fig. 6: rates per connection and best effort, (3.5 Mb/s, 35 pkts), "
           "no UDP"),
    Family("L7", "7", _SWEEP, "Fig. 7: rates per connection and UDP, (3.5 Mb/s, 35 pkts)"),
    Family("L8", "8", _SWEEP, "Fig. 8: rates per connection and best effort, (7 Mb/s, 35 pkts), "
           "no UDP"),
    Family("L9", "9", _SWEEP, "Fig. 9: rates per connection and UDP, (7 Mb/s, 35 pkts)"),
    Family("L10", "10", _SWEEP, "Fig. 10: rates per connection and best effort, (3.5 Mb/s, "
           "70 pkts), no UDP"),
    Family("L11", "11", _SWEEP, "Fig. 11: rates per connection and UDP, (3.5 Mb/s, 70 pkts)"),
)

# The run's duration, warm-up and seeds come first in the report, from the sweep file run.
ASSUMPTIONS = (
    "Case numbering: the text defines case 2 = (3.5 Mb/s, 35 pkts) and case 4 = (3.5, 70), but "
    "Table 2 labels Case2 (3.5M, 70) and Case4 (3.5M, 35); the text's case-2 numbers (0.84/0.94,"
    " 4.67/5.07 Mb/s) are Table 2's row (3.5M, 35). Cells are named by (CIR, bucket) and "
    "compared with the Table 2 row of that label; Figs. 4/5 = (7, 70), 6/7 = (3.5, 35), "
    "8/9 = (7, 35), 10/11 = (3.5, 70) (the text's case 1..4).",
    "Balancing Marker re-marking curve P(W) (a lost figure): P = 1 for W = AR_x / R_x_basic "
    "<= 1, 0 for W >= 2, linear between (builder parameters w_lo, w_hi, p_max); AR_x measured "
    "over 1 s (window_s); a connection silent for 1 s is inactive (active_s); each first bucket "
    "holds bucket/7 packets (Table 3: 10 with 70, 5 with 35) and fills at CIR / active "
    "connections.",
    "Best-effort TCP (S8..S17) and UDP packets are RED (the lowest drop precedence, shared with "
    "OUT packets) and pass no marker; the aggregate's OUT packets are RED too, BMarker's "
    "re-marked ones YELLOW.",
    "Delays as the ns-2.35 scripts (benchmarks/ns2/lee_jeong): access d + 1 ms (edge -> core "
    "1 ms folded in), bottleneck 10 Mb/s 1 ms, destination 1 ms, ACKs back uncongested over the "
    "same delays: round trips 206 ms (S1) .. 10 ms (S7, best effort). Access links 10 Mb/s "
    "with 200-packet buffers (never full).",
    "RIO-C in one 100-packet queue (the paper's router buffer), thresholds of Table 3 in "
    "packets with a mean packet of 1000 B, RED weight 0.002 (ns-2's default), not gentle.",
    "TCP Reno, 960 B segments + 40 B header = 1000 B on the wire, window 110, one ACK per "
    "packet, ns-2.35 timer defaults (tick 10 ms, min RTO 200 ms, initial window 2, bugFix_ "
    "on), limited transmit on (ns-2.35's singledup_ 1). The paper used 'NS-1', whose defaults "
    "are unknown. Start times uniform in [0, 1) s, a new draw per seed.",
    "UDP: two sources, square wave 20 ms on / 20 ms off (period 0.04 s), 10 Mb/s while on, "
    "1000 B packets, a random phase per source.",
    "Rates count delivered bytes (goodput, 1000 B per packet on the wire) over the whole "
    "60 s run (no warm-up: the paper states none); UDP rates count bytes emitted by the "
    "sources. Jain's index over S1..S7 per seed, then averaged (95% CI over seeds). "
    "BAB = CIR / 7 and ATB = BAB + (10 Mb/s - CIR) / 17 as the paper's formulas (with and "
    "without UDP alike).",
)

SETUP = (
    'Lee & Jeong, "Improvement of fairness between assured service TCP users in a '
    'differentiated service network" (Balancing Marker). Seven TCP Reno connections S1..S7 of '
    "one aggregated source (one-way delays 100, 80, 60, 40, 20, 10, 2 ms, 10 Mb/s) share a "
    "reserved rate CIR through one marker; ten best-effort TCP sources (2 ms) and, in the UDP "
    "cells, two on-off UDP sources (0.04 s period, 10 Mb/s when on) compete at a 10 Mb/s "
    "bottleneck with a 100-packet RIO queue. Method 1 (Marker): one token bucket, IN/OUT. "
    "Method 2 (BMarker): per-connection first buckets and a shared second bucket, 3 colours. "
    "Cells (CIR, bucket) = (7 Mb/s, 70), (3.5, 70), (7, 35), (3.5, 35) packets; 60 s, "
    "10 runs averaged."
)

PAPER = Paper(
    name="lee-jeong",
    package="lee_jeong",
    title='Lee & Jeong, "Improvement of fairness between assured service TCP users in a '
          'differentiated service network" (Balancing Marker)',
    setup=SETUP,
    families=FAMILIES,
    assumptions=ASSUMPTIONS,
    builders={"lee_jeong": "diffsweep.papers.lee_jeong.scenario:lee_jeong"},
    claims="diffsweep.papers.lee_jeong.claims:lee_jeong_claims",
    figures="diffsweep.papers.lee_jeong.figures:FIGURES",
    maps="diffsweep.papers.lee_jeong.atlas:MAPS",
    run_note=("The paper gives 60 s per run and 10 runs averaged; it states no warm-up, so "
              "the full run measures the whole 60 s."),
)
