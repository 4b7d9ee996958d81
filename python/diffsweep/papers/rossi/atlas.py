"""Rossi claims ``diffsweep atlas`` may map (issue 25): at what load and AF share does the
protection of AF transfers fail? R5.1 (with FTP background, BE completion times stay above
AF's at every rho and size class) is rated at each (rho, alpha_AF) of the atlas: ``rho``, an
axis of the sweep r5, is pinned to the cell's value; alpha_AF above 0.589 puts AF out of
profile (the paper's Sec. IV-B).
"""
from diffsweep.studies.atlas import Mappable, MapParam

RHO = MapParam("rho", "float", "the offered load over the bottleneck rate (web transfers)",
               lo=0.05, hi=1.2, suggested=(0.3, 0.6, 0.8, 0.9, 0.95))
ALPHA_AF = MapParam("alpha_af", "float", "the AF cloud's share of the offered load (the paper's "
                    "Figs. 5-7: 0.5; its threshold alpha_AF,th = 0.589)", lo=0.05, hi=0.95,
                    suggested=(0.3, 0.5, 0.6, 0.7, 0.8))
FTP = MapParam("ftp_per_cloud", "int", "backlogged FTP sources per cloud (the paper: 10)",
               lo=0, hi=50, suggested=(0, 5, 10, 20))
SYN = MapParam("syn", "bool", "each transfer opens with a SYN (ns-2's default since 2001; on in "
               "the builder)", suggested=(False, True))

MAPS = (
    Mappable("R5.1", (RHO, ALPHA_AF, FTP, SYN), "AF protected: BE slower than AF"),
)
