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

from diffsweep import claims as cl
from diffsweep.claims import Verdict
from diffsweep.results import Results

from . import tables as kv


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


def _beside(res: Results, checks_by_name: Mapping[str, Callable], family: str,
            checks: tuple) -> tuple[dict, dict]:
    """The checks' verdicts on the condition's rows and on the paper's set-up's rows of a
    ``_BESIDE`` family's runs (not measured where the runs have no such rows)."""
    out = []
    for values in _BESIDE[family]:
        try:
            part = res.where(**values)
        except ValueError as e:     # no tcp column, or no rows of that sender
            out.append({c: Verdict(cl.NM, {}, f"no rows of {values}: {e}") for c in checks})
            continue
        out.append({c: cl.safe(checks_by_name[c], part) for c in checks})
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
    """Claims Kr.1-3, Kt.1-3 and Ks.1-5 as rows of claims.py's ``_CLAIMS``, each rated by
    ``rule`` (claims.py's wrapper of ``condition`` with the drop-tail Reno claims' checks)."""
    out = []
    for fam, q, sweeps in (("Kr", _Q_RED, ("kr_k2", "kr_k5")),
                           ("Kt", _Q_TELNET, ("kt_k2", "kt_k5")),
                           ("Ks", _Q_SACK, ("ks_k3", "ks_k5"))):
        extra = _SACK_TEST if fam == "Ks" else ""
        out += [
            (f"{fam}.1", "Sec. 5 / Fig. 2", fam, f"check_{fam.lower()}_single_flow", rule,
             dict(family=fam, checks=("check_k2_rise_fall", "check_k2_peak"),
                  drop_tail="claims K2.1, K2.2 and Conclusion 1"),
             q + _C1, _COND_TEST + f"Checks: K2.1 and K2.2 (sweep {sweeps[0]}.toml)." + extra),
            (f"{fam}.2", "Sec. 5 / Fig. 4a", fam, f"check_{fam.lower()}_aggregate", rule,
             dict(family=fam, checks=("check_k4_aggregate",),
                  drop_tail="claim K4.1 and Conclusion 3"),
             q + _C3, _COND_TEST + f"Check: K4.1 at N = 64 (sweep {sweeps[1]}.toml)." + extra),
            (f"{fam}.3", "Sec. 5 / Figs. 5-6", fam, f"check_{fam.lower()}_fairness", rule,
             dict(family=fam, checks=("check_k5_ef_raises", "check_k5_smaller_t_on",
                                      "check_k6_spread", "check_k6_near_fair"),
                  drop_tail="claims K5.3, K5.4, K6.1, K6.2 and Conclusion 4"),
             q + _C4, _COND_TEST + "Checks: K5.3, K5.4, K6.1 and K6.2 at N = 64, equal RTPs, "
             f"flow-index order (sweep {sweeps[1]}.toml)." + extra),
        ]
    sack_checks = ("check_k2_rise_fall", "check_k2_peak", "check_k3_rtp", "check_k4_aggregate",
                   "check_k5_ef_raises", "check_k5_smaller_t_on", "check_k6_spread",
                   "check_k6_near_fair")
    out += [
        ("Ks.4", "Sec. 5 / Fig. 3", "Ks", "check_ks_rtp", rule,
         dict(family="Ks", checks=("check_k3_rtp",), drop_tail="claim K3.1 and Conclusion 2"),
         _Q_SACK + _C2, _COND_TEST + "Check: K3.1 (sweep ks_k3.toml)." + _SACK_TEST),
        ("Ks.5", "Sec. 5", "Ks", "check_ks_sentence", rule,
         dict(family="Ks", checks=sack_checks, sentence=True),
         "Sec. 5: \"We have repeated our experiments with TCP-SACK; our results indicate that "
         "the observations presented in this paper hold even under TCP-SACK.\" Do the claims of "
         "Figs. 2a, 3, 4a, 5a and 6 (Conclusions 1-4) hold under SACK wherever they hold under "
         "Reno?",
         "Claims K2.1, K2.2, K3.1, K4.1 (N = 64), K5.3, K5.4, K6.1 and K6.2, each rated with its "
         "own check on the SACK rows and on the Reno rows of the same runs (sweeps ks_k3.toml, "
         "ks_k5.toml). A claim is weaker under SACK when its verdict ranks lower (holds > "
         "partly holds > does not hold). Holds if no claim is weaker under SACK; does not hold "
         "if every claim that holds or partly holds under Reno is weaker under SACK; partly "
         "holds otherwise (claims not measured under either sender left out)."),
    ]
    return tuple(out)
