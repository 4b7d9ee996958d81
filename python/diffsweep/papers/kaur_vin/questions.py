"""Kaur & Vin's open questions (sec. 5; issue 44): the paper's claims rated again with RED at
the bottleneck (family Kr, their future work) and with a 15% telnet share of the link (family Kt,
the phase-effect remedy they cite from Floyd & Jacobson). Each condition claim runs the
drop-tail claims' own checks (papers/kaur_vin/claims.py) on its family's sweeps and combines
them; the claims are rows of claims.py's ``_CLAIMS`` (``condition_claims``)."""
from __future__ import annotations

from typing import Callable, Mapping

from diffsweep import claims as cl
from diffsweep.claims import Verdict
from diffsweep.results import Results

from . import tables as kv


#: the two conditions of sec. 5 (Floyd & Jacobson's remedies for phase effects): family ->
#: words; the same checks as the drop-tail claims, on the family's own sweeps
CONDITIONS = {"Kr": "RED at the bottleneck", "Kt": "a 15% telnet share of the link"}


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


def condition(res: Results, checks_by_name: Mapping[str, Callable], ids: Mapping[str, str],
              family: str, checks: tuple, drop_tail: str) -> Verdict:
    """The drop-tail claims' checks ``checks`` (names in ``checks_by_name``; ``ids``: check
    name -> claim id) on this family's runs, combined (all hold -> holds, all fail -> does not
    hold, else partly holds); each one's verdict and numbers kept."""
    vs = {c: cl.safe(checks_by_name[c], res) for c in checks}
    nums = {c: {"status": v.status, "numbers": v.numbers, "reason": v.reason}
            for c, v in vs.items()}
    share = _telnet_share(res) if family == "Kt" else None
    whys = [f"{ids[c]}'s test under {CONDITIONS[family]}: {v.status} ({v.reason})"
            for c, v in vs.items()]
    if share:
        nums["telnet_share_of_link"] = share
        whys.append("telnet carried (share of the link) " + ", ".join(
            f"{100 * v:.1f}% at {k}" for k, v in share.items()))
    whys.append(f"drop-tail, the paper's set-up: {drop_tail}")
    return Verdict(cl.combine_statuses(v.status for v in vs.values()), nums, "; ".join(whys))


_Q_RED = ("Future work (sec. 5): \"Evaluating the effects of assigning higher priority to EF "
          "traffic on TCP throughput and fairness with RED routers is a topic for future "
          "research.\" With RED at the bottleneck: ")
_Q_TELNET = ("Sec. 5, the phase-effect remedy the paper cites from Floyd & Jacobson: \"ensuring "
             "that 15% or more of the link bandwidth is occupied by telnet traffic with "
             "characteristically different packet sizes than ftp traffic\". With a 15% telnet "
             "share of the link: ")
_C1 = ("does Conclusion 1 hold, the throughput of an isolated TCP flow severely affected by "
       "bursty EF, the loss first increasing then decreasing with the burst size (Fig. 2)?")
_C3 = ("does Conclusion 3 hold, the aggregate throughput of many (N = 64) TCP flows roughly "
       "unaffected by EF (Fig. 4a)?")
_C4 = ("does Conclusion 4 hold, EF significantly improving the fairness of TCP flows, the more "
       "so the smaller its bursts (Figs. 5a and 6: min-max ratio M with and without EF)?")
_COND_TEST = ("The drop-tail claims' own checks and thresholds on this family's sweeps, "
              "combined: holds if every one holds, does not hold if every one fails, partly "
              "holds otherwise. ")


def condition_claims(rule: Callable) -> tuple:
    """Claims Kr.1-3 and Kt.1-3 as rows of claims.py's ``_CLAIMS``, each rated by ``rule``
    (claims.py's wrapper of ``condition`` with the drop-tail claims' checks)."""
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
    return tuple(out)
