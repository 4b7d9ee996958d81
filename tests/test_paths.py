"""Two paths per TCP flow and the edge classifier that picks one (Matta & Guo's two-path
"diamond": random, size-based and lifetime-based splitting; docs/model.md, "Two paths and the
edge classifier"): every packet on the path its rule says, nothing lost from the accounting,
random choices binomial and reproducible, bad input named."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from diffsweep.engine.compiled import run_packed
from diffsweep.engine.execution import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.engine.pack import pack
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow, Traffic

PKT = 1000


def link(rate_bps=100e6, prop_ms=2.0, buffer_pkts=10000):
    return Link(rate_bps=rate_bps, prop_delay_ms=prop_ms,
                classes=(QueueClass("q", limit_pkts=buffer_pkts),))


def diamond(mid2_rate=100e6, mid2_buffer=10000):
    """0: the edge (classifier), 1: path 1's middle, 2: path 2's middle, 3: the exit."""
    return (link(), link(), link(rate_bps=mid2_rate, prop_ms=3.0, buffer_pkts=mid2_buffer), link())


def template(**kw):
    base = dict(cls="q", segment_bytes=PKT, header_bytes=0, max_window_pkts=1000,
                access_delay_ms=0.5, egress_delay_ms=0.5, reverse_delay_ms=5.0,
                access_rate_bps=100e6, route=(0, 1, 3), route2=(0, 2, 3))
    base.update(kw)
    return TcpFlow(**base)


def arrivals(res, replica=0):
    q = res.queues[res.queues.replica == replica]
    return {int(l): int(a) for l, a in zip(q.link, q.arrivals)}


def test_size_split_puts_every_packet_of_a_transfer_on_its_path():
    """Transfers of 5 and 200 packets, threshold 75: the small ones on path 1, the large ones
    on path 2, every packet (lossless paths; all transfers complete)."""
    tr = Traffic(name="web", flow=template(split="size", split_pkts=75),
                 mean_interarrival_s=0.05, size_set_pkts=(5, 200), t_stop_s=4.0, pool=32)
    sc = Scenario(links=diamond(), traffic=(tr,), duration_s=6.0)
    res = simulate([sc], [3], backend="cpu")
    t = res.transfers
    assert len(t) > 40 and t.end_s.notna().all()
    assert (t.retransmits == 0).all()
    small = int(t.pkts_sent[t.size_pkts == 5].sum())
    large = int(t.pkts_sent[t.size_pkts == 200].sum())
    assert small == 5 * int((t.size_pkts == 5).sum()) and large > 0 and small > 0
    a = arrivals(res)
    assert a[1] == small and a[2] == large
    assert a[0] == a[3] == small + large


def test_lifetime_split_moves_a_flow_after_threshold_packets():
    """A backlogged flow, threshold 32: its first 32 segments on path 1 (lossless, so never
    retransmitted), every later one on path 2 (a bottleneck with a small buffer: losses and
    retransmissions stay on path 2); sent = arrivals on the two paths + access drops."""
    flow = template(route=(1, 3), route2=(2, 3), split="lifetime", split_pkts=32,
                    access_buffer_pkts=30, access_rate_bps=200e6)
    sc = Scenario(links=diamond(mid2_rate=10e6, mid2_buffer=20), flows=(flow,), duration_s=3.0)
    out = run_packed(pack([sc], [5]), "cpu")
    arr = out["q_arrivals"][0, :, 0]
    sent = int(out["flow_pkts_sent"][0, 0])
    access = int(out["flow_access_drops"][0, 0])
    assert int(out["flow_retransmits"][0, 0]) > 0 and int(out["q_drops"][0, 2, 0]) > 0
    assert arr[1] == 32
    assert arr[0] == 0 and sent == arr[1] + arr[2] + access
    # the exit sees both paths (less what was still on path 2's wire at the end)
    both = arr[1] + int(out["q_departures"][0, 2, 0])
    assert both - 10 <= arr[3] <= both


def test_random_split_is_binomial_and_reproducible():
    """Each transfer on either path with probability 1/2: the transfers on path 1 are within
    4 sigma of half; the same seed gives the same choices, another seed others."""
    tr = Traffic(name="web", flow=template(split="random"), mean_interarrival_s=0.01,
                 size_set_pkts=(3,), t_stop_s=8.0, pool=32)
    sc = Scenario(links=diamond(), traffic=(tr,), duration_s=9.0)
    res = simulate([sc, sc, sc], [21, 21, 22], backend="cpu")
    a = arrivals(res, 0)
    n = int((res.transfers.replica == 0).sum())
    assert (res.transfers.retransmits == 0).all()
    assert a[1] % 3 == 0 and a[2] % 3 == 0 and (a[1] + a[2]) // 3 == n
    k = a[1] // 3
    assert abs(k - n / 2) < 4 * math.sqrt(n / 4), (k, n)
    assert arrivals(res, 1) == a
    assert arrivals(res, 2) != a


def test_no_split_and_old_scenarios_unchanged():
    """split "none" with a route2: everything on route; the new fields are left out of a
    scenario's digest while they hold their defaults."""
    sc = Scenario(links=diamond(), flows=(template(size_pkts=50),), duration_s=1.0)
    a = arrivals(simulate([sc], [1], backend="cpu"))
    assert a[1] == 50 and a[2] == 0
    d = TcpFlow().__class__(route=(0,)).__dict__
    assert d["route2"] == () and d["split"] == "none" and d["split_pkts"] is None
    plain = Scenario(links=(link(),), flows=(TcpFlow(cls="q"),), duration_s=1.0).to_dict()
    assert not {"route2", "split", "split_pkts"} & set(plain["flows"][0])


