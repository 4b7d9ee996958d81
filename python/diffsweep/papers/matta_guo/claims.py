"""The claims of Matta & Guo (families M3, M4, M5, M7), checked against ``tables.per_seed`` (Jain's
index per class per 20-s interval, averaged over the intervals after the first; goodput per
class). Means and 95% Student-t CIs are over seeds; sub-results (k points) combine as usual.

Thresholds: "about 1.0": the CI of the isolated short flows' fairness >= ``ABOUT_ONE`` = 0.95
holds, all below 0.9 does not hold; "below 0.8" (sharing, small pipe k = 1): CI below 0.8
holds, CI all >= 0.8 does not hold; "linear in k": the line through the seed-mean long-class
goodput against k has R^2 >= ``LINEAR_R2`` = 0.98 and the per-seed slopes' CI is above 0;
"falls" (sharing short goodput vs k_b/k_c): per-seed slope CI below 0; "steady" (isolation):
the seed-mean short goodput varies by at most ``STEADY`` = 15% of its mean over k_b/k_c.
Fig. 7 (M7) compares schemes on the same seeds (common random numbers: the same web
background), so its differences are paired per seed: "comparable" fairness: the paired
difference's CI within +-``COMPARABLE`` = 0.1 holds, within +-0.2 partly; "higher" goodput: the
paired difference's CI above 0; "above 80%" / "as low as 0.2": level checks on the index's CI.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.analysis import claims as cl
from diffsweep.analysis.claims import HOLDS, NM, NOT, PARTLY, Claim, Verdict
from diffsweep.core.results import Results

from diffsweep.papers.matta_guo import tables as mt

__all__ = ["matta_guo_claims", "ABOUT_ONE", "LINEAR_R2", "STEADY", "COMPARABLE"]

ABOUT_ONE = 0.95
LINEAR_R2 = 0.98
STEADY = 0.15
SMALL = 0.8
COMPARABLE = 0.1
FAIR_M7 = 0.8     # Sec. 4.4: RED and isolation "all above 80%"
UNFAIR_M7 = 0.5   # drop-tail shared: "as low as 20%"; holds below 0.5, does not at >= 0.8
ISOLATION_SCHEMES = ("size-based", "lifetime-based")


def _lin(v):
    return np.asarray(v, dtype=float)


def _sel(res: Results, mode: str, cls: str) -> pd.DataFrame:
    ps = mt.per_seed(res)
    return ps[(ps["mode"] == mode) & (ps["cls"] == cls)]


@cl.measured
def check_short_fair(res: Results) -> Verdict:
    """Isolation, short class, at every k: the fairness index (mean over 20-s intervals) with
    its 95% CI over seeds; holds if the whole interval is >= 0.95 ("about 1.0"), does not hold
    if it is all below 0.9, partly otherwise; combined over k."""
    d = _sel(res, "isolation", "short")
    sts, nums, whys = [], {}, []
    for k, g in d.groupby("k"):
        ci = cl.overall_ci(g, "jain_index", bounds=(0.0, 1.0))
        sts.append(cl.level_ci(ci, ABOUT_ONE, 0.9))
        nums[f"k {k:g}"] = {"jain_short": ci}
        whys.append(f"k {k:g}: {cl.ci_words(ci)}")
    return cl.combined_verdict(sts, nums, whys, "no isolation runs",
                               suffix=f" (holds at >= {ABOUT_ONE})")


@cl.measured
def check_shared_short_unfair(res: Results) -> Verdict:
    """Sharing, short class, at the smallest pipe (k = 1, total 2 C_u): the fairness index with
    its 95% CI; holds if the whole interval is below 0.8, does not hold if it is all >= 0.8,
    partly otherwise. The isolated short flows' index at k = 1 is given beside it."""
    d = _sel(res, "sharing", "short")
    if d.empty:
        return Verdict(NM, {}, "no sharing runs")
    kmin = d["k"].min()
    ci = cl.overall_ci(d[d["k"] == kmin], "jain_index", bounds=(0.0, 1.0))
    st = cl.level_ci(ci, SMALL, SMALL, higher_is_better=False)
    lo, hi = ci["ci95"]
    if st == PARTLY or (lo is not None and hi is not None and lo < SMALL <= hi):
        st = PARTLY
    iso = _sel(res, "isolation", "short")
    nums = {"jain_short_sharing": ci}
    why = f"sharing, k = {kmin:g}: short fairness {cl.ci_words(ci)} (holds below {SMALL})"
    if not iso.empty:
        ic = cl.overall_ci(iso[iso["k"] == iso["k"].min()], "jain_index",
                             bounds=(0.0, 1.0))
        nums["jain_short_isolation"] = ic
        why += f"; isolation {cl.ci_words(ic)}"
    return Verdict(st, nums, why)


