"""Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP Throughput and Fairness" (UT Austin
TR2001-1, 2000; ``shared/papers/kaur-vin-ef-priority-tcp.md``): families K2..K10 and Kf of
``shared/FIGURES.md``, two families that explain verdicts (K2v, K5v), and two that answer the
paper's own open questions (Kr: RED at the bottleneck; Kt: a telnet share of the link) and one
that rates its SACK sentence (Ks: SACK senders beside Reno); all three only in the full
reproduction or when ``--figure r`` / ``t`` / ``s`` names them.

Modules: ``scenario`` (the builder ``kaur_vin``), ``tables`` (per-seed tables), ``figures``,
``claims``, ``explain`` (the K2v and K5v families); ``data/results_ns2_k2.csv``: ns-2.35 on the
matched single-flow scenario (``benchmarks/ns2``).
"""
from __future__ import annotations

from diffsweep.papers import Family, Paper

__all__ = ["PAPER"]

# Families K5-K9 (the fairness figures) run with same-slot arrivals in flow-index order: the
# paper's ns-2 had no timing noise (overhead_ 0), so the primary reproduction of Figs. 5-9 runs
# the same way (issue 10's decision). K6, K8, K9 read the T_on = 1 ms runs of K7. K10 reads every
# flow of the runs in the engine's default random order (the Padhye model's error should not
# carry phase effects); Kf reads the f = 5, 10, 20 % variants.
FAMILIES = (
    Family('K2', '2', ('k2',),
           'Fig. 2: effect of EF burstiness on one TCP flow'),
    Family('K3', '3', ('k3',),
           'Fig. 3: effect of the RTP on the loss in TCP throughput'),
    Family('K4', '4', ('k4',),
           'Fig. 4: many TCP flows, loss in aggregate throughput and timeouts per flow'),
    Family('K5', '5', ('k5_equal_index', 'k5_unequal_index'),
           'Fig. 5: fairness (min-max ratio) vs EF burst duration (flow-index order)'),
    Family('K6', '6', ('k7_equal_index', 'k7_unequal_index'),
           'Fig. 6: normalized throughput with and without EF (T_on = 1 ms, flow-index order)'),
    Family('K7', '7', ('k7_equal_index', 'k7_unequal_index'),
           'Fig. 7: fairness vs number of TCP flows (flow-index order)'),
    Family('K8', '8', ('k7_equal_index', 'k7_unequal_index'),
           'Fig. 8: normalized throughput per N, equal RTPs (flow-index order)'),
    Family('K9', '9', ('k7_equal_index', 'k7_unequal_index'),
           'Fig. 9: normalized throughput per N, unequal RTPs (flow-index order)'),
    Family('K10', '10', ('k2', 'k4', 'k7_equal', 'k7_unequal'),
           'Fig. 10: error of the Padhye et al. model'),
    Family('Kf', 'f', ('kf_k2', 'kf_k4', 'kf_k5'),
           'Other EF fractions (5, 10, 20%)'),
    # Not a paper figure: Fig. 2 under other model settings, to explain K2's verdicts.
    Family('K2v', '2v', ('k2', 'k2_newreno', 'k2_ns2000'),
           'Why Fig. 2 differs: the same experiment with NewReno, with 2000-era ns-2 '
           'timers, and in ns-2.35 itself',
           make="diffsweep.papers.kaur_vin.explain:make_k2v"),
    # Not a paper figure: Figs. 5-9's claims under the two conditions with timing noise, the
    # robustness variants of the primary flow-index order: random order of same-slot arrivals
    # (the engine's default) and index order with ns-2's send jitter overhead_ (0.1 ms; 1 ms in
    # the full run), to explain the fairness verdicts (benchmarks/ns2: ns-2.35 itself on the
    # matched K5).
    Family('K5v', '5v', ('k5_equal_index', 'k5_unequal_index',
                         'k7_equal_index', 'k7_unequal_index',
                         'k5_equal', 'k5_unequal', 'k7_equal', 'k7_unequal',
                         'k5_equal_jitter', 'k5_unequal_jitter', 'k7_equal_jitter',
                         'k7_unequal_jitter'),
           'How robust the fairness results are: Figs. 5-9 with same-slot arrivals in '
           'random order, and with ns-2\'s send jitter',
           make="diffsweep.papers.kaur_vin.explain:make_k5v"),
    # Not a paper figure: the paper's future work (sec. 5), its claims of Figs. 2, 4a, 5a and 6
    # (Conclusions 1, 3, 4) again with the two remedies for phase effects it cites from Floyd &
    # Jacobson: RED at the bottleneck, and 15% of the link in telnet traffic of another packet
    # size. Full reproduction only (or --quick --figure r t): the quick one keeps its time.
    Family('Kr', 'r', ('kr_k2', 'kr_k5'),
           'Future work: EF with RED at the bottleneck (Figs. 2a, 4a, 5a again)',
           full_only=True),
    Family('Kt', 't', ('kt_k2', 'kt_k5'),
           'Phase-effect remedy: EF with a 15% telnet share of the link (Figs. 2a, 4a, 5a again)',
           full_only=True),
    # Not a paper figure: sec. 5's sentence that the observations hold under TCP-SACK. The
    # claims of Figs. 2-9 (Conclusions 1-4, the timeouts, M vs N, the UDP networks) on SACK
    # senders and on Reno in the same sweeps (a tcp axis, same seeds), and the sentence's
    # verdict from the two; each check reads the sweeps of its primary claim's grid
    # (questions.KS_READS). Full reproduction only (or --quick --figure s).
    Family('Ks', 's', ('ks_k3', 'ks_k4', 'ks_k5', 'ks_k5_unequal', 'ks_k7_equal',
                       'ks_k7_unequal'),
           'TCP SACK: the claims of Figs. 2-9 with SACK senders beside Reno',
           full_only=True),
)