@pytest.mark.parametrize("kw, where", [
    (dict(route2=(), split="random"), ".route2"),
    (dict(route2=(), split="size", split_pkts=10), ".route2"),
    (dict(split="size", split_pkts=0), ".split_pkts"),
    (dict(split="lifetime"), ".split_pkts"),
    (dict(split="random", split_pkts=5), ".split_pkts"),
    (dict(split="sized", split_pkts=5), ".split"),
    (dict(route2=(0, 7, 3)), ".route2[1]"),
    (dict(route2=(0, 4, 3)), ".cls"),
    (dict(route2=(0, 2)), ".route2"),
])
def test_bad_input_named(kw, where):
    links = diamond() + (Link(rate_bps=1e6, prop_delay_ms=1.0, classes=(QueueClass("other"),)),)
    # a flow's own fields are checked when it is made (TcpFlow.x), the rest by the scenario
    pat = r"^(TcpFlow|flows\[0\])" + re.escape(where) + ": "
    with pytest.raises(ConfigError, match=pat):
        Scenario(links=links, flows=(template(**kw),), duration_s=1.0)
    with pytest.raises(ConfigError, match=pat):  # from plain data: named by its place
        Scenario.from_dict({"links": [ln.__dict__ for ln in links], "duration_s": 1.0,
                            "flows": [{**template().__dict__, **kw}]})


def test_bad_traffic_template_named():
    tr = Traffic(name="w", flow=template(route2=(0, 9, 3), split="random"),
                 mean_interarrival_s=0.1, size_set_pkts=(3,), pool=2)
    with pytest.raises(ConfigError, match=r"^traffic\[0\]\.flow\.route2\[1\]: "):
        Scenario(links=diamond(), traffic=(tr,), duration_s=1.0)


def test_route2_round_trips_through_dicts():
    sc = Scenario(links=diamond(), flows=(template(split="lifetime", split_pkts=32),),
                  duration_s=1.0)
    back = Scenario.from_dict(sc.to_dict())
    assert back == sc and back.digest() == sc.digest()
    assert back.flows[0].route2 == (0, 2, 3)
    assert np.all(pack([sc], [1]).arrays["flow_split_pkts"][0, :1] == 32)
