"""Scenario validation, to_dict/from_dict, and the Kaur & Vin builder."""
import json
import math
import re

import numpy as np
import pytest

from diffsweep.core.errors import ConfigError
from diffsweep.scenario import Link, OnOffSource, QueueClass, Scenario, TcpFlow
from diffsweep.scenario.builders import kaur_vin


def base(**over):
    """A valid scenario as plain dicts, with top-level fields replaced by ``over``."""
    d = {
        "links": [{"rate_bps": 10e6, "prop_delay_ms": 1.0,
                   "classes": [{"name": "ef"}, {"name": "be", "limit_bytes": 50_000}]}],
        "flows": [{"cls": "be"}, {"cls": "be"}, {"cls": "be"}],
        "sources": [{"peak_bps": 10e6, "t_on_ms": 1.0, "t_off_ms": 2.0}],
        "duration_s": 10.0,
    }
    d.update(over)
    return d


def flows_with(i, **fields):
    fl = [{"cls": "be"} for _ in range(3)]
    fl[i].update(fields)
    return fl


def link_with(**fields):
    link = {"rate_bps": 10e6, "classes": [{"name": "ef"}, {"name": "be", "limit_bytes": 50_000}]}
    link.update(fields)
    return [link]


# (overrides of base(), regex the ConfigError message must match from its start)
INVALID = [
    ("negative rate", {"links": link_with(rate_bps=-1.0)},
     r"links\[0\]\.rate_bps: -1\.0 is not allowed \(expected a number > 0\)"),
    ("infinite rate", {"links": link_with(rate_bps=math.inf)},
     r"links\[0\]\.rate_bps: inf .*finite"),
    ("negative link delay", {"links": link_with(prop_delay_ms=-0.1)},
     r"links\[0\]\.prop_delay_ms: -0\.1 "),
    ("loss_prob 1", {"links": link_with(loss_prob=1.0)}, r"links\[0\]\.loss_prob: 1\.0 "),
    ("unknown scheduler", {"links": link_with(scheduler="fifo")},
     r"links\[0\]\.scheduler: 'fifo' .*'priority', 'wrr'"),
    ("two limits", {"links": link_with(classes=[{"name": "be", "limit_bytes": 9000,
                                                  "limit_pkts": 10}])},
     r"links\[0\]\.classes\[0\]\.limit_pkts: 10 "),
    ("zero weight", {"links": link_with(classes=[{"name": "be", "weight": 0}])},
     r"links\[0\]\.classes\[0\]\.weight: 0 "),
    ("duplicate class", {"links": link_with(classes=[{"name": "be"}, {"name": "be"}])},
     r"links\[0\]\.classes\[1\]\.name: 'be' "),
    ("buffer smaller than one packet",
     {"links": link_with(classes=[{"name": "ef"}, {"name": "be", "limit_bytes": 575}])},
     r"links\[0\]\.classes\[1\]\.limit_bytes: 575 .*576.*flows\[0\]"),
    ("no links", {"links": []}, r"links: \[\] "),
    ("zero flows", {"flows": [], "sources": []}, r"flows: \[\] is not allowed"),
    ("unknown TCP variant", {"flows": flows_with(2, variant="vegas")},
     r"flows\[2\]\.variant: 'vegas' is not allowed \(expected one of 'reno', 'newreno', 'sack'\)"),
    ("bad route index", {"flows": flows_with(1, route=[0, 3])},
     r"flows\[1\]\.route\[1\]: 3 .*0\.\.0"),
    ("empty route", {"flows": flows_with(0, route=[])}, r"flows\[0\]\.route: \(\) "),
    ("route too long", {"flows": flows_with(0, route=[0, 1, 2, 3, 4])},
     r"flows\[0\]\.route: .*1\.\.4"),
    ("repeated link", {"flows": flows_with(0, route=[0, 0])}, r"flows\[0\]\.route: .*repeats"),
    ("class missing on a link", {"flows": flows_with(1, cls="af")},
     r"flows\[1\]\.cls: 'af' .*'ef', 'be'"),
    ("max_window over 2^16", {"flows": flows_with(0, max_window_pkts=65537)},
     r"flows\[0\]\.max_window_pkts: 65537 .*65536"),
    ("init window over max", {"flows": flows_with(0, max_window_pkts=4, init_window_pkts=5)},
     r"flows\[0\]\.init_window_pkts: 5 "),
    ("segment 0", {"flows": flows_with(0, segment_bytes=0)},
     r"flows\[0\]\.segment_bytes: 0 .*1\.\.65495"),
    ("fractional segment", {"flows": flows_with(0, segment_bytes=536.5)},
     r"flows\[0\]\.segment_bytes: 536\.5 "),
    ("wire over 65535", {"flows": flows_with(0, segment_bytes=65495, header_bytes=41)},
     r"flows\[0\]\.segment_bytes: 65495 .*65535"),
    ("header over 1000", {"flows": flows_with(0, header_bytes=1001)},
     r"flows\[0\]\.header_bytes: 1001 "),
    ("negative access rate", {"flows": flows_with(0, access_rate_bps=-5.0)},
     r"flows\[0\]\.access_rate_bps: -5\.0 "),
    ("negative reverse delay", {"flows": flows_with(2, reverse_delay_ms=-1.0)},
     r"flows\[2\]\.reverse_delay_ms: -1\.0 "),
    ("start after end", {"flows": flows_with(0, start_s=10.0)},
     r"flows\[0\]\.start_s: 10\.0 .*duration_s"),
    ("size 0", {"flows": flows_with(0, size_pkts=0)}, r"flows\[0\]\.size_pkts: 0 "),
    ("non-bool flag", {"flows": flows_with(0, delayed_ack="yes")},
     r"flows\[0\]\.delayed_ack: 'yes' "),
    ("misspelt flow field", {"flows": flows_with(0, segmnt_bytes=536)},
     r"flows\[0\]\.segmnt_bytes: unknown field .*did you mean 'segment_bytes'"),
    ("T_on 0", {"sources": [{"peak_bps": 1e6, "t_on_ms": 0.0, "t_off_ms": 1.0}]},
     r"sources\[0\]\.t_on_ms: 0\.0 is not allowed \(expected a number of milliseconds >= 0\.001"),
    ("T_off negative", {"sources": [{"peak_bps": 1e6, "t_on_ms": 1.0, "t_off_ms": -1.0}]},
     r"sources\[0\]\.t_off_ms: -1\.0 "),
    ("source packet too big", {"sources": [{"peak_bps": 1e6, "t_on_ms": 1.0, "t_off_ms": 1.0,
                                            "pkt_bytes": 70_000}]},
     r"sources\[0\]\.pkt_bytes: 70000 "),
    ("source packet bigger than buffer",
     {"sources": [{"peak_bps": 1e6, "t_on_ms": 1.0, "t_off_ms": 1.0, "cls": "be",
                   "pkt_bytes": 60_000}]},
     r"links\[0\]\.classes\[1\]\.limit_bytes: 50000 .*sources\[0\]"),
    ("source missing peak", {"sources": [{"t_on_ms": 1.0, "t_off_ms": 1.0}]},
     r"sources\[0\]\.peak_bps: missing"),
    ("duration 0", {"duration_s": 0.0}, r"duration_s: 0\.0 "),
    ("warmup >= duration", {"warmup_s": 10.0}, r"warmup_s: 10\.0 .*duration_s"),
    ("slot 0", {"slot_s": 0.0}, r"slot_s: 0\.0 "),
    ("tick 0", {"tcp_tick_s": 0.0}, r"tcp_tick_s: 0\.0 "),
    ("max_rto < min_rto", {"min_rto_s": 1.0, "max_rto_s": 0.5}, r"max_rto_s: 0\.5 .*min_rto_s"),
    ("init_rto 0", {"init_rto_s": 0.0}, r"init_rto_s: 0\.0 "),
    ("interval > duration", {"interval_s": 11.0}, r"interval_s: 11\.0 "),
    ("unknown tie_break", {"tie_break": "fifo"}, r"tie_break: 'fifo' .*'random', 'index'"),
    ("non-scalar param", {"params": {"x": [1, 2]}}, r"params\['x'\]: \[1, 2\] "),
]


