"""Matta & Guo's isolation as two links (the pipes of lifetime-based classification, issue 44)
against the paper's reproduction with two CBQ classes of one link (no lending), both classified
by size: the same sessions, k = 1, 4, 8, N = 30 sessions per class, 5 seeds x 200 s.

    PYTHONPATH=python python benchmarks/ns2/matta_guo/matta_guo_pipes.py

The builder's ``lifetime_pkts`` puts the pipes on two links because the engine's lifetime
classifier picks a packet's route, not its class; this checks that the change of pipe model
alone does not move the numbers (the two-link scenario here uses split="size" at 11 packets,
which classifies exactly as the paper's size-based runs).

Recorded 2026-11-29 on the 2-core VM (CPU backend): short class identical within the seeds'
spread (fairness 1.0000 both; goodput 2.4827 / 2.4829 / 2.4841 Mb/s CBQ vs 2.4844 / 2.4829 /
2.4842 two links at k = 1 / 4 / 8); long class within 2% (fairness 0.932 / 0.893 / 0.875 vs
0.950 / 0.889 / 0.874; goodput 2.459 / 9.065 / 17.246 vs 2.456 / 9.086 / 17.029 Mb/s).
"""
import dataclasses

import diffsweep
from diffsweep import Grid
from diffsweep.papers.matta_guo import tables as mt
from diffsweep.papers.matta_guo.scenario import matta_guo
from diffsweep.scenario import TcpFlow


def isolation(pipes="cbq", **kw):
    """``matta_guo(**kw)`` (pipes "cbq"), or its pipes as two links classified by size."""
    if pipes == "cbq":
        return matta_guo(**kw)
    sc = matta_guo(lifetime_pkts=11, **kw)
    tr = tuple(dataclasses.replace(t, flow=TcpFlow(**{**t.flow.__dict__, "split": "size"}))
               for t in sc.traffic)
    return dataclasses.replace(sc, traffic=tr)


def main():
    g = Grid(isolation, seeds=5, n_flows=30, k=[1, 4, 8], pipes=["cbq", "links"],
             duration_s=200.0)
    ps = mt.per_seed(diffsweep.run(g, backend="cpu", progress=False))
    print(ps.groupby(["cls", "k", "pipes"])[["jain_index", "goodput_mbps"]]
          .agg(["mean", "std"]).round(4).to_string())


if __name__ == "__main__":
    main()
