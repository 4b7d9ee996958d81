"""Rossi, Casetti & Mellia (web traffic over DiffServ): the builder's values and errors, a short
run where AF transfers finish faster than BE ones and nothing is refused, the tables'
computations on a hand-made transfers frame, and ``diffsweep reproduce rossi`` of one family
through the CLI on a shrunk sweep."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from diffsweep import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.papers.rossi import tables as rt
from diffsweep.papers.rossi.scenario import SIZE_SET_PKTS, mean_interarrival_s, rossi
from diffsweep.core.results import Results
from reproduce_util import reproduce_shrunk

ROOT = Path(__file__).resolve().parents[1]


def test_builder_values():
    sc = rossi(rho=0.5, alpha_af=0.5)
    assert sc.duration_s == 900.0 and sc.warmup_s == 0.0 and sc.flows == ()
    af, be = sc.traffic
    assert (af.name, be.name) == ("af", "be")
    # tau_i = 13.6 KB x 8 / (alpha_i rho B): 43.52 ms per cloud at rho 0.5, alpha 0.5
    assert af.mean_interarrival_s == pytest.approx(13_600 * 8 / (0.5 * 0.5 * 10e6))
    assert af.mean_interarrival_s == pytest.approx(0.04352)
    assert sum(SIZE_SET_PKTS) / len(SIZE_SET_PKTS) == pytest.approx(13.6)
    for t in sc.traffic:
        assert t.kind == "poisson" and t.size_dist == "set" and t.size_set_pkts == SIZE_SET_PKTS
        assert t.t_stop_s == 600.0 and t.pool >= 512
        f = t.flow
        assert f.variant == "reno" and f.wire_bytes == 1000 and f.max_window_pkts == 20
        assert (f.access_delay_ms, f.egress_delay_ms, f.reverse_delay_ms) == (1.0, 1.0, 12.0)
        assert f.access_rate_bps == 100e6 and f.init_window_pkts == 2
        # ns-2's defaults since June 2001, as the ns-2.35 reference's main runs
        assert f.syn and f.delay_growth and f.limited_transmit and f.reno_bugfix
    assert af.flow.colour is None and be.flow.colour == "red"
    link = sc.links[0]
    (q,) = link.classes
    assert link.rate_bps == 10e6 and link.prop_delay_ms == 10.0
    assert q.limit_pkts == 50 and q.aqm == "rio-c" and q.red_mean_pkt_bytes == 1000
    assert q.red_w_q == 0.002 and not q.red_gentle
    assert [(t.min_th, t.max_th, t.max_p) for t in q.red] == [(20, 40, 0.02), (5, 10, 0.2)]
    (mk,) = sc.markers
    assert mk.kind == "tsw2cm" and mk.cir_bps == 5e6 and mk.window_s == 1.0
    assert mk.traffic == (0,) and mk.flows == ()
    assert sc.params == {"rho": 0.5, "alpha_af": 0.5, "ftp_per_cloud": 0}

    sk = rossi(rho=0.85, alpha_af=0.8, ftp_per_cloud=3, seed=2)
    af, be = sk.traffic
    assert af.mean_interarrival_s == pytest.approx(mean_interarrival_s(0.85, 0.8))
    assert be.mean_interarrival_s == pytest.approx(13_600 * 8 / (0.2 * 0.85 * 10e6))
    assert len(sk.flows) == 6 and all(f.size_pkts is None for f in sk.flows)
    assert [f.colour for f in sk.flows] == [None] * 3 + ["red"] * 3
    assert all(0 <= f.start_s < 1 for f in sk.flows)
    assert sk.markers[0].flows == (0, 1, 2) and sk.markers[0].traffic == (0,)
    # a cloud with alpha 0 has no generator
    only_be = rossi(alpha_af=0.0)
    assert [t.name for t in only_be.traffic] == ["be"] and only_be.markers == ()
    only_af = rossi(alpha_af=1.0)
    assert [t.name for t in only_af.traffic] == ["af"] and only_af.markers[0].traffic == (0,)
    # the connection that sends data at once (ns-2's syn_ 0, delay_growth_ 0), FTP flows too
    plain_tcp = rossi(ftp_per_cloud=1, syn=False, delay_growth=False)
    assert not any(f.syn or f.delay_growth
                   for f in [t.flow for t in plain_tcp.traffic] + list(plain_tcp.flows))


@pytest.mark.parametrize("kw, name", [
    ({"rho": 0.0}, "rho"), ({"rho": -0.5}, "rho"), ({"rho": 10.0}, "rho"),
    ({"alpha_af": -0.1}, "alpha_af"), ({"alpha_af": 1.5}, "alpha_af"),
    ({"t_stop_s": 600.0, "t_halt_s": 500.0}, "t_halt_s"), ({"pool": 0}, "pool"),
    ({"ftp_per_cloud": -1}, "ftp_per_cloud"), ({"buffer_pkts": 0}, "buffer_pkts"),
    ({"max_window_pkts": 0}, "max_window_pkts"), ({"syn": "yes"}, "syn"),
    ({"delay_growth": 2}, "delay_growth"), ({"size_set_pkts": [1, 0]},
                                                   r"size_set_pkts\[1\]"),
])
def test_bad_parameters_name_the_parameter(kw, name):
    with pytest.raises(ConfigError, match=rf"^{name}: "):
        rossi(**kw)


def test_af_faster_than_be_short_run():
    res = simulate([rossi(rho=0.8, t_stop_s=40.0, t_halt_s=80.0)], seeds=[1], backend="cpu")
    assert res.traffic["refused"].sum() == 0 and res.traffic["records_lost"].sum() == 0
    tr = res.transfers
    assert set(tr["traffic"]) == {"af", "be"} and len(tr) > 1000
    ct = tr.groupby("traffic")["completion_s"].mean()
    assert ct["af"] < ct["be"], ct
    # every BE packet is red; a record's sender counts are taken at its last ACK and its
    # queue counts when the receiver completes it, so a packet sent in between (a spurious
    # retransmission) or still on its way at the end is in one count only
    red, sent = (tr.loc[tr.traffic == "be", c].sum() for c in ("pkts_red", "pkts_sent"))
    assert red <= sent and red >= 0.999 * sent


def _hand_results() -> Results:
    nan = float("nan")
    rows = []
    # seed 0: AF pi=1 two transfers, pi=10 one; BE pi=1 one, pi=90 one (unfinished)
    for seed, traffic, size, ct, sent, drops, early, red in [
        (0, "af", 1, 0.02, 1, 0, 0, 0), (0, "af", 1, 0.04, 2, 1, 1, 1),
        (0, "af", 10, 0.10, 12, 2, 0, 3), (0, "be", 1, 3.0, 4, 3, 1, 4),
        (0, "be", 90, nan, 100, 20, 15, 100), (0, "af", 3, 0.5, 3, 0, 0, 0),
        (1, "af", 1, 0.03, 1, 0, 0, 0), (1, "be", 90, 9.0, 110, 10, 6, 110),
    ]:
        rows.append({"point": 0, "seed": seed, "rho": 0.5, "alpha_af": 0.5, "ftp_per_cloud": 0,
                     "traffic": traffic, "size_pkts": size, "completion_s": ct,
                     "pkts_sent": sent, "drops": drops, "early_drops": early, "pkts_red": red})
    tr = pd.DataFrame(rows)
    traffic = pd.DataFrame({"point": [0] * 4, "seed": [0, 0, 1, 1],
                            "traffic": ["af", "be", "af", "be"], "started": [4, 2, 1, 1],
                            "unfinished": [0, 1, 0, 0], "refused": [0, 0, 0, 0]})
    empty = pd.DataFrame()
    return Results(replicas=empty, flows=empty, queues=empty, sources=empty, intervals=empty,
                   transfers=tr, traffic=traffic, meta={})


def test_tables_by_hand():
    pc = rt.per_class(_hand_results()).set_index(["seed", "cloud", "pi"])
    r = pc.loc[(0, "AF", 1)]
    assert (r.transfers, r.completed) == (2, 2)
    assert r.completion_s == pytest.approx(0.03)
    assert r.drop_pct == pytest.approx(100 * 1 / 3)
    assert r.early_frac == pytest.approx(1.0) and r.red_pct == pytest.approx(100 / 3)
    r = pc.loc[(0, "AF", 10)]
    assert r.drop_pct == pytest.approx(100 * 2 / 12) and r.early_frac == 0.0
    r = pc.loc[(0, "BE", 90)]
    assert (r.transfers, r.completed) == (1, 0) and np.isnan(r.completion_s)
    assert r.drop_pct == pytest.approx(20.0) and r.early_frac == pytest.approx(0.75)
    r = pc.loc[(1, "AF", 1)]
    assert r.drop_pct == 0.0 and np.isnan(r.early_frac)          # no drop: undefined
    assert (0, "AF", 3) not in pc.index                           # only pi = 1, 10, 90
    assert pc["rho"].eq(0.5).all()
    cl = rt.per_cloud(_hand_results()).set_index(["seed", "cloud"])
    r = cl.loc[(0, "AF")]
    assert r.transfers == 4 and r.completion_s == pytest.approx((0.02 + 0.04 + 0.10 + 0.5) / 4)
    assert r.drop_pct == pytest.approx(100 * 3 / 18) and r.red_pct == pytest.approx(100 * 4 / 18)
    assert cl.loc[(0, "BE")].unfinished == 1 and cl.loc[(0, "BE")].completion_s == 3.0


def test_reproduce_one_family_through_cli(tmp_path, monkeypatch):
    out, status = reproduce_shrunk(tmp_path, monkeypatch, "rossi", "rossi", ["r2", "r5", "r8"], "2",
                                   [(r"t_stop_s = [\d.]+", "t_stop_s = 20.0"),
                                    (r"t_halt_s = [\d.]+", "t_halt_s = 40.0")])
    assert (out / "figures" / "rossi_fig2.png").stat().st_size > 1000
    assert status["R2.1"] != "not measured"
    assert status["R8.1"] == "not measured"                  # the family was not run
    md = (out / "report.md").read_text()
    assert "R2.1" in md and "each transfer first sends a 40-B SYN" in md
