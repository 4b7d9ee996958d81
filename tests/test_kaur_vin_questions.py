"""Kaur & Vin's open questions (issue 44): the builder's RED and telnet options, the tables
leaving the telnet flows out, the families Kr, Kt and Ks (claims, the SACK sentence's rule,
full-only selection) and shrunk end-to-end reproductions of them."""
from __future__ import annotations

import numpy as np
import pytest

from diffsweep import papers
from diffsweep.core.errors import ConfigError
from diffsweep.papers.kaur_vin import claims as kvc
from diffsweep.papers.kaur_vin import tables as kv
from diffsweep.papers.kaur_vin.scenario import _reseed, kaur_vin
from diffsweep.studies.reproduce import select

from reproduce_util import reproduce_shrunk

WIRE = 576  # 536 + 40 B


def test_red_on_the_best_effort_class_only_when_asked():
    plain = kaur_vin(n_flows=4)
    assert plain == kaur_vin(n_flows=4, aqm="droptail", telnet_fraction=0.0)
    assert plain.links[0].classes[1].aqm == "droptail"
    be = kaur_vin(n_flows=4, aqm="red").links[0].classes[1]
    # 200 KB buffer = 347.2 packets of 576 B: thresholds 1/4 and 3/4 of it, hard limit kept
    (red,) = be.red
    assert be.aqm == "red" and be.limit_bytes == 200_000 and be.red_gentle
    assert red.min_th == pytest.approx(200_000 / WIRE / 4)
    assert red.max_th == pytest.approx(3 * 200_000 / WIRE / 4)
    assert red.max_p == 0.1 and be.red_mean_pkt_bytes == WIRE
    own = kaur_vin(aqm="red", red_min_th=5, red_max_th=15, red_max_p=0.02).links[0].classes[1]
    assert own.red[0] == type(red)(5.0, 15.0, 0.02)


def test_telnet_share_flows_rate_and_params():
    sc = kaur_vin(n_flows=4, telnet_fraction=0.15, telnet_flows=16)
    assert sc.n_flows == 20
    tel, tcp = sc.flows[:16], sc.flows[16:]
    # 16 flows of 240 B on the wire share 15% of 40 Mb/s: 375 kb/s each, a gap of 5.12 ms
    assert {f.segment_bytes for f in tel} == {200}
    assert all(f.telnet_interval_s == pytest.approx(240 * 8 / 375e3) for f in tel)
    assert all(f.telnet_interval_s is None and f.segment_bytes == 536 for f in tcp)
    assert sc.params["telnet_flows"] == 16 and sc.params["telnet_rate_bps"] == 6e6
    assert sc.params["available_bps"] == pytest.approx(40e6 - 12e6 - 6e6)
    # without a share, no telnet params (the paper's runs keep their columns)
    assert "telnet_flows" not in kaur_vin(n_flows=4).params


def test_telnet_flows_take_the_mean_rtp_and_keep_the_tcp_draw():
    iv = (12, 26, 8)
    base = kaur_vin(n_flows=8, rtp_ms=None, rtp_intervals=iv, seed=3)
    sc = kaur_vin(n_flows=8, rtp_ms=None, rtp_intervals=iv, telnet_fraction=0.15,
                  telnet_flows=2, seed=3)
    rev = np.array([f.reverse_delay_ms for f in sc.flows])
    base_rev = np.array([f.reverse_delay_ms for f in base.flows])
    np.testing.assert_allclose(rev[2:], base_rev)
    np.testing.assert_allclose(rev[:2], base_rev.mean())
    # another seed through the builder's reseed: the same as building it anew
    again = _reseed(sc, 5, rtp_intervals=iv)
    fresh = kaur_vin(n_flows=8, rtp_ms=None, rtp_intervals=iv, telnet_fraction=0.15,
                     telnet_flows=2, seed=5)
    np.testing.assert_allclose([f.reverse_delay_ms for f in again.flows],
                               [f.reverse_delay_ms for f in fresh.flows])