@pytest.mark.parametrize("what,over,pattern", INVALID, ids=[w for w, _, _ in INVALID])
def test_invalid_scenarios_name_the_field(what, over, pattern):
    with pytest.raises(ConfigError, match="^" + pattern):
        Scenario.from_dict(base(**over))


def test_base_is_valid():
    s = Scenario.from_dict(base())
    assert isinstance(s.links[0], Link) and isinstance(s.flows[2], TcpFlow)
    assert isinstance(s.links[0].classes[1], QueueClass)
    assert isinstance(s.sources[0], OnOffSource)


def test_child_built_alone_reports_its_class_name():
    with pytest.raises(ConfigError, match=r"^TcpFlow\.variant: 'vegas' is not allowed"):
        TcpFlow(variant="vegas")
    with pytest.raises(ConfigError, match=r"^Link\.rate_bps: -1\.0 is not allowed"):
        Link(rate_bps=-1)
    with pytest.raises(ConfigError, match=r"^Link\.classes\[0\]\.limit_bytes: 0 "):
        Link(rate_bps=1e6, classes=[{"name": "be", "limit_bytes": 0}])
    with pytest.raises(ConfigError, match=r"^OnOffSource\.t_on_ms: -1\.0 "):
        OnOffSource(peak_bps=1e6, t_on_ms=-1, t_off_ms=0)
    with pytest.raises(ConfigError, match=r"^QueueClass\.limit_pkts: "):
        QueueClass("be", limit_bytes=1000, limit_pkts=3)


