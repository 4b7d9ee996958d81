"""Figures of Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP Throughput and Fairness"
(UT Austin TR2001-1; ``shared/papers/kaur-vin-ef-priority-tcp.md``), families K2..K10 and Kf
of ``shared/FIGURES.md``.

Every ``figN(res)`` takes a :class:`diffsweep.Results` (``res.replicas`` / ``res.flows``, with
the grid columns of ``diffsweep.papers.kaur_vin.scenario.kaur_vin``) and returns a
``matplotlib.figure.Figure`` laid out like the paper's figure: same axes and units, log x for
the mean EF burst duration T_on, error bars = 95% Student-t confidence intervals over seeds
(``diffsweep.analysis.metrics.mean_ci``).  Figures are built with ``matplotlib.figure.Figure`` directly
(no pyplot, no GUI: the Agg canvas renders them), so nothing is ever shown.

The per-seed tables the figures draw are in ``diffsweep.papers.kaur_vin.tables`` (the claims
read the same tables); how they read the results tables is described there.
"""
from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter, ScalarFormatter

from diffsweep.analysis import metrics
from diffsweep.report.figures import new_figure, save, yerr
from diffsweep.core.results import Results

from diffsweep.papers.kaur_vin.questions import of_sweeps
from diffsweep.papers.kaur_vin.tables import (CANON, KEYS, MAIN_F, N_LARGE, NEAR_FAIR, NO_EF,
                                              WITH_EF, collapse_t_on, fairness_per_seed,
                                              loss_per_seed, nearest_t_on, need,
                                              normalized_per_flow, padhye_per_flow, prepare, select,
                                              timeouts_per_seed)

__all__ = ["FIGURES", "save", "fig2", "fig3", "fig4", "fig5", "fig6", "fig7", "fig8", "fig9",
           "fig10", "figkf", "fig2_variants"]

COLORS = {"TCP-only": "tab:blue", "TCP+UDP": "tab:orange", "TCP+EF": "tab:green",
          "TCP+UDP+EF": "tab:red", "TCP+CBR": "tab:gray", "TCP+UDP+CBR": "tab:brown"}
HIST_BIN = 0.2
CI_NOTE = "error bars: 95% CI over seeds"
# Figures of bounded quantities (M, shares of flows) say how their intervals stay in bounds.
BOUNDED_NOTE = "intervals of M and of shares on the logit scale, inside their bounds"
# What Fig. 2's y quantity is (shown in panel (a)).
U_EXPLAINED = ("U = TCP throughput on the wire / bandwidth left by EF\n(link rate - mean EF rate). "
               "Loss U_CBR - U_EF: U with CBR\nminus U with bursty EF of the same mean rate, "
               "same seed.")


# --------------------------------------------------------------------------------------------
# Drawing helpers
# --------------------------------------------------------------------------------------------

def _errorbar(ax, c: pd.DataFrame, x: str, label: str, **kw) -> None:
    c = c.sort_values(x)
    kw.setdefault("marker", "o")
    kw.setdefault("ms", 4)
    kw.setdefault("capsize", 3)
    ax.errorbar(c[x].to_numpy(dtype=float), c["mean"].to_numpy(dtype=float), yerr=yerr(c),
                label=label, **kw)


def _hline_band(ax, c: pd.DataFrame, label: str, color: str, ls: str = "--") -> None:
    if c.empty:
        return
    r = c.iloc[0]
    ax.axhline(float(r["mean"]), color=color, ls=ls, lw=1.5, label=f"{label} (no T_on dependence)")
    if np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"]):
        ax.axhspan(float(r["ci_low"]), float(r["ci_high"]), color=color, alpha=0.15, lw=0)


def _log_ton(ax) -> None:
    ax.set_xscale("log")
    ax.set_xlabel("Average EF burst duration T_on (ms)")
    ax.grid(True, which="both", alpha=0.3)


def _log2_n(ax, ns) -> None:
    ax.set_xscale("log", base=2)
    ns = sorted({int(n) for n in ns if np.isfinite(n)})
    if ns:
        ax.set_xticks(ns)
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("Number of TCP flows N")
    ax.grid(True, alpha=0.3)


def _no_data(ax, what: str) -> None:
    ax.text(0.5, 0.5, f"not measured\n({what})", ha="center", va="center",
            transform=ax.transAxes, color="0.4")


