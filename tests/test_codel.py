"""CoDel (RFC 8289, as ns-3.44's CoDelQueueDisc; cuda/model/queue_codel.h) and the
queueing-delay histogram (Scenario.queue_delay_hist; table queue_delay, queues.delay_p*_ms,
metrics queue_delay_p50_ms ...), through small scenarios. The model's arithmetic is checked
on hand-computed cases in tests/cpp/test_codel.cpp; the schedule matrix runs two CoDel
replicas (tests/engine_cases.py: codel0, codel1)."""
from __future__ import annotations

import numpy as np
import pytest

import diffsweep
from diffsweep.analysis import registry
from diffsweep.core import qdelay
from diffsweep.core.errors import ConfigError
from diffsweep.engine.compiled import run_packed
from diffsweep.engine.execution import simulate
from diffsweep.engine.pack import layout, pack
from diffsweep.scenario import Link, QueueClass, RedThresholds, Scenario, TcpFlow
from diffsweep.scenario.dumbbell import dumbbell
from diffsweep.sweep.grid import Grid

from aqm_cases import (assert_drops_early_keeps_link_busy, assert_is_droptail_one_larger,
                       assert_parking_lot_aqm_link)


def test_bins_match_the_engine():
    lim = layout().limits
    assert (qdelay.LINEAR, qdelay.PER_OCTAVE, qdelay.OCTAVES, qdelay.BINS) == (
        lim["qdelay_linear"], lim["qdelay_per_octave"], lim["qdelay_octaves"],
        lim["qdelay_bins_on"])
    lo, hi = qdelay.bin_edges()
    assert lo[0] == 0 and hi[63] == 64 and lo[64] == 64 and hi[64] == 72 and lo[72] == 128
    assert np.all(lo[1:] == hi[:-1])  # contiguous


def test_quantile_of_exact_bins_is_numpys_inverted_cdf():
    rng = np.random.default_rng(3)
    waits = rng.integers(0, 64, 1001)
    counts = np.bincount(waits, minlength=qdelay.BINS)
    for q in (0.01, 0.5, 0.95, 0.99, 1.0):
        want = np.quantile(waits, q, method="inverted_cdf")
        assert qdelay.quantile_slots(np.arange(qdelay.BINS), counts, q) == want
        assert qdelay.quantiles_slots(counts[None], q)[0] == want
    # a wide bin interpolates, never beyond the longest wait
    counts = np.zeros(qdelay.BINS)
    counts[64] = 10  # waits in [64, 72)
    assert qdelay.quantile_slots(np.arange(qdelay.BINS), counts, 0.5) == 68.0
    assert qdelay.quantile_slots(np.arange(qdelay.BINS), counts, 1.0, top=65) == 65.0
    assert np.isnan(qdelay.quantile_slots(np.arange(3), np.zeros(3), 0.5))


def _bufferbloat(aqm: str, seeds=(1, 2)):
    """4 backlogged NewReno flows over 10 Mb/s, RTT 100 ms, a 1000-packet buffer, windows
    large enough to fill it: drop-tail keeps a standing queue of hundreds of ms."""
    return diffsweep.run(Grid(dumbbell, seeds=list(seeds), aqm=aqm, n_flows=4, buffer_pkts=1000,
                              max_window_pkts=1000, duration_s=40.0, warmup_s=10.0,
                              queue_delay_hist=True), backend="cpu", quiet=True)


def test_codel_holds_the_standing_delay_near_target_where_droptail_bloats():
    codel, tail = _bufferbloat("codel"), _bufferbloat("droptail")
    p50 = registry.values(codel, "queue_delay_p50_ms")["queue_delay_p50_ms"]
    p95 = registry.values(codel, "queue_delay_p95_ms")["queue_delay_p95_ms"]
    # measured (seeds 1, 2): p50 2.5 ms, p95 10-11 ms under CoDel; 200 and 290 ms drop-tail
    assert (p50 < 8.0).all() and (p50 > 0.5).all()
    assert (p95 < 20.0).all()
    tail50 = registry.values(tail, "queue_delay_p50_ms")["queue_delay_p50_ms"]
    assert (tail50 > 100.0).all()
    # CoDel drops (at dequeue, counted as the class's early drops) and keeps the link busy
    assert_drops_early_keeps_link_busy(codel)