@cl.measured
def check_linear(res: Results) -> Verdict:
    """Isolation, long class: the least-squares line of the goodput against k; holds if R^2 of
    the line through the seed-mean curve is >= 0.98 and the per-seed slopes' 95% CI is above
    0, does not hold if the mean slope is <= 0, partly otherwise (needs >= 3 k points)."""
    d = _sel(res, "isolation", "long")
    if d["k"].nunique() < 3:
        return Verdict(NM, {}, "fewer than 3 k points under isolation")
    s = cl.slopes(d, "k", "goodput_mbps", log=_lin)
    ci = cl.overall_ci(s, "slope")
    c = d.groupby("k")["goodput_mbps"].mean()
    xs, ys = c.index.to_numpy(float), c.to_numpy(float)
    fit = np.polyval(np.polyfit(xs, ys, 1), xs)
    sst = float(((ys - ys.mean()) ** 2).sum())
    r2 = 1.0 - float(((ys - fit) ** 2).sum()) / sst if sst > 0 else None
    st = cl.linear_status(ci, r2, LINEAR_R2)
    return Verdict(st, {"slope_mbps_per_k": ci, "r2": r2},
                   f"long goodput slope {cl.ci_words(ci)} Mb/s per unit k, R^2 "
                   + ("undefined" if r2 is None else f"{r2:.4f}")
                   + f" (holds: slope CI > 0 and R^2 >= {LINEAR_R2})")


@cl.measured
def check_buffer(res: Results) -> Verdict:
    """Short class against k_b/k_c: sharing, the per-seed least-squares slope of the goodput,
    with its 95% CI (falls: CI below 0); isolation, the spread (max - min) of the seed-mean
    goodput over k_b/k_c relative to its mean (steady: <= 15%). Holds if both, partly if one,
    does not hold if neither."""
    sh = _sel(res, "sharing", "short")
    iso = _sel(res, "isolation", "short")
    if sh["buffer_ratio"].nunique() < 2 or iso["buffer_ratio"].nunique() < 2:
        return Verdict(NM, {}, "needs >= 2 buffer ratios under both isolation and sharing")
    s = cl.slopes(sh, "buffer_ratio", "goodput_mbps", log=_lin)
    ci = cl.overall_ci(s, "slope")
    falls = cl.sign_status(ci, -1)
    c = iso.groupby("buffer_ratio")["goodput_mbps"].mean()
    spread = float((c.max() - c.min()) / c.mean()) if c.mean() > 0 else float("inf")
    steady = HOLDS if spread <= STEADY else NOT
    st = cl.combine_statuses([falls, steady])
    return Verdict(st, {"sharing_slope_mbps_per_ratio": ci, "isolation_rel_spread": spread},
                   f"sharing short goodput slope {cl.ci_words(ci)} Mb/s per unit k_b/k_c, "
                   f"{cl.sign_words(ci, -1)}; isolation spread {100 * spread:.1f}% of the mean "
                   f"(steady at <= {100 * STEADY:g}%)")


def _scheme_diff(res: Results, a: str, b: str, cls: str, value: str) -> dict:
    """Per-seed difference b - a of ``value`` for class ``cls`` between schemes a and b."""
    ps = mt.per_seed(res)
    d = ps[ps["cls"] == cls]
    m = cl.paired(d[d["mode"] == a], d[d["mode"] == b], value, on=("seed",))
    return cl.overall_ci(m, "diff")