def _note(fig: Figure, notes: list[str], n_seeds=None) -> None:
    bits = [CI_NOTE + (f" (n = {n_seeds})" if n_seeds else "")] + [n for n in notes if n]
    fig.supxlabel("; ".join(bits), fontsize=7, color="0.35")


def _nseeds(df: pd.DataFrame) -> str | None:
    if "seed" not in df.columns or df.empty:
        return None
    n = df.groupby([c for c in ("network", "t_on", "N") if c in df.columns], dropna=False)["seed"].nunique()
    lo, hi = int(n.min()), int(n.max())
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _require_t_on(res: Results) -> None:
    need(res.replicas, ["t_on_ms"], "replicas")


def _fmt_n(n) -> str:
    return f"{int(n)}" if np.isfinite(n) else "?"


# --------------------------------------------------------------------------------------------
# Fig. 2: one flow, EF vs CBR
# --------------------------------------------------------------------------------------------

def fig2(res: Results) -> Figure:
    """Fig. 2: (a) loss in TCP throughput U_CBR - U_EF vs T_on; (b) total number of timeouts
    of the TCP flow vs T_on in the TCP-EF network (TCP-CBR level dashed, for reference).
    Paper setting: 1 flow, RTP 8 ms, f = 30%."""
    _require_t_on(res)
    loss = loss_per_seed(res)
    loss, notes = select(loss, N=1, rtp=8.0, f=MAIN_F, has_udp=0)
    tp = timeouts_per_seed(res)
    tp, _ = select(tp, N=1, rtp=8.0, f=MAIN_F, has_udp=0)
    fig, (a, b) = new_figure(2, "Kaur & Vin Fig. 2: effect of EF burstiness on TCP (one flow)")
    c = metrics.mean_ci(loss, "t_on", "loss")
    _errorbar(a, c, "t_on", "U_CBR - U_EF (mean over seeds)", color="tab:green")
    a.axhline(0.0, color="0.6", lw=0.8, label="no loss")
    _log_ton(a)
    a.set_ylabel("Loss in TCP throughput U_CBR - U_EF")
    a.set_title("(a) Loss in TCP throughput")
    a.legend(fontsize=8, loc="upper right")
    a.text(0.02, 0.02, U_EXPLAINED, transform=a.transAxes, fontsize=6.5, color="0.25",
           va="bottom", ha="left", wrap=True,
           bbox={"boxstyle": "round", "fc": "white", "ec": "0.8", "alpha": 0.85})
    ef = tp[tp["ef_kind"] == "onoff"]
    _errorbar(b, metrics.mean_ci(ef, "t_on", "timeouts_total"), "t_on", "TCP-EF", color="tab:green")
    cb = collapse_t_on(tp[tp["ef_kind"] == "cbr"], "timeouts_total")
    if not cb.empty:
        _hline_band(b, metrics.mean_ci(cb, None, "timeouts_total"), "TCP-CBR", COLORS["TCP+CBR"])
    _log_ton(b)
    b.set_ylabel("Number of timeouts (after warm-up)")
    b.set_title("(b) Number of timeouts")
    b.legend(fontsize=8)
    _note(fig, notes, _nseeds(loss))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 3: one flow, per RTP
# --------------------------------------------------------------------------------------------

def fig3(res: Results) -> Figure:
    """Fig. 3: loss in TCP throughput U_CBR - U_EF vs T_on, one curve per RTP (1 flow)."""
    _require_t_on(res)
    loss = loss_per_seed(res)
    loss, notes = select(loss, N=1, f=MAIN_F, has_udp=0)
    loss = loss[loss["rtp_setting"] == "equal"]
    if loss.empty:
        raise ValueError("rtp_ms: Fig. 3 needs equal-RTP rows (rtp_ms = one number per point)")
    fig, (a,) = new_figure(1, "Kaur & Vin Fig. 3: effect of RTT on loss in TCP throughput",
                            width=6.4)
    c = metrics.mean_ci(loss, ["rtp", "t_on"], "loss")
    for rtp, g in c.groupby("rtp"):
        _errorbar(a, g, "t_on", f"RTP = {rtp:g} ms")
    a.axhline(0.0, color="0.6", lw=0.8)
    _log_ton(a)
    a.set_ylabel("Loss in TCP throughput U_CBR - U_EF")
    a.legend(fontsize=8)
    _note(fig, notes, _nseeds(loss))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 4: N flows