def test_link_given_as_dict_inside_scenario_gets_index_path():
    with pytest.raises(ConfigError, match=r"^links\[0\]\.classes\[0\]\.limit_bytes: 0 "):
        Scenario(links=[{"rate_bps": 1e6, "classes": [{"name": "be", "limit_bytes": 0}]}],
                 flows=[TcpFlow()], duration_s=1.0)


def test_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError):
        TcpFlow(segmnt_bytes=536)


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_normalisation_lists_numpy_and_numbers():
    f = TcpFlow(route=[np.int64(0)], segment_bytes=np.int32(536), access_delay_ms=1,
                max_window_pkts=64.0)
    assert f.route == (0,) and type(f.route[0]) is int
    assert type(f.segment_bytes) is int and f.max_window_pkts == 64
    assert type(f.max_window_pkts) is int
    assert type(f.access_delay_ms) is float
    link = Link(rate_bps=np.float64(1e6), classes=[QueueClass()])
    assert isinstance(link.classes, tuple) and type(link.rate_bps) is float
    assert Link(rate_bps=1_000_000) == Link(rate_bps=1e6)


def test_to_dict_round_trip_json_and_digest():
    s = Scenario.from_dict(base(params={"t_off_ms": 2.0, "label": "x", "n": None}))
    d = s.to_dict()
    text = json.dumps(d)
    assert Scenario.from_dict(json.loads(text)) == s
    assert Scenario.from_dict(d).digest() == s.digest()
    assert d["links"][0]["classes"][1]["limit_bytes"] == 50_000
    assert isinstance(d["flows"][0]["route"], list)
    other = Scenario.from_dict(base(duration_s=11.0))
    assert other.digest() != s.digest()
    assert hash(s) == hash(Scenario.from_dict(d))


def test_from_dict_unknown_top_level_field():
    with pytest.raises(ConfigError, match=r"^duraton_s: unknown field .*did you mean 'duration_s'"):
        Scenario.from_dict({**base(), "duraton_s": 3})


def test_sources_only_scenario_is_valid():
    s = Scenario.from_dict(base(flows=[]))
    assert s.flows == () and len(s.sources) == 1


def test_frozen():
    s = Scenario.from_dict(base())
    with pytest.raises(AttributeError):
        s.duration_s = 5.0


def test_flow_rtp_ms_sums_the_path():
    s = Scenario(links=[Link(1e6, prop_delay_ms=1.5), Link(1e6, prop_delay_ms=2.0)],
                 flows=[TcpFlow(route=(0, 1), access_delay_ms=0.25, egress_delay_ms=0.5,
                                reverse_delay_ms=4.0)], duration_s=1.0)
    assert s.flow_rtp_ms(0) == pytest.approx(8.25)


# --- Kaur & Vin builder ---------------------------------------------------------------------

