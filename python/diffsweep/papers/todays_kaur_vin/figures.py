"""Figures of todays-kaur-vin: ``TK2`` (a lone flow's U against EF's T_on per window growth
and best-effort queue) and ``TK5`` (32 flows: Jain's index and U with and without EF), 95%
intervals over seeds."""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from diffsweep.analysis import registry
from diffsweep.analysis.confidence import mean_ci
from diffsweep.core.results import Results
from diffsweep.report.figures import new_figure, yerr

from diffsweep.papers.todays_kaur_vin.claims import U

__all__ = ["FIGURES"]

COLOURS = {"droptail": "tab:red", "codel": "tab:blue", "pie": "tab:green",
           "fq_codel": "tab:purple"}
STYLE = {"newreno": "--", "cubic": "-"}


def _per_seed(res: Results, metrics) -> "pd.DataFrame":  # noqa: F821
    d = res.replicas.copy()
    for m in metrics:
        d[m] = registry.values(res, m)[m].to_numpy()
    return d.rename(columns={U: "U"})


def fig_tk2(res: Results) -> Figure:
    d = _per_seed(res, [U])
    fig, (a0,) = new_figure(1, "One TCP flow beside EF (30%): U vs T_on")
    for (cc, aqm), g in d.groupby(["congestion_control", "aqm"]):
        c = mean_ci(g, ["t_on_ms"], "U")
        a0.errorbar(c["t_on_ms"], c["mean"], yerr=yerr(c), ls=STYLE.get(cc, "-"), marker="o",
                    color=COLOURS.get(aqm, "k"), label=f"{cc}, {aqm}", capsize=2)
    a0.set_xscale("log")
    a0.set_xlabel("EF mean on time T_on (ms)")
    a0.set_ylabel("U (TCP throughput / bandwidth left by EF)")
    a0.legend(fontsize=7)
    return fig


def fig_tk5(res: Results) -> Figure:
    d = _per_seed(res, [U, "jain_index"])
    d = d.assign(case=np.where(d["ef"].astype(str) == "none", "no EF",
                               "EF T_on " + d["t_on_ms"].map("{:g}".format) + " ms"))
    fig, (a0, a1) = new_figure(2, "32 TCP flows beside EF: fairness and U")
    cases = sorted(set(d["case"]), key=lambda s: (s != "no EF", s))
    groups = list(d.groupby(["congestion_control", "aqm"]))
    w = 0.8 / max(len(groups), 1)
    x = np.arange(len(cases))
    for i, ((cc, aqm), g) in enumerate(groups):
        for ax_, m in ((a0, "jain_index"), (a1, "U")):
            c = mean_ci(g, ["case"], m).set_index("case").reindex(cases).reset_index()
            ax_.bar(x + (i - (len(groups) - 1) / 2) * w, c["mean"], w, yerr=yerr(c),
                    color=COLOURS.get(aqm, "k"), hatch="//" if cc == "newreno" else None,
                    label=f"{cc}, {aqm}", capsize=2)
    for ax_, t in ((a0, "Jain's index"), (a1, "U")):
        ax_.set_xticks(x, cases, fontsize=8)
        ax_.set_ylabel(t)
        ax_.set_ylim(0.5, 1.02)
    a0.legend(fontsize=6)
    return fig


FIGURES = {"TK2": fig_tk2, "TK5": fig_tk5}
