"""The claims of Habib et al. (families H3-H6, HT1, HT2), checked against the per-seed tables
of ``tables``. Comparisons between conditioners are per-seed paired differences (the same
seed gives every conditioner the same start times), rated on their 95% CI over seeds.

Thresholds: "close to link capacity": the CI of the total within ``NEAR_CAPACITY`` = 5% of
the bottleneck's payload capacity (9.62 Mb/s at 10 Mb/s and 1064-B packets); "about 2.3 and
7.52 Mb/s": each within ``ABOUT`` = 15% of the paper's value; "near-equal": the largest over
the smallest mean of the aggregates within ``NEAR_EQUAL`` = 1.25; "much higher": a ratio
of the means above ``MUCH`` = 1.5 with the paired difference's CI above 0.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.analysis import claims as cl
from diffsweep.analysis.claims import HOLDS, NM, NOT, PARTLY, Claim, Verdict
from diffsweep.core.results import Results

from diffsweep.papers.habib import tables as ht

__all__ = ["habib_claims", "NEAR_CAPACITY", "ABOUT", "NEAR_EQUAL", "MUCH"]

CAPACITY_MBPS = 10.0 * 1024 / 1064   # payload capacity of the 10 Mb/s bottleneck
NEAR_CAPACITY = 0.05
ABOUT = 0.15
NEAR_EQUAL = 1.25
MUCH = 1.5
PAPER_H4 = {"rtt2_ms": 100.0, "f1_mbps": 2.3, "f2_mbps": 7.52}  # sec. V.B


def _paired(a: pd.DataFrame, b: pd.DataFrame, value: str, on=("seed",)) -> dict:
    return cl.overall_ci(cl.paired(a, b, value, on=on), "diff")


def _by_rtt(t: pd.DataFrame, cond: str) -> pd.DataFrame:
    return t[t["conditioner"] == cond]


@cl.measured
def check_sw_total(res: Results) -> Verdict:
    """At every F2 RTT: the per-seed paired difference of the total (F1 + F2) goodput, SW -
    standard (CI above 0: holds), and SW's total within 5% of the payload capacity."""
    t = ht.totals(res)
    if not {"standard", "standard_sw"} <= set(t["conditioner"]):
        return Verdict(NM, {}, "needs the standard and standard_sw runs")
    sts, nums, whys = [], {}, []
    for rtt, g in t.groupby("rtt2_ms"):
        d = _paired(_by_rtt(g, "standard"), _by_rtt(g, "standard_sw"), "total_mbps")
        tot = cl.overall_ci(_by_rtt(g, "standard_sw"), "total_mbps")
        near = cl.level_ci({"mean": None if tot["mean"] is None else tot["mean"] / CAPACITY_MBPS,
                            "ci95": [None if v is None else v / CAPACITY_MBPS
                                     for v in tot["ci95"]]},
                           1 - NEAR_CAPACITY, 1 - 2 * NEAR_CAPACITY)
        sts.append(cl.combine_statuses([cl.sign_status(d, +1), near]))
        nums[f"rtt2 {rtt:g}"] = {"sw_minus_standard_mbps": d, "sw_total_mbps": tot}
        whys.append(f"F2 RTT {rtt:g} ms: SW - standard {cl.ci_words(d)} Mb/s, SW total "
                    f"{cl.ci_words(tot)} of {CAPACITY_MBPS:.2f}")
    return cl.combined_verdict(sts, nums, whys, "no runs")


def _favoured(res: Results, cond: str, f1: bool) -> Verdict:
    """Under conditioner ``cond``, at every F2 RTT above F1's 20 ms: the favoured flow's goodput
    minus the other's (F1 - F2 when ``f1``, else F2 - F1; CI above 0: holds), combined."""
    t = _by_rtt(ht.totals(res), cond)
    sts, nums, whys = [], {}, []
    for rtt, g in t[t["rtt2_ms"] > 20.0].groupby("rtt2_ms"):
        ci = cl.overall_ci(g.assign(d=g["f1_minus_f2"] if f1 else -g["f1_minus_f2"]), "d")
        sts.append(cl.sign_status(ci, +1))
        nums[f"rtt2 {rtt:g}"] = ci
        whys.append(f"F2 RTT {rtt:g} ms: {'F1 - F2' if f1 else 'F2 - F1'} {cl.ci_words(ci)} Mb/s")
    return cl.combined_verdict(sts, nums, whys, f"no {cond} runs with F2 RTT > 20 ms")