def _have(res: Results, modes) -> bool:
    ps = mt.per_seed(res)
    return set(modes) <= set(ps["mode"])


@cl.measured
def check_isolation_fair_as_red(res: Results) -> Verdict:
    """Fairness of short and of long sessions under size- and lifetime-based splitting against
    RED (load-balanced): per class and scheme the per-seed paired difference (isolation - RED)
    of the index; holds if its CI lies within +-0.1, partly within +-0.2, else does not hold;
    combined over the four."""
    if not _have(res, ("red",)):
        return Verdict(NM, {}, "no RED runs")
    sts, nums, whys = [], {}, []
    for scheme in ISOLATION_SCHEMES:
        if not _have(res, (scheme,)):
            continue
        for cls in ("short", "long"):
            ci = _scheme_diff(res, "red", scheme, cls, "jain_index")
            sts.append(cl.flat_status(ci, COMPARABLE, 2 * COMPARABLE))
            nums[f"{scheme} - red, {cls}"] = ci
            whys.append(f"{cls}, {scheme} - RED: {cl.ci_words(ci)}")
    return cl.combined_verdict(sts, nums, whys, "no isolation runs",
                               suffix=f" (holds: within +-{COMPARABLE})")


@cl.measured
def check_size_short_goodput(res: Results) -> Verdict:
    """Short sessions under size-based splitting against RED: the per-seed paired difference of
    the short class's goodput (CI above 0: holds) and the size-based short fairness (CI >= 0.8
    holds, all below 0.6 does not); combined."""
    if not _have(res, ("red", "size-based")):
        return Verdict(NM, {}, "needs the RED and size-based runs")
    gd = _scheme_diff(res, "red", "size-based", "short", "goodput_mbps")
    ps = mt.per_seed(res)
    fair = cl.overall_ci(ps[(ps["mode"] == "size-based") & (ps["cls"] == "short")],
                         "jain_index", bounds=(0.0, 1.0))
    st = cl.combine_statuses([cl.sign_status(gd, +1), cl.level_ci(fair, FAIR_M7, 0.6)])
    return Verdict(st, {"short_goodput_size_minus_red_mbps": gd, "jain_short_size": fair},
                   f"short goodput, size-based - RED: {cl.ci_words(gd)} Mb/s, "
                   f"{cl.sign_words(gd, +1)}; size-based short fairness {cl.ci_words(fair)}")


@cl.measured
def check_droptail_long(res: Results) -> Verdict:
    """Load-balanced drop-tail against RED and isolation, long sessions: the paired difference
    of the long class's goodput against each of RED, size- and lifetime-based (CI above 0:
    holds), the drop-tail long fairness (CI below 0.5 holds, all >= 0.8 does not) and each
    other scheme's long fairness (CI >= 0.8 holds, all below 0.6 does not); combined."""
    if not _have(res, ("load-balanced",)):
        return Verdict(NM, {}, "no load-balanced drop-tail runs")
    ps = mt.per_seed(res)
    long_ = ps[ps["cls"] == "long"]
    others = [m for m in ("red",) + ISOLATION_SCHEMES if m in set(long_["mode"])]
    if not others:
        return Verdict(NM, {}, "no RED or isolation runs to compare with")
    sts, nums, whys = [], {}, []
    for m in others:
        gd = _scheme_diff(res, m, "load-balanced", "long", "goodput_mbps")
        sts.append(cl.sign_status(gd, +1))
        nums[f"long goodput, drop-tail - {m}"] = gd
        whys.append(f"long goodput drop-tail - {m}: {cl.ci_words(gd)} Mb/s")
    dt = cl.overall_ci(long_[long_["mode"] == "load-balanced"], "jain_index", bounds=(0.0, 1.0))
    sts.append(cl.level_ci(dt, UNFAIR_M7, FAIR_M7, higher_is_better=False))
    nums["jain_long_droptail"] = dt
    whys.append(f"drop-tail long fairness {cl.ci_words(dt)} (holds below {UNFAIR_M7})")
    for m in others:
        ci = cl.overall_ci(long_[long_["mode"] == m], "jain_index", bounds=(0.0, 1.0))
        sts.append(cl.level_ci(ci, FAIR_M7, 0.6))
        nums[f"jain_long_{m}"] = ci
        whys.append(f"{m} long fairness {cl.ci_words(ci)}")
    return cl.combined_verdict(sts, nums, whys, "no runs")


