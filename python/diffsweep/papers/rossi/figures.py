"""Figures of Rossi, Casetti & Mellia (web traffic over DiffServ), families R2..R10 of
``shared/FIGURES.md``, in the paper's layout: BE on top, AF at the bottom, one line per
flow-length class pi = 1, 10, 90 packets; x = rho (Figs. 2-7) or alpha_AF (Figs. 8-10, with
alpha_AF,th = 0.589 marked); completion times on a log y axis. Error bars: 95% Student-t
confidence intervals over seeds (``diffsweep.analysis.metrics.mean_ci`` of the per-seed values of
``tables.per_class``).
"""
from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from diffsweep.analysis import metrics
from diffsweep.report.figures import yerr
from diffsweep.core.results import Results

from diffsweep.papers.rossi.scenario import ALPHA_AF_TH
from diffsweep.papers.rossi.tables import PI, per_class

__all__ = ["FIGURES", "fig_family"]

METRIC = {"completion_s": ("Completion time (s)", True),
          "drop_pct": ("Packet drop percentage (%)", False),
          "early_frac": ("Early-drop fraction", False)}
#: family -> (figure number, metric, x axis, selection title)
SPEC = {"R2": (2, "completion_s", "rho", "Overprovisioning (underloading), HTTP only"),
        "R3": (3, "drop_pct", "rho", "Overprovisioning (underloading), HTTP only"),
        "R4": (4, "early_frac", "rho", "Overprovisioning (underloading), HTTP only"),
        "R5": (5, "completion_s", "rho", "Overprovisioning (overloading), 10 FTP per cloud"),
        "R6": (6, "drop_pct", "rho", "Overprovisioning (overloading), 10 FTP per cloud"),
        "R7": (7, "early_frac", "rho", "Overprovisioning (overloading), 10 FTP per cloud"),
        "R8": (8, "completion_s", "alpha_af", "Underprovisioning, rho = 0.85"),
        "R9": (9, "drop_pct", "alpha_af", "Underprovisioning, rho = 0.85"),
        "R10": (10, "early_frac", "alpha_af", "Underprovisioning, rho = 0.85")}
COLORS = {1: "tab:blue", 10: "tab:orange", 90: "tab:green"}
MARKERS = {1: "o", 10: "s", 90: "^"}
XLABEL = {"rho": "Total offered load rho", "alpha_af": "AF fraction of the load alpha_AF"}


def _figure(title: str) -> tuple[Figure, list]:
    fig = Figure(figsize=(5.6, 7.0), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 1, sharex=True)
    fig.suptitle(title, fontsize=11)
    return fig, list(axes)


def fig_family(fam: str):
    number, metric, x, sel = SPEC[fam]

    def fig(res: Results) -> Figure:
        pc = per_class(res)
        ylabel, logy = METRIC[metric]
        f, (top, bottom) = _figure(f"Fig. {number}: {ylabel.split(' (')[0]}, {sel}")
        nseeds = pc.groupby(["point", "cloud"])["seed"].nunique()
        for ax, cloud in ((top, "BE"), (bottom, "AF")):
            sub = pc[pc["cloud"] == cloud]
            for pi in PI:
                d = sub[sub["pi"] == pi]
                if d.empty:
                    continue
                c = metrics.mean_ci(d, x, metric).dropna(subset=["mean"])
                if logy:
                    c = c[c["mean"] > 0]
                    c["ci_low"] = c["ci_low"].where(c["ci_low"] > 0, c["mean"] * 1e-3)
                ax.errorbar(c[x], c["mean"], yerr=yerr(c), marker=MARKERS[pi], ms=4,
                            capsize=3, color=COLORS[pi], label=f"pi = {pi}")
            if sub.empty:
                ax.text(0.5, 0.5, f"not measured\n(no {cloud} transfers)", ha="center",
                        va="center", transform=ax.transAxes, color="0.4")
            if logy:
                ax.set_yscale("log")
            if x == "alpha_af":
                ax.axvline(ALPHA_AF_TH, color="0.3", ls="--", lw=1,
                           label=f"alpha_AF,th = {ALPHA_AF_TH}")
            ax.set_ylabel(ylabel)
            ax.set_title(f"{cloud} traffic", fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=7)
        bottom.set_xlabel(XLABEL[x])
        n = (f"{nseeds.min()}" if len(nseeds) and nseeds.min() == nseeds.max()
             else (f"{nseeds.min()}-{nseeds.max()}" if len(nseeds) else "0"))
        f.supxlabel(f"error bars: 95% CI over seeds (n = {n}); means over the completed "
                    "transfers of each seed", fontsize=7, color="0.35")
        return f
    fig.__name__ = f"fig{number}"
    fig.__doc__ = f"Fig. {number}: {METRIC[metric][0]} vs {x}, {sel}; BE top, AF bottom."
    return fig


FIGURES = {fam: fig_family(fam) for fam in SPEC}