@cl.measured
def check_sw_favours_f1(res: Results) -> Verdict:
    """With SW, at every F2 RTT above F1's 20 ms: F1 - F2 goodput (CI above 0: holds)."""
    return _favoured(res, "standard_sw", f1=True)


@cl.measured
def check_drop_ratio_falls(res: Results) -> Verdict:
    """F2's drop ratio (core drops over packets sent) against its RTT: the per-seed
    least-squares slope, per conditioner run (CI below 0: holds), combined."""
    t = ht.totals(res)
    sts, nums, whys = [], {}, []
    for cond, g in t.groupby("conditioner"):
        if g["rtt2_ms"].nunique() < 3:
            continue
        s = cl.slopes(g, "rtt2_ms", "f2_drop_ratio", log=lambda v: np.asarray(v, float))
        ci = cl.overall_ci(s, "slope")
        sts.append(cl.sign_status(ci, -1))
        nums[cond] = ci
        whys.append(f"{cond}: slope {cl.ci_words(ci)} per ms, {cl.sign_words(ci, -1)}")
    return cl.combined_verdict(sts, nums, whys, "fewer than 3 F2 RTTs")


def _at(t: pd.DataFrame, cond: str, rtt: float) -> pd.DataFrame:
    return t[(t["conditioner"] == cond) & (t["rtt2_ms"] == rtt)]


@cl.measured
def check_rtt_aware_favours_f2(res: Results) -> Verdict:
    """Basic RTT-aware at F2 RTT 100 ms: F2 - F1 goodput (CI above 0: holds); at every F2 RTT
    above 20 ms the same, combined."""
    return _favoured(res, "rtt_aware", f1=False)


@cl.measured
def check_rtt_aware_numbers(res: Results) -> Verdict:
    """Basic RTT-aware at F2 RTT 100 ms against the paper's F1 = 2.3 and F2 = 7.52 Mb/s: each
    CI within 15% of the paper's value holds, both means further than 30% off does not."""
    g = _at(ht.totals(res), "rtt_aware", PAPER_H4["rtt2_ms"])
    if g.empty:
        return Verdict(NM, {}, "no rtt_aware run at F2 RTT 100 ms")
    sts, nums, whys = [], {}, []
    for col in ("f1_mbps", "f2_mbps"):
        ci = cl.overall_ci(g, col)
        ref = PAPER_H4[col]
        rel = {"mean": ci["mean"] / ref - 1, "ci95": [None if v is None else v / ref - 1
                                                       for v in ci["ci95"]]}
        sts.append(cl.flat_status(rel, ABOUT, 2 * ABOUT))
        nums[col] = ci
        whys.append(f"{col[:2].upper()} {cl.ci_words(ci)} Mb/s vs the paper's {ref}")
    return Verdict(cl.combine_statuses(sts), nums, "; ".join(whys))


@cl.measured
def check_rto_sw_even_out(res: Results) -> Verdict:
    """At every F2 RTT >= 100 ms: |F1 - F2| under RTT-RTO and under RTT-SW against the basic
    RTT-aware conditioner's, per-seed paired (CI of the reduction above 0: holds)."""
    t = ht.totals(res).assign(gap=lambda d: d["f1_minus_f2"].abs())
    sts, nums, whys = [], {}, []
    for cond in ("rtt_rto", "rtt_sw"):
        for rtt, g in t[t["rtt2_ms"] >= 100.0].groupby("rtt2_ms"):
            a, b = _by_rtt(g, cond), _by_rtt(g, "rtt_aware")
            if a.empty or b.empty:
                continue
            ci = _paired(a, b, "gap")   # RTT-aware's gap minus cond's
            sts.append(cl.sign_status(ci, +1))
            nums[f"{cond}, rtt2 {rtt:g}"] = ci
            whys.append(f"{cond} at {rtt:g} ms: |F1 - F2| smaller by {cl.ci_words(ci)} Mb/s")
    return cl.combined_verdict(sts, nums, whys, "needs rtt_aware and rtt_rto / rtt_sw runs "
                               "at F2 RTT >= 100 ms")


