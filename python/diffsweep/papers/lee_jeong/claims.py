"""The claims of Lee & Jeong (Balancing Marker), checked against the measured tables.

Every verdict is computed here from the per-seed tables of
:mod:`diffsweep.papers.lee_jeong.tables` (which the figures draw too) with the verdict rules of
:mod:`diffsweep.analysis.claims`; nothing is written in. Comparisons of Method 1 and Method 2 are per-seed
paired differences (the same seed gives both methods the same start times), rated on their 95%
CI over seeds.

Thresholds (constants below, also in each claim's ``thresholds``):

* "far above BAB" (Method 1): TCP_7's rate over BAB = CIR / 7; holds if the whole 95% CI is
  >= 1.5 (the paper's case 1 has TCP_7 = ATB + 1.58 Mb/s, 2.76 x BAB), does not hold if it is
  all below 1.2, partly holds otherwise.
* "near-equal" (Method 2): TCP_7's rate over the mean of S1..S7, r; holds if the whole CI of r
  is <= 1.35, does not hold if it is all above 1.56, partly otherwise. With six equal rates and
  one at r times the mean, Jain's index is 0.98 at r = 1.35 and 0.95 at r = 1.56: the paper's
  BMarker indices (0.93-0.99) allow no larger outlier.
"""
from __future__ import annotations

from diffsweep.analysis import claims as cl
from diffsweep.analysis.claims import HOLDS, NM, NOT, Claim, Verdict
from diffsweep.core.results import Results

from diffsweep.papers.lee_jeong import tables as lt

__all__ = ["lee_jeong_claims", "paper_consistency", "FAR_ABOVE", "FAR_ABOVE_PARTLY",
           "NEAR_EQUAL", "NEAR_EQUAL_PARTLY"]

FAR_ABOVE = 1.5           # TCP_7 / BAB, Method 1: holds at >= 1.5
FAR_ABOVE_PARTLY = 1.2    # partly at >= 1.2
NEAR_EQUAL = 1.35         # TCP_7 / mean(S1..S7), Method 2: holds at <= 1.35 (Jain 0.98)
NEAR_EQUAL_PARTLY = 1.56  # partly at <= 1.56 (Jain 0.95)

# What the paper says of case 1 (7 Mb/s, 70 packets), Method 1, no UDP (Sec. 4.2, Fig. 4a).
PAPER_CASE1 = {"tcp1_mbps": 0.5,          # "hardly achieved only half of BAB, 1 Mb/s"
               "over_atb_mbps": 1.58,     # TCP_7 "used 1.58 Mb/s over ATB"
               "total_mbps": 7.01,        # "The total throughput of Method 1 was 7.01 Mb/s"
               "jain": 0.86,              # "the fairness index of Method 1 was 0.86"
               "cir_mbps": 7.0, "link_mbps": 10.0, "n_best_effort": 10}


def _cells(ps):
    return ps.groupby(["cir_mbps", "bucket_pkts", "udp"], sort=True)


def _label(cir, bucket, udp) -> str:
    return lt.cell_label(cir, bucket) + (" UDP" if udp else " no UDP")


def _paired_in_every_cell(res: Results, value: str, what: str) -> Verdict:
    ps = lt.per_seed(res)
    sts, nums, whys = [], {}, []
    for (cir, bucket, udp), g in _cells(ps):
        a, b = g[g["method"] == "marker"], g[g["method"] == "bmarker"]
        if a.empty or b.empty:
            continue
        d = cl.paired(a, b, value, on=("seed",))
        ci = cl.overall_ci(d, "diff")
        st = cl.sign_status(ci, +1)
        lab = _label(cir, bucket, udp)
        sts.append(st)
        nums[lab] = {"bmarker_minus_marker": ci, "marker": cl.overall_ci(a, value),
                     "bmarker": cl.overall_ci(b, value)}
        whys.append(f"{lab}: {cl.ci_words(ci)}, {cl.sign_words(ci, +1)}")
    if whys:
        whys[0] = f"BMarker - Marker {what} per seed, {whys[0]}"
    return cl.combined_verdict(sts, nums, whys, "no cell with both methods")


@cl.measured
def check_fairer(res: Results) -> Verdict:
    """Per cell, the per-seed paired difference Jain(BMarker) - Jain(Marker) over S1..S7 with
    its 95% CI over seeds: a cell holds if the interval is above 0, partly if only the mean is,
    does not hold otherwise; all cells hold -> holds, none -> does not hold, else partly."""
    return _paired_in_every_cell(res, "jain", "Jain index")


