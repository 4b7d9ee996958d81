"""Kaur & Vin's open questions (sec. 5; issue 44): the paper's claims rated again with RED at
the bottleneck (family Kr, their future work) and with a 15% telnet share of the link (family Kt,
the phase-effect remedy they cite from Floyd & Jacobson), and with TCP SACK senders (family Ks,
the paper's sentence that its observations hold under TCP-SACK). Each condition claim runs the
drop-tail Reno claims' own checks (papers/kaur_vin/claims.py) on its family's sweeps and
combines them; the claims are rows of claims.py's ``_CLAIMS`` (``condition_claims``). Family Ks
runs SACK and Reno on the same grid and seeds (a ``tcp`` axis): its claims rate the SACK rows,
give Reno's verdict on the Reno rows beside it, and claim Ks.5 rates the paper's SACK sentence
by comparing the two (``sack_sentence``)."""
from __future__ import annotations

from typing import Callable, Mapping

from diffsweep.analysis import claims as cl
from diffsweep.analysis.claims import Verdict
from diffsweep.core.results import Results

from diffsweep.papers.kaur_vin import tables as kv


#: the two conditions of sec. 5 (Floyd & Jacobson's remedies for phase effects): family ->
#: words; the same checks as the drop-tail claims, on the family's own sweeps
CONDITIONS = {"Kr": "RED at the bottleneck", "Kt": "a 15% telnet share of the link",
              "Ks": "TCP SACK senders"}
#: the families that run the condition beside the paper's set-up in the same sweeps: family ->
#: (the condition's rows, the paper's rows) as ``Results.where`` values
_BESIDE = {"Ks": (dict(tcp="sack"), dict(tcp="reno"))}
#: verdicts ordered by strength, for comparing SACK's with Reno's
_RANK = {cl.NOT: 0, cl.PARTLY: 1, cl.HOLDS: 2}


def _telnet_share(res: Results) -> dict | None:
    """The telnet flows' carried share of the link (wire bytes over the run, after warm-up) per
    network, mean over replicas: whether the telnet share was really there (None without
    one)."""
    rep, fl = res.replicas, res.flows
    if "telnet_flows" not in rep.columns or "flow" not in fl.columns:
        return None
    rep = rep.assign(ef_kind=kv._labels(rep)[0])
    cols = ["telnet_flows", "ef_kind", "available_bps", "ef_rate_bps", "udp_rate_bps",
            "telnet_rate_bps"]
    tel = fl.drop(columns=[c for c in cols if c in fl.columns]).merge(
        rep[kv.KEYS + cols], on=kv.KEYS)
    n_all = fl.groupby(kv.KEYS).size().rename("n_all").reset_index()
    tel = tel.merge(n_all, on=kv.KEYS)
    tel = tel[tel["flow"] < tel["telnet_flows"]]
    if tel.empty:
        return None
    wire = tel["goodput_bps"] * (tel["segment_bytes"] + tel["header_bytes"]) / tel["segment_bytes"]
    link = tel["available_bps"] + tel["ef_rate_bps"] + tel["udp_rate_bps"] + tel["telnet_rate_bps"]
    n_tcp = tel["n_all"] - tel["telnet_flows"]
    per = (wire / link).groupby([n_tcp, tel["ef_kind"], tel["point"], tel["seed"]]).sum()
    names = {"none": "no EF", "cbr": "CBR", "onoff": "EF"}
    return {f"N = {int(n)}, {names.get(k, k)}": float(v)
            for (n, k), v in per.groupby(level=[0, 1]).mean().items()}


#: family Ks: the sweeps (the ``part`` of its combined runs) each check reads, those of its
#: primary claim's grid, so that no curve pools two grids that share a point (N = 64 is in all
#: but ks_k3, in other RTP settings, same-slot orders and T_on grids)
_KS3, _KS4, _KS5, _KS7 = (("ks_k3",), ("ks_k4",), ("ks_k5", "ks_k5_unequal"),
                          ("ks_k7_equal", "ks_k7_unequal"))
