"""PIE (RFC 8033, as ns-3.44's PieQueueDisc; cuda/model/queue_pie.h) as a queue choice,
aqm="pie", through small scenarios. The controller's arithmetic is checked on hand-computed
cases in tests/cpp/test_pie.cpp; the schedule matrix runs two PIE replicas
(tests/engine_cases.py: pie0, pie1)."""
from __future__ import annotations

import numpy as np
import pytest

import diffsweep
from diffsweep.analysis import registry
from diffsweep.core.errors import ConfigError
from diffsweep.scenario import Link, QueueClass, RedThresholds, Scenario, TcpFlow
from diffsweep.scenario.dumbbell import dumbbell
from diffsweep.scenario.parking_lot import parking_lot
from diffsweep.sweep.grid import Grid

from aqm_cases import (assert_drops_early_keeps_link_busy, assert_is_droptail_one_larger,
                       assert_parking_lot_aqm_link)

TCPS = ["newreno", "newreno", "sack", "sack"]


def _bufferbloat(aqm: str, seeds=(1, 2)):
    """4 backlogged flows (2 NewReno, 2 SACK) over 10 Mb/s, RTT 100 ms, a 1000-packet buffer,
    windows large enough to fill it, 30 s: drop-tail keeps a standing queue of hundreds of ms."""
    return diffsweep.run(Grid(dumbbell, seeds=list(seeds), aqm=aqm, n_flows=4, tcp=[TCPS],
                              buffer_pkts=1000, max_window_pkts=1000, duration_s=30.0,
                              warmup_s=10.0, queue_delay_hist=True), backend="cpu", quiet=True)


def _mean_delay_ms(res) -> np.ndarray:
    """Little's law: the time-average queue over the departure rate."""
    q = res.queues.sort_values("seed")
    measured_s = res.replicas.sort_values("seed")["measured_s"].to_numpy()
    return q["mean_queue_pkts"].to_numpy() / (q["departures"].to_numpy() / measured_s) * 1e3


def test_pie_holds_the_queueing_delay_near_its_reference_where_droptail_bloats():
    pie, tail = _bufferbloat("pie"), _bufferbloat("droptail")
    p50 = registry.values(pie, "queue_delay_p50_ms")["queue_delay_p50_ms"]
    mean = _mean_delay_ms(pie)
    # measured (seeds 1, 2): p50 15.0 / 14.1 ms under PIE (QDELAY_REF 15 ms); 210 / 799 ms
    # drop-tail
    assert ((p50 > 7.5) & (p50 < 25.0)).all()
    assert ((mean > 7.5) & (mean < 25.0)).all()
    tail50 = registry.values(tail, "queue_delay_p50_ms")["queue_delay_p50_ms"]
    assert (tail50 > 100.0).all() and (_mean_delay_ms(tail) > 100.0).all()
    # PIE drops early at arrival and keeps the link busy
    assert_drops_early_keeps_link_busy(pie)


def test_pie_that_never_drops_is_droptail_one_packet_larger():
    """A PIE class whose reference no delay approaches never drops early (the delay stays under
    half of it, p at 0): its replica's outputs are the drop-tail replica's, but for the buffer,
    which counts the packets waiting (ns-3's MaxSize): PIE of limit L holds what drop-tail
    of L + 1 does. Its draws come from its own stream (kFamPie): no other draw moves."""
    assert_is_droptail_one_larger(QueueClass("be", limit_pkts=30, aqm="pie", pie_qdelay_ref_ms=10000.0))


def test_pie_reference_moves_the_delay():
    """A lower QDELAY_REF gives a lower queueing delay (the controller's set point)."""
    res = diffsweep.run(Grid(dumbbell, seeds=[3], aqm="pie", n_flows=4, buffer_pkts=1000,
                             max_window_pkts=1000, duration_s=30.0, warmup_s=10.0,
                             pie_qdelay_ref_ms=[5.0, 30.0], queue_delay_hist=True),
                        backend="cpu", quiet=True)
    q = res.queues.sort_values("point")
    lo, hi = q["delay_p50_ms"].to_numpy()
    assert lo < hi and lo < 12.0 and hi > 18.0


def test_parking_lot_pie_link():
    assert_parking_lot_aqm_link("pie")


@pytest.mark.parametrize("kw, field", [
    (dict(aqm="pie", pie_qdelay_ref_ms=0), "pie_qdelay_ref_ms"),
    (dict(aqm="pie", pie_t_update_ms=-1.0), "pie_t_update_ms"),
    (dict(aqm="pie", pie_max_burst_ms=-1.0), "pie_max_burst_ms"),
    (dict(aqm="pie", pie_alpha=-0.1), "pie_alpha"),
    (dict(pie_beta="1.25"), "pie_beta"),
    (dict(aqm="pies"), "aqm"),
])
def test_dumbbell_bad_pie_inputs(kw, field):
    with pytest.raises(ConfigError) as e:
        dumbbell(**kw)
    msg = str(e.value)
    assert msg.startswith(f"{field}:") and "\n" not in msg


def test_parking_lot_bad_pie_inputs():
    with pytest.raises(ConfigError, match=r"^pie_t_update_ms: 0.0 is not allowed"):
        parking_lot(aqm="pie", pie_t_update_ms=0)


def test_queue_class_bad_pie_inputs():
    with pytest.raises(ConfigError, match=r"^QueueClass.pie_alpha: 0.5 is not allowed .*"
                                          "unless aqm is 'pie'"):
        QueueClass("be", pie_alpha=0.5)
    with pytest.raises(ConfigError, match=r"^QueueClass.pie_derandomize: 1 is not allowed"):
        QueueClass("be", aqm="pie", pie_derandomize=1)
    with pytest.raises(ConfigError, match=r"^QueueClass.pie_mean_pkt_bytes"):
        QueueClass("be", aqm="pie", pie_mean_pkt_bytes=0)
    with pytest.raises(ConfigError, match=r"^QueueClass.red: .* for aqm 'pie'"):
        QueueClass("be", aqm="pie", red=(RedThresholds(5, 15, 0.1),))
    with pytest.raises(ConfigError, match=r"^duration_s: .* is not allowed .*PIE"):
        Scenario(links=(Link(rate_bps=1e6, classes=(QueueClass("be", aqm="pie",
                                                               pie_t_update_ms=1e-6),)),),
                 flows=(TcpFlow(),), duration_s=5000.0)