@pytest.mark.parametrize("kw, field", [
    (dict(aqm="rde"), "aqm"), (dict(telnet_fraction=1.5), "telnet_fraction"),
    (dict(telnet_fraction=0.15, telnet_flows=0), "telnet_flows"),
    (dict(aqm="red", red_min_th=20, red_max_th=10), "red_max_th"),
    (dict(telnet_fraction=0.15, telnet_segment_bytes=0), "telnet_segment_bytes"),
    (dict(aqm="red", buffer_bytes="x"), "buffer_bytes"),
    (dict(aqm="red", segment_bytes=536.5), "segment_bytes"),
])
def test_bad_options_name_the_builder_parameter(kw, field):
    with pytest.raises(ConfigError, match=rf"^{field}: "):
        kaur_vin(n_flows=2, **kw)


class _Res:
    def __init__(self, replicas, flows):
        self.replicas, self.flows = replicas, flows


def test_tables_leave_the_telnet_flows_out():
    import pandas as pd

    rep = pd.DataFrame({"point": [0, 1], "seed": [0, 0], "ef": ["none", "none"],
                        "udp": [False, False], "ef_rate_bps": [0.0, 0.0],
                        "udp_rate_bps": [0.0, 0.0], "available_bps": [34e6, 40e6],
                        "telnet_flows": [2, np.nan], "telnet_rate_bps": [6e6, np.nan]})
    # point 0: 2 telnet flows (0, 1) then 3 TCP flows; point 1: 3 TCP flows, no telnet
    fl = pd.DataFrame({"point": [0] * 5 + [1] * 3, "seed": 0, "flow": [0, 1, 2, 3, 4, 0, 1, 2],
                       "goodput_bps": [1e6, 1e6, 10e6, 10e6, 5e6, 10e6, 10e6, 5e6],
                       "segment_bytes": 536, "header_bytes": 40, "rtp_ms": 8.0})
    rep_out, fl_out = kv.prepare(_Res(rep, fl))
    assert list(rep_out["N"]) == [3.0, 3.0]
    assert sorted(fl_out.loc[fl_out["point"] == 0, "flow"]) == [2, 3, 4]
    fair = kv.fairness_per_seed(_Res(rep, fl))
    # M = min/max of the TCP flows only: 5/10 at both points (the telnet 1 Mb/s left out)
    np.testing.assert_allclose(fair.sort_values("point")["min_max_ratio"], [0.5, 0.5])


def test_condition_claims_state_the_sentence_and_reuse_the_checks():
    claims = {c.id: c for c in kvc.kaur_vin_claims()}
    for fam, word in (("Kr", "RED routers"), ("Kt", "telnet traffic")):
        for i in (1, 2, 3):
            c = claims[f"{fam}.{i}"]
            assert c.family == fam and word in c.text and "sec. 5" in c.text.lower()
            assert c.thresholds
        assert "Conclusion 4" in claims[f"{fam}.3"].text
    # a family not run: not measured, not rated from another family's data
    v = claims["Kr.3"].evaluate({"K5": object()})
    assert v.status == "not measured"


def test_full_only_families_stay_out_of_quick_unless_named():
    fams = papers.get("kaur-vin").families
    full = [f.id for f in select(fams, None)]
    quick = [f.id for f in select(fams, None, quick=True)]
    assert {"Kr", "Kt", "Ks"} <= set(full)
    assert not {"Kr", "Kt", "Ks"} & set(quick) and len(quick) == len(full) - 3
    assert [f.id for f in select(fams, ["r", "t", "s"], quick=True)] == ["Kr", "Kt", "Ks"]


def test_k10_does_not_pool_the_condition_families():
    sentinel = object()
    res, key = kvc.results_for("K10", {"Kr": sentinel, "Kt": sentinel, "Ks": sentinel})
    assert res is None and key is None