KS_READS = {"check_k2_rise_fall": _KS3, "check_k2_peak": _KS3, "check_k2_timeouts_shape": _KS3,
            "check_k2_tau": _KS3, "check_k3_rtp": _KS3,
            "check_k4_aggregate": _KS4, "check_k4_timeouts": _KS4,
            "check_k5_small_equal": ("ks_k7_equal",), "check_k5_small_unequal": ("ks_k5_unequal",),
            "check_k5_ef_raises": _KS5, "check_k5_smaller_t_on": _KS5,
            **{c: _KS7 for c in ("check_k6_spread", "check_k6_near_fair", "check_k7_equal_falls",
                                 "check_k7_equal_slower", "check_k7_unequal_marginal",
                                 "check_k8_udp", "check_k8_udp_ef", "check_k9_udp",
                                 "check_k9_udp_ef")}}


def of_sweeps(res: Results, sweeps: tuple | None) -> Results:
    """The runs of ``sweeps`` among a family's combined runs (their ``part`` column); the runs
    of one sweep (no such column) as they are."""
    rep = res.replicas
    if sweeps is None or "part" not in rep.columns:
        return res
    sel = rep[rep["part"].isin(sweeps)]
    if sel.empty:
        raise ValueError(f"no runs of sweep {' or '.join(sweeps)}")
    return cl.subset(res, sel)


def _beside(res: Results, checks_by_name: Mapping[str, Callable], family: str,
            checks: tuple) -> tuple[dict, dict]:
    """The checks' verdicts on the condition's rows and on the paper's set-up's rows of a
    ``_BESIDE`` family's runs (not measured where the runs have no such rows), each on the
    sweeps it reads (``KS_READS``)."""
    out = []
    for values in _BESIDE[family]:
        try:
            part = res.where(**values)
        except ValueError as e:     # no tcp column, or no rows of that sender
            out.append({c: Verdict(cl.NM, {}, f"no rows of {values}: {e}") for c in checks})
            continue
        out.append({c: cl.safe(lambda r, c=c: checks_by_name[c](of_sweeps(r, KS_READS.get(c))),
                               part) for c in checks})
    return out[0], out[1]


def sack_sentence(res: Results, checks_by_name: Mapping[str, Callable], ids: Mapping[str, str],
                  family: str, checks: tuple) -> Verdict:
    """The paper's SACK sentence: each check's verdict under SACK against Reno's on the same
    runs. A claim is weaker under SACK when its verdict ranks lower (holds > partly holds >
    does not hold). Holds if no claim is weaker under SACK (every observation that holds or
    partly holds under Reno holds at least as well under SACK); does not hold if every claim
    Reno rates holds or partly holds is weaker under SACK; partly holds otherwise. Claims not
    measured under either sender are left out."""
    sack, reno = _beside(res, checks_by_name, family, checks)
    pairs = {ids[c]: {"reno": reno[c].status, "sack": sack[c].status} for c in checks}
    rated = {i: p for i, p in pairs.items() if cl.NM not in p.values()}
    nums = {"reno_vs_sack": pairs}
    if not rated:
        return Verdict(cl.NM, nums, "no claim measured under both SACK and Reno")
    weaker = [i for i, p in rated.items() if _RANK[p["sack"]] < _RANK[p["reno"]]]
    stronger = [i for i, p in rated.items() if _RANK[p["sack"]] > _RANK[p["reno"]]]
    reno_seen = [i for i, p in rated.items() if p["reno"] != cl.NOT]
    nums.update(weaker_under_sack=weaker, stronger_under_sack=stronger)
    if not weaker:
        st = cl.HOLDS
    elif set(reno_seen) <= set(weaker):
        st = cl.NOT
    else:
        st = cl.PARTLY
    listing = ", ".join(f"{i} {p['reno']} / {p['sack']}" for i, p in rated.items())
    why = (f"verdict under Reno / under SACK on the same runs: {listing}; "
           + (f"weaker under SACK: {', '.join(weaker)}" if weaker else "none weaker under SACK")
           + (f"; stronger under SACK: {', '.join(stronger)}" if stronger else ""))
    return Verdict(st, nums, why)