@cl.measured
def check_sw_cwnd(res: Results) -> Verdict:
    """The traced F1 micro-flow: its mean cwnd with RTT-SW minus with basic RTT-aware, per-seed
    paired (CI above 0: holds); and F1's timeouts, RTT-aware minus RTT-SW (CI above 0)."""
    ts = ht.trace_summary(res)
    if not {"rtt_aware", "rtt_sw"} <= set(ts["conditioner"]):
        return Verdict(NM, {}, "needs the rtt_aware and rtt_sw runs")
    d = _paired(_by_rtt(ts, "rtt_aware"), _by_rtt(ts, "rtt_sw"), "mean_cwnd")
    pa = ht.per_aggregate(res)
    f1 = pa[pa["aggregate"] == "F1"]
    to = _paired(_by_rtt(f1, "rtt_sw"), _by_rtt(f1, "rtt_aware"), "timeouts")
    small = cl.overall_ci(_by_rtt(ts, "rtt_aware"), "small_share", bounds=(0.0, 1.0))
    st = cl.combine_statuses([cl.sign_status(d, +1), cl.sign_status(to, +1)])
    return Verdict(st, {"mean_cwnd_sw_minus_aware": d, "f1_timeouts_aware_minus_sw": to,
                        "share_below_3_aware": small},
                   f"mean cwnd, RTT-SW - RTT-aware {cl.ci_words(d)} packets; F1 timeouts, "
                   f"RTT-aware - RTT-SW {cl.ci_words(to)}; without SW the window is below 3 "
                   f"in {cl.ci_words(small)} of the samples")


def _agg_means(res: Results, cond: str) -> pd.DataFrame:
    pa = ht.per_aggregate(res)
    return pa[pa["conditioner"] == cond]


def _group_diff(res, cond, hi, lo) -> dict:
    """Per seed: mean goodput of aggregates ``hi`` minus that of ``lo``."""
    pa = _agg_means(res, cond)
    a = pa[pa["aggregate"].isin(hi)].groupby("seed")["goodput_mbps"].mean()
    b = pa[pa["aggregate"].isin(lo)].groupby("seed")["goodput_mbps"].mean()
    d = (a - b).dropna().rename("diff").reset_index()
    ratio = float(a.mean() / b.mean()) if len(b) and b.mean() > 0 else None
    return cl.overall_ci(d, "diff"), ratio


def _much(ci, ratio) -> str:
    s = cl.sign_status(ci, +1)
    if s == HOLDS and (ratio is None or ratio < MUCH):
        return PARTLY
    return s


@cl.measured
def check_h6_rtt_aware(res: Results) -> Verdict:
    """Basic RTT-aware over two domains: mean goodput of the long-RTT F1, F2 minus that of the
    short-RTT F3, F5 (holds: CI above 0 and a ratio above 1.5)."""
    if _agg_means(res, "rtt_aware").empty:
        return Verdict(NM, {}, "no rtt_aware run")
    ci, ratio = _group_diff(res, "rtt_aware", ("F1", "F2"), ("F3", "F5"))
    return Verdict(_much(ci, ratio), {"long_minus_short_mbps": ci, "ratio": ratio},
                   f"F1, F2 minus F3, F5: {cl.ci_words(ci)} Mb/s, ratio "
                   + ("undefined" if ratio is None else f"{ratio:.2f}"))


