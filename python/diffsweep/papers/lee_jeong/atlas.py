"""Lee & Jeong claims ``diffsweep atlas`` may map (issue 25): does the Balancing Marker's
fairness gain over the shared token bucket survive a wider or narrower spread of round trips,
or another committed rate? LT2.1 is rated over the Table 2 cells (bucket x UDP) at each
(rtt_spread, cir_mbps) of the atlas: ``cir_mbps``, an axis of the Table 2 sweep, is pinned to
the cell's value.
"""
from diffsweep.studies.atlas import Mappable, MapParam

RTT_SPREAD = MapParam(
    "rtt_spread", "float", "the aggregated connections' access delays stretched about the "
    "shortest, 2 + (d - 2) x rtt_spread ms (1: the paper's 100 .. 2 ms, round trips 206 .. "
    "10 ms; 0: every connection 2 ms)", lo=0.0, hi=3.0, suggested=(0.25, 0.5, 1.0, 2.0))
CIR = MapParam(
    "cir_mbps", "float", "the aggregate's committed rate in Mb/s (the paper: 7 and 3.5 of the "
    "10 Mb/s bottleneck)", lo=0.5, hi=10.0, suggested=(2.0, 3.5, 5.0, 7.0, 9.0))
BUCKET = MapParam(
    "bucket_pkts", "int", "the token bucket's depth in 1000-B packets (the paper: 70 and 35)",
    lo=5, hi=500, suggested=(35, 70, 140))

MAPS = (
    Mappable("LT2.1", (RTT_SPREAD, CIR, BUCKET),
             "BMarker fairer than the token bucket in every cell"),
    Mappable("LT2.2", (RTT_SPREAD, CIR, BUCKET),
             "BMarker gives the 7 connections more in total"),
)