def condition(res: Results, checks_by_name: Mapping[str, Callable], ids: Mapping[str, str],
              family: str, checks: tuple, drop_tail: str = "", sentence: bool = False
              ) -> Verdict:
    """The drop-tail claims' checks ``checks`` (names in ``checks_by_name``; ``ids``: check
    name -> claim id) on this family's runs, combined (all hold -> holds, all fail -> does not
    hold, else partly holds); each one's verdict and numbers kept. A family of ``_BESIDE``
    rates its condition's rows and gives the paper's set-up's verdict on its own rows beside;
    ``sentence``: the verdict of the paper's SACK sentence instead (``sack_sentence``)."""
    if sentence:
        return sack_sentence(res, checks_by_name, ids, family, checks)
    if family in _BESIDE:
        vs, paper = _beside(res, checks_by_name, family, checks)
    else:
        vs, paper = {c: cl.safe(checks_by_name[c], res) for c in checks}, {}
    nums = {c: {"status": v.status, "numbers": v.numbers, "reason": v.reason}
            for c, v in vs.items()}
    share = _telnet_share(res) if family == "Kt" else None
    whys = [f"{ids[c]}'s test under {CONDITIONS[family]}: {v.status} ({v.reason})"
            for c, v in vs.items()]
    for c, v in paper.items():
        nums[c]["paper_setup"] = {"status": v.status, "numbers": v.numbers, "reason": v.reason}
        whys.append(f"{ids[c]} with Reno on the same grid and seeds: {v.status} ({v.reason})")
    if share:
        nums["telnet_share_of_link"] = share
        whys.append("telnet carried (share of the link) " + ", ".join(
            f"{100 * v:.1f}% at {k}" for k, v in share.items()))
    whys.append(f"{'Reno' if family == 'Ks' else 'drop-tail'}, the paper's set-up: {drop_tail}")
    return Verdict(cl.combine_statuses(v.status for v in vs.values()), nums, "; ".join(whys))


_Q_RED = ("Future work (sec. 5): \"Evaluating the effects of assigning higher priority to EF "
          "traffic on TCP throughput and fairness with RED routers is a topic for future "
          "research.\" With RED at the bottleneck: ")
_Q_TELNET = ("Sec. 5, the phase-effect remedy the paper cites from Floyd & Jacobson: \"ensuring "
             "that 15% or more of the link bandwidth is occupied by telnet traffic with "
             "characteristically different packet sizes than ftp traffic\". With a 15% telnet "
             "share of the link: ")
_Q_SACK = ("Sec. 5: \"We have repeated our experiments with TCP-SACK; our results indicate that "
           "the observations presented in this paper hold even under TCP-SACK.\" With SACK "
           "senders (ns-2.35's Sack1): ")
_C1 = ("does Conclusion 1 hold, the throughput of an isolated TCP flow severely affected by "
       "bursty EF, the loss first increasing then decreasing with the burst size (Fig. 2)?")
_C3 = ("does Conclusion 3 hold, the aggregate throughput of many (N = 64) TCP flows roughly "
       "unaffected by EF (Fig. 4a)?")
_C4 = ("does Conclusion 4 hold, EF significantly improving the fairness of TCP flows, the more "
       "so the smaller its bursts (Figs. 5a and 6: min-max ratio M with and without EF)?")
_C2 = ("does Conclusion 2 hold, the larger the round-trip propagation latency the smaller the "
       "degradation in TCP throughput (Fig. 3, RTP 6-12 ms)?")
_SACK_TEST = (" Family Ks: the checks rate the SACK rows of its sweeps; Reno's verdict on the Reno "
              "rows (same grid and seeds) is given beside.")
_COND_TEST = ("The drop-tail claims' own checks and thresholds on this family's sweeps, "
              "combined: holds if every one holds, does not hold if every one fails, partly "
              "holds otherwise. ")