@cl.measured
def check_h6_rtt_rto(res: Results) -> Verdict:
    """RTT-RTO over two domains: F1, F2 and F4 near-equal (largest over smallest mean <= 1.25
    holds, <= 1.5 partly) and F3 at least as high as their mean (CI of F3 - mean above or
    around 0)."""
    pa = _agg_means(res, "rtt_rto")
    if pa.empty:
        return Verdict(NM, {}, "no rtt_rto run")
    m = pa.groupby("aggregate")["goodput_mbps"].mean()
    three = m.reindex(["F1", "F2", "F4"])
    spread = float(three.max() / three.min()) if three.min() > 0 else float("inf")
    st = HOLDS if spread <= NEAR_EQUAL else (PARTLY if spread <= MUCH else NOT)
    ci, _ = _group_diff(res, "rtt_rto", ("F3",), ("F1", "F2", "F4"))
    st = cl.combine_statuses([st, HOLDS if (ci["mean"] or 0) >= 0 else PARTLY])
    return Verdict(st, {"max_over_min_F1_F2_F4": spread, "F3_minus_others_mbps": ci},
                   f"F1, F2, F4 means {', '.join(f'{v:.2f}' for v in three)} Mb/s (max/min "
                   f"{spread:.2f}, holds at <= {NEAR_EQUAL}); F3 minus their mean "
                   f"{cl.ci_words(ci)} Mb/s")


@cl.measured
def check_h6_rtt_sw(res: Results) -> Verdict:
    """RTT-SW over two domains: mean goodput of the short-RTT F3, F5 minus that of the long-RTT
    F1, F2 (holds: CI above 0 and a ratio above 1.5)."""
    if _agg_means(res, "rtt_sw").empty:
        return Verdict(NM, {}, "no rtt_sw run")
    ci, ratio = _group_diff(res, "rtt_sw", ("F3", "F5"), ("F1", "F2"))
    return Verdict(_much(ci, ratio), {"short_minus_long_mbps": ci, "ratio": ratio},
                   f"F3, F5 minus F1, F2: {cl.ci_words(ci)} Mb/s, ratio "
                   + ("undefined" if ratio is None else f"{ratio:.2f}"))


def _lowest(res, table, value, group_col, group, best, others, lower=True) -> Verdict:
    """Per-seed paired differences of ``value`` (others minus best): holds if every CI is
    above 0 (best is lowest), partly if every mean is, else does not hold."""
    t = table(res)
    if group_col is not None:
        t = t[t[group_col] == group]
    have = set(t["conditioner"])
    if not ({best} | set(others)) <= have:
        return Verdict(NM, {}, f"needs the {', '.join((best,) + tuple(others))} runs")
    sts, nums, whys = [], {}, []
    for o in others:
        ci = _paired(_by_rtt(t, best), _by_rtt(t, o), value)
        sts.append(cl.sign_status(ci, +1 if lower else -1))
        nums[f"{o} - {best}"] = ci
        whys.append(f"{o} - {best}: {cl.ci_words(ci)} s")
    return Verdict(cl.combine_statuses(sts), nums, "; ".join(whys))


@cl.measured
def check_t1_overall(res: Results) -> Verdict:
    """Table I, overall delay per telnet packet: RTT-RTO's and RTT-SW's each below the
    standard's and the basic RTT-aware conditioner's (per-seed paired CIs above 0)."""
    v = [_lowest(res, ht.telnet, "delay_s", "group", "overall", b, ("standard", "rtt_aware"))
         for b in ("rtt_rto", "rtt_sw")]
    if any(x.status == NM for x in v):
        return Verdict(NM, {}, "needs all four conditioners' telnet runs")
    return Verdict(cl.combine_statuses([x.status for x in v]),
                   {"rtt_rto": v[0].numbers, "rtt_sw": v[1].numbers},
                   "RTT-RTO: " + v[0].reason + "; RTT-SW: " + v[1].reason)


@cl.measured
def check_t1_short(res: Results) -> Verdict:
    """Table I, short-RTT F3, F5: RTT-SW's delay per packet below every other conditioner's
    (per-seed paired CIs above 0)."""
    return _lowest(res, ht.telnet, "delay_s", "group", "F3, F5", "rtt_sw",
                   ("standard", "rtt_aware", "rtt_rto"))