# --------------------------------------------------------------------------------------------

def fig4(res: Results) -> Figure:
    """Fig. 4: (a) loss in aggregate TCP throughput vs T_on per N; (b) number of timeouts per
    flow vs T_on per N (TCP-EF network).  Paper: unequal RTPs 12-26 ms, f = 30%."""
    _require_t_on(res)
    loss = loss_per_seed(res)
    loss, notes = select(loss, f=MAIN_F, has_udp=0)
    tp = timeouts_per_seed(res)
    tp, _ = select(tp, f=MAIN_F, has_udp=0)
    tp = tp[tp["ef_kind"] == "onoff"]
    fig, (a, b) = new_figure(2, "Kaur & Vin Fig. 4: bursty EF traffic and many TCP flows")
    for n, g in metrics.mean_ci(loss, ["N", "t_on"], "loss").groupby("N"):
        _errorbar(a, g, "t_on", f"N = {_fmt_n(n)}")
    a.axhline(0.0, color="0.6", lw=0.8)
    _log_ton(a)
    a.set_ylabel("Loss in aggregate TCP throughput U_CBR - U_EF")
    a.set_title("(a) Aggregate TCP throughput")
    a.legend(fontsize=8)
    for n, g in metrics.mean_ci(tp, ["N", "t_on"], "timeouts_per_flow").groupby("N"):
        _errorbar(b, g, "t_on", f"N = {_fmt_n(n)}")
    _log_ton(b)
    b.set_ylabel("Number of timeouts per flow")
    b.set_title("(b) Number of timeouts per flow")
    b.legend(fontsize=8)
    _note(fig, notes, _nseeds(loss))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 5: M vs T_on for the four networks
# --------------------------------------------------------------------------------------------

def _m_vs_t_on(ax, fr: pd.DataFrame) -> None:
    for net in NO_EF:
        g = collapse_t_on(fr[fr["network"] == net], "min_max_ratio")
        if not g.empty:
            _hline_band(ax, metrics.mean_ci(g, None, "min_max_ratio", bounds=metrics.M_BOUNDS), net, COLORS[net])
    for net in WITH_EF:
        g = fr[fr["network"] == net]
        if not g.empty:
            _errorbar(ax, metrics.mean_ci(g, "t_on", "min_max_ratio", bounds=metrics.M_BOUNDS), "t_on", net,
                      color=COLORS[net])
    _log_ton(ax)
    ax.set_ylabel("Min-max ratio M")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=7)


def fig5(res: Results) -> Figure:
    """Fig. 5: min-max ratio M vs T_on for TCP-only, TCP+UDP (horizontal lines with CI bands:
    no T_on dependence), TCP+EF and TCP+UDP+EF; (a) equal RTPs, (b) unequal RTPs.
    Paper: N = 64, f = 30%."""
    _require_t_on(res)
    fr = fairness_per_seed(res)
    fr, notes = select(fr, N=64, f=MAIN_F)
    fig, axes = new_figure(2, "Kaur & Vin Fig. 5: effect of burstiness in EF traffic on TCP fairness")
    for ax, setting, tag in zip(axes, ("equal", "unequal"), ("(a) Equal RTPs", "(b) Unequal RTPs")):
        ax.set_title(tag)
        sub = fr[fr["rtp_setting"] == setting]
        if sub.empty:
            _no_data(ax, f"no {setting}-RTP rows")
            _log_ton(ax)
            ax.set_ylabel("Min-max ratio M")
            continue
        _m_vs_t_on(ax, sub)
    _note(fig, notes + [BOUNDED_NOTE], _nseeds(fr))
    return fig


# --------------------------------------------------------------------------------------------
# Histograms (Fig. 6, 8, 9)
# --------------------------------------------------------------------------------------------

def _edges(values: np.ndarray) -> np.ndarray:
    v = values[np.isfinite(values)]
    top = float(np.quantile(v, 0.99)) if v.size else 2.0
    upper = min(max(2.0, math.ceil(top / HIST_BIN) * HIST_BIN), 6.0)
    return np.round(np.arange(0.0, upper + HIST_BIN / 2, HIST_BIN), 10)


