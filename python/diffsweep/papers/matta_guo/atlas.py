"""Matta & Guo claims ``diffsweep atlas`` may map, and over which parameters (issue 44).

Sec. 6 leaves open "how to determine the best threshold values used to classify flows into
classes"; lifetime-based classification (a connection's first N packets in the short pipe)
is the builder's ``lifetime_pkts``. The isolation claims of Figs. 3-5 (M3.1, M3.2, M4.2, M4.3,
M5.1) and ML.1 ("isolation pays the short flows") can be mapped over N: each cell reruns the
claim's own sweeps with every isolated run classified by lifetime at that N (sharing does not
depend on it). ``docs/atlas/matta-guo-*`` holds the maps run.
"""
from diffsweep.studies.atlas import Mappable, MapParam

LIFETIME = MapParam(
    "lifetime_pkts", "int", "the lifetime-based classification threshold in packets: a "
    "connection's first N packets go to the short pipe, the rest to the long pipe (the paper's "
    "runs classify by size: short connections have 10 packets, long ones 1000)", lo=1,
    hi=100_000, suggested=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000))

MAPS = (
    Mappable("M3.1", (LIFETIME,), "isolated short flows' fairness about 1 (N = 30, every k)"),
    Mappable("M3.2", (LIFETIME,), "the long class's goodput linear in k under isolation"),
    Mappable("M4.2", (LIFETIME,), "isolated short flows fair in the small pipe (N = 60)"),
    Mappable("M4.3", (LIFETIME,), "the long class's goodput linear in k (N = 60)"),
    Mappable("M5.1", (LIFETIME,), "isolated short goodput steady over the buffer ratio"),
    Mappable("ML.1", (LIFETIME,), "isolation pays the short flows (fairness and goodput vs "
             "sharing) at every k"),
)