def test_kaur_vin_defaults():
    s = kaur_vin()
    assert len(s.links) == 1 and len(s.flows) == 1 and len(s.sources) == 1
    link = s.links[0]
    assert link.rate_bps == 40e6 and link.scheduler == "priority"
    assert [c.name for c in link.classes] == ["ef", "be"]
    assert link.classes[0].limit_bytes is None and link.classes[0].limit_pkts is None
    assert link.classes[1].limit_bytes == 200_000
    f = s.flows[0]
    assert (f.route, f.cls, f.variant, f.segment_bytes, f.header_bytes) == ((0,), "be", "reno",
                                                                            536, 40)
    assert f.access_rate_bps == 40e6 and f.size_pkts is None
    assert s.flow_rtp_ms(0) == pytest.approx(8.0)
    assert f.reverse_delay_ms == pytest.approx(4.0)
    assert f.access_delay_ms == pytest.approx(1.75) and f.egress_delay_ms == pytest.approx(1.75)
    ef = s.sources[0]
    assert (ef.name, ef.cls, ef.peak_bps, ef.pkt_bytes, ef.t_on_ms) == ("ef", "ef", 40e6, 1500,
                                                                       10.0)
    assert ef.t_off_ms == pytest.approx(23.333333333333)
    assert ef.mean_rate_bps == pytest.approx(12e6)
    assert s.params["t_off_ms"] == pytest.approx(23.333333333333)
    assert s.params["ef_rate_bps"] == pytest.approx(12e6)
    assert s.params["udp_rate_bps"] == 0.0
    assert s.params["available_bps"] == pytest.approx(28e6)
    assert (s.duration_s, s.warmup_s, s.min_rto_s, s.tcp_tick_s, s.tie_break) == (
        100.0, 10.0, 0.2, 0.01, "random")


@pytest.mark.parametrize("rtp", [2.0, 6.0, 8.0, 12.0, 26.0])
def test_kaur_vin_rtp_split_sums_to_rtp(rtp):
    s = kaur_vin(n_flows=3, rtp_ms=rtp)
    for i in range(3):
        assert s.flow_rtp_ms(i) == pytest.approx(rtp)


def test_kaur_vin_per_flow_rtps():
    s = kaur_vin(n_flows=3, rtp_ms=[6.0, 8.0, 12.0])
    assert [s.flow_rtp_ms(i) for i in range(3)] == pytest.approx([6.0, 8.0, 12.0])


def test_kaur_vin_cbr_same_mean_rate():
    on, cbr = kaur_vin(ef="onoff", t_on_ms=1.0), kaur_vin(ef="cbr", t_on_ms=1.0)
    src = cbr.sources[0]
    assert src.t_off_ms == 0.0 and src.peak_bps == pytest.approx(12e6)
    assert src.mean_rate_bps == pytest.approx(on.sources[0].mean_rate_bps)
    assert cbr.params == pytest.approx(on.params)


def test_kaur_vin_no_ef():
    s = kaur_vin(ef=None, ef_fraction=0.0)
    assert s.sources == ()
    assert s.params["ef_rate_bps"] == 0.0 and s.params["available_bps"] == 40e6
    assert s.params["t_off_ms"] is None


def test_kaur_vin_udp():
    s = kaur_vin(udp=True)
    udp = s.sources[1]
    assert (udp.name, udp.cls, udp.peak_bps, udp.pkt_bytes, udp.t_on_ms) == (
        "udp", "be", 40e6, 1000, 4.0)
    assert udp.t_off_ms == pytest.approx(76.0)
    assert udp.mean_rate_bps == pytest.approx(2e6)
    assert s.params["udp_rate_bps"] == pytest.approx(2e6)
    assert s.params["available_bps"] == pytest.approx(26e6)


def test_kaur_vin_stratified_rtps():
    lo, hi, k = 12.0, 26.0, 8
    s = kaur_vin(n_flows=16, rtp_intervals=(lo, hi, k), seed=3)
    rtps = np.array([s.flow_rtp_ms(i) for i in range(16)])
    edges = np.linspace(lo, hi, k + 1)
    counts = [int(np.sum((rtps >= a) & (rtps < b))) for a, b in zip(edges[:-1], edges[1:])]
    assert counts == [2] * k
    assert len(set(rtps.round(9))) == 16  # "all flows have different RTPs" (sec. 4)

    again = kaur_vin(n_flows=16, rtp_intervals=(lo, hi, k), seed=3)
    assert again == s
    other = kaur_vin(n_flows=16, rtp_intervals=(lo, hi, k), seed=4)
    other_rtps = [other.flow_rtp_ms(i) for i in range(16)]
    assert not np.allclose(rtps, other_rtps)


