"""The claims of Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP Throughput and
Fairness", checked against the measured tables.

Every verdict is computed here from the tables of a :class:`diffsweep.Results`, through the
per-seed tables of :mod:`diffsweep.papers.kaur_vin.tables` (which the figures draw too), with
the verdict rules of :mod:`diffsweep.analysis.claims`; nothing is written in. The claims are data
(``_CLAIMS``: id, figure, family, check name, rule and its parameters, the paper's statement
and the test); the rules are the functions below, shared by the claims that differ only in
their parameters. A claim's test (its ``thresholds``, printed in the report) is the docstring
of its check; the thresholds are the constants below. Trends in N or T_on are per log2(N) or
log10(T_on). The checks are module attributes by name (``check_k2_peak``, ...; ``CHECKS``).

Families are looked up in ``results_by_family`` by their id ("K2", ..., "K10", "Kf") through
``results_for``: "K6" falls back to the "K5" data (Fig. 5 includes T_on = 1 ms at N = 64) and
"K10" to all families together (Fig. 10 uses "the flows of the runs above").
"""
from __future__ import annotations

import math
from typing import Callable, Mapping

import numpy as np
import pandas as pd

from diffsweep.analysis import claims as cl
from diffsweep.analysis import metrics
from diffsweep.analysis.claims import HOLDS, NM, NOT, PARTLY, Claim, Verdict
from diffsweep.report.figures import combine
from diffsweep.core.results import Results

from diffsweep.papers.kaur_vin import questions
from diffsweep.papers.kaur_vin import tables as kv

__all__ = ["kaur_vin_claims", "results_for"]

# ------------------------------------------------------------------ thresholds (documented)
PEAK_LARGE = 0.25          # K2.2: peak loss >= 0.25 holds ("up to ~50%")
PEAK_MEDIUM = 0.10         # K2.2: >= 0.10 partly
SHAPE_R_HOLDS = 0.8        # K2.3: Pearson r(loss, timeouts) over T_on
SHAPE_R_PARTLY = 0.5
TAU_R2 = 0.7               # K2.4: R^2 of the N_bursts * P_timeout fit
TAU_FACTOR = 2.5           # K2.4: observed peak within a factor 2.5 of the fitted tau
SPEARMAN_PARTLY = -0.5     # K3.1: rank correlation RTP vs loss for "partly"
LOSS_INSIGNIFICANT = 0.05  # K4.1: aggregate loss <= 0.05 (5% of C) holds
LOSS_SMALL = 0.10          # K4.1: <= 0.10 partly
M_SMALL = 0.2              # K5.1/K5.2: M <= 0.2 (throughputs differ >= 5x) holds
M_MEDIUM = 0.5             # K5.1/K5.2: M <= 0.5 (>= 2x) partly
FLAT = 0.1                 # "marginal" / "not appreciable": |change over the N range| <= 0.1
FLAT_PARTLY = 0.2
SPREAD_LARGE = 1.0         # K9.1: max - min of x_i/(C/n) >= 1 fair share at the largest N
SPREAD_MEDIUM = 0.5
PADHYE_OFF = 0.10          # K10: |error| >= 10%
PADHYE_MOST = 0.7          # K10: fraction >= 0.7 holds (paper 80%)
PADHYE_HALF = 0.5          # K10: >= 0.5 partly

# Quantities bounded to [0, 1]: their intervals are computed on the logit scale.
_BOUNDS = {"min_max_ratio": metrics.M_BOUNDS, "near_fair": metrics.M_BOUNDS}
_WORDS = {"spread": "the spread (max - min of x_i/(C/n))",
          "near_fair": "the share of flows within 0.8..1.2 of the fair share",
          "min_max_ratio": "the min-max ratio M"}
# x of a trend: (slope key, curve key, words of one log unit, log, least number of x values)
_PER = {"t_on": ("slope_per_decade_of_t_on", "M_vs_t_on", "tenfold T_on", np.log10, 3),
        "N": ("slope_per_doubling_of_N", "M_by_N", "doubling of N", np.log2, 2)}
_K2 = dict(N=1, rtp=8.0, f=kv.MAIN_F, has_udp=0)   # Fig. 2: one flow, RTP 8 ms, f = 30%, no UDP


# --------------------------------------------------------------------------------------------
# Rows and curves
# --------------------------------------------------------------------------------------------

def _rows(res: Results, table: Callable, multi: bool = False, near_1ms: bool = False,
          **prefs) -> tuple[pd.DataFrame, list[str]]:
    """``table(res)`` (its rows with N > 1 if ``multi``), ``kv.select``-ed on ``prefs`` in turn,
    then (``near_1ms``) at the T_on nearest 1 ms per network; the rows and the notes."""
    df = table(res)
    if multi:
        df = df[df["N"] > 1]
    df, notes = kv.select(df, **prefs)
    if near_1ms:
        df, note = kv.nearest_t_on(df, 1.0)
        notes = notes + ([note] if note else [])
    return df, notes


def _k2_timeouts(res: Results) -> pd.DataFrame:
    tp, _ = _rows(res, kv.timeouts_per_seed, **_K2)
    return tp[tp["ef_kind"] == "onoff"]


def _k5(res: Results):
    return _rows(res, kv.fairness_per_seed, multi=True, N=64, f=kv.MAIN_F)


def _k7(res: Results):
    fr, notes = _rows(res, kv.fairness_per_seed, multi=True, near_1ms=True, f=kv.MAIN_F)
    return kv.collapse_t_on(fr, "min_max_ratio", networks=kv.NO_EF), notes


def _curve_numbers(c: pd.DataFrame, x: str) -> dict:
    return {f"{cl.finite_or_none(r[x]):g}": cl.ci_dict(r) for _, r in c.sort_values(x).iterrows()
            if cl.finite_or_none(r[x]) is not None}


def _rng(ci: dict) -> str:
    lo, hi = ci["ci95"]
    return "n/a" if lo is None or hi is None else f"{lo:.3g}..{hi:.3g}"


# --------------------------------------------------------------------------------------------
# K2, K3, K4: one flow and N flows, EF vs CBR (Figs. 2-4)
# --------------------------------------------------------------------------------------------

def _k2_rise_fall(res: Results) -> Verdict:
    loss, notes = _rows(res, kv.loss_per_seed, **_K2)
    c = metrics.mean_ci(loss, "t_on", "loss")
    st, info, why = cl.rise_fall(c, "t_on")
    return Verdict(st, {"loss_vs_t_on": _curve_numbers(c, "t_on"), **info, "selection": notes}, why)


