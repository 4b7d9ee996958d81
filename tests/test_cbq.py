"""Class-based isolation ("cbq" scheduler, cuda/model/sched_cbq.h): each class its own pipe
of ``share`` of the link rate; ``cbq_lend`` hands an empty class's unused credit to the
backlogged classes (docs/model.md, "Class-based isolation")."""
from __future__ import annotations

import pytest

from diffsweep.engine.execution import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.scenario import Link, OnOffSource, QueueClass, Scenario, TcpFlow

RATE = 10e6
DURATION, WARMUP = 10.0, 1.0


def _rates(shares, lend=False, active=("a", "b"), flows=()):
    """Mb/s leaving each class of a 10 Mb/s cbq link; every active class has a CBR source at
    the line rate (t_off_ms=0), so it is always backlogged."""
    classes = tuple(QueueClass(n, limit_pkts=50, share=s) for n, s in zip("abcd", shares))
    link = Link(rate_bps=RATE, prop_delay_ms=2.0, classes=classes, scheduler="cbq", cbq_lend=lend)
    srcs = tuple(OnOffSource(cls=c, peak_bps=RATE, pkt_bytes=1000, t_on_ms=1.0, t_off_ms=0.0,
                             name=f"cbr_{c}") for c in active)
    sc = Scenario(links=(link,), sources=srcs, flows=flows, duration_s=DURATION, warmup_s=WARMUP)
    q = simulate([sc], [3], backend="cpu").queues
    return [b * 8 / (DURATION - WARMUP) / 1e6 for b in q.bytes_departed]


@pytest.mark.parametrize("lend", [False, True])
def test_saturated_classes_get_their_shares(lend):
    a, b = _rates((0.3, 0.7), lend)
    assert a == pytest.approx(3.0, rel=0.01) and b == pytest.approx(7.0, rel=0.01)


def test_saturated_tcp_classes_get_their_shares():
    """Backlogged TCP flows in each class: each class is held to its pipe."""
    flows = tuple(TcpFlow(cls=c, reverse_delay_ms=10.0, access_rate_bps=40e6) for c in "aabbb")
    classes = (QueueClass("a", limit_pkts=60, share=0.3), QueueClass("b", limit_pkts=60, share=0.7))
    link = Link(rate_bps=RATE, prop_delay_ms=2.0, classes=classes, scheduler="cbq")
    sc = Scenario(links=(link,), flows=flows, duration_s=DURATION, warmup_s=WARMUP)
    q = simulate([sc], [5], backend="cpu").queues
    a, b = (x * 8 / (DURATION - WARMUP) / 1e6 for x in q.bytes_departed)
    assert a == pytest.approx(3.0, rel=0.01) and b == pytest.approx(7.0, rel=0.01)


def test_idle_class_share_is_wasted_without_lending():
    a, b = _rates((0.3, 0.7), lend=False, active=("a",))
    assert a == pytest.approx(3.0, rel=0.01) and b == 0.0
    a, b = _rates((0.3, 0.7), lend=False, active=("b",))
    assert a == 0.0 and b == pytest.approx(7.0, rel=0.01)


def test_idle_class_share_is_lent():
    a, b = _rates((0.3, 0.7), lend=True, active=("a",))
    assert a == pytest.approx(10.0, rel=0.01) and b == 0.0
    a, b = _rates((0.3, 0.7), lend=True, active=("b",))
    assert a == 0.0 and b == pytest.approx(10.0, rel=0.01)


def test_lending_goes_in_class_order():
    """Three classes, the middle one idle: its 0.5 goes to the first backlogged class (a)."""
    a, b, c = _rates((0.2, 0.5, 0.3), lend=True, active=("a", "c"))
    assert a == pytest.approx(7.0, rel=0.01) and b == 0.0 and c == pytest.approx(3.0, rel=0.01)


def test_unused_shares_below_one_are_lost():
    """Shares summing below 1 leave the rest of the link unused (without lending)."""
    a, b = _rates((0.2, 0.3))
    assert a == pytest.approx(2.0, rel=0.01) and b == pytest.approx(3.0, rel=0.01)


def _link(shares, scheduler="cbq", **kw):
    return Link(rate_bps=RATE, scheduler=scheduler, **kw,
                classes=tuple(QueueClass(n, limit_pkts=10, share=s) for n, s in zip("abcd", shares)))


def test_shares_summing_above_one_are_rejected():
    with pytest.raises(ConfigError, match=r"links\[0\]\.classes: shares sum to 1\.2"):
        Scenario(links=({"rate_bps": RATE, "scheduler": "cbq",
                         "classes": ({"name": "a", "share": 0.5}, {"name": "b", "share": 0.7})},),
                 flows=(TcpFlow(cls="a"),), duration_s=1.0)
    with pytest.raises(ConfigError, match=r"Link\.classes: shares sum to 1\.2"):
        _link((0.5, 0.7))


def test_missing_share_on_a_cbq_link_is_rejected():
    with pytest.raises(ConfigError, match=r"Link\.classes\[1\]\.share"):
        _link((0.5, None))


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.5, float("nan"), "x"])
def test_share_outside_0_1_is_rejected(bad):
    with pytest.raises(ConfigError, match=r"QueueClass\.share"):
        QueueClass("a", share=bad)
    with pytest.raises(ConfigError, match=r"share"):
        Scenario(links=({"rate_bps": RATE, "scheduler": "cbq",
                         "classes": ({"name": "a", "share": bad},)},), flows=(TcpFlow(cls="a"),), duration_s=1.0)


def test_share_or_lending_on_another_scheduler_is_rejected():
    with pytest.raises(ConfigError, match=r"Link\.classes\[0\]\.share"):
        _link((0.5, 0.5), scheduler="priority")
    with pytest.raises(ConfigError, match=r"Link\.cbq_lend"):
        Link(rate_bps=RATE, cbq_lend=True)


def test_new_fields_leave_old_digests_alone():
    link = Link(rate_bps=RATE)
    sc = Scenario(links=(link,), flows=(TcpFlow(),), duration_s=1.0)
    d = sc.to_dict()
    assert "cbq_lend" not in d["links"][0] and "share" not in d["links"][0]["classes"][0]
    full = Scenario(links=(_link((0.4, 0.6), cbq_lend=True),), flows=(TcpFlow(cls="a"),), duration_s=1.0)
    d = full.to_dict()
    assert d["links"][0]["cbq_lend"] is True and d["links"][0]["classes"][1]["share"] == 0.6
    assert Scenario.from_dict(d) == full
