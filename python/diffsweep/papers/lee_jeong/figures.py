"""Figures of Lee & Jeong (Balancing Marker; ``shared/papers/lee-jeong-balancing-marker.md``),
families LT2 and L4..L11 of ``shared/FIGURES.md``.

Every function takes a :class:`diffsweep.Results` with the grid columns of
``diffsweep.papers.lee_jeong.scenario.lee_jeong`` and returns a ``matplotlib.figure.Figure``
(Agg canvas, no pyplot). Error bars: 95% Student-t confidence intervals over seeds
(``diffsweep.analysis.metrics.mean_ci``). The per-seed tables are in ``tables``.

* ``fig_t2``: Table 2 as grouped bars, Jain index (a) and total throughput of S1..S7 (b) per
  cell, Marker vs BMarker, with the paper's Table 2 values as black markers.
* ``fig_cell(n)`` (Figs. 4..11): (a) per-connection rates TCP_1..TCP_7, Method 1 vs Method 2,
  with the BAB (and ATB) lines; (b) the best-effort sources' rates (no-UDP figures, per source
  and their ATB) or the UDP sources' total (UDP figures), Method 1 vs Method 2.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from diffsweep.analysis import metrics
from diffsweep.report.figures import new_figure, yerr
from diffsweep.core.results import Results

from diffsweep.papers.lee_jeong.tables import (CELLS, FIGURE_CELLS, N_AGG, cell_label,
                                               per_connection, per_seed, rates_mbps, table2, _canon)

__all__ = ["FIGURES", "fig_t2", "fig_cell"]

METHOD_LABEL = {"marker": "Method 1 (Marker)", "bmarker": "Method 2 (BMarker)"}
COLORS = {"marker": "tab:blue", "bmarker": "tab:orange"}
CI_NOTE = "error bars: 95% CI over seeds"


def _no_data(ax, what: str) -> None:
    ax.text(0.5, 0.5, f"not measured\n({what})", ha="center", va="center",
            transform=ax.transAxes, color="0.4")


def _nseeds(df: pd.DataFrame) -> str:
    if df.empty:
        return "0"
    n = df.groupby(["cir_mbps", "bucket_pkts", "udp", "method"])["seed"].nunique()
    return f"{n.min()}" if n.min() == n.max() else f"{n.min()}-{n.max()}"


def fig_t2(res: Results) -> Figure:
    """Table 2: Jain index (a) and total throughput of S1..S7 (b) per cell."""
    ps = per_seed(res)
    ref = table2()
    fig, (a, b) = new_figure(2, "Table 2: fairness and throughput of the aggregated "
                                 "connections, Marker vs BMarker", width=6.4)
    groups = [(cir, bk, udp) for udp in (False, True) for cir, bk in CELLS]
    x = np.arange(len(groups))
    w = 0.38
    for ax, col, ylabel in ((a, "jain", "Jain fairness index (S1..S7)"),
                            (b, "total_mbps", "Total throughput of S1..S7 (Mb/s)")):
        for k, method in enumerate(("marker", "bmarker")):
            sub = ps[ps["method"] == method]
            c = metrics.mean_ci(sub, ["cir_mbps", "bucket_pkts", "udp"], col)
            cmap = {(float(r.cir_mbps), int(r.bucket_pkts), bool(r.udp)): r
                    for r in c.itertuples()}
            means, errs, rx, px, py = [], [[], []], [], [], []
            for i, g in enumerate(groups):
                r = cmap.get(g)
                xi = x[i] + (k - 0.5) * w
                if r is not None:
                    rx.append(xi)
                    means.append(r.mean)
                    errs[0].append(max(0.0, np.nan_to_num(r.mean - r.ci_low)))
                    errs[1].append(max(0.0, np.nan_to_num(r.ci_high - r.mean)))
                p = ref[(ref["cir_mbps"] == g[0]) & (ref["bucket_pkts"] == g[1])
                        & (ref["udp"] == g[2]) & (ref["method"] == method)]
                if not p.empty:
                    px.append(xi)
                    py.append(float(p[col.replace("total_mbps", "total_mbps")].iloc[0]))
            ax.bar(rx, means, w, yerr=np.array(errs), capsize=3, color=COLORS[method],
                   label=f"{METHOD_LABEL[method]}, diffsweep")
            ax.plot(px, py, ls="none", marker="D", ms=5, mfc="black" if k else "white",
                    mec="black", label=f"{METHOD_LABEL[method]}, paper")
        ax.set_xticks(x)
        ax.set_xticklabels([cell_label(c, bk) + ("\nUDP" if u else "\nno UDP")
                            for c, bk, u in groups], fontsize=7)
        ax.set_ylabel(ylabel)
        ax.grid(True, axis="y", alpha=0.3)
        # above the bars: room at the top of each panel, legend in two columns
        ax.legend(fontsize=7, loc="upper center", ncol=2)
    a.set_ylim(0, 1.25)
    b.set_ylim(0, b.get_ylim()[1] * 1.25)
    a.set_title("(a) Fairness index")
    b.set_title("(b) Throughput (values in parentheses in Table 2)")
    fig.supxlabel(f"{CI_NOTE} (n = {_nseeds(ps)}); rates in 1000-B packets over the whole run",
                  fontsize=7, color="0.35")
    return fig


def fig_cell(number: int):
    """The figure function of Fig. ``number`` (4..11)."""
    cir, bucket, udp = FIGURE_CELLS[number]

    def fig(res: Results) -> Figure:
        return _cell_figure(res, number, cir, bucket, udp)
    fig.__name__ = f"fig{number}"
    fig.__doc__ = (f"Fig. {number}: rates per connection and {'UDP' if udp else 'best effort'}, "
                   f"cell {cell_label(cir, bucket)}")
    return fig


def _select(df: pd.DataFrame, cir, bucket, udp) -> pd.DataFrame:
    return df[(df["cir_mbps"] == cir) & (df["bucket_pkts"] == bucket) & (df["udp"] == udp)]


def _cell_figure(res: Results, number: int, cir: float, bucket: int, udp: bool) -> Figure:
    pc = _select(per_connection(res), cir, bucket, udp)
    ps = _select(per_seed(res), cir, bucket, udp)
    side = "UDP sources" if udp else "best-effort sources"
    fig, (a, b) = new_figure(2, f"Fig. {number}: achieved rates, {cell_label(cir, bucket)}, "
                                 f"{'with' if udp else 'no'} UDP", width=5.8)
    w = 0.38
    x = np.arange(1, N_AGG + 1)
    if pc.empty:
        _no_data(a, f"no runs of cell {cell_label(cir, bucket)}, udp={udp}")
    for k, method in enumerate(("marker", "bmarker")):
        sub = pc[pc["method"] == method]
        if sub.empty:
            continue
        c = metrics.mean_ci(sub, "conn", "rate_mbps").set_index("conn").reindex(x).reset_index()
        j = ps[ps["method"] == method]["jain"]
        a.bar(x + (k - 0.5) * w, c["mean"], w, yerr=yerr(c), capsize=3, color=COLORS[method],
              label=f"{METHOD_LABEL[method]} (Jain {j.mean():.2f})")
    bab = cir / N_AGG
    a.axhline(bab, color="black", ls="--", lw=1.2, label=f"BAB = {bab:.2f} Mb/s")
    if not ps.empty and "atb_mbps" in ps.columns and not udp:
        atb = float(ps["atb_mbps"].iloc[0])
        a.axhline(atb, color="0.4", ls=":", lw=1.2, label=f"ATB = {atb:.2f} Mb/s")
    a.set_xticks(x)
    a.set_xticklabels([f"TCP{i}" for i in x])
    a.set_ylabel("Rate (Mb/s)")
    a.set_title("(a) Connections of the aggregated source")
    a.grid(True, axis="y", alpha=0.3)
    a.legend(fontsize=7)

    if udp:
        if ps.empty:
            _no_data(b, "no UDP runs")
        for k, method in enumerate(("marker", "bmarker")):
            sub = ps[ps["method"] == method]
            if sub.empty:
                continue
            c = metrics.mean_ci(sub, None, "udp_mbps")
            b.bar([k], c["mean"], 0.6, yerr=yerr(c), capsize=3, color=COLORS[method],
                  label=METHOD_LABEL[method])
        b.set_xticks([0, 1])
        b.set_xticklabels(["Method 1", "Method 2"])
        b.set_ylabel("Total rate of the 2 UDP sources (Mb/s)")
    else:
        f = _canon(res.flows, "flows")
        f = _select(f, cir, bucket, udp)
        f = f[f["flow"] >= N_AGG].copy()
        f["rate_mbps"] = rates_mbps(f)
        f["src"] = f["flow"].astype(int) + 1
        xs = np.sort(f["src"].unique())
        if f.empty:
            _no_data(b, "no best-effort flows")
        for k, method in enumerate(("marker", "bmarker")):
            sub = f[f["method"] == method]
            if sub.empty:
                continue
            c = metrics.mean_ci(sub, "src", "rate_mbps")
            tot = ps[ps["method"] == method]["be_mbps"].mean()
            b.bar(c["src"] + (k - 0.5) * w, c["mean"], w, yerr=yerr(c), capsize=3,
                  color=COLORS[method], label=f"{METHOD_LABEL[method]} (total {tot:.2f} Mb/s)")
        if not ps.empty and "atb_be_mbps" in ps.columns:
            atb = float(ps["atb_be_mbps"].iloc[0])
            b.axhline(atb, color="0.4", ls=":", lw=1.2, label=f"ATB = {atb:.2f} Mb/s")
        b.set_xticks(xs)
        b.set_xticklabels([f"S{i}" for i in xs], fontsize=7)
        b.set_ylabel("Rate (Mb/s)")
    b.set_title(f"(b) {side}")
    b.grid(True, axis="y", alpha=0.3)
    b.legend(fontsize=7)
    fig.supxlabel(f"{CI_NOTE} (n = {_nseeds(ps)}); rates in 1000-B packets over the whole run",
                  fontsize=7, color="0.35")
    return fig


FIGURES = {"LT2": fig_t2, **{f"L{n}": fig_cell(n) for n in range(4, 12)}}