def test_quick_reproduction_of_kr_and_kt(tmp_path, monkeypatch):
    """Both families end to end on shrunk sweeps (3 seeds, 4 s): every claim gets a verdict,
    the report has its section, and no other family ran."""
    shrink = [(r"seeds = \d+", "seeds = 3"), (r"duration_s = [\d.]+", "duration_s = 4.0"),
              (r"warmup_s = [\d.]+", "warmup_s = 1.0")]
    out, status = reproduce_shrunk(tmp_path, monkeypatch, "kaur-vin", "kaur_vin",
                                   ("kr_k2", "kr_k5", "kt_k2", "kt_k5"), "r", subs=shrink)
    assert all(status[f"Kr.{i}"] != "not measured" for i in (1, 2, 3))
    assert all(status[f"Kt.{i}"] == "not measured" for i in (1, 2, 3))
    assert status["K5.3"] == "not measured"
    md = (out / "report.md").read_text()
    assert "### Kr:" in md and "RED routers" in md and (out / "kr_k5").is_dir()
    assert not (out / "kt_k5").exists()


def test_quick_says_how_to_run_a_full_only_family(tmp_path, monkeypatch):
    """A quick reproduction of another family: Kr's claims not rated, and the reason says how
    to run it in --quick."""
    shrink = [(r"seeds = \d+", "seeds = 2"), (r"duration_s = [\d.]+", "duration_s = 3.0"),
              (r"warmup_s = [\d.]+", "warmup_s = 1.0")]
    out, status = reproduce_shrunk(tmp_path, monkeypatch, "kaur-vin", "kaur_vin", ("k2",), "2",
                                   subs=shrink)
    import json
    v = json.loads((out / "verdicts.json").read_text())["Kr.1"]
    assert v["status"] == "not measured"
    assert "--quick runs it only when --figure names it: --figure r)" in v["reason"]


# ------------------------------------------------------------------ Ks: Kaur & Vin under SACK
def _by_sender(**statuses):
    """Hand-made runs of both senders: per check name, its (Reno, SACK) verdict as a column of
    the replicas table, and checks that read it back from the rows they are given."""
    import pandas as pd
    from diffsweep.analysis.claims import Verdict
    from diffsweep.core.results import Results

    rep = pd.DataFrame({"point": [0, 1], "seed": [0, 0], "tcp": ["reno", "sack"],
                        **{c: list(v) for c, v in statuses.items()}})
    empty = pd.DataFrame({"point": [], "seed": []})
    res = Results(rep, empty, empty, empty, empty)

    def reads(c):
        def check(r):
            (st,) = r.replicas[c]          # one sender's rows only, never both
            return Verdict(st, {}, f"{c} read {st}")
        return check
    return res, {c: reads(c) for c in statuses}, {c: c.upper() for c in statuses}


H, P, N, NM = "holds", "partly holds", "does not hold", "not measured"


@pytest.mark.parametrize("pairs, status, weaker", [
    # every claim as strong under SACK (one stronger, one failing under both): holds
    (dict(a=(H, H), b=(P, H), c=(N, N)), H, []),
    # one weaker, one kept: partly
    (dict(a=(H, P), b=(P, P)), P, ["A"]),
    # every claim Reno rates (partly) holds is weaker under SACK: does not hold
    (dict(a=(H, N), b=(P, N), c=(N, N)), N, ["A", "B"]),
    # a claim not measured under one sender is left out
    (dict(a=(H, H), b=(H, NM)), H, []),
    (dict(a=(NM, H)), NM, []),
])
def test_sack_sentence_compares_each_claim_with_reno(pairs, status, weaker):
    from diffsweep.papers.kaur_vin import questions as q
    res, checks, ids = _by_sender(**pairs)
    v = q.condition(res, checks, ids, family="Ks", checks=tuple(pairs), sentence=True)
    assert v.status == status
    if status != NM:
        assert v.numbers["weaker_under_sack"] == weaker
        assert v.numbers["reno_vs_sack"]["A"] == dict(reno=pairs["a"][0], sack=pairs["a"][1])


def test_ks_claims_rate_sack_and_give_reno_beside():
    from diffsweep.papers.kaur_vin import questions as q
    res, checks, ids = _by_sender(a=(H, N), b=(H, H))
    v = q.condition(res, checks, ids, family="Ks", checks=("a", "b"), drop_tail="x")
    assert v.status == P       # SACK's: a fails, b holds
    assert v.numbers["a"]["status"] == N and v.numbers["a"]["paper_setup"]["status"] == H
    assert "A with Reno on the same grid and seeds: holds" in v.reason
    # runs without a sender axis: not measured, not Reno's rows rated as SACK's
    import pandas as pd
    from diffsweep.core.results import Results
    plain = Results(pd.DataFrame({"point": [0], "seed": [0], "a": [H]}), *[pd.DataFrame()] * 4)
    v = q.condition(plain, checks, ids, family="Ks", checks=("a",), drop_tail="x")
    assert v.status == NM and "tcp" in v.numbers["a"]["reason"]