def _better(ci: dict) -> int:
    """+1 if the difference's 95% CI is above 0, -1 if below, 0 otherwise (no difference)."""
    lo, hi = ci["ci95"]
    return 1 if lo is not None and lo > 0 else (-1 if hi is not None and hi < 0 else 0)


def _pays_at_k(gk: pd.DataFrame) -> tuple[str, dict, str] | None:
    """Isolation against sharing for the short class in one (threshold, k)'s rows: the per-seed
    paired differences isolation - sharing of fairness and goodput; pays (holds) if one is
    significantly above 0 and neither below, does not hold if either is significantly below
    0, partly holds if neither differs."""
    iso, sh = gk[gk["mode"] == "isolation"], gk[gk["mode"] == "sharing"]
    if iso.empty or sh.empty:
        return None
    fair = cl.overall_ci(cl.paired(sh, iso, "jain_index", on=("seed",)), "diff")
    good = cl.overall_ci(cl.paired(sh, iso, "goodput_mbps", on=("seed",)), "diff")
    signs = (_better(fair), _better(good))
    st = NOT if -1 in signs else (HOLDS if 1 in signs else PARTLY)
    return st, {"jain_short_isolation_minus_sharing": fair,
                "goodput_short_isolation_minus_sharing_mbps": good, "status": st}, \
        f"fairness {cl.ci_words(fair)}, goodput {cl.ci_words(good)} Mb/s: {st}"


def _stops(by_n: dict) -> tuple[list[int], int | None]:
    """(the thresholds N where isolation pays, the first N above the largest of them where it
    does not), from {N: status}."""
    paying = sorted(int(n) for n, st in by_n.items() if st == HOLDS)
    later = [int(n) for n in by_n if paying and n > paying[-1]]
    return paying, (min(later) if later else None)


@cl.measured
def check_isolation_pays(res: Results) -> Verdict:
    """Short class, isolation against sharing at each classification threshold N
    (``lifetime_pkts``; size-based when absent) and k: the per-seed paired differences
    isolation - sharing of the fairness index and of the goodput. Isolation pays at (N, k) if
    one difference's 95% CI is above 0 and neither is below, does not pay if either is below,
    partly otherwise; at N it pays if it pays at every k. Holds if it pays at some N, partly
    if only at some k, does not hold otherwise; the numbers give each (N, k), the thresholds
    where it pays and the first larger N where it stops paying (per k and over all k)."""
    ps = mt.per_seed(res)
    ps = ps[ps["cls"] == "short"]
    if not {"isolation", "sharing"} <= set(ps["mode"]):
        return Verdict(NM, {}, "needs isolation and sharing runs")
    if "lifetime_pkts" not in ps.columns:
        ps = ps.assign(lifetime_pkts=np.nan)
    by_n, by_k, nums, whys = {}, {}, {}, []
    for n, g in ps.groupby("lifetime_pkts", dropna=False):
        label = "size-based" if pd.isna(n) else f"N = {int(n)}"
        sts, sub, parts = [], {}, []
        for k, gk in g.groupby("k"):
            r = _pays_at_k(gk)
            if r is None:
                continue
            sts.append(r[0])
            sub[f"k {k:g}"] = r[1]
            parts.append(f"k {k:g}: {r[2]}")
            if not pd.isna(n):
                by_k.setdefault(float(k), {})[n] = r[0]
        if not sts:
            continue
        st = HOLDS if all(x == HOLDS for x in sts) else (NOT if all(x == NOT for x in sts)
                                                          else PARTLY)
        by_n[n] = st
        nums[label] = sub
        whys.append(f"{label}: {st} ({'; '.join(parts)})")
    if not by_n:
        return Verdict(NM, {}, "no threshold with both isolation and sharing rows")
    head = []
    if by_k:
        paying, stop = _stops(by_n)
        nums["pays_at_N"], nums["stops_paying_at_N"] = paying, stop
        head.append("isolation pays at every k at N = "
                    + (", ".join(map(str, paying)) if paying else "none")
                    + (f" and stops paying at N = {stop}" if stop else ""))
        for k, d in sorted(by_k.items()):
            p, s_ = _stops(d)
            nums[f"k {k:g}: pays_at_N"], nums[f"k {k:g}: stops_paying_at_N"] = p, s_
            head.append(f"k = {k:g}: pays at N = {', '.join(map(str, p)) if p else 'none'}"
                        + (f", stops at N = {s_}" if s_ else ""))
    any_k = any(st == HOLDS for d in by_k.values() for st in d.values())
    st = (HOLDS if any(v == HOLDS for v in by_n.values())
          else PARTLY if any_k or any(v == PARTLY for v in by_n.values()) else NOT)
    return Verdict(st, nums, "; ".join(head + whys))