@cl.measured
def check_total_higher(res: Results) -> Verdict:
    """Per cell, the per-seed paired difference of the total throughput of S1..S7 (Mb/s of
    1000-B packets), BMarker - Marker, with its 95% CI: rated per cell and combined as for
    the fairness claim."""
    return _paired_in_every_cell(res, "total_mbps", "total throughput (Mb/s)")


def paper_consistency() -> dict:
    """From the paper's own case-1 Method 1 numbers: ATB = BAB + (link - CIR) / (7 + 10),
    TCP_7 = ATB + 1.58 Mb/s, total 7.01 Mb/s; the largest Jain index of 7 rates with that total
    and that TCP_7 (the other six equal), and the same with TCP_1 = 0.5 Mb/s too."""
    p = PAPER_CASE1
    bab = p["cir_mbps"] / lt.N_AGG
    atb = bab + (p["link_mbps"] - p["cir_mbps"]) / (lt.N_AGG + p["n_best_effort"])
    tcp7 = atb + p["over_atb_mbps"]
    best = lt.max_jain_given(p["total_mbps"], tcp7)
    rest = (p["total_mbps"] - tcp7 - p["tcp1_mbps"]) / (lt.N_AGG - 2)
    with_tcp1 = lt.jain([p["tcp1_mbps"]] + [rest] * (lt.N_AGG - 2) + [tcp7])
    return {"bab_mbps": bab, "atb_mbps": atb, "tcp7_mbps": tcp7,
            "max_jain_given_total_and_tcp7": best, "max_jain_given_tcp1_too": with_tcp1,
            "reported_jain": p["jain"]}


@cl.measured
def check_paper_consistency(res: Results) -> Verdict:
    """The paper's internal consistency, computed from the numbers it quotes for case 1,
    Method 1, no UDP (not from our runs): TCP_7 = ATB + 1.58 Mb/s with ATB = BAB + 3/17 Mb/s,
    total 7.01 Mb/s (and TCP_1 about 0.5 Mb/s). Holds if the largest Jain index these rates
    allow (the other connections equal) is at least the reported 0.86; does not hold
    otherwise. Our measured Marker index of that cell is given beside it."""
    c = paper_consistency()
    nums = dict(c)
    ours = ""
    try:
        ps = lt.per_seed(res)
        sel = ps[(ps["cir_mbps"] == 7.0) & (ps["bucket_pkts"] == 70) & (~ps["udp"])
                 & (ps["method"] == "marker")]
        if not sel.empty:
            ci = cl.overall_ci(sel, "jain")
            nums["our_marker_jain_7_70"] = ci
            t7 = cl.overall_ci(sel, "tcp7_mbps")
            nums["our_marker_tcp7_mbps_7_70"] = t7
            ours = (f"; our Marker index in that cell is {cl.ci_words(ci)}, with TCP_7 at "
                    f"{cl.ci_words(t7)} Mb/s")
    except ValueError:
        pass
    st = HOLDS if c["max_jain_given_total_and_tcp7"] >= c["reported_jain"] else NOT
    why = (f"TCP_7 = ATB {c['atb_mbps']:.3f} + 1.58 = {c['tcp7_mbps']:.2f} Mb/s of a total "
           f"7.01 Mb/s allows a Jain index of at most {c['max_jain_given_total_and_tcp7']:.3f} "
           f"({c['max_jain_given_tcp1_too']:.3f} with TCP_1 = 0.5 Mb/s), against the "
           f"reported {c['reported_jain']}: "
           + ("consistent" if st == HOLDS else "the paper's numbers contradict each other "
              "(its TCP_7 or its index must be computed otherwise)") + ours)
    return Verdict(st, nums, why)


def _cell_table(res: Results, number: int):
    cir, bucket, udp = lt.FIGURE_CELLS[number]
    ps = lt.per_seed(res)
    sel = ps[(ps["cir_mbps"] == cir) & (ps["bucket_pkts"] == bucket) & (ps["udp"] == udp)].copy()
    if sel.empty:
        raise ValueError(f"no runs of cell {_label(cir, bucket, udp)} (Fig. {number})")
    return sel