def hist_per_replica(nf: pd.DataFrame, edges: np.ndarray) -> pd.DataFrame:
    """Percentage of a replica's flows in each bin of x_i/(C/n) (values beyond the last edge go
    in the last bin): one row per (replica, bin), columns point, seed, bin, pct."""
    x = np.clip(nf["normalized"].to_numpy(dtype=float), 0.0, edges[-1] - 1e-9)
    b = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, len(edges) - 2)
    work = pd.DataFrame({"point": nf["point"].to_numpy(), "seed": nf["seed"].to_numpy(), "bin": b})
    cnt = work.groupby(KEYS + ["bin"]).size().rename("count").reset_index()
    reps = work[KEYS].drop_duplicates()
    full = reps.merge(pd.DataFrame({"bin": np.arange(len(edges) - 1)}), how="cross")
    full = full.merge(cnt, on=KEYS + ["bin"], how="left").fillna({"count": 0})
    tot = work.groupby(KEYS).size().rename("total").reset_index()
    full = full.merge(tot, on=KEYS)
    full["pct"] = 100.0 * full["count"] / full["total"]
    return full


def _hist_panel(ax, series: list[tuple[str, pd.DataFrame, str | None]], edges: np.ndarray,
                empty: str) -> None:
    """Bars of the mean % of flows per bin, one series per label; ``empty`` is shown when
    there is no series."""
    if not series:
        _no_data(ax, empty)
        ax.set_xlabel("Normalized throughput x_i / (C/n)")
        ax.set_ylabel("% of flows")
        return
    k = max(1, len(series))
    w = HIST_BIN / k
    centers = (edges[:-1] + edges[1:]) / 2
    for i, (label, nf, color) in enumerate(series):
        h = hist_per_replica(nf, edges)
        c = metrics.mean_ci(h, "bin", "pct", bounds=(0.0, 100.0))
        xs = centers[c["bin"].to_numpy(dtype=int)] - HIST_BIN / 2 + w * (i + 0.5)
        m = c["mean"].to_numpy(dtype=float)
        err = yerr(c)
        err[0] = np.minimum(err[0], m)              # a percentage is >= 0 ...
        err[1] = np.minimum(err[1], 100.0 - m)      # ... and <= 100
        ax.bar(xs, m, width=w * 0.95, label=label, color=color, alpha=0.8)
        show = (err.sum(axis=0) > 0)
        if show.any():
            ax.errorbar(xs[show], m[show], yerr=err[:, show], fmt="none", ecolor="0.2",
                        elinewidth=0.7, capsize=1.5)
    ax.axvspan(NEAR_FAIR[0], NEAR_FAIR[1], color="0.85", alpha=0.5, lw=0, zorder=0)
    ax.axvline(1.0, color="0.4", lw=0.8, ls=":")
    ax.set_xlim(edges[0], edges[-1])
    ax.set_xlabel(f"Normalized throughput x_i / (C/n) (last bin: >= {edges[-2]:g})")
    ax.set_ylabel("% of flows")
    ax.set_ylim(bottom=0)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)


def fig6(res: Results) -> Figure:
    """Fig. 6: frequency distribution of the normalised throughput x_i/(C/n) with and without
    EF (T_on nearest 1 ms) for every network present; (a) equal, (b) unequal RTPs.  Bars: mean
    % of a replica's flows per bin, with 95% CI over seeds; shaded: 0.8..1.2 (fair share)."""
    nf = normalized_per_flow(res)
    nf, notes = select(nf, N=64, f=MAIN_F)
    nf, note = nearest_t_on(nf, 1.0)
    notes.append(note)
    fig, axes = new_figure(2, "Kaur & Vin Fig. 6: normalized throughput of TCP flows "
                               "(EF T_on = 1 ms)")
    edges = _edges(nf["normalized"].to_numpy(dtype=float))
    for ax, setting, tag in zip(axes, ("equal", "unequal"), ("(a) Equal RTPs", "(b) Unequal RTPs")):
        ax.set_title(tag)
        sub = nf[nf["rtp_setting"] == setting]
        series = [(net, sub[sub["network"] == net], COLORS[net]) for net in NO_EF + WITH_EF
                  if (sub["network"] == net).any()]
        _hist_panel(ax, series, edges, f"no {setting}-RTP rows")
    _note(fig, notes + [BOUNDED_NOTE], _nseeds(nf.drop_duplicates(KEYS)))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 7: M vs N