_claim = cl.paper_claim


def matta_guo_claims() -> list[Claim]:
    return [
        _claim("M3.1", "Fig. 3", "Isolated short flows' fairness is about 1.0 (N = 30; 'about': "
               "the CI of the index >= 0.95 at every k).", check_short_fair, "M3"),
        _claim("M3.2", "Fig. 3", "Under isolation the long class's goodput is linear in k "
               "(N = 30; R^2 >= 0.98, slope CI > 0).", check_linear, "M3"),
        _claim("M4.1", "Fig. 4", "Sharing: short-flow fairness is below 0.8 in the small pipe "
               "(N = 60, k = 1: total 2 C_u).", check_shared_short_unfair, "M4"),
        _claim("M4.2", "Fig. 4", "Isolated short flows stay fair in the small pipe too "
               "(N = 60; the paper: around 0.96; CI >= 0.95 holds, all below 0.9 does not).",
               check_short_fair, "M4"),
        _claim("M4.3", "Fig. 4", "Under isolation the long class's goodput is linear in k "
               "(N = 60; R^2 >= 0.98, slope CI > 0).", check_linear, "M4"),
        _claim("M5.1", "Fig. 5", "Sharing: short goodput falls as the buffer grows (slope CI "
               "< 0); isolation: short goodput steady (spread <= 15% of the mean).",
               check_buffer, "M5"),
        _claim("M7.1", "Fig. 7", "Isolation (size- and lifetime-based splitting) achieves "
               "fairness comparable to that of RED shared queues, for short and long sessions "
               "('comparable': paired difference within +-0.1).", check_isolation_fair_as_red,
               "M7"),
        _claim("M7.2", "Fig. 7", "RED's fairness costs short connections goodput; with "
               "size-based isolation short connections get both high fairness and higher "
               "goodput than under RED.", check_size_short_goodput, "M7"),
        _claim("M7.3", "Fig. 7", "With drop-tail shared queues (load-balanced) long connections "
               "get much higher goodput, but their fairness is very low (as low as 0.2), while "
               "RED and isolation keep it above 0.8.", check_droptail_long, "M7"),
        _claim("ML.1", "Sec. 6", "Sec. 6: in practice a flow would be classified as long after "
               "observing it for some number of packets (lifetime-based classification), and "
               "\"how to determine the best threshold values used to classify flows into "
               "classes\" is left open. With a connection's first N packets in the short pipe "
               "and the rest in the long pipe (sweep ml.toml, N = 1..1000, k = 1, 4, 8, N = 30 "
               "sessions per class): does isolation still pay the short flows (at every k at "
               "least as fair and as much goodput as under sharing, and better in one) for "
               "some N, and where does it stop paying?",
               check_isolation_pays, "ML"),
    ]
