"""Figures of Matta & Guo (families M3, M4, M5, M7): (a) Jain's fairness index per class,
averaged over 20-s intervals, (b) goodput per class, against k (Figs. 3-4) or k_b/k_c (Fig. 5);
isolation solid, sharing dashed. Fig. 7: the four panels of the paper (fairness and goodput of
short and of long foreground sessions) as bars per scheme. Error bars: 95% Student-t CIs over
seeds of ``tables.per_seed``.
"""
from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from diffsweep.analysis import metrics
from diffsweep.report.figures import new_figure, yerr
from diffsweep.core.results import Results

from diffsweep.papers.matta_guo.tables import per_seed

__all__ = ["FIGURES"]

SPEC = {"M3": (3, "k", "Large pipe case (N = 30)"),
        "M4": (4, "k", "Small pipe case (N = 60)"),
        "M5": (5, "buffer_ratio", "Buffer size (N = 30, k_c = 1 short / 4 long)")}
XLABEL = {"k": "Long-to-short pipe size ratio k",
          "buffer_ratio": "Buffer-to-capacity ratio k_b / k_c"}
STYLE = {"isolation": "-", "sharing": "--", "sharing RED": ":"}
COLOR = {"short": "tab:blue", "long": "tab:red"}


def _family(fam: str):
    number, x, title = SPEC[fam]

    def fig(res: Results) -> Figure:
        ps = per_seed(res)
        f, (a, b) = new_figure(2, f"Fig. {number}: {title}")
        for (mode, cls), d in ps.groupby(["mode", "cls"]):
            for ax, value in ((a, "jain_index"), (b, "goodput_mbps")):
                c = metrics.mean_ci(d, x, value).dropna(subset=["mean"])
                ax.errorbar(c[x], c["mean"], yerr=yerr(c), ls=STYLE.get(mode, "-."),
                            color=COLOR.get(cls, "0.3"), marker="o", ms=4, capsize=3,
                            label=f"{cls}, {mode}")
        a.set_ylabel("Fairness index (mean over 20-s intervals)")
        b.set_ylabel("Goodput per class (Mb/s)")
        for ax, t in ((a, "(a) Fairness index"), (b, "(b) Goodput")):
            ax.set_xlabel(XLABEL[x])
            ax.set_title(t, fontsize=9)
            ax.grid(True, alpha=0.3)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=7)
        n = ps.groupby("point")["seed"].nunique()
        f.supxlabel(f"error bars: 95% CI over seeds (n = {n.min() if len(n) else 0})",
                    fontsize=7, color="0.35")
        return f
    fig.__name__ = f"fig{number}"
    return fig


M7_ORDER = ("load-balanced", "size-based", "lifetime-based", "red")
M7_LABEL = {"load-balanced": "load-bal.\n(drop-tail)", "size-based": "size-based\n(75 pkts)",
            "lifetime-based": "lifetime\n(32 pkts)", "red": "load-bal.\n(RED)"}