# --------------------------------------------------------------------------------------------

def fig7(res: Results) -> Figure:
    """Fig. 7: min-max ratio M vs the number of TCP flows N for TCP-only, TCP+UDP, TCP+EF and
    TCP+UDP+EF (EF T_on nearest 1 ms); (a) equal, (b) unequal RTPs."""
    fr = fairness_per_seed(res)
    fr, notes = select(fr, f=MAIN_F)
    fr, note = nearest_t_on(fr, 1.0)
    notes.append(note)
    fr = collapse_t_on(fr, "min_max_ratio", networks=NO_EF)
    fig, axes = new_figure(2, "Kaur & Vin Fig. 7: effect of increasing the number of TCP "
                               "flows on fairness")
    for ax, setting, tag in zip(axes, ("equal", "unequal"), ("(a) Equal RTPs", "(b) Unequal RTPs")):
        ax.set_title(tag)
        sub = fr[fr["rtp_setting"] == setting]
        if sub.empty:
            _no_data(ax, f"no {setting}-RTP rows")
        for net in NO_EF + WITH_EF:
            g = sub[sub["network"] == net]
            if not g.empty:
                _errorbar(ax, metrics.mean_ci(g, "N", "min_max_ratio", bounds=metrics.M_BOUNDS), "N", net,
                          color=COLORS[net], ls="--" if net in NO_EF else "-")
        _log2_n(ax, sub["N"].unique() if not sub.empty else [])
        ax.set_ylabel("Min-max ratio M")
        ax.set_ylim(-0.02, 1.02)
        if not sub.empty:
            ax.legend(fontsize=7)
    _note(fig, notes + [BOUNDED_NOTE], _nseeds(fr))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 8, 9: histograms per N for TCP+UDP and TCP+UDP+EF
# --------------------------------------------------------------------------------------------

def _fig89(res: Results, setting: str, number: int) -> Figure:
    nf = normalized_per_flow(res)
    nf, notes = select(nf, f=MAIN_F)
    nf, note = nearest_t_on(nf, 1.0)
    notes.append(note)
    nf = nf[nf["rtp_setting"] == setting]
    title = "equal" if setting == "equal" else "unequal"
    fig, axes = new_figure(2, f"Kaur & Vin Fig. {number}: normalized throughput of TCP flows "
                               f"with {title} round-trip propagation latencies")
    edges = _edges(nf["normalized"].to_numpy(dtype=float)) if not nf.empty else _edges(np.array([]))
    ns = sorted(nf["N"].dropna().unique())
    cmap = {n: f"C{i % 10}" for i, n in enumerate(ns)}
    for ax, net, tag in zip(axes, ("TCP+UDP", "TCP+UDP+EF"), ("(a) TCP+UDP", "(b) TCP+UDP+EF")):
        ax.set_title(tag)
        sub = nf[nf["network"] == net]
        series = [(f"N = {_fmt_n(n)}", sub[sub["N"] == n], cmap[n]) for n in ns
                  if (sub["N"] == n).any()]
        _hist_panel(ax, series, edges, f"no {net} rows with {title} RTPs")
    _note(fig, notes + [BOUNDED_NOTE], _nseeds(nf.drop_duplicates(KEYS)) if not nf.empty else None)
    return fig


def fig8(res: Results) -> Figure:
    """Fig. 8: normalised-throughput histograms per N, equal RTPs: (a) TCP+UDP,
    (b) TCP+UDP+EF (EF T_on nearest 1 ms)."""
    return _fig89(res, "equal", 8)


def fig9(res: Results) -> Figure:
    """Fig. 9: as Fig. 8 with unequal RTPs (12-26 ms)."""
    return _fig89(res, "unequal", 9)


# --------------------------------------------------------------------------------------------
# Fig. 10: Padhye model error
# --------------------------------------------------------------------------------------------