def _far_above(number: int):
    @cl.measured
    def check(res: Results) -> Verdict:
        sel = _cell_table(res, number)
        m1 = sel[sel["method"] == "marker"].copy()
        if m1.empty:
            return Verdict(NM, {}, "no Method 1 (marker) runs in this cell")
        m1["ratio"] = m1["tcp7_mbps"] / m1["bab_mbps"]
        ci = cl.overall_ci(m1, "ratio")
        st = cl.level_ci(ci, FAR_ABOVE, FAR_ABOVE_PARTLY)
        return Verdict(st, {"tcp7_over_bab": ci, "tcp7_mbps": cl.overall_ci(m1, "tcp7_mbps"),
                            "bab_mbps": float(m1["bab_mbps"].iloc[0])},
                       f"Method 1: TCP_7 / BAB = {cl.ci_words(ci)}; holds if the whole interval "
                       f"is >= {FAR_ABOVE}, does not if it is all below {FAR_ABOVE_PARTLY}")
    check.__doc__ = (f"Fig. {number}, Method 1: TCP_7's rate over BAB = CIR / 7 per seed (95% "
                     f"CI): holds if the whole interval is >= {FAR_ABOVE}, does not hold if it "
                     f"is all below {FAR_ABOVE_PARTLY}, partly holds otherwise.")
    return check


def _near_equal(number: int):
    @cl.measured
    def check(res: Results) -> Verdict:
        sel = _cell_table(res, number)
        m2 = sel[sel["method"] == "bmarker"].copy()
        if m2.empty:
            return Verdict(NM, {}, "no Method 2 (bmarker) runs in this cell")
        m2["ratio"] = m2["tcp7_mbps"] / (m2["total_mbps"] / lt.N_AGG)
        ci = cl.overall_ci(m2, "ratio")
        st = cl.level_ci(ci, NEAR_EQUAL, NEAR_EQUAL_PARTLY, higher_is_better=False)
        return Verdict(st, {"tcp7_over_mean": ci, "tcp7_mbps": cl.overall_ci(m2, "tcp7_mbps"),
                            "jain": cl.overall_ci(m2, "jain")},
                       f"Method 2: TCP_7 / mean of S1..S7 = {cl.ci_words(ci)}; holds if the "
                       f"whole interval is <= {NEAR_EQUAL}, does not if it is all above "
                       f"{NEAR_EQUAL_PARTLY}")
    check.__doc__ = (f"Fig. {number}, Method 2: TCP_7's rate over the mean rate of S1..S7 per "
                     f"seed (95% CI): holds if the whole interval is <= {NEAR_EQUAL} (one "
                     f"outlier at 1.35 x the mean gives Jain 0.98), does not hold if it is all "
                     f"above {NEAR_EQUAL_PARTLY} (Jain 0.95), partly holds otherwise.")
    return check


_claim = cl.paper_claim


def lee_jeong_claims() -> list[Claim]:
    fam = [
        _claim("LT2.1", "Table 2", "BMarker (Method 2) gives a higher fairness index among the 7 "
               "connections than the Marker (Method 1) in every cell (paper: 0.93-0.99 vs "
               "0.83-0.87).", check_fairer, "LT2"),
        _claim("LT2.2", "Table 2", "BMarker gives the 7 connections a higher total throughput "
               "than the Marker in every cell.", check_total_higher, "LT2"),
        _claim("LT2.3", "Sec. 4.2", "The paper's case-1 numbers are consistent: Method 1's "
               "fairness 0.86 with TCP_1 about 0.5 Mb/s, TCP_7 = ATB + 1.58 Mb/s and a total of "
               "7.01 Mb/s (computed from the paper's numbers: at most about 0.66 is possible).",
               check_paper_consistency, "LT2"),
    ]
    for n in range(4, 12):
        cir, bucket, udp = lt.FIGURE_CELLS[n]
        lab = _label(cir, bucket, udp)
        fam.append(_claim(f"L{n}.1", f"Fig. {n}", f"{lab}: under Method 1 TCP_7 (2 ms) gets far "
                          "more than its BAB.", _far_above(n), f"L{n}"))
        fam.append(_claim(f"L{n}.2", f"Fig. {n}", f"{lab}: under Method 2 TCP_7's rate is "
                          "near-equal to the other connections'.", _near_equal(n), f"L{n}"))
    conc = [("C1", "Conclusion", "The BMA increased the fairness and the throughput compared "
             "with the 2-level marking method.", ("LT2.1", "LT2.2")),
            ("C2", "Sec. 4.2", "The Balancing Marker removes TCP_7's (smallest RTT) advantage "
             "that the shared token bucket gives it.",
             tuple(f"L{n}.{k}" for n in range(4, 12) for k in (1, 2)))]
    out = [Claim(id=i, figure=fg, text=t, check=cl.conclusion_check(d, lee_jeong_claims),
                 family=None, depends=d, thresholds=cl.doc_text(cl.conclusion_from))
           for i, fg, t, d in conc]
    return out + fam