def _k2_peak(res: Results) -> Verdict:
    loss, notes = _rows(res, kv.loss_per_seed, **_K2)
    c = metrics.mean_ci(loss, "t_on", "loss")
    if c.empty or not np.isfinite(c["mean"]).any():
        return Verdict(NM, {}, "no loss values")
    i = int(np.nanargmax(c["mean"].to_numpy(dtype=float)))
    peak = cl.ci_dict(c.iloc[i])
    at = f"T_on = {c['t_on'].iloc[i]:g} ms"
    lo = peak["ci95"][0]
    if lo is not None and lo <= 0:
        st = NOT
        why = (f"the largest mean loss, {cl.ci_words(peak)} at {at}, is not significantly above "
               "0: its interval includes 0, so no loss is shown")
    else:
        st = cl.level_ci(peak, PEAK_LARGE, PEAK_MEDIUM)
        why = (f"the largest mean loss is {cl.ci_words(peak)} at {at}; the claim holds if the "
               f"whole interval is at least {PEAK_LARGE}, partly if it reaches {PEAK_MEDIUM}")
    return Verdict(st, {"peak_loss": peak, "peak_t_on_ms": cl.finite_or_none(c["t_on"].iloc[i]),
                        "selection": notes}, why)


def _k2_timeouts_shape(res: Results) -> Verdict:
    loss, _ = _rows(res, kv.loss_per_seed, **_K2)
    tp = _k2_timeouts(res)
    c_loss = metrics.mean_ci(loss, "t_on", "loss")
    ct = metrics.mean_ci(tp, "t_on", "timeouts_total")
    both = c_loss.merge(ct, on="t_on", suffixes=("_loss", "_to"))
    if len(both) < 3:
        return Verdict(NM, {}, f"needs >= 3 common T_on points (found {len(both)})")
    r = cl.pearson(both["mean_loss"].to_numpy(float), both["mean_to"].to_numpy(float))
    st_t, info, why_t = cl.rise_fall(ct, "t_on")
    if r is not None and r >= SHAPE_R_HOLDS and st_t == HOLDS:
        st = HOLDS
    elif (r is None or r < SHAPE_R_PARTLY) and st_t == NOT:
        st = NOT
    else:
        st = PARTLY
    rs = "undefined (a flat curve)" if r is None else f"{r:.2f}"
    return Verdict(st, {"pearson_r_loss_timeouts": r,
                        "timeouts_vs_t_on": _curve_numbers(ct, "t_on"),
                        "timeouts_peak_at_ms": info.get("peak_at")},
                   f"r(loss, timeouts) over T_on = {rs} (>= {SHAPE_R_HOLDS} holds, "
                   f">= {SHAPE_R_PARTLY} partly); timeouts curve: {why_t}")