def condition_claims(rule: Callable) -> tuple:
    """Claims Kr.1-3, Kt.1-3 and Ks.1-9 as rows of claims.py's ``_CLAIMS``, each rated by
    ``rule`` (claims.py's wrapper of ``condition`` with the drop-tail Reno claims' checks)."""
    out = []
    for fam, q, sweeps in (("Kr", _Q_RED, ("kr_k2", "kr_k5")),
                           ("Kt", _Q_TELNET, ("kt_k2", "kt_k5"))):
        out += [
            (f"{fam}.1", "Sec. 5 / Fig. 2", fam, f"check_{fam.lower()}_single_flow", rule,
             dict(family=fam, checks=("check_k2_rise_fall", "check_k2_peak"),
                  drop_tail="claims K2.1, K2.2 and Conclusion 1"),
             q + _C1, _COND_TEST + f"Checks: K2.1 and K2.2 (sweep {sweeps[0]}.toml)."),
            (f"{fam}.2", "Sec. 5 / Fig. 4a", fam, f"check_{fam.lower()}_aggregate", rule,
             dict(family=fam, checks=("check_k4_aggregate",),
                  drop_tail="claim K4.1 and Conclusion 3"),
             q + _C3, _COND_TEST + f"Check: K4.1 at N = 64 (sweep {sweeps[1]}.toml)."),
            (f"{fam}.3", "Sec. 5 / Figs. 5-6", fam, f"check_{fam.lower()}_fairness", rule,
             dict(family=fam, checks=("check_k5_ef_raises", "check_k5_smaller_t_on",
                                      "check_k6_spread", "check_k6_near_fair"),
                  drop_tail="claims K5.3, K5.4, K6.1, K6.2 and Conclusion 4"),
             q + _C4, _COND_TEST + "Checks: K5.3, K5.4, K6.1 and K6.2 at N = 64, equal RTPs, "
             f"flow-index order (sweep {sweeps[1]}.toml)."),
        ]
    return tuple(out) + tuple(_ks_claims(rule))


#: family Ks: id, figure, check name, the drop-tail Reno claims' checks, what they are, the
#: question after the sentence, and which claims and sweeps the checks read
_KS = (
    ("Ks.1", "Fig. 2", "check_ks_single_flow", ("check_k2_rise_fall", "check_k2_peak"),
     "claims K2.1, K2.2 and Conclusion 1", _C1,
     "Checks: K2.1 and K2.2 (sweep ks_k3.toml, its RTP 8 ms rows)."),
    ("Ks.2", "Fig. 4a", "check_ks_aggregate", ("check_k4_aggregate",),
     "claim K4.1 and Conclusion 3",
     "does Conclusion 3 hold, the aggregate throughput of many (N >= 20 of 8-128) TCP flows "
     "roughly unaffected by EF (Fig. 4a)?",
     "Check: K4.1 over N = 8..128, unequal RTPs, T_on on 7 points (sweep ks_k4.toml)."),
    ("Ks.3", "Figs. 5-6", "check_ks_fairness",
     ("check_k5_ef_raises", "check_k5_smaller_t_on", "check_k6_spread", "check_k6_near_fair"),
     "claims K5.3, K5.4, K6.1, K6.2 and Conclusion 4",
     "does Conclusion 4 hold, EF significantly improving the fairness of TCP flows, the more so "
     "the smaller its bursts (Figs. 5 and 6: min-max ratio M with and without EF, equal and "
     "unequal RTPs)?",
     "Checks: K5.3 and K5.4 at N = 64, equal and unequal RTPs, flow-index order, T_on on 7 "
     "points (sweeps ks_k5.toml, ks_k5_unequal.toml); K6.1 and K6.2 at N = 64, T_on = 1 ms, "
     "equal and unequal RTPs (sweeps ks_k7_equal.toml, ks_k7_unequal.toml)."),
    ("Ks.4", "Fig. 3", "check_ks_rtp", ("check_k3_rtp",), "claim K3.1 and Conclusion 2", _C2,
     "Check: K3.1 (sweep ks_k3.toml)."),
    ("Ks.6", "Figs. 2b, 4b", "check_ks_timeouts",
     ("check_k2_timeouts_shape", "check_k2_tau", "check_k4_timeouts"),
     "claims K2.3, K2.4 and K4.2",
     "do the timeout observations hold, one flow's timeouts shaped as its loss and most "
     "numerous at T_on = tau (Fig. 2b), the timeouts per flow growing with N (Fig. 4b)?",
     "Checks: K2.3 and K2.4 (sweep ks_k3.toml, its RTP 8 ms rows); K4.2 over N = 8..128 "
     "(sweep ks_k4.toml)."),
    ("Ks.7", "Fig. 5", "check_ks_unfair_without_ef",
     ("check_k5_small_equal", "check_k5_small_unequal"), "claims K5.1 and K5.2",
     "without EF, is the allocation quite unfair (small M) with equal RTPs (the throughputs "
     "differing 5-10x) and with unequal ones (up to 30x) (Fig. 5)?",
     "Checks: K5.1 at N = 64, equal RTPs (sweep ks_k7_equal.toml: its networks without EF do "
     "not depend on T_on); K5.2 at N = 64, unequal RTPs (sweep ks_k5_unequal.toml)."),
    ("Ks.8", "Fig. 7", "check_ks_fairness_vs_n",
     ("check_k7_equal_falls", "check_k7_equal_slower", "check_k7_unequal_marginal"),
     "claims K7.1, K7.2 and K7.3",
     "does the min-max ratio M fall with N for equal RTPs, more slowly with EF, and change "
     "marginally with N for unequal RTPs (Fig. 7)?",
     "Checks: K7.1, K7.2 (sweep ks_k7_equal.toml) and K7.3 (sweep ks_k7_unequal.toml), N = "
     "8..128, T_on = 1 ms, flow-index order."),
    ("Ks.9", "Figs. 8-9", "check_ks_udp",
     ("check_k8_udp", "check_k8_udp_ef", "check_k9_udp", "check_k9_udp_ef"),
     "claims K8.1, K8.2, K9.1 and K9.2",
     "do the observations of the TCP+UDP networks hold, the spread and near-fair share of the "
     "normalised throughputs as N grows, with and without EF, equal and unequal RTPs "
     "(Figs. 8-9)?",
     "Checks: K8.1, K8.2 (sweep ks_k7_equal.toml) and K9.1, K9.2 (sweep ks_k7_unequal.toml), "
     "N = 8..128, T_on = 1 ms, flow-index order."),
)
#: every claim Ks.5 compares, in the paper's order (the checks of Ks.1-4 and Ks.6-9)
KS_SENTENCE_CHECKS = (
    "check_k2_rise_fall", "check_k2_peak", "check_k2_timeouts_shape", "check_k2_tau",
    "check_k3_rtp", "check_k4_aggregate", "check_k4_timeouts", "check_k5_small_equal",
    "check_k5_small_unequal", "check_k5_ef_raises", "check_k5_smaller_t_on", "check_k6_spread",
    "check_k6_near_fair", "check_k7_equal_falls", "check_k7_equal_slower",
    "check_k7_unequal_marginal", "check_k8_udp", "check_k8_udp_ef", "check_k9_udp",
    "check_k9_udp_ef")