def test_ks_claims_state_the_sack_sentence():
    claims = {c.id: c for c in kvc.kaur_vin_claims()}
    for i in range(1, 6):
        c = claims[f"Ks.{i}"]
        assert c.family == "Ks" and "TCP-SACK" in c.text and c.thresholds
    assert "Conclusion 2" in claims["Ks.4"].text
    assert "weaker under SACK" in claims["Ks.5"].thresholds


def test_ks_checks_read_only_their_sweeps():
    """Each check of family Ks reads the sweeps of its primary claim's grid among the family's
    combined runs (``part``), both senders; a sweep not run: not measured, naming it."""
    import pandas as pd
    from diffsweep.analysis.claims import Verdict
    from diffsweep.papers.kaur_vin import questions as q
    from diffsweep.core.results import Results

    parts = ["ks_k3", "ks_k4", "ks_k5", "ks_k7_equal"]
    rep = pd.DataFrame({"point": range(8), "seed": 0, "tcp": ["reno", "sack"] * 4,
                        "part": [p for p in parts for _ in (0, 1)]})
    empty = pd.DataFrame({"point": [], "seed": []})
    res = Results(rep, empty, empty, empty, empty)
    seen = {}

    def reads(name):
        def check(r):
            rp = r.replicas
            got = rp["part"] if "part" in rp.columns else ["whole"] * len(rp)
            seen.setdefault(name, set()).update(zip(got, rp["tcp"]))
            return Verdict(H, {}, "")
        return check
    names = ("check_k2_tau", "check_k4_timeouts", "check_k5_ef_raises", "check_k9_udp",
             "check_k5_small_unequal")
    checks, ids = {c: reads(c) for c in names}, {c: c for c in names}
    v = q.condition(res, checks, ids, family="Ks", checks=names, sentence=True)
    both = lambda *ps: {(p, t) for p in ps for t in ("reno", "sack")}   # noqa: E731
    assert seen == {"check_k2_tau": both("ks_k3"), "check_k4_timeouts": both("ks_k4"),
                    "check_k5_ef_raises": both("ks_k5"),     # ks_k5_unequal not run here
                    "check_k9_udp": both("ks_k7_equal")}
    pair = v.numbers["reno_vs_sack"]["check_k5_small_unequal"]
    assert pair == dict(reno=NM, sack=NM)
    v = q.condition(res, checks, ids, family="Ks", checks=("check_k5_small_unequal",),
                    drop_tail="x")
    assert v.status == NM and "no runs of sweep ks_k5_unequal" in v.reason
    # runs of one sweep (no part column) are read whole
    seen.clear()
    one = Results(rep[rep["part"] == "ks_k4"].drop(columns="part"), empty, empty, empty, empty)
    assert q.condition(one, checks, ids, family="Ks", checks=("check_k2_tau",),
                       drop_tail="x").status == H
    assert seen == {"check_k2_tau": both("whole")}


def test_ks_figure_draws_ks_k3_and_ks_k5_only(monkeypatch):
    """The Ks figure's panels (one flow at RTP 8 ms, N = 64) draw sweeps ks_k3 and ks_k5: the
    family's other sweeps also hold N = 64, in other RTP settings, orders and T_on grids."""
    import pandas as pd
    from diffsweep.papers.kaur_vin import figures as kf
    from diffsweep.core.results import Results

    parts = ["ks_k3", "ks_k4", "ks_k5", "ks_k7_equal"]
    rep = pd.DataFrame({"point": range(8), "seed": 0, "tcp": ["reno", "sack"] * 4,
                        "t_on_ms": 1.0, "part": [p for p in parts for _ in (0, 1)]})
    empty = pd.DataFrame({"point": [], "seed": []})
    seen = []

    class Drawn(Exception):
        pass

    def loss(res):
        seen.append(set(res.replicas["part"]))
        raise Drawn
    monkeypatch.setattr(kf, "loss_per_seed", loss)
    with pytest.raises(Drawn):
        kf.figks(Results(rep, empty, empty, empty, empty))
    assert seen == [{"ks_k3", "ks_k5"}]


