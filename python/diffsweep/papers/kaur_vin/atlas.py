"""Kaur & Vin claims ``diffsweep atlas`` may map, and over which parameters (issue 25).

Conclusion 4 ("EF improves fairness, the more so the smaller its bursts") holds in the
reproduction with same-slot arrivals in flow-index order and no send jitter, the paper's
ns-2 without timing noise, and does not with 0.1 ms of jitter (the report's K5v family): the
atlas asks where it comes back. C4 reads the fairness-vs-T_on sweeps (K5, N = 64) and the
fairness-vs-N sweeps (K6), so N cannot be one of its axes (K6 varies it); K5.3, "EF raises
M" at N = 64, can be mapped over N.
"""
from diffsweep.studies.atlas import Mappable, MapParam

SEND_JITTER = MapParam(
    "send_jitter_s", "float", "each sender's uniform random delay before a packet leaves, in "
    "seconds (ns-2's overhead_; 0 in the paper's set-up)", lo=0.0, hi=0.01,
    suggested=(0.0, 1e-5, 1e-4, 1e-3))
BUFFER = MapParam(
    "buffer_bytes", "int", "the bottleneck's best-effort buffer in bytes (the paper: 200 KB, "
    "the delay-bandwidth product at its largest RTP)", lo=20_000, hi=2_000_000,
    suggested=(50_000, 100_000, 200_000, 400_000))
N_FLOWS = MapParam(
    "n_flows", "int", "TCP flows sharing the bottleneck (the paper's Fig. 5: 64; with unequal "
    "RTPs a multiple of 8, the RTP intervals)", lo=8, hi=256, suggested=(16, 32, 64, 128))
TIE_BREAK = MapParam(
    "tie_break", "choice", "the order of same-slot arrivals at a queue ('index': flow order, as "
    "ns-2 without noise; 'random')", choices=("index", "random"),
    suggested=("index", "random"))

MAPS = (
    Mappable("C4", (SEND_JITTER, BUFFER, TIE_BREAK),
             "fairness with EF over the jitter and buffer the paper did not vary"),
    Mappable("K5.3", (SEND_JITTER, N_FLOWS, BUFFER, TIE_BREAK),
             "EF raises the min-max ratio M at every T_on (Fig. 5's networks)"),
)