def fig10(res: Results) -> Figure:
    """Fig. 10: cumulative distribution over all flows of the PFTK (Padhye et al.) prediction
    error (predicted - observed) / observed (``metrics.padhye_error``; flows without losses
    have no prediction and are left out).  The shaded band is |error| < 10%."""
    pe = padhye_per_flow(res)
    err = pe["padhye_error"].to_numpy(dtype=float)
    ok = np.isfinite(err)
    fig, (a,) = new_figure(1, "Kaur & Vin Fig. 10: error in prediction by the model of "
                               "Padhye et al.", width=6.4)
    if not ok.any():
        _no_data(a, "no flow with losses")
    else:
        e = np.sort(err[ok])
        y = np.arange(1, e.size + 1) / e.size
        a.step(e, y, where="post", color="tab:purple", label="all flows")
        lo, hi = np.quantile(e, [0.005, 0.995])
        pad = 0.05 * max(hi - lo, 0.2)
        a.set_xlim(min(lo, -0.15) - pad, max(hi, 0.15) + pad)
        frac = float(np.mean(np.abs(e) >= 0.1))
        a.text(0.02, 0.95, f"|error| >= 10%: {100 * frac:.0f}% of {e.size} flows",
               transform=a.transAxes, va="top", fontsize=8)
    a.axvspan(-0.1, 0.1, color="0.85", alpha=0.6, lw=0, zorder=0)
    a.axvline(0.0, color="0.4", lw=0.8, ls=":")
    a.set_xlabel("(predicted - observed) / observed throughput")
    a.set_ylabel("Cumulative fraction of flows")
    a.set_ylim(0, 1.02)
    a.grid(True, alpha=0.3)
    notes = [f"{int((~ok).sum())} flows without losses left out"] if (~ok).any() else []
    fig.supxlabel("; ".join(["empirical CDF over all flows of all seeds"] + notes),
                  fontsize=7, color="0.35")
    return fig


# --------------------------------------------------------------------------------------------
# Kf: other EF fractions
# --------------------------------------------------------------------------------------------

def figkf(res: Results) -> Figure:
    """Kf (text of Sec. 2.2): the K2, K4 and K5 measures for each EF fraction f present:
    (a) one-flow loss vs T_on, (b) aggregate loss vs T_on averaged over N >= 20,
    (c) M vs T_on of TCP+EF (dashed: TCP-only level).  Panels without data say so."""
    _require_t_on(res)
    rep, _ = prepare(res)
    fs = sorted(rep["f"].dropna().unique())
    if not fs:
        raise ValueError("ef_fraction: Kf needs EF or CBR rows (ef = 'onoff'/'cbr')")
    cmap = {f: f"C{i % 10}" for i, f in enumerate(fs)}
    fig, (a, b, c) = new_figure(3, "Kaur & Vin, EF fractions f (Sec. 2.2: conclusions hold for "
                                    "5-30%)", width=4.8)
    try:
        loss = loss_per_seed(res)
    except ValueError:
        loss = pd.DataFrame(columns=CANON + ["loss"])
    one = loss[loss["N"] == 1]
    if one.empty:
        _no_data(a, "no one-flow EF/CBR rows")
    for f, g in one.groupby("f"):
        _errorbar(a, metrics.mean_ci(g, "t_on", "loss"), "t_on", f"f = {100 * f:g}%", color=cmap[f])
    _log_ton(a)
    a.set_ylabel("Loss U_CBR - U_EF (1 flow)")
    a.set_title("(a) One flow (Fig. 2a)")
    many = loss[loss["N"] >= N_LARGE]
    if many.empty:
        _no_data(b, f"no EF/CBR rows with N >= {N_LARGE}")
    else:
        m = many.groupby(["f", "seed", "t_on"], as_index=False)["loss"].mean()
        for f, g in m.groupby("f"):
            _errorbar(b, metrics.mean_ci(g, "t_on", "loss"), "t_on", f"f = {100 * f:g}%",
                      color=cmap[f])
    _log_ton(b)
    b.set_ylabel(f"Aggregate loss U_CBR - U_EF (N >= {N_LARGE})")
    b.set_title("(b) Many flows (Fig. 4a)")
    fr = fairness_per_seed(res)
    fr = fr[fr["N"] > 1]
    ef = fr[fr["network"] == "TCP+EF"]
    if ef.empty:
        _no_data(c, "no TCP+EF rows with N > 1")
    for f, g in ef.groupby("f"):
        _errorbar(c, metrics.mean_ci(g, "t_on", "min_max_ratio", bounds=metrics.M_BOUNDS), "t_on", f"TCP+EF, f = {100 * f:g}%",
                  color=cmap[f])
    base = collapse_t_on(fr[fr["network"] == "TCP-only"], "min_max_ratio")
    if not base.empty:
        _hline_band(c, metrics.mean_ci(base, None, "min_max_ratio", bounds=metrics.M_BOUNDS), "TCP-only", "0.3")
    _log_ton(c)
    c.set_ylabel("Min-max ratio M")
    c.set_ylim(-0.02, 1.02)
    c.set_title("(c) Fairness (Fig. 5)")
    for ax in (a, b, c):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    _note(fig, [BOUNDED_NOTE], None)
    return fig