_SENTENCE_IDS = ("K2.1, K2.2, K2.3, K2.4, K3.1, K4.1, K4.2, K5.1, K5.2, K5.3, K5.4, K6.1, "
                 "K6.2, K7.1, K7.2, K7.3, K8.1, K8.2, K9.1 and K9.2")


def _ks_claims(rule: Callable):
    """Family Ks's rows of ``_CLAIMS``: Ks.1-4 and 6-9 from ``_KS``, Ks.5 (the sentence)."""
    for cid, fig, name, checks, drop_tail, question, reads in _KS:
        if cid == "Ks.6":
            yield _ks_sentence(rule)
        yield (cid, f"Sec. 5 / {fig}", "Ks", name, rule,
               dict(family="Ks", checks=checks, drop_tail=drop_tail), _Q_SACK + question,
               _COND_TEST + reads + _SACK_TEST)


def _ks_sentence(rule: Callable) -> tuple:
    return (
        "Ks.5", "Sec. 5", "Ks", "check_ks_sentence", rule,
        dict(family="Ks", checks=KS_SENTENCE_CHECKS, sentence=True),
        "Sec. 5: \"We have repeated our experiments with TCP-SACK; our results indicate that "
        "the observations presented in this paper hold even under TCP-SACK.\" Do the claims of "
        "Figs. 2-9 (Conclusions 1-4 and the timeouts, unfairness without EF, M vs N and the "
        "UDP networks) hold under SACK wherever they hold under Reno?",
        f"Claims {_SENTENCE_IDS}, each rated with its own check on the SACK rows and on the "
        "Reno rows of the same runs (sweeps ks_k3.toml, ks_k4.toml, ks_k5.toml, "
        "ks_k5_unequal.toml, ks_k7_equal.toml, ks_k7_unequal.toml; the checks of Ks.1-4 and "
        "Ks.6-9, each on its own sweeps). A claim is weaker under SACK when its verdict ranks "
        "lower (holds > partly holds > does not hold). Holds if no claim is weaker under SACK; "
        "does not hold if every claim that holds or partly holds under Reno is weaker under "
        "SACK; partly holds otherwise (claims not measured under either sender left out).")