@cl.measured
def check_t1_session(res: Results) -> Verdict:
    """Table I, delay per session: RTT-RTO's below the standard's and the basic RTT-aware
    conditioner's (per-seed paired CIs above 0)."""
    return _lowest(res, ht.telnet, "session_delay_s", "group", "overall", "rtt_rto",
                   ("standard", "rtt_aware"))


@cl.measured
def check_t2_all(res: Results) -> Verdict:
    """Table II: RTT-RTO's mean response time to all data below every other conditioner's
    (per-seed paired CIs above 0)."""
    return _lowest(res, ht.www, "all_mean_s", None, None, "rtt_rto",
                   ("standard", "rtt_aware", "rtt_sw"))


@cl.measured
def check_t2_first(res: Results) -> Verdict:
    """Table II: RTT-SW's mean response time to the first packet below the standard's, the
    basic RTT-aware and the RTT-RTO conditioner's (per-seed paired CIs above 0)."""
    return _lowest(res, ht.www, "first_mean_s", None, None, "rtt_sw",
                   ("standard", "rtt_aware", "rtt_rto"))


_claim = cl.paper_claim


def habib_claims() -> list[Claim]:
    return [
        _claim("H3.1", "Fig. 3", "With small-window protection the total bandwidth is higher "
               "than with the standard conditioner and close to the link capacity.",
               check_sw_total, "H3"),
        _claim("H3.2", "Fig. 3", "SW favours the short-RTT flow F1: long-RTT bandwidth "
               "deteriorates because short-RTT flows get more protection.",
               check_sw_favours_f1, "H3"),
        _claim("H3.3", "Fig. 3", "The packet drop ratio decreases when the RTT of Flow 2 "
               "increases.", check_drop_ratio_falls, "H3"),
        _claim("H4.1", "Fig. 4", "With the basic RTT-aware conditioner the longer-RTT Flow 2 "
               "obtains most of the extra bandwidth.", check_rtt_aware_favours_f2, "H4"),
        _claim("H4.2", "Fig. 4", "Basic RTT-aware at F2 RTT 100 ms: Flow 1 achieves only 2.3 "
               "Mb/s whereas Flow 2 gets 7.52 Mb/s.", check_rtt_aware_numbers, "H4"),
        _claim("H4.3", "Fig. 4", "The RTT-RTO conditioner and RTT-SW mitigate this RTT-based "
               "unfairness.", check_rto_sw_even_out, "H4"),
        _claim("H5.1", "Fig. 5", "Without small-window protection the cwnd of an F1 micro-flow "
               "remains small due to timeouts; small-window protection overcomes this.",
               check_sw_cwnd, "H5"),
        _claim("H6.1", "Fig. 6", "Multiple domains, basic RTT-aware: the long-RTT F1 and F2 "
               "obtain much higher bandwidth than the short-RTT flows.", check_h6_rtt_aware,
               "H6"),
        _claim("H6.2", "Fig. 6", "RTT-RTO is fair: F1, F2 and F4 achieve almost the same "
               "bandwidth and F3 a little higher.", check_h6_rtt_rto, "H6"),
        _claim("H6.3", "Fig. 6", "With RTT-SW the short-RTT flows get much higher bandwidth "
               "than the long-RTT flows.", check_h6_rtt_sw, "H6"),
        _claim("HT1.1", "Table I", "RTT-RTO and RTT-SW give the lowest overall delay per telnet "
               "packet.", check_t1_overall, "HT1"),
        _claim("HT1.2", "Table I", "RTT-SW has the lowest delay for the short-RTT flows.",
               check_t1_short, "HT1"),
        _claim("HT1.3", "Table I", "The per-session telnet delay is low with the RTT-RTO "
               "conditioner.", check_t1_session, "HT1"),
        _claim("HT2.1", "Table II", "The RTT-RTO conditioner reduces the total response time "
               "(all data) below every other conditioner's.", check_t2_all, "HT2"),
        _claim("HT2.2", "Table II", "RTT-SW takes less time for the first packet.",
               check_t2_first, "HT2"),
    ]