# --------------------------------------------------------------------------------------------
# Kr, Kt: RED at the bottleneck, a telnet share of the link (sec. 5)
# --------------------------------------------------------------------------------------------

def _fig_condition(res: Results, condition: str) -> Figure:
    """Families Kr and Kt: (a) the one-flow loss U_CBR - U_EF vs T_on (Fig. 2a), (b) the
    aggregate loss at N = 64 (Fig. 4a), (c) the min-max ratio M vs T_on at N = 64, equal RTPs,
    with and without EF (Fig. 5a), all under ``condition``."""
    _require_t_on(res)
    fig, (a, b, c) = new_figure(3, f"Kaur & Vin with {condition} (sec. 5)", width=4.8)
    loss = loss_per_seed(res)
    for ax, n, title in ((a, 1, "(a) One flow (Fig. 2a)"), (b, 64, "(b) N = 64 (Fig. 4a)")):
        g = loss[loss["N"] == n]
        if g.empty:
            _no_data(ax, f"no EF/CBR rows with N = {n}")
        else:
            _errorbar(ax, metrics.mean_ci(g, "t_on", "loss"), "t_on", "U_CBR - U_EF",
                      color="tab:green")
        ax.axhline(0.0, color="0.6", lw=0.8)
        _log_ton(ax)
        ax.set_ylabel("Loss in TCP throughput U_CBR - U_EF")
        ax.set_title(title)
    fr = fairness_per_seed(res)
    fr = fr[(fr["N"] == 64) & (fr["rtp_setting"] == "equal")]
    if fr.empty:
        _no_data(c, "no rows with N = 64, equal RTPs")
        _log_ton(c)
    else:
        _m_vs_t_on(c, fr)
    c.set_title("(c) Min-max ratio M, N = 64 (Fig. 5a)")
    _note(fig, [], _nseeds(fr if not fr.empty else loss))
    return fig


def figkr(res: Results) -> Figure:
    """Kr: Figs. 2a, 4a and 5a with RED at the bottleneck (``_fig_condition``)."""
    return _fig_condition(res, "RED at the bottleneck")


def figkt(res: Results) -> Figure:
    """Kt: Figs. 2a, 4a and 5a with a 15% telnet share of the link (``_fig_condition``)."""
    return _fig_condition(res, "a 15% telnet share of the link")


#: Ks: each sender's curves, Reno (the paper's) beside SACK
_SENDERS = (("reno", "Reno", "tab:blue", "-"), ("sack", "SACK", "tab:red", "--"))