# The run's duration, warm-up and seeds come first in the report, from the sweep files run
# (diffsweep.studies.reproduce.run_assumption).
ASSUMPTIONS = (
    "TCP timers are ns-2.35's defaults: tcpTick 10 ms, minimum RTO 200 ms, maximum 60 s, "
    'initial RTO 3 s, windowInit 2. The ns-2 of 2000 used tcpTick 100 ms and no minimum.',
    "Reno without ns-2's bugFix_ (a second fast retransmit in one window is allowed): the"
    " paper's timeout rule (sec. 3.1.1) describes that Reno; ns-2.35 defaults bugFix_ on.",
    'Segments of 536 B payload plus 40 B of TCP/IP header: 576 B on the wire.',
    "Every link buffer is 200 KB (40 Mb/s x 40 ms, sec. 2.1.1): the bottleneck's "
    "best-effort queue and each sender's access-link queue (347 packets of 576 B).",
    "Each TCP flow has its own 40 Mb/s access link (the paper's 8 shared input links are "
    'not modelled); EF has its own input link, strict priority and no best-effort buffer.',
    'An RTP splits as: bottleneck 0.5 ms one way, access and egress (rtp/2 - 0.5)/2 each,'
    ' the uncongested ACK path rtp/2.',
    'RTPs of unequal-RTP runs are drawn uniformly within each of 8 equal intervals over '
    '12-26 ms, N/8 flows per interval, a new draw per seed.',
    'UDP (TCP+UDP networks): exponential on-off at 40 Mb/s while on, mean burst 4 ms, 5 %'
    ' of the link, 1000 B packets (packet size and peak rate are not given).',
    'EF on-off source: exponential on/off periods in continuous time, 1500 B packets at '
    'line rate while on, credit carried between bursts (the long-run rate is exactly f x '
    'C); the first period is drawn from the stationary distribution.',
    'Figs. 5-9 (K5-K9): same-slot arrivals at a queue in flow-index order and no send jitter '
    '(ns-2 overhead_ 0), as the paper\'s ns-2 ran: the primary reproduction. Everything else '
    '(K2-K4, K10, Kf) orders same-slot arrivals at random, the engine\'s default. Family K5v '
    'evaluates the fairness claims also in random order and in index order with a send jitter '
    'of 0.1 and 1 ms; ns-2.35 on the matched K5 scenario is fair without jitter (M = 0.85) '
    'and agrees with diffsweep\'s random order and its 0.1 ms jitter (benchmarks/ns2).',
    'Families Kr and Kt (sec. 5, not the paper\'s set-up): RED on the best-effort class of '
    'the bottleneck, thresholds 1/4 and 3/4 of its 200 KB buffer (87 / 260 packets of 576 B), '
    'max_p 0.1, w_q 0.002, gentle; or 16 telnet-like flows (exponential gaps, 240-B packets) '
    'offering 15% of the link, first in flow order, left out of N, M and U, their offered rate '
    'subtracted from the bandwidth available to TCP. Same-slot arrivals in flow-index order at '
    'N = 64 (as K5-K9), random for one flow (as K2).',
    'Family Ks (sec. 5): ns-2.35\'s Agent/TCP/Sack1 senders with the Sack1 sink, and Reno, as '
    'a sweep axis over the same grid and seeds: one flow at RTP 6-12 ms (as K3; its 8 ms rows '
    'are K2\'s grid), N = 8..128 flows of unequal RTPs (as K4, T_on on 7 of its 13 points), 64 '
    'flows of equal and of unequal RTPs in flow-index order (as K5, T_on on 7 points; the '
    'equal ones as Kr\'s grid, without UDP) and N = 8..128 at T_on = 1 ms in flow-index order '
    '(as K7), drop-tail.',
    'U counts TCP throughput on the wire (576 B per 536 B segment) over the bandwidth '
    'left by EF and UDP (their mean rates).',
    'Time is slotted at one 576 B packet time at 40 Mb/s (115.2 us); delays are rounded '
    'to whole slots (the report of each run gives the rounding error).',
)

SETUP = (
    'Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP Throughput and Fairness" '
    '(UT Austin TR2001-1, 2000). Dumbbell, every link 40 Mb/s; EF enters R1 on its own '
    'input link with strict priority on R1->R2; best-effort drop-tail buffer 200 KB; TCP '
    'Reno, 536 B segments, large receiver window, backlogged senders. EF: exponential '
    'on-off, 1500 B at line rate while on, f = T_on/(T_on+T_off) = 30 % unless said; the '
    'TCP-CBR network replaces EF by CBR of the same mean rate.'
)

PAPER = Paper(
    name="kaur-vin",
    package="kaur_vin",
    title='Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP Throughput and Fairness"',
    setup=SETUP,
    families=FAMILIES,
    assumptions=ASSUMPTIONS,
    builders={"kaur_vin": "diffsweep.papers.kaur_vin.scenario:kaur_vin"},
    claims="diffsweep.papers.kaur_vin.claims:kaur_vin_claims",
    figures="diffsweep.papers.kaur_vin.figures:FIGURES",
    maps="diffsweep.papers.kaur_vin.atlas:MAPS",
    metrics="diffsweep.papers.kaur_vin.sensitivity:METRICS",
    run_note="The paper gives none of these.",
)