def test_ks_rates_every_observation_of_figs_2_to_9():
    """Ks.5 compares every claim of families K2-K9, each once and in one of Ks.1-4, 6-9, and
    each Ks claim's test names its claims and the sweeps its checks read."""
    from diffsweep.papers.kaur_vin import questions as q
    rows = {r[0]: r for r in kvc._CLAIMS}
    paper = [i for i, r in rows.items() if r[2] in {f"K{n}" for n in range(2, 10)}]
    sentence = rows["Ks.5"][5]["checks"]
    ids = {r[3]: i for i, r in rows.items()}
    assert [ids[c] for c in sentence] == paper
    assert set(q.KS_READS) == set(sentence)
    claims = {c.id: c for c in kvc.kaur_vin_claims()}
    assert all(i in claims["Ks.5"].thresholds for i in paper)
    grouped = [c for n in (1, 2, 3, 4, 6, 7, 8, 9) for c in rows[f"Ks.{n}"][5]["checks"]]
    assert sorted(grouped) == sorted(sentence)
    fam = papers.get("kaur-vin").families
    ks_sweeps = next(f.sweeps for f in fam if f.id == "Ks")
    for n in (1, 2, 3, 4, 6, 7, 8, 9):
        c = claims[f"Ks.{n}"]
        for check in rows[c.id][5]["checks"]:
            assert ids[check] in c.thresholds
            assert all(f"{s}.toml" in c.thresholds and s in ks_sweeps
                       for s in q.KS_READS[check])
    assert all(f"{s}.toml" in claims["Ks.5"].thresholds for s in ks_sweeps)


def test_quick_runs_no_ks_sweep():
    """The quick reproduction (no --figure) runs none of family Ks's sweeps."""
    fams = papers.get("kaur-vin").families
    quick = {s for f in select(fams, None, quick=True) for s in f.sweeps}
    ks = next(f.sweeps for f in fams if f.id == "Ks")
    assert len(ks) == 6 and not quick & set(ks)
    assert not {s for s in quick if s.startswith("ks_")}


def test_quick_reproduction_of_ks(tmp_path, monkeypatch):
    """Family Ks end to end on shrunk sweeps (2 seeds, 4 s, 4 T_on points): every Ks claim gets
    a verdict from SACK rows, Reno's beside, and the report has its section."""
    shrink = [(r"seeds = \d+", "seeds = 2"), (r"duration_s = [\d.]+", "duration_s = 4.0"),
              (r"warmup_s = [\d.]+", "warmup_s = 1.0"),
              (r"t_on_ms = \{logspace = \[0.4, 400, 5\]\}", "t_on_ms = [1.0, 10.0, 100.0, 400.0]")]
    sweeps = ("ks_k3", "ks_k4", "ks_k5", "ks_k5_unequal", "ks_k7_equal", "ks_k7_unequal")
    out, status = reproduce_shrunk(tmp_path, monkeypatch, "kaur-vin", "kaur_vin", sweeps, "s",
                                   subs=shrink)
    assert all(status[f"Ks.{i}"] != "not measured" for i in range(1, 10))
    assert status["K2.1"] == "not measured" and status["Kr.1"] == "not measured"
    import json
    v = json.loads((out / "verdicts.json").read_text())
    pairs = v["Ks.5"]["numbers"]["reno_vs_sack"]
    assert list(pairs) == ["K2.1", "K2.2", "K2.3", "K2.4", "K3.1", "K4.1", "K4.2", "K5.1",
                           "K5.2", "K5.3", "K5.4", "K6.1", "K6.2", "K7.1", "K7.2", "K7.3",
                           "K8.1", "K8.2", "K9.1", "K9.2"]
    assert all(NM not in p.values() for p in pairs.values())
    md = (out / "report.md").read_text()
    assert "### Ks:" in md and "TCP-SACK" in md
