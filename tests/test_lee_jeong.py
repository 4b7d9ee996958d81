"""Lee & Jeong (Balancing Marker): the builder's values and errors, a short run where BMarker
is fairer than the Marker, the tables' Jain index, the paper-consistency computation, and
``diffsweep reproduce lee-jeong`` of one family through the CLI on a shrunk sweep."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from diffsweep import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.papers.lee_jeong import claims as ljc
from diffsweep.papers.lee_jeong import tables as lt
from diffsweep.papers.lee_jeong.scenario import lee_jeong
from diffsweep.core.results import Results
from reproduce_util import reproduce_shrunk

ROOT = Path(__file__).resolve().parents[1]


def test_builder_values():
    sc = lee_jeong(seed=3)
    assert len(sc.flows) == 17 and sc.sources == ()
    agg, be = sc.flows[:7], sc.flows[7:]
    assert [f.access_delay_ms for f in agg] == [101.0, 81.0, 61.0, 41.0, 21.0, 11.0, 3.0]
    assert [f.reverse_delay_ms for f in agg] == [103.0, 83.0, 63.0, 43.0, 23.0, 13.0, 5.0]
    assert all(f.egress_delay_ms == 1.0 and f.access_rate_bps == 10e6 for f in sc.flows)
    assert all(f.wire_bytes == 1000 and f.max_window_pkts == 110 for f in sc.flows)
    assert all(f.colour is None for f in agg) and all(f.colour == "red" for f in be)
    assert all(f.access_delay_ms == 3.0 for f in be)
    starts = [f.start_s for f in sc.flows]
    assert all(0 <= s < 1 for s in starts) and len(set(starts)) == 17
    assert starts == [f.start_s for f in lee_jeong(seed=3).flows]          # deterministic
    # rtt_spread (the atlas's axis) stretches the access delays about the shortest (2 ms)
    assert lee_jeong(seed=3, rtt_spread=1.0) == sc
    half = lee_jeong(seed=3, rtt_spread=0.5).flows[:7]
    assert [f.access_delay_ms for f in half] == [52.0, 42.0, 32.0, 22.0, 12.0, 7.0, 3.0]
    assert all(f.access_delay_ms == 3.0 for f in lee_jeong(rtt_spread=0.0).flows)
    assert starts != [f.start_s for f in lee_jeong(seed=4).flows]          # per seed
    link = sc.links[0]
    q = link.classes[0]
    assert link.rate_bps == 10e6 and link.prop_delay_ms == 1.0
    assert q.limit_pkts == 100 and q.aqm == "rio-c" and q.red_mean_pkt_bytes == 1000
    assert [(t.min_th, t.max_th, t.max_p) for t in q.red] == [(40, 60, 0.02), (30, 50, 0.04),
                                                                (20, 40, 0.1)]
    (mk,) = sc.markers
    assert mk.kind == "token_bucket" and mk.cir_bps == 7e6 and mk.cbs_bytes == 70_000
    assert mk.flows == tuple(range(7))
    assert sc.params["bab_mbps"] == pytest.approx(1.0)
    assert sc.params["atb_mbps"] == pytest.approx(1 + 3 / 17)

    bm = lee_jeong(cir_mbps=3.5, bucket_pkts=35, method="bmarker", udp=True)
    (mk,) = bm.markers
    assert mk.kind == "balancing" and mk.cir_bps == 3.5e6 and mk.cbs_bytes == 35_000
    assert mk.b1_bytes == 5000 and (mk.w_lo, mk.w_hi, mk.p_max) == (1.0, 2.0, 1.0)
    assert lee_jeong(method="bmarker").markers[0].b1_bytes == 10_000
    assert len(bm.sources) == 2
    for s in bm.sources:
        assert (s.peak_bps, s.pkt_bytes, s.t_on_ms, s.t_off_ms) == (10e6, 1000, 20.0, 20.0)
        assert s.onoff == "fixed" and s.colour == "red"
    assert bm.params["method"] == "bmarker" and bm.params["udp"] is True


def test_builder_tcp_variant():
    """``tcp`` (issue 44's SACK side by side, benchmarks/ns2/lee_jeong/run_sack.sh): every TCP
    connection, aggregated and best effort, takes the variant; the default stays Reno, and
    nothing else of the scenario changes."""
    reno, sack = lee_jeong(seed=2), lee_jeong(seed=2, tcp="sack")
    assert {f.variant for f in reno.flows} == {"reno"}
    assert [f.variant for f in sack.flows] == ["sack"] * 17
    assert lee_jeong(seed=2, tcp="reno") == reno
    assert sack.flows[0] != reno.flows[0]
    assert [replace(f, variant="reno") for f in sack.flows] == list(reno.flows)
    assert (sack.links, sack.markers, sack.params) == (reno.links, reno.markers, reno.params)


@pytest.mark.parametrize("kw, name", [
    ({"method": "tsw"}, "method"), ({"cir_mbps": -1.0}, "cir_mbps"),
    ({"cir_mbps": 12.0}, "cir_mbps"), ({"bucket_pkts": 0}, "bucket_pkts"),
    ({"udp": "yes"}, "udp"), ({"method": "bmarker", "w_hi": 0.5}, "w_hi"),
    ({"method": "bmarker", "p_max": 2.0}, "p_max"), ({"buffer_pkts": 0}, "buffer_pkts"),
    ({"max_window_pkts": 0}, "max_window_pkts"), ({"access_delays_ms": [1, -2]},
                                                   r"access_delays_ms\[1\]"),
    ({"rtt_spread": -0.5}, "rtt_spread"), ({"tcp": "vegas"}, "tcp"),
])
def test_bad_parameters_name_the_parameter(kw, name):
    with pytest.raises(ConfigError, match=rf"^{name}: "):
        lee_jeong(**kw)


def test_bmarker_fairer_than_marker_short_run():
    seeds = [0, 1]
    jains = {}
    for method in ("marker", "bmarker"):
        res = simulate([lee_jeong(method=method, duration_s=10.0, seed=s) for s in seeds],
                       seeds=seeds, backend="cpu")
        f = res.flows
        per = f[f.flow < 7].pivot(index="replica", columns="flow", values="goodput_bps")
        jains[method] = np.mean([lt.jain(row) for row in per.to_numpy()])
    assert jains["bmarker"] > jains["marker"] + 0.1, jains


def test_jain_by_hand_and_per_seed_table():
    assert lt.jain([1, 1, 1, 1]) == pytest.approx(1.0)
    assert lt.jain([1, 0, 0, 0]) == pytest.approx(0.25)
    assert lt.jain([1, 2, 3]) == pytest.approx(36 / (3 * 14))
    rates = [0.5, 0.6, 0.7, 0.8, 1.0, 1.2, 2.2]                 # Mb/s on the wire
    rows = []
    for seed in (0, 1):
        for i in range(9):                                      # 7 aggregated + 2 best effort
            r = rates[i] if i < 7 else 0.25
            rows.append({"point": 0, "seed": seed, "flow": i, "cir_mbps": 7.0,
                         "bucket_pkts": 70, "udp": False, "method": "marker", "bab_mbps": 1.0,
                         "segment_bytes": 960, "header_bytes": 40,
                         "goodput_bps": r * 1e6 * 960 / 1000, "pkts_sent": 10, "drops": 0})
    flows = pd.DataFrame(rows)
    reps = pd.DataFrame({"point": [0, 0], "seed": [0, 1], "measured_s": [60.0, 60.0]})
    queues = pd.DataFrame({"point": [0, 0], "seed": [0, 1], "bytes_departed": [90_000] * 2})
    res = Results(replicas=reps, flows=flows, queues=queues, sources=None, intervals=None,
                  meta={})
    ps = lt.per_seed(res)
    x = np.array(rates)
    assert ps["jain"].tolist() == pytest.approx([x.sum() ** 2 / (7 * (x ** 2).sum())] * 2)
    assert ps["total_mbps"].tolist() == pytest.approx([x.sum()] * 2)
    assert ps["tcp7_mbps"].tolist() == pytest.approx([2.2] * 2)
    assert ps["be_mbps"].tolist() == pytest.approx([0.5] * 2)
    assert ps["udp_mbps"].tolist() == pytest.approx([0.0] * 2)


def test_paper_consistency_is_computed():
    c = ljc.paper_consistency()
    assert c["atb_mbps"] == pytest.approx(1 + 3 / 17)
    assert c["tcp7_mbps"] == pytest.approx(1 + 3 / 17 + 1.58)
    rest = (7.01 - c["tcp7_mbps"]) / 6
    assert c["max_jain_given_total_and_tcp7"] == pytest.approx(
        7.01 ** 2 / (7 * (c["tcp7_mbps"] ** 2 + 6 * rest ** 2)))
    assert 0.65 < c["max_jain_given_total_and_tcp7"] < 0.67 < c["reported_jain"]
    assert c["max_jain_given_tcp1_too"] <= c["max_jain_given_total_and_tcp7"]
    t2 = lt.table2()
    assert len(t2) == 16
    row = t2[(t2.cir_mbps == 3.5) & (t2.bucket_pkts == 35) & (~t2.udp) & (t2.method == "marker")]
    assert (row.jain.item(), row.total_mbps.item()) == (0.84, 4.67)   # the text's "case 2"


def test_reproduce_one_family_through_cli(tmp_path, monkeypatch):
    out, status = reproduce_shrunk(tmp_path, monkeypatch, "lee-jeong", "lee_jeong", ["table2"],
                                   "4", [(r"seeds = \d+", "seeds = 2"),
                                         (r"duration_s = [\d.]+", "duration_s = 5.0")])
    assert (out / "figures" / "lee_jeong_fig4.png").stat().st_size > 1000
    assert status["L4.1"] != "not measured" and status["L4.2"] != "not measured"
    assert status["LT2.1"] == "not measured"                  # the family was not run
    md = (out / "report.md").read_text()
    assert "L4.1" in md and "Case numbering" in md