def fig7(res: Results) -> Figure:
    ps = per_seed(res)
    f, axes = new_figure(4, "Fig. 7: performance with web background traffic", width=3.6)
    panels = (("short", "jain_index", "(a) Fairness index, short"),
              ("short", "goodput_mbps", "(b) Goodput of short sessions (Mb/s)"),
              ("long", "jain_index", "(c) Fairness index, long"),
              ("long", "goodput_mbps", "(d) Goodput of long sessions (Mb/s)"))
    for ax, (cls, value, title) in zip(axes, panels):
        d = ps[ps["cls"] == cls]
        c = metrics.mean_ci(d, "mode", value).dropna(subset=["mean"]).set_index("mode")
        order = [m for m in M7_ORDER if m in c.index] + [m for m in c.index if m not in M7_ORDER]
        c = c.loc[order].reset_index()
        ax.bar(range(len(c)), c["mean"], yerr=yerr(c), capsize=4, color=COLOR.get(cls, "0.5"),
               alpha=0.8)
        ax.set_xticks(range(len(c)), [M7_LABEL.get(m, m) for m in c["mode"]], fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
        if value == "jain_index":
            ax.set_ylim(0, 1.05)
    n = ps.groupby("point")["seed"].nunique()
    f.supxlabel(f"error bars: 95% CI over seeds (n = {n.min() if len(n) else 0}); "
                "fairness: mean over 20-s intervals", fontsize=7, color="0.35")
    return f


def figml(res: Results) -> Figure:
    """ML (Sec. 6): the short class's fairness index (a) and goodput (b) against the lifetime
    threshold N, isolation solid (one line per k), sharing dashed (no N dependence: its mean
    over N per k, the same replicas); (c) the map of claim ML.1 over N and k."""
    from diffsweep.papers.matta_guo.claims import (check_isolation_pays)  # noqa: PLC0415 - the map's statuses

    ps = per_seed(res)
    ps = ps[ps["cls"] == "short"]
    f, (a, b, m) = new_figure(3, "Lifetime-based classification (Sec. 6): short sessions vs "
                                 "the threshold N", width=4.8)
    colors = {k: f"C{i}" for i, k in enumerate(sorted(ps["k"].unique()))}
    for k, d in ps.groupby("k"):
        for ax, value in ((a, "jain_index"), (b, "goodput_mbps")):
            iso = d[d["mode"] == "isolation"]
            c = metrics.mean_ci(iso, "lifetime_pkts", value).dropna(subset=["mean"])
            ax.errorbar(c["lifetime_pkts"], c["mean"], yerr=yerr(c), color=colors[k],
                        marker="o", ms=4, capsize=3, label=f"isolation, k = {k:g}")
            sh = d[d["mode"] == "sharing"].groupby("seed", as_index=False)[value].mean()
            if len(sh):
                ax.axhline(sh[value].mean(), color=colors[k], ls="--", lw=1,
                           label=f"sharing, k = {k:g}")
    a.set_ylabel("Fairness index, short sessions")
    b.set_ylabel("Goodput of short sessions (Mb/s)")
    for ax, t in ((a, "(a) Fairness index"), (b, "(b) Goodput")):
        ax.set_xscale("log")
        ax.axvline(10, color="0.6", lw=0.8, ls=":")  # a short connection's 10 packets
        ax.set_xlabel("Threshold N: a connection's first N packets in the short pipe")
        ax.set_title(t, fontsize=9)
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    _pays_map(m, check_isolation_pays(res).numbers)
    n = ps.groupby("point")["seed"].nunique()
    f.supxlabel(f"error bars: 95% CI over seeds (n = {n.min() if len(n) else 0}); dotted: the "
                "short connections' size (10 packets)", fontsize=7, color="0.35")
    return f


#: the atlas's colours (diffsweep.report.atlas_page) for claim ML.1's status per (N, k)
PAYS_COLOR = {"holds": "#1b8a3a", "partly holds": "#9c6a00", "does not hold": "#b2182b"}


def _pays_map(ax, numbers: dict) -> None:
    """(c) claim ML.1 per threshold N (columns) and k (rows): whether isolation pays the short
    flows there (check_isolation_pays's numbers)."""
    cells = [(int(label.split("= ")[1]), kk, v["status"]) for label, by_k in numbers.items()
             if label.startswith("N = ") for kk, v in by_k.items()]
    ns = sorted({c[0] for c in cells})
    ks = sorted({c[1] for c in cells}, key=lambda x: float(x.split()[1]))
    for n, kk, st in cells:
        x, y = ns.index(n), ks.index(kk)
        ax.add_patch(Rectangle((x, y), 0.95, 0.95, color=PAYS_COLOR.get(st, "0.7")))
        ax.text(x + 0.47, y + 0.47, {"holds": "pays", "partly holds": "~",
                                     "does not hold": "no"}.get(st, "?"),
                ha="center", va="center", fontsize=7, color="white")
    ax.set_xlim(0, max(len(ns), 1))
    ax.set_ylim(0, max(len(ks), 1))
    ax.set_xticks([i + 0.47 for i in range(len(ns))], [str(n) for n in ns], fontsize=7)
    ax.set_yticks([i + 0.47 for i in range(len(ks))], [k.replace("k ", "k = ") for k in ks])
    ax.set_xlabel("Threshold N (packets)")
    stop = numbers.get("stops_paying_at_N")
    ax.set_title("(c) Isolation pays the short flows? (claim ML.1)"
                 + (f"\nat every k up to N = {max(numbers['pays_at_N'])}, stops at {stop}"
                    if numbers.get("pays_at_N") and stop else ""), fontsize=9)


FIGURES = {fam: _family(fam) for fam in SPEC}
FIGURES["M7"] = fig7
FIGURES["ML"] = figml