KV_INVALID = [
    ({"ef_fraction": 0.0}, r"ef_fraction: 0\.0 .*\(0, 1\)"),
    ({"ef_fraction": 1.0}, r"ef_fraction: 1\.0 "),
    ({"ef": "cbr", "ef_fraction": 1.5}, r"ef_fraction: 1\.5 "),
    ({"ef": "poisson"}, r"ef: 'poisson' "),
    ({"t_on_ms": 0.0}, r"t_on_ms: 0\.0 is not allowed \(expected a number > 0\)"),
    ({"t_on_ms": -2.0}, r"t_on_ms: -2\.0 "),
    ({"udp": True, "udp_fraction": 0.0}, r"udp_fraction: 0\.0 "),
    ({"udp": True, "udp_t_on_ms": 0.0}, r"udp_t_on_ms: 0\.0 "),
    ({"udp": True, "udp_pkt_bytes": 0}, r"udp_pkt_bytes: 0 "),
    ({"udp": True, "buffer_bytes": 900}, r"buffer_bytes: 900 .*1000.*sources\[1\]"),
    ({"n_flows": 0}, r"n_flows: 0 "),
    ({"tcp": "vegas"}, r"tcp: 'vegas' is not allowed \(expected one of 'reno', 'newreno', 'sack'\)"),
    ({"buffer_bytes": 500}, r"buffer_bytes: 500 .*576"),
    ({"buffer_bytes": -1}, r"buffer_bytes: -1 "),
    ({"link_rate_bps": -1.0}, r"link_rate_bps: -1\.0 "),
    ({"max_window_pkts": 65537}, r"max_window_pkts: 65537 .*65536"),
    ({"segment_bytes": 0}, r"segment_bytes: 0 "),
    ({"ef_pkt_bytes": 0}, r"ef_pkt_bytes: 0 "),
    ({"warmup_s": 100.0}, r"warmup_s: 100\.0 .*duration_s"),
    ({"duration_s": -1.0}, r"duration_s: -1\.0 "),
    ({"tie_break": "lifo"}, r"tie_break: 'lifo' "),
    ({"rtp_ms": 0.9}, r"rtp_ms: 0\.9 .*bottleneck_delay_ms"),
    ({"rtp_ms": 4.0, "bottleneck_delay_ms": 2.5}, r"rtp_ms: 4\.0 "),
    ({"n_flows": 2, "rtp_ms": [8.0, 0.5]}, r"rtp_ms\[1\]: 0\.5 "),
    ({"n_flows": 3, "rtp_ms": [8.0, 9.0]}, r"rtp_ms: \[8\.0, 9\.0\] .*n_flows"),
    ({"n_flows": 10, "rtp_intervals": (12, 26, 8)}, r"n_flows: 10 .*multiple of k = 8"),
    ({"n_flows": 8, "rtp_intervals": (12, 26, 8), "rtp_ms": 8.0}, r"rtp_ms: 8\.0 .*rtp_intervals"),
    ({"n_flows": 8, "rtp_intervals": (26, 12, 8)}, r"rtp_intervals: "),
    ({"n_flows": 8, "rtp_intervals": 12}, r"rtp_intervals: 12 .*\[\(12, 26, 8\)\]"),
    ({"n_flows": 8, "rtp_intervals": (0.5, 26, 8)}, r"rtp_intervals: .*bottleneck_delay_ms"),
    ({"seed": -1}, r"seed: -1 "),
    ({"udp": "yes"}, r"udp: 'yes' "),
]


@pytest.mark.parametrize("kw,pattern", KV_INVALID, ids=[str(kw) for kw, _ in KV_INVALID])
def test_kaur_vin_invalid_names_the_parameter(kw, pattern):
    with pytest.raises(ConfigError, match="^" + pattern):
        kaur_vin(**kw)


def test_kaur_vin_ef_fraction_ignored_without_ef():
    kaur_vin(ef=None, ef_fraction=5.0)  # no EF source: f is not used


def test_messages_start_with_a_field_path():
    """Every message in the tables above has the documented shape."""
    shape = re.compile(r"^[A-Za-z_][\w\[\]'.]*: ")
    for _, over, _ in INVALID:
        with pytest.raises(ConfigError) as e:
            Scenario.from_dict(base(**over))
        assert shape.match(str(e.value)), str(e.value)


def test_with_delays_is_replace_checking_only_the_delays():
    import dataclasses
    f = TcpFlow(route=(0,), access_delay_ms=1.0, egress_delay_ms=2.0, reverse_delay_ms=3.0,
                max_window_pkts=50, access_buffer_pkts=40)
    g = f.with_delays(4, 5.5, np.float64(6.0))
    assert g == dataclasses.replace(f, access_delay_ms=4.0, egress_delay_ms=5.5, reverse_delay_ms=6.0)
    assert type(g.access_delay_ms) is float and type(g.reverse_delay_ms) is float
    assert f.access_delay_ms == 1.0  # the original is untouched
    with pytest.raises(ConfigError, match=r"TcpFlow\.egress_delay_ms: -1\.0 is not allowed"):
        f.with_delays(1.0, -1.0, 1.0)
