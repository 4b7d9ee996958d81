"""Figures of Habib et al. (families H3-H6, HT1, HT2 of ``shared/FIGURES.md``). Every function
takes a :class:`diffsweep.Results` of the family's sweep and returns a Figure (Agg canvas).
Error bars: 95% Student-t CIs over seeds (``diffsweep.analysis.metrics.mean_ci``) of the per-seed
tables in ``tables``. Fig. 3 also shows ns-2.35's standard conditioner on the same topology
(``data/results_ns2_habib.csv``, from ``benchmarks/ns2/habib``) as black markers.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from diffsweep.analysis import metrics
from diffsweep.report.figures import new_figure, yerr
from diffsweep.core.results import Results

from diffsweep.papers.habib import tables as ht

__all__ = ["FIGURES", "ns2_standard"]

LABEL = {"standard": "standard (TSW3CM)", "standard_sw": "standard + SW",
         "rtt_aware": "basic RTT-aware", "rtt_rto": "RTT-RTO", "rtt_sw": "RTT-SW",
         "none": "no conditioner (all DP0)"}
COLOR = {"standard": "tab:blue", "standard_sw": "tab:orange", "rtt_aware": "tab:red",
         "rtt_rto": "tab:green", "rtt_sw": "tab:purple", "none": "0.5"}
ORDER = ("standard", "standard_sw", "rtt_aware", "rtt_rto", "rtt_sw", "none")
NS2_CSV = Path(__file__).parent / "data" / "results_ns2_habib.csv"


def ns2_standard(path: Path = NS2_CSV) -> pd.DataFrame | None:
    """ns-2.35's standard conditioner on topology 2(a): mean F1, F2 and total payload goodput
    (Mb/s) per F2 RTT over its seeds; None without the file."""
    if not Path(path).is_file():
        return None
    d = pd.read_csv(path)
    d = d[d["cond"] == "tsw3cm"]
    return d.groupby("f2_rtt_ms")[["f1_mbps", "f2_mbps", "total_mbps"]].mean().reset_index()


def _curves(res: Results, title: str, number: int, ns2: bool) -> Figure:
    t = ht.totals(res)
    fig, axes = new_figure(3, title, width=4.6)
    ref = ns2_standard() if ns2 else None
    for ax, col, what in zip(axes, ("f1_mbps", "f2_mbps", "total_mbps"),
                             ("(a) Flow 1 (RTT 20 ms)", "(b) Flow 2", "(c) F1 + F2")):
        for cond in [c for c in ORDER if c in set(t["conditioner"])]:
            c = metrics.mean_ci(t[t["conditioner"] == cond], "rtt2_ms", col).dropna(subset=["mean"])
            ax.errorbar(c["rtt2_ms"], c["mean"], yerr=yerr(c), marker="o", ms=4, capsize=3,
                        color=COLOR[cond], label=LABEL[cond])
        if ref is not None and len(ref):
            ax.plot(ref["f2_rtt_ms"], ref[col], "k^", ms=6, label="ns-2.35, standard")
        ax.set_xlabel("RTT of Flow 2 (ms)")
        ax.set_ylabel("Throughput (Mb/s, payload)")
        ax.set_title(what, fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    n = t.groupby("point")["seed"].nunique()
    fig.supxlabel(f"error bars: 95% CI over seeds (n = {n.min() if len(n) else 0})", fontsize=7,
                  color="0.35")
    return fig


def fig3(res: Results) -> Figure:
    return _curves(res, "Fig. 3: standard conditioner with and without small-window "
                        "protection", 3, ns2=True)


def fig4(res: Results) -> Figure:
    return _curves(res, "Fig. 4: basic RTT-aware, RTT-RTO and RTT-SW conditioners", 4,
                   ns2=False)


def fig5(res: Results) -> Figure:
    """The cwnd of F1's first micro-flow over time, first seed, one panel per conditioner."""
    tr = ht.trace(res)
    conds = [c for c in ORDER if c in set(tr["conditioner"])]
    fig, axes = new_figure(max(1, len(conds)), "Fig. 5: congestion window of a micro-flow of "
                                               "F1", width=6.0, height=3.6)
    seed = tr["seed"].min() if len(tr) else 0
    for ax, cond in zip(axes, conds):
        d = tr[(tr["conditioner"] == cond) & (tr["seed"] == seed)]
        ax.step(d["t_s"], d["cwnd_pkts"], where="post", color=COLOR[cond], lw=0.8)
        ax.set_title(f"{LABEL[cond]}: mean {d['cwnd_pkts'].mean():.1f} packets", fontsize=9)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("cwnd (packets)")
        ax.grid(True, alpha=0.3)
    fig.supxlabel(f"seed {seed}; F2 RTT as in the sweep", fontsize=7, color="0.35")
    return fig


def _bars(ax, df: pd.DataFrame, groups, value: str, conds) -> None:
    w = 0.8 / max(1, len(conds))
    x = np.arange(len(groups))
    for k, cond in enumerate(conds):
        c = metrics.mean_ci(df[df["conditioner"] == cond], "g", value).set_index("g")
        c = c.reindex(groups)
        ax.bar(x + (k - (len(conds) - 1) / 2) * w, c["mean"], w, yerr=yerr(c.reset_index()),
               capsize=2, color=COLOR[cond], label=LABEL[cond])
    ax.set_xticks(x, groups)
    ax.grid(True, axis="y", alpha=0.3)


def fig6(res: Results) -> Figure:
    pa = ht.per_aggregate(res).rename(columns={"aggregate": "g"})
    conds = [c for c in ORDER if c in set(pa["conditioner"])]
    fig, (ax,) = new_figure(1, "Fig. 6: throughput per aggregate, multiple domains", width=8.0)
    _bars(ax, pa, [a[0] for a in ht.AGGREGATES_2B], "goodput_mbps", conds)
    ax.set_ylabel("Throughput (Mb/s, payload)")
    ax.set_xlabel("aggregate (RTT: F1 115, F2 165, F3 15, F4 45, F5 30 ms)")
    ax.legend(fontsize=7)
    return fig


def figt1(res: Results) -> Figure:
    t = ht.telnet(res).rename(columns={"group": "g"})
    conds = [c for c in ORDER if c in set(t["conditioner"])]
    fig, (a, b) = new_figure(2, "Table I: telnet delay per packet and per session", width=5.0)
    _bars(a, t, ["F1, F2, F4", "F3, F5", "overall"], "delay_s", conds)
    a.set_ylabel("mean delay per packet (s)")
    _bars(b, t[t["g"] == "overall"], ["overall"], "session_delay_s", conds)
    b.set_ylabel("mean delay per session (s)")
    a.legend(fontsize=7)
    return fig


def figt2(res: Results) -> Figure:
    w = ht.www(res)
    conds = [c for c in ORDER if c in set(w["conditioner"])]
    long_ = w.melt(id_vars=["point", "seed", "conditioner"], value_vars=["first_mean_s",
                   "all_mean_s"], var_name="g", value_name="v")
    long_["g"] = long_["g"].map({"first_mean_s": "first packet", "all_mean_s": "all data"})
    fig, (ax,) = new_figure(1, "Table II: WWW response time", width=6.0)
    _bars(ax, long_, ["first packet", "all data"], "v", conds)
    ax.set_ylabel("mean response time (s)")
    ax.legend(fontsize=7)
    return fig


FIGURES = {"H3": fig3, "H4": fig4, "H5": fig5, "H6": fig6, "HT1": figt1, "HT2": figt2}