def _fit_tau(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least-squares fit of y = A exp(-tau/x) / x (N_bursts ~ f / T_on times P_timeout =
    exp(-tau/T_on), Sec. 3.1.1); returns (tau, A, R^2).  Its maximum is at x = tau."""
    best = (np.nan, np.nan, np.inf)
    for t in np.logspace(np.log10(x.min()) - 1.5, np.log10(x.max()) + 1.5, 600):
        g = np.exp(-t / x) / x
        gg = float(np.dot(g, g))
        if gg <= 0:
            continue
        a = float(np.dot(g, y)) / gg
        sse = float(np.sum((y - a * g) ** 2))
        if sse < best[2]:
            best = (float(t), a, sse)
    sst = float(np.sum((y - y.mean()) ** 2))
    return best[0], best[1], 1.0 - best[2] / sst if sst > 0 else float("nan")


def _k2_tau(res: Results) -> Verdict:
    tp = _k2_timeouts(res)
    c = metrics.mean_ci(tp, "t_on", "timeouts_total").sort_values("t_on")
    c = c[np.isfinite(c["mean"]) & (c["t_on"] > 0)]
    if len(c) < 4:
        return Verdict(NM, {}, f"needs >= 4 T_on points with timeouts (found {len(c)})")
    x, y = c["t_on"].to_numpy(float), c["mean"].to_numpy(float)
    if not (y > 0).any():
        return Verdict(NM, {"timeouts_vs_t_on": _curve_numbers(c, "t_on")},
                       "no timeouts at any T_on: tau cannot be fitted")
    tau, a, r2 = _fit_tau(x, y)
    ipk = int(np.argmax(y))
    peak = float(x[ipk])
    ratio = peak / tau
    interior = 0 < ipk < len(x) - 1
    near = interior and (1.0 / TAU_FACTOR) <= ratio <= TAU_FACTOR
    good = math.isfinite(r2) and r2 >= TAU_R2
    st = HOLDS if (near and good) else (PARTLY if (near or good) else NOT)
    edge = "" if interior else " at an end of the T_on grid, so not located"
    return Verdict(st, {"tau_fit_ms": tau, "fit_r2": r2, "observed_peak_t_on_ms": peak,
                        "peak_over_tau": ratio, "peak_is_interior": interior,
                        "timeouts_vs_t_on": _curve_numbers(c, "t_on")},
                   f"fitted tau = {tau:.3g} ms (R^2 = {r2:.2f}, needs >= {TAU_R2}); observed "
                   f"timeout peak at T_on = {peak:g} ms{edge}, {ratio:.2f} x tau (needs an "
                   f"interior peak within a factor {TAU_FACTOR})")


def _k3_rtp(res: Results) -> Verdict:
    loss, notes = _rows(res, kv.loss_per_seed, N=1, f=kv.MAIN_F, has_udp=0)
    loss = loss[loss["rtp_setting"] == "equal"]
    rtps = sorted(loss["rtp"].dropna().unique())
    if len(rtps) < 2:
        return Verdict(NM, {}, f"needs >= 2 RTP values (found {len(rtps)})")
    common = set.intersection(*(set(loss.loc[loss["rtp"] == r, "t_on"]) for r in rtps))
    loss = loss[loss["t_on"].isin(common)]
    per = loss.groupby(["rtp", "seed"], as_index=False)["loss"].mean()
    c = metrics.mean_ci(per, "rtp", "loss").sort_values("rtp")
    steps = bool(np.all(np.diff(c["mean"].to_numpy(float)) < 0))
    d = cl.paired(per[per["rtp"] == rtps[-1]].assign(N=1, rtp_setting="equal", rtp=0.0),
                  per[per["rtp"] == rtps[0]].assign(N=1, rtp_setting="equal", rtp=0.0), "loss")
    dd = cl.overall_ci(d, "diff") if len(d) else {"mean": None, "ci95": [None, None], "n": 0}
    sig = dd["ci95"][0] is not None and dd["ci95"][0] > 0
    rho = cl.spearman(c["rtp"], c["mean"])
    if steps and sig:
        st = HOLDS
    elif (rho is not None and rho <= SPEARMAN_PARTLY) or sig:
        st = PARTLY
    else:
        st = NOT
    return Verdict(st, {"mean_loss_over_t_on_by_rtp_ms": _curve_numbers(c, "rtp"),
                        "loss_smallest_minus_largest_rtp": dd, "spearman_rtp_loss": rho,
                        "t_on_points": len(common), "selection": notes},
                   f"the mean loss {'falls' if steps else 'does not fall'} at every step from "
                   f"RTP {rtps[0]:g} to {rtps[-1]:g} ms; loss at {rtps[0]:g} ms minus loss at "
                   f"{rtps[-1]:g} ms (paired by seed) is {cl.ci_words(dd)}, "
                   f"{'significantly above 0' if sig else 'not significantly above 0'}; the rank "
                   f"correlation of RTP and mean loss is "
                   f"{'undefined' if rho is None else f'{rho:.2f}'} (-1: loss always falls as "
                   f"RTP grows; {SPEARMAN_PARTLY} or below counts for partly)")


def _k4_aggregate(res: Results) -> Verdict:
    loss, notes = _rows(res, kv.loss_per_seed, f=kv.MAIN_F, has_udp=0)
    big = loss[loss["N"] >= kv.N_LARGE]
    if big.empty:
        return Verdict(NM, {}, f"no EF/CBR rows with N >= {kv.N_LARGE}")
    c = metrics.mean_ci(big, ["N", "t_on"], "loss")
    i = int(np.nanargmax(c["mean"].to_numpy(float)))
    per_n = {}
    for n, g in c.groupby("N"):
        j = int(np.nanargmax(g["mean"].to_numpy(float)))
        per_n[f"N={int(n)}"] = {"max_loss": cl.ci_dict(g.iloc[j]),
                                "at_t_on_ms": cl.finite_or_none(g["t_on"].iloc[j])}
    small = loss[loss["N"] < kv.N_LARGE]
    top = cl.ci_dict(c.iloc[i])
    nums = {"max_loss_N>=20": top, "at": {"N": int(c["N"].iloc[i]),
                                          "t_on_ms": cl.finite_or_none(c["t_on"].iloc[i])},
            "per_N": per_n, "selection": notes}
    if not small.empty:
        cs = metrics.mean_ci(small, ["N", "t_on"], "loss")
        nums["max_loss_N<20"] = cl.ci_dict(cs.iloc[int(np.nanargmax(cs["mean"].to_numpy(float)))])
    st = cl.level_ci(top, LOSS_INSIGNIFICANT, LOSS_SMALL, higher_is_better=False)
    return Verdict(st, nums, f"the largest mean aggregate loss for N >= {kv.N_LARGE} is "
                             f"{cl.ci_words(top)} (N = {int(c['N'].iloc[i])}, "
                             f"T_on = {c['t_on'].iloc[i]:g} ms); the claim holds if the whole "
                             f"interval is at most {LOSS_INSIGNIFICANT}, partly if it reaches "
                             f"down to {LOSS_SMALL}")


def _k4_timeouts(res: Results) -> Verdict:
    tp, notes = _rows(res, kv.timeouts_per_seed, f=kv.MAIN_F, has_udp=0)
    tp = tp[tp["ef_kind"] == "onoff"]
    ns = sorted(tp["N"].dropna().unique())
    if len(ns) < 2:
        return Verdict(NM, {}, f"needs >= 2 values of N in the TCP-EF network (found {len(ns)})")
    per = tp.groupby(["N", "seed"], as_index=False)["timeouts_per_flow"].mean()
    c = metrics.mean_ci(per, "N", "timeouts_per_flow").sort_values("N")
    tr = cl.trend(per, "N", "timeouts_per_flow")
    if tr is None:
        return Verdict(NM, {}, "no seed has two values of N")
    sl = tr["slope_per_log_unit"]
    st = cl.sign_status(sl, +1)
    if st == HOLDS and not c["mean"].iloc[-1] > c["mean"].iloc[0]:
        st = PARTLY
    return Verdict(st, {"timeouts_per_flow_by_N": _curve_numbers(c, "N"),
                        "slope_per_doubling_of_N": sl, "selection": notes},
                   f"slope per doubling of N {sl['mean']:.3g} (95% CI {_rng(sl)}); mean at "
                   f"N = {int(ns[0])}: {c['mean'].iloc[0]:.3g}, at N = {int(ns[-1])}: "
                   f"{c['mean'].iloc[-1]:.3g}")


# --------------------------------------------------------------------------------------------
# K5-K9: fairness, M vs T_on (Fig. 5), histograms (Figs. 6, 8, 9), M vs N (Fig. 7)
# --------------------------------------------------------------------------------------------

def _no_ef_small(res: Results, setting: str) -> Verdict:
    fr, notes = _k5(res)
    fr = fr[fr["rtp_setting"] == setting]
    nets = [n for n in kv.NO_EF if (fr["network"] == n).any()]
    if not nets:
        return Verdict(NM, {}, f"no TCP-only or TCP+UDP rows with {setting} RTPs")
    nums, sts, whys = {}, [], []
    for net in nets:
        g = kv.collapse_t_on(fr[fr["network"] == net], "min_max_ratio")
        ci = cl.overall_ci(g, "min_max_ratio", bounds=metrics.M_BOUNDS)
        m = ci["mean"]
        mn = g["min_max_ratio"].min()
        nums[net] = {"M": ci, "throughput_ratio_1_over_mean_M": (1 / m) if m else None,
                     "largest_ratio_1_over_min_M": (1 / mn) if mn and mn > 0 else None}
        sts.append(cl.level_ci(ci, M_SMALL, M_MEDIUM, higher_is_better=False))
        whys.append(f"{net}: M = {cl.ci_words(ci)}")
    nums["selection"] = notes
    return Verdict(cl.combine_statuses(sts), nums,
                   "; ".join(whys) + f". Holds if the whole interval of M is at most {M_SMALL} "
                   f"(the fastest flow gets at least 5x the slowest), partly if it reaches down "
                   f"to {M_MEDIUM} (2x)")


def _pairs(fr: pd.DataFrame, value: str, at_min_t_on: bool = True):
    """Yield (setting, no-EF net, EF net, paired per-seed differences EF - noEF, EF t_on)."""
    for setting in ("equal", "unequal"):
        sub = fr[fr["rtp_setting"] == setting]
        for a_net, b_net in kv.EF_PAIRS:
            a = kv.collapse_t_on(sub[sub["network"] == a_net], value)
            b = sub[sub["network"] == b_net]
            if a.empty or b.empty:
                continue
            t = None
            if at_min_t_on and b["t_on"].notna().any():
                t = float(b["t_on"].min())
                b = b[b["t_on"] == t]
            yield setting, a_net, b_net, cl.paired(a, b, value), t


def _k5_ef_raises(res: Results) -> Verdict:
    fr, notes = _k5(res)
    nums, sts, whys = {}, [], []
    for setting, a_net, b_net, d, t in _pairs(fr, "min_max_ratio"):
        if d.empty:
            continue
        ci = cl.overall_ci(d, "diff")
        st = cl.sign_status(ci, +1)
        full = fr[(fr["rtp_setting"] == setting) & (fr["network"] == b_net)]
        base = cl.overall_ci(kv.collapse_t_on(fr[(fr["rtp_setting"] == setting)
                                                 & (fr["network"] == a_net)], "min_max_ratio"),
                             "min_max_ratio")
        cm = metrics.mean_ci(full, "t_on", "min_max_ratio", bounds=metrics.M_BOUNDS)
        above = float(np.mean(cm["mean"].to_numpy(float) > (base["mean"] or 0)))
        nums[f"{setting}: {b_net} - {a_net}"] = {
            "M_difference_at_t_on_ms": t, "difference": ci, "M_without_EF": base,
            "share_of_t_on_points_with_higher_M": above}
        sts.append(st)
        at = f" at T_on = {t:g} ms" if t is not None else ""  # None: no T_on in the EF rows
        whys.append(f"{setting} RTPs, M with EF minus M without ({b_net} minus {a_net}, paired by "
                    f"seed){at} is {cl.ci_words(ci)}, {cl.sign_words(ci, +1)}: {st}")
    return cl.combined_verdict(sts, nums, whys,
                               "needs a network without EF and its counterpart with EF "
                               "(TCP-only/TCP+EF or TCP+UDP/TCP+UDP+EF) at N > 1", notes)


def _trend_status(g: pd.DataFrame, x: str, value: str, mode) -> tuple[str, dict | None]:
    """(status, ``cl.trend``) of ``value`` against log(x) (``_PER``; None below its least
    number of x values): mode +1 / -1 rates the per-seed slope's sign (``cl.sign_status``),
    "flat" the change over the x range (``cl.flat_status``, +-FLAT, +-FLAT_PARTLY)."""
    tr = cl.trend(g, x, value, log=_PER[x][3]) if g[x].nunique() >= _PER[x][4] else None
    if tr is None:
        return NM, None
    if mode == "flat":
        return cl.flat_status(tr["change_over_range"], FLAT, FLAT_PARTLY), tr
    return cl.sign_status(tr["slope_per_log_unit"], mode), tr


def _m_trend(res: Results, rows: Callable, settings: tuple, nets: tuple, x: str, mode,
             missing: str) -> Verdict:
    """The trend of M against log(x) per (RTP setting, network) curve of ``rows(res)``, rated
    by ``_trend_status``; the curves combined."""
    fr, notes = rows(res)
    nums, sts, whys = {}, [], []
    for setting in settings:
        for net in nets:
            g = fr[(fr["rtp_setting"] == setting) & (fr["network"] == net)]
            st, tr = _trend_status(g, x, "min_max_ratio", mode)
            if tr is None:
                continue
            key, who = (f"{setting}: {net}", f"{setting} RTPs, {net}") if len(settings) > 1 \
                else (net, net)
            if mode == "flat":
                ch = tr["change_over_range"]
                nums[key] = {"change_of_M_over_N_range": ch, "N_range": tr["range"]}
                whys.append(f"{who}: M changes by {cl.ci_words(ch)} over the N range; "
                            f"{cl.flat_words(ch, FLAT, FLAT_PARTLY)}: {st}")
            else:
                sl, (slope_key, curve_key, unit) = tr["slope_per_log_unit"], _PER[x][:3]
                curve = metrics.mean_ci(g, x, "min_max_ratio", bounds=metrics.M_BOUNDS)
                nums[key] = {slope_key: sl, curve_key: _curve_numbers(curve, x)}
                whys.append(f"{who}: the slope of M per {unit} is {cl.ci_words(sl)}, "
                            f"{cl.sign_words(sl, mode)}: {st}")
            sts.append(st)
    suffix = f" (CI within +-{FLAT} holds, within +-{FLAT_PARTLY} partly)"
    return cl.combined_verdict(sts, nums, whys, missing, notes,
                               suffix=suffix if mode == "flat" else "")


def _k6_pairs(res: Results, value: str, direction: int, what: str) -> Verdict:
    nf, notes = _rows(res, kv.normalized_per_flow, multi=True, near_1ms=True, N=64, f=kv.MAIN_F)
    per = kv.normalized_per_replica(nf)
    nums, sts, whys = {}, [], []
    for setting, a_net, b_net, d, t in _pairs(per, value, at_min_t_on=False):
        if d.empty:
            continue
        ci = cl.overall_ci(d, "diff")
        st = cl.sign_status(ci, direction)
        side = {net: cl.overall_ci(d.rename(columns={f"{value}_{ab}": "v"}), "v",
                                   bounds=_BOUNDS.get(value))
                for net, ab in ((a_net, "a"), (b_net, "b"))}
        nums[f"{setting}: {b_net} - {a_net}"] = {"difference": ci, **side}
        sts.append(st)
        whys.append(f"{setting} RTPs, {what} with EF minus without ({b_net} minus {a_net}, "
                    f"paired by seed) is {cl.ci_words(ci)}, {cl.sign_words(ci, direction)}: {st}")
    return cl.combined_verdict(sts, nums, whys,
                               "needs a network without EF and its counterpart with EF at "
                               "N > 1", notes)


def _k7_equal_slower(res: Results) -> Verdict:
    fr, notes = _k7(res)
    fr = fr[fr["rtp_setting"] == "equal"]
    nums, sts, whys = {}, [], []
    for a_net, b_net in kv.EF_PAIRS:
        sa = cl.slopes(fr[fr["network"] == a_net], "N", "min_max_ratio")
        sb = cl.slopes(fr[fr["network"] == b_net], "N", "min_max_ratio")
        if sa.empty or sb.empty:
            continue
        d = sa.merge(sb, on="seed", suffixes=("_a", "_b"))
        if d.empty:
            continue
        d["diff"] = d["slope_b"] - d["slope_a"]
        ci = cl.overall_ci(d, "diff")
        st = cl.sign_status(ci, +1)
        nums[f"{b_net} vs {a_net}"] = {"slope_difference": ci,
                                       f"slope {a_net}": cl.overall_ci(d, "slope_a"),
                                       f"slope {b_net}": cl.overall_ci(d, "slope_b")}
        sts.append(st)
        whys.append(f"slope of M per doubling of N, {b_net} minus {a_net} (paired by seed), is "
                    f"{cl.ci_words(ci)}, {cl.sign_words(ci, +1)}: {st}")
    return cl.combined_verdict(sts, nums, whys,
                               "needs a pair of networks with and without EF, equal RTPs, "
                               ">= 2 values of N", notes)


def _trend_part(per: pd.DataFrame, value: str, mode: str):
    """mode 'up' / 'down' (significant trend) or 'flat' (|change| small), against log2 N."""
    direction = {"up": +1, "down": -1}.get(mode, mode)
    st, tr = _trend_status(per, "N", value, direction)
    if tr is None:
        return NM, {}, f"{value}: needs >= 2 values of N"
    ch = tr["change_over_range"]
    by_n = _curve_numbers(metrics.mean_ci(per, "N", value, bounds=_BOUNDS.get(value)), "N")
    return st, {"change_over_N_range": ch, "by_N": by_n}, \
        (f"{_WORDS.get(value, value)} changes by {cl.ci_words(ch)} over the N range; "
         + (cl.flat_words(ch, FLAT, FLAT_PARTLY) if mode == "flat" else
            f"its slope per doubling of N is {cl.sign_words(tr['slope_per_log_unit'], direction)}")
         + f": {st}")


def _k89(res: Results, setting: str, net: str, parts: tuple) -> Verdict:
    nf, notes = _rows(res, kv.normalized_per_flow, multi=True, near_1ms=True, f=kv.MAIN_F)
    per = kv.normalized_per_replica(nf)
    per = per[(per["rtp_setting"] == setting) & (per["network"] == net)]
    if per.empty:
        return Verdict(NM, {}, f"no {net} rows with {setting} RTPs at N > 1")
    nums, sts, whys = {"selection": notes}, [], []
    for value, mode in parts:
        if mode == "large_at_max_N":
            top = per[per["N"] == per["N"].max()]
            ci = cl.overall_ci(top, value)
            st = cl.level_ci(ci, SPREAD_LARGE, SPREAD_MEDIUM)
            nums[f"{value}_at_N={int(per['N'].max())}"] = ci
            whys.append(f"{_WORDS.get(value, value)} at N = {int(per['N'].max())} is "
                        f"{cl.ci_words(ci, '.2f')} (large: the whole interval at least "
                        f"{SPREAD_LARGE}; partly: reaching {SPREAD_MEDIUM}): {st}")
        else:
            rows = per
            if value == "min_max_ratio":
                fr, _ = _rows(res, kv.fairness_per_seed, multi=True, near_1ms=True, f=kv.MAIN_F)
                rows = fr[(fr["rtp_setting"] == setting) & (fr["network"] == net)]
            st, nums[value], why = _trend_part(rows, value, mode)
            whys.append(why)
        sts.append(st)
    return Verdict(cl.combine_statuses(sts), nums, "; ".join(whys))


# --------------------------------------------------------------------------------------------
# K10: Padhye model error (Fig. 10); Kf: other EF fractions
# --------------------------------------------------------------------------------------------

def _k10_padhye(res: Results) -> Verdict:
    pe = kv.padhye_per_flow(res)
    pe = pe[np.isfinite(pe["padhye_error"].to_numpy(float))]
    if pe.empty:
        return Verdict(NM, {}, "no flow with losses (the model needs p > 0)")
    pe = pe.assign(off=(pe["padhye_error"].abs() >= PADHYE_OFF).astype(float))
    pooled = float(pe["off"].mean())
    per = pe.groupby(["point", "seed"], as_index=False)["off"].mean()
    q = np.quantile(pe["padhye_error"], [0.1, 0.5, 0.9])
    share = cl.overall_ci(per, "off", bounds=metrics.M_BOUNDS)
    st = cl.level_ci(share, PADHYE_MOST, PADHYE_HALF)
    return Verdict(st, {"share_off_by_10pct_pooled": pooled, "share_per_replica": share,
                        "flows": int(len(pe)), "error_quantiles_10_50_90": [float(v) for v in q]},
                   f"{100 * pooled:.0f}% of {len(pe)} flows are off by 10% or more; the share "
                   f"per replica is {cl.ci_words(share, '.2f')}; the claim holds if the whole "
                   f"interval is at least {PADHYE_MOST}, partly if it reaches {PADHYE_HALF}")


def _per_f(res: Results, rows: Callable[[pd.DataFrame, float], pd.Series], checks: tuple,
           what: str) -> Verdict:
    """The checks named ``checks`` on the replicas ``rows(replicas, f)`` of each EF fraction f,
    combined per f and then over f."""
    rep, _ = kv.prepare(res)
    nums, sts, whys = {}, [], []
    for fv in sorted(rep["f"].dropna().unique()):
        sel = rep[rows(rep, fv)]
        if sel.empty or not (sel["f"] == fv).any():
            continue
        sub = cl.subset(res, sel)
        vs = [cl.safe(CHECKS[c], sub) for c in checks]
        st = cl.combine_statuses(v.status for v in vs)
        if st == NM:
            continue
        nums[f"f={100 * fv:g}%"] = {"status": st, **{c: {"status": v.status, "reason": v.reason}
                                                      for c, v in zip(checks, vs)}}
        sts.append(st)
        whys.append(f"f = {100 * fv:g}%: {st}")
    return cl.combined_verdict(sts, nums, whys, f"no EF fraction with {what} data")


# --------------------------------------------------------------------------------------------
# Kr, Kt: the paper's claims again, with RED at the bottleneck and with a telnet share (sec. 5;
# papers/kaur_vin/questions.py)
# --------------------------------------------------------------------------------------------
def _condition(res: Results, **kw) -> Verdict:
    """The drop-tail claims' checks on a family's runs under a condition (questions.condition)."""
    return questions.condition(res, CHECKS, {name: cid for cid, _, _, name, *_ in _CLAIMS}, **kw)


# --------------------------------------------------------------------------------------------
# The claims, as data
# --------------------------------------------------------------------------------------------

# id, figure, family, check name, rule, rule parameters, the paper's statement, the test
# (the check's docstring: the claim's thresholds)
_CLAIMS = (
    ("K2.1", "Fig. 2a", "K2", "check_k2_rise_fall", _k2_rise_fall, {},
     "The loss in TCP throughput U_CBR - U_EF first increases and then decreases with increase "
     "in the average EF burst size T_on (Sec. 3.1.1).",
     "Mean loss U_CBR - U_EF per T_on (95% CI over seeds): holds if its maximum is at an "
     "interior T_on point and both end points are below the peak by more than the peak's CI "
     "half-width; partly holds if only one side falls; does not hold otherwise (>= 3 T_on)."),
    ("K2.2", "Fig. 2a", "K2", "check_k2_peak", _k2_peak, {},
     "Burstiness in the EF traffic can cause significant degradation in TCP throughput; the "
     "loss is as high as 50%.",
     "Peak of the mean loss curve U_CBR - U_EF over T_on, rated on its 95% CI over seeds: does "
     "not hold if the interval includes 0 (no loss is shown); otherwise holds if the whole "
     "interval is >= 0.25 (the paper reports up to ~0.5), does not hold if it is all below "
     "0.10, partly holds otherwise."),
    ("K2.3", "Fig. 2b", "K2", "check_k2_timeouts_shape", _k2_timeouts_shape, {},
     "The number of timeouts has the same shape as the loss: the loss in throughput is "
     "proportional to the number of retransmission timeouts.",
     "Total timeouts of the flow (TCP-EF network) vs T_on against the loss curve: holds if the "
     "Pearson correlation r of the two mean curves over T_on is >= 0.8 and the timeouts curve "
     "rises then falls (same test as K2.1); does not hold if r < 0.5 (or undefined) and the "
     "timeouts curve does not rise and fall at all; partly holds otherwise."),
    ("K2.4", "Fig. 2b", "K2", "check_k2_tau", _k2_tau, {},
     "The maximum number of timeouts is observed at T_on = tau, the burst duration that fills "
     "the link buffer (E[timeouts] = N_bursts x exp(-tau/T_on)).",
     "\"The maximum number of timeouts is at T_on = tau\": tau is not observable, so the mean "
     "timeouts curve is fitted with the paper's model E[timeouts] = A exp(-tau/T_on) / T_on "
     "(N_bursts ~ 1/T_on times P_timeout = exp(-tau/T_on)), whose peak is at T_on = tau. Holds "
     "if the fit's R^2 >= 0.7 and the observed peak T_on is an interior grid point within a "
     "factor 2.5 of the fitted tau; partly holds if one of the two; does not hold otherwise "
     "(>= 4 T_on points)."),
    ("K3.1", "Fig. 3", "K3", "check_k3_rtp", _k3_rtp, {},
     "The loss in TCP throughput reduces with increase in the TCP round-trip propagation "
     "latency (RTP 6-12 ms).",
     "Loss averaged over the common T_on points, per RTP and seed (95% CI over seeds): holds "
     "if it decreases at every RTP step and the per-seed paired difference loss(smallest RTP) "
     "- loss(largest RTP) is significantly > 0; partly holds if only the Spearman rank "
     "correlation of RTP and mean loss is <= -0.5 or only the paired difference is "
     "significant; does not hold otherwise (>= 2 RTPs)."),
    ("K4.1", "Fig. 4a", "K4", "check_k4_aggregate", _k4_aggregate, {},
     "The loss in aggregate TCP throughput due to burstiness in the EF traffic becomes "
     "insignificant in networks that multiplex a large number (>= 20) of flows.",
     "Loss in aggregate U for N >= 20: the largest mean loss over all (N >= 20, T_on) points, "
     "rated on its 95% CI: holds if the whole interval is <= 0.05 (5% of the bandwidth "
     "available to TCP), does not hold if it is all above 0.10, partly holds otherwise."),
    ("K4.2", "Fig. 4b", "K4", "check_k4_timeouts", _k4_timeouts, {},
     "The number of timeouts per TCP flow increases with increase in the number of TCP flows.",
     "Timeouts per flow (TCP-EF network) averaged over T_on per (N, seed); trend = per-seed "
     "slope against log2 N: holds if the slope's 95% CI is above 0 and the mean at the largest "
     "N exceeds that at the smallest; partly holds if the mean slope is > 0; does not hold "
     "otherwise (>= 2 N values)."),
    ("K5.1", "Fig. 5a", "K5", "check_k5_small_equal", _no_ef_small, dict(setting="equal"),
     "Without EF (TCP-only, TCP+UDP) the allocation is quite unfair (small M): even with equal "
     "RTPs the throughputs differ by a factor of 5-10.",
     "Equal RTPs, TCP-only and TCP+UDP: M over seeds (T_on ignored) with its 95% CI (logit "
     "scale, inside [0, 1]): holds if the whole interval is <= 0.2 (throughputs differ >= 5x; "
     "paper 5-10x) for each network, does not hold if it is all above 0.5, partly holds "
     "otherwise; networks combined (all hold -> holds, all fail -> does not hold)."),
    ("K5.2", "Fig. 5b", "K5", "check_k5_small_unequal", _no_ef_small, dict(setting="unequal"),
     "Without EF, with unequal RTPs, the throughputs of TCP flows differ by a factor as large "
     "as 30 (small M).",
     "Unequal RTPs, TCP-only and TCP+UDP: same thresholds as K5.1 (paper: up to ~30x, M ~ "
     "0.03)."),
    ("K5.3", "Fig. 5", "K5", "check_k5_ef_raises", _k5_ef_raises, {},
     "For both equal and unequal RTPs, min-max fairness improves considerably in the presence "
     "of EF traffic.",
     "EF vs no EF (TCP-only -> TCP+EF, TCP+UDP -> TCP+UDP+EF, each RTP setting): per-seed "
     "paired difference of M at the smallest T_on; holds if its 95% CI is above 0, partly "
     "holds if only its mean is > 0, does not hold otherwise; pairs combined (all hold -> "
     "holds, all fail -> does not hold)."),
    ("K5.4", "Fig. 5", "K5", "check_k5_smaller_t_on",
     _m_trend, dict(rows=_k5, settings=("equal", "unequal"), nets=kv.WITH_EF, x="t_on", mode=-1,
     missing="needs an EF network with >= 3 T_on points"),
     "The smaller the burst duration of the EF traffic, the larger the improvement in min-max "
     "fairness.",
     "Networks with EF: per-seed slope of M against log10 T_on (>= 3 T_on points): holds if "
     "the slope's 95% CI is below 0 (smaller T_on -> larger M), partly holds if only its mean "
     "is < 0, does not hold otherwise; curves (network x RTP setting) combined."),
    ("K6.1", "Fig. 6", "K6", "check_k6_spread",
     _k6_pairs, dict(value="spread", direction=-1, what="change of spread"),
     "With EF (T_on = 1 ms) the maximum difference in the throughput of TCP flows is reduced.",
     "Spread = max - min of x_i/(C/n) per replica (T_on nearest 1 ms): per-seed paired "
     "difference EF - no EF for each pair and RTP setting; holds if the 95% CI is below 0, "
     "partly holds if only the mean is < 0, does not hold otherwise; pairs combined."),
    ("K6.2", "Fig. 6", "K6", "check_k6_near_fair",
     _k6_pairs, dict(value="near_fair", direction=+1, what="change of near-fair share"),
     "With EF (T_on = 1 ms) a larger percentage of flows receives bandwidth close to its fair "
     "share.",
     "Share of flows with 0.8 <= x_i/(C/n) <= 1.2 per replica (T_on nearest 1 ms): per-seed "
     "paired difference EF - no EF; holds if the 95% CI is above 0, partly holds if only the "
     "mean is > 0, does not hold otherwise; pairs combined."),
    ("K7.1", "Fig. 7a", "K7", "check_k7_equal_falls",
     _m_trend, dict(rows=_k7, settings=("equal",), nets=kv.NO_EF, x="N", mode=-1,
     missing="needs TCP-only or TCP+UDP rows with equal RTPs at >= 2 values of N"),
     "Equal RTPs: in TCP-only and TCP+UDP networks min-max fairness decreases quite "
     "significantly with increase in the number of TCP flows.",
     "Equal RTPs, TCP-only and TCP+UDP: per-seed slope of M against log2 N; holds if its 95% "
     "CI is below 0, partly holds if only its mean is < 0, does not hold otherwise; networks "
     "combined (>= 2 N values)."),
    ("K7.2", "Fig. 7a", "K7", "check_k7_equal_slower", _k7_equal_slower, {},
     "Equal RTPs: with EF the min-max fairness also decreases with N, but the rate of "
     "reduction is smaller.",
     "Equal RTPs: per seed, slope of M against log2 N with EF minus without EF (TCP+EF vs "
     "TCP-only, TCP+UDP+EF vs TCP+UDP); holds if the 95% CI of the difference is above 0 (M "
     "falls more slowly with EF), partly holds if only its mean is > 0, does not hold "
     "otherwise; pairs combined."),
    ("K7.3", "Fig. 7b", "K7", "check_k7_unequal_marginal",
     _m_trend, dict(rows=_k7, settings=("unequal",), nets=kv.NO_EF + kv.WITH_EF, x="N", mode="flat",
     missing="needs rows with unequal RTPs at >= 2 values of N"),
     "Unequal RTPs: both with and without EF, the effect of the number of TCP flows on min-max "
     "fairness is marginal.",
     "Unequal RTPs, each of the four networks: change of M over the N range (per-seed slope "
     "against log2 N times log2(N_max/N_min)); holds if its whole 95% CI lies within +-0.1, "
     "partly holds if it lies within +-0.2, does not hold otherwise; networks combined."),
    ("K8.1", "Fig. 8a", "K8", "check_k8_udp",
     _k89, dict(setting="equal", net="TCP+UDP", parts=(("spread", "up"), ("near_fair", "down"))),
     "Equal RTPs, TCP+UDP: increasing N increases the maximum difference in throughput and "
     "reduces the percentage of flows close to their fair share.",
     "Equal RTPs, TCP+UDP (T_on nearest 1 ms): as N grows the spread (max - min of x_i/(C/n)) "
     "increases (per-seed slope vs log2 N, CI above 0 -> holds, mean > 0 -> partly) and the "
     "share of flows within 0.8..1.2 of the fair share decreases (CI below 0 -> holds, mean < "
     "0 -> partly); the two parts combined."),
    ("K8.2", "Fig. 8b", "K8", "check_k8_udp_ef",
     _k89, dict(setting="equal", net="TCP+UDP+EF", parts=(("spread", "up"), ("near_fair", "flat"))),
     "Equal RTPs, TCP+UDP+EF: the maximum difference grows with N, but the percentage of flows "
     "close to their fair share does not change appreciably.",
     "Equal RTPs, TCP+UDP+EF: the spread increases with N (as K8.1) while the near-fair share "
     "does not change appreciably (95% CI of the change over the N range within +-0.1 holds, "
     "whole CI within +-0.2 partly); the two parts combined."),
    ("K9.1", "Fig. 9a", "K9", "check_k9_udp",
     _k89, dict(setting="unequal", net="TCP+UDP",
     parts=(("near_fair", "up"), ("spread", "large_at_max_N"))),
     "Unequal RTPs, TCP+UDP: increasing N significantly improves the percentage of flows close "
     "to their fair share, even though the maximum difference in throughput remains large.",
     "Unequal RTPs, TCP+UDP: the near-fair share increases with N (CI of the per-seed slope vs "
     "log2 N above 0 -> holds, mean > 0 -> partly) and the spread remains large (95% CI of the "
     "spread at the largest N all >= 1.0 fair share holds, reaching 0.5 partly); the two parts "
     "combined."),
    ("K9.2", "Fig. 9b", "K9", "check_k9_udp_ef",
     _k89, dict(setting="unequal", net="TCP+UDP+EF",
     parts=(("near_fair", "flat"), ("min_max_ratio", "flat"))),
     "Unequal RTPs, TCP+UDP+EF: the fairness of the allocation changes marginally with "
     "increase in the number of TCP flows.",
     "Unequal RTPs, TCP+UDP+EF: fairness changes marginally with N: the near-fair share and M "
     "each change little over the N range (95% CI of the change within +-0.1 holds, within "
     "+-0.2 partly); the two parts combined."),
    ("K10.1", "Fig. 10", "K10", "check_k10_padhye", _k10_padhye, {},
     "The PFTK model of Padhye et al. [23] is off: 80% of the predictions differ from the "
     "observed throughput by at least 10%.",
     "Share of flows (with losses, so that the model applies) whose PFTK prediction error "
     "|(predicted - observed)/observed| >= 0.10, pooled over all flows, and its 95% CI from "
     "the per-replica shares (logit scale, inside [0, 1]). Rated on the interval: holds if it "
     "is all >= 0.7 (paper: 80%), does not hold if it is all below 0.5, partly holds otherwise."),
    ("Kf.1", "Sec. 2.2", "Kf", "check_kf_single_flow",
     _per_f, dict(rows=lambda r, fv: (r["N"] == 1) & (r["f"] == fv), checks=("check_k2_rise_fall",),
     what="one-flow"),
     "The conclusions hold for EF fractions 5%, 10%, 20% (not only 30%): one flow, loss rises "
     "then falls with T_on.",
     "For each EF fraction f among the one-flow EF/CBR rows, the K2.1 test (loss rises then "
     "falls with T_on); holds if it holds for every f, does not hold if it fails for every f, "
     "partly holds otherwise."),
    ("Kf.2", "Sec. 2.2", "Kf", "check_kf_aggregate",
     _per_f, dict(rows=lambda r, fv: (r["N"] > 1) & (r["f"] == fv), checks=("check_k4_aggregate",),
     what="multi-flow EF/CBR"),
     "The conclusions hold for every EF fraction: aggregate loss insignificant for N >= 20.",
     "For each f among the multi-flow EF/CBR rows, the K4.1 test (aggregate loss <= 0.05 for N "
     ">= 20); combined over f as Kf.1."),
    ("Kf.3", "Sec. 2.2", "Kf", "check_kf_fairness",
     _per_f, dict(rows=lambda r, fv: (r["N"] > 1) & ((r["f"] == fv) | r["f"].isna()),
     checks=("check_k5_ef_raises", "check_k5_smaller_t_on"), what="fairness"),
     "The conclusions hold for every EF fraction: EF raises M, more so for smaller T_on.",
     "For each f, the K5.3 (EF raises M) and K5.4 (smaller T_on raises it more) tests on the "
     "multi-flow rows of that f plus the networks without EF; per f the two combined, then "
     "combined over f as Kf.1."),
)

_CLAIMS = _CLAIMS + questions.condition_claims(_condition)


_CONCLUSIONS = (
    ("C1", "Conclusion 1", "The throughput of an isolated TCP flow is severely affected in the "
     "presence of higher priority bursty EF traffic; the loss in TCP throughput first "
     "increases and then decreases with increase in the average burst size.",
     ("K2.1", "K2.2")),
    ("C2", "Conclusion 2", "The larger the round-trip propagation latency, the smaller is the "
     "degradation in TCP throughput in the presence of higher priority bursty traffic.",
     ("K3.1",)),
    ("C3", "Conclusion 3", "The aggregate throughput of a large number of TCP flows remains "
     "roughly unaffected in the presence of higher priority EF traffic.", ("K4.1",)),
    ("C4", "Conclusion 4", "Higher priority EF traffic significantly improves the fairness of "
     "TCP flows. The smaller the average burst size, the greater is the improvement in the "
     "fairness.", ("K5.3", "K5.4", "K6.1", "K6.2")),
)


def _check(name: str, rule: Callable, params: dict, test: str) -> Callable:
    """The check ``name``: ``rule(res, **params)``, "not measured" where the tables lack what it
    needs (``cl.measured``); its docstring is ``test``."""
    def check(res: Results) -> Verdict:
        return rule(res, **params)
    check.__name__ = check.__qualname__ = name
    check.__doc__ = test
    return cl.measured(check)


#: every family claim's check by name; also module attributes (``check_k2_peak``, ...)
CHECKS = {name: _check(name, rule, params, test)
          for _, _, _, name, rule, params, _, test in _CLAIMS}
globals().update(CHECKS)


def kaur_vin_claims() -> list[Claim]:
    """Every claim of FIGURES.md's Kaur & Vin families and the paper's Conclusions 1-4."""
    fam = [Claim(id=i, figure=fg, text=t, check=CHECKS[name], family=f,
                 thresholds=cl.doc_text(CHECKS[name]), lookup=results_for)
           for i, fg, f, name, _, _, t, _ in _CLAIMS]
    out = [Claim(id=i, figure=fg, text=t, check=cl.conclusion_check(d, kaur_vin_claims),
                 family=None, depends=d,
                 thresholds=cl.doc_text(cl.conclusion_from)) for i, fg, t, d in _CONCLUSIONS]
    return out + fam


_ALIASES = {"K8": ("K8", "K8/K9", "K8K9", "K89"), "K9": ("K9", "K8/K9", "K8K9", "K89"),
            "K6": ("K6", "K5")}


def results_for(family: str, results_by_family: Mapping[str, Results]
                ) -> tuple[Results | None, str | None]:
    """The Results a family's claims read, and the key it came from: the family's own key, an
    alias (K8/K9 together: "K8/K9", "K89"), the K5 data for K6, or for K10 every family's
    flows together (``kaur_vin.combine``) but those of Kr and Kt."""
    for key in _ALIASES.get(family, (family,)):
        r = results_by_family.get(key)
        if r is not None:
            return r, key
    if family == "K10":
        parts, seen = [], set()
        for k, r in results_by_family.items():      # the same Results under several keys once
            # (not the RED / telnet families: the paper's Fig. 10 is drop-tail, no telnet)
            if r is not None and id(r) not in seen and k not in questions.CONDITIONS:
                seen.add(id(r))
                parts.append((k, r))
        if parts:
            return combine([r for _, r in parts], labels=[k for k, _ in parts],
                           label_col="family"), "all families"
    return None, None