def figks(res: Results) -> Figure:
    """Ks: Figs. 2a, 4a and 5a with SACK senders beside Reno on the same runs: (a) the one-flow
    loss U_CBR - U_EF vs T_on at RTP 8 ms, (b) the aggregate loss at N = 64, (c) the min-max
    ratio M at N = 64, equal RTPs, with EF (points) and without (band), one colour per
    sender. It draws sweeps ks_k3 and ks_k5 of the family's runs: N = 64 is in its other
    sweeps too, in other RTP settings, same-slot orders and T_on grids."""
    res = of_sweeps(res, ("ks_k3", "ks_k5"))
    _require_t_on(res)
    fig, (a, b, c) = new_figure(3, "Kaur & Vin with TCP SACK senders beside Reno (sec. 5)",
                                width=4.8)
    used = []
    for tcp, label, color, ls in _SENDERS:
        part = res.where(tcp=tcp)
        loss = loss_per_seed(part)
        for ax, rows in ((a, (loss["N"] == 1) & (loss["rtp"] == 8.0)), (b, loss["N"] == 64)):
            if rows.any():
                _errorbar(ax, metrics.mean_ci(loss[rows], "t_on", "loss"), "t_on", label,
                          color=color, ls=ls)
        fr = fairness_per_seed(part)
        fr = fr[(fr["N"] == 64) & (fr["rtp_setting"] == "equal")]
        for net in NO_EF:
            g = collapse_t_on(fr[fr["network"] == net], "min_max_ratio")
            if not g.empty:
                _hline_band(c, metrics.mean_ci(g, None, "min_max_ratio", bounds=metrics.M_BOUNDS),
                            f"{net}, {label}", color)
        for net in WITH_EF:
            g = fr[fr["network"] == net]
            if not g.empty:
                _errorbar(c, metrics.mean_ci(g, "t_on", "min_max_ratio", bounds=metrics.M_BOUNDS),
                          "t_on", f"{net}, {label}", color=color, ls=ls)
        used.append(fr if not fr.empty else loss)
    for ax, title in ((a, "(a) One flow, RTP 8 ms (Fig. 2a)"), (b, "(b) N = 64 (Fig. 4a)")):
        ax.axhline(0.0, color="0.6", lw=0.8)
        ax.set_ylabel("Loss in TCP throughput U_CBR - U_EF")
        ax.set_title(title)
    for ax in (a, b, c):
        _log_ton(ax)
        ax.legend(fontsize=7)
    c.set_ylabel("Min-max ratio M")
    c.set_ylim(-0.02, 1.02)
    c.set_title("(c) Min-max ratio M, N = 64 (Fig. 5a)")
    _note(fig, [], _nseeds(used[-1]))
    return fig


FIGURES = {"K2": fig2, "K3": fig3, "K4": fig4, "K5": fig5, "K6": fig6, "K7": fig7,
           "K8": fig8, "K9": fig9, "K10": fig10, "Kf": figkf, "Kr": figkr, "Kt": figkt,
           "Ks": figks}


# --------------------------------------------------------------------------------------------
# Fig. 2 variants: why the single-flow loss differs from the paper
# --------------------------------------------------------------------------------------------

def fig2_variants(variants: Mapping[str, Results], ns2: pd.DataFrame | None = None) -> Figure:
    """Fig. 2a under several model settings, one curve each (``variants``: label -> Results of
    a K2-like sweep), plus ns-2.35 on the matched scenario when ``ns2`` (columns ``t_on_ms``,
    ``loss``, ``loss_ci``) is given. Shows whether TCP variant or timer defaults explain a
    claim that does not hold, without tuning anything to agree."""
    fig, (a, b) = new_figure(2, "Fig. 2 under other settings: loss and timeouts vs T_on (one flow)")
    colors = ["tab:green", "tab:blue", "tab:purple", "tab:brown", "tab:olive"]
    for (label, res), color in zip(variants.items(), colors):
        loss, _ = select(loss_per_seed(res), N=1, rtp=8.0, f=MAIN_F, has_udp=0)
        _errorbar(a, metrics.mean_ci(loss, "t_on", "loss"), "t_on", label, color=color)
        tp, _ = select(timeouts_per_seed(res), N=1, rtp=8.0, f=MAIN_F, has_udp=0)
        ef = tp[tp["ef_kind"] == "onoff"]
        _errorbar(b, metrics.mean_ci(ef, "t_on", "timeouts_total"), "t_on", label, color=color)
    if ns2 is not None and not ns2.empty:
        a.errorbar(ns2["t_on_ms"], ns2["loss"], yerr=ns2["loss_ci"], color="black", marker="s",
                   ls=":", capsize=3, label="ns-2.35, matched scenario")
    a.axhline(0.0, color="0.6", lw=0.8)
    a.set_ylabel("Loss in TCP throughput U_CBR - U_EF")
    a.set_title("(a) Loss in TCP throughput")
    b.set_ylabel("Number of timeouts (after warm-up)")
    b.set_title("(b) Number of timeouts, TCP-EF")
    for ax in (a, b):
        _log_ton(ax)
        ax.legend(fontsize=8)
    return fig