def test_percentiles_and_littles_law():
    """Without drops (windows below the buffer) and with every wait under 64 slots, each bin
    is one wait: the histogram's mean wait times the departure rate is the time-average queue
    (Little's law: both count each packet's slots in the queue) up to the window's edges, and
    its percentiles are numpy's of the waits."""
    # (a slot of one packet at the bottleneck, 0.832 ms, so that every wait is under 64 slots:
    # the default, one packet at the 100 Mb/s access links, makes waits 10 times as many slots)
    sc = dumbbell(n_flows=4, max_window_pkts=38, buffer_pkts=100, duration_s=30.0,
                  warmup_s=5.0, queue_delay_hist=True, slot_s=1040 * 8 / 10e6)
    res = simulate([sc], seeds=[4])
    q, h = res.queues.iloc[0], res.queue_delay
    assert q["all_drops"] == 0 and (h["bin"] < qdelay.LINEAR).all()
    slot = res.replicas["slot_s"].iloc[0]
    waits = np.repeat(h["bin"].to_numpy(), h["pkts"].to_numpy())
    assert len(waits) == q["departures"]
    measured_slots = res.replicas["measured_s"].iloc[0] / slot
    little = waits.sum() / measured_slots
    assert q["mean_queue_pkts"] > 20  # a standing queue: 4 x 38 packets over a ~120-packet BDP
    assert little == pytest.approx(q["mean_queue_pkts"], rel=0.01)
    for col, pct in (("delay_p50_ms", 0.5), ("delay_p95_ms", 0.95), ("delay_p99_ms", 0.99)):
        assert q[col] == pytest.approx(np.quantile(waits, pct, method="inverted_cdf") * slot * 1e3)
    assert waits.max() * slot == pytest.approx(q["max_delay_s"])


def test_histogram_only_where_asked():
    off = dumbbell(n_flows=2, duration_s=5.0, warmup_s=1.0)
    on = dumbbell(n_flows=2, duration_s=5.0, warmup_s=1.0, queue_delay_hist=True)
    assert pack([off], [1]).shape["qdelay_bins"] == 0
    p = pack([off, on], [1, 1])
    assert p.shape["qdelay_bins"] == qdelay.BINS
    out = run_packed(p, "cpu")
    assert out["q_delay_hist"][0].sum() == 0 and out["q_delay_hist"][1].sum() > 0
    # the histogram changes no other output
    alone = run_packed(pack([off], [1]), "cpu")
    for k, v in alone.items():
        if k != "q_delay_hist":
            assert np.array_equal(v[0], out[k][0]), k
    res = simulate([off], seeds=[1])
    assert res.queues["delay_p50_ms"].isna().all() and len(res.queue_delay) == 0


def test_codel_that_never_drops_is_droptail_one_packet_larger():
    """A CoDel class with a target no sojourn reaches drops nothing: its replica's outputs are
    the drop-tail replica's, but for the buffer, which counts the packets waiting (as RED's):
    a CoDel class of limit L holds what a drop-tail class of L + 1 does."""
    assert_is_droptail_one_larger(QueueClass("be", limit_pkts=30, aqm="codel", codel_target_ms=10000.0))


def test_parking_lot_codel_link():
    assert_parking_lot_aqm_link("codel")


@pytest.mark.parametrize("kw, field", [
    (dict(aqm="codel", codel_target_ms=0), "codel_target_ms"),
    (dict(aqm="codel", codel_target_ms=-3.0), "codel_target_ms"),
    (dict(aqm="codel", codel_interval_ms=0), "codel_interval_ms"),
    (dict(aqm="codel", codel_interval_ms=1e9), "codel_interval_ms"),
    (dict(codel_target_ms="5"), "codel_target_ms"),
    (dict(queue_delay_hist="yes"), "queue_delay_hist"),
])
def test_dumbbell_bad_codel_inputs(kw, field):
    with pytest.raises(ConfigError) as e:
        dumbbell(**kw)
    msg = str(e.value)
    assert msg.startswith(f"{field}:") and "\n" not in msg


def test_queue_class_bad_codel_inputs():
    with pytest.raises(ConfigError, match=r"^QueueClass.codel_target_ms: 3.0 is not allowed .*"
                                          "unless aqm is 'codel'"):
        QueueClass("be", codel_target_ms=3.0)
    with pytest.raises(ConfigError, match=r"^QueueClass.codel_min_bytes"):
        QueueClass("be", aqm="codel", codel_min_bytes=-1)
    with pytest.raises(ConfigError, match=r"^Link.classes\[0\].aqm: 'codel' is not allowed"):
        Link(rate_bps=1e6, scheduler="cbq", classes=(QueueClass("be", aqm="codel", share=1.0),))
    with pytest.raises(ConfigError, match=r"^QueueClass.red: .* for aqm 'codel'"):
        QueueClass("be", aqm="codel", red=(RedThresholds(5, 15, 0.1),))
    with pytest.raises(ConfigError, match=r"^duration_s: 5000.0 is not allowed .*CoDel"):
        Scenario(links=(Link(rate_bps=1e6, classes=(QueueClass("be", aqm="codel"),)),),
                 flows=(TcpFlow(),), duration_s=5000.0)
