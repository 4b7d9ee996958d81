"""Issue 53's time series: the queue trace (Scenario.queue_trace_interval_s, table
``queue_trace``) and the cwnd trace of more than 4 flows, both bounded by MAX_TRACE_BYTES.
Every schedule gives the same bits: tests/test_schedule.py runs a traced case
(engine_cases.schedule_only_cases: trace0)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import diffsweep as ds
from diffsweep import Link, QueueClass, Scenario, TcpFlow
from diffsweep.core.errors import ConfigError
from diffsweep.engine.execution import simulate
from diffsweep.scenario import MAX_TRACE_BYTES, RedThresholds, default_slot_s


def _scenario(n_flows: int = 16, **kw) -> Scenario:
    # one class per link so that every flow's class exists on its route
    red = QueueClass("be", limit_pkts=50, aqm="red", red=(RedThresholds(5, 15, 0.1),))
    links = (Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(red,)),
             Link(rate_bps=40e6, prop_delay_ms=1.0, classes=(QueueClass("be", limit_pkts=30),)))
    flows = tuple(TcpFlow(route=(0, 1) if k % 2 else (0,), reverse_delay_ms=10.0 + 5 * k)
                  for k in range(n_flows))
    return Scenario(links=links, flows=flows, duration_s=2.0, warmup_s=0.0, **kw)


def test_every_slot_sampled_averages_to_the_mean_queue():
    """Sampled every slot, the samples after the first are the lengths at each slot's end:
    their mean is the queues table's time average (q_pkt_slots, q_byte_slots) exactly."""
    # (10,001 samples of 2 links: 1.0 / 1e-4 is exactly 10,000 slots, the last one sampled)
    base = dataclasses.replace(_scenario(), duration_s=1.0, slot_s=1e-4)
    sc = dataclasses.replace(base, queue_trace_interval_s=default_slot_s(base))
    res = simulate([sc], [3])
    qt = res.queue_trace
    assert list(qt.columns) == ["replica", "link", "cls_index", "cls", "t_s", "queue_pkts",
                                "queue_bytes", "red_avg"]
    for link in (0, 1):
        s = qt[qt.link == link]
        q = res.queues[res.queues.link == link].iloc[0]
        assert len(s) == round(sc.duration_s / default_slot_s(sc)) + 1
        assert s.queue_pkts.iloc[0] == 0 and s.queue_bytes.iloc[0] == 0  # t = 0: empty
        assert s.queue_pkts.max() > (5 if link == 0 else 0)  # the bottleneck queued most
        assert np.isclose(s.queue_pkts.iloc[1:].mean(), q.mean_queue_pkts, rtol=1e-12, atol=0)
        assert np.isclose(s.queue_bytes.iloc[1:].mean(), q.mean_queue_bytes, rtol=1e-12, atol=0)
    red = qt[qt.link == 0].red_avg
    assert red.notna().all() and red.max() > 1.0  # RED's average moved
    assert qt[qt.link == 1].red_avg.isna().all()  # drop-tail: no average
    # the RED average over the run, as the queues table has it from its own per-slot sum
    assert np.isclose(red.iloc[1:].mean(), res.queues.red_avg_red.iloc[0], rtol=1e-5)


def test_the_trace_changes_no_other_result_and_is_off_by_default():
    base = _scenario()
    plain = simulate([base], [5])
    traced = simulate([dataclasses.replace(base, queue_trace_interval_s=0.05,
                                           queue_trace_links=(1,))], [5])
    assert plain.queue_trace.empty and plain.cwnd_trace.empty
    assert base.to_dict() == dataclasses.replace(base, queue_trace_interval_s=None).to_dict()
    assert "queue_trace_interval_s" not in base.to_dict()  # digest of older scenarios kept
    for t in ("flows", "queues", "replicas"):
        a = getattr(plain, t)
        b = getattr(traced, t)
        assert a.equals(b), t
    qt = traced.queue_trace
    assert set(qt.link) == {1} and len(qt) == 41  # 0, 0.05, ..., 2.0
    np.testing.assert_allclose(qt.t_s, np.arange(41) * 0.05)


def test_a_link_subset_holds_the_same_samples():
    base = _scenario()
    every = simulate([dataclasses.replace(base, queue_trace_interval_s=0.01)], [7]).queue_trace
    one = simulate([dataclasses.replace(base, queue_trace_interval_s=0.01,
                                        queue_trace_links=(1,))], [7]).queue_trace
    a = every[every.link == 1].drop(columns="replica").reset_index(drop=True)
    assert a.equals(one.drop(columns="replica").reset_index(drop=True))


def test_sixteen_traced_flows_each_as_traced_alone():
    """Lifting the 4-flow cap: 16 flows traced at once, each flow's series the same as when
    it is traced alone (a column per traced flow, none shared)."""
    base = _scenario()
    many = simulate([dataclasses.replace(base, trace_flows=tuple(range(16)),
                                         trace_interval_s=0.02)], [9]).cwnd_trace
    assert sorted(set(many.flow)) == list(range(16))
    for f in (0, 7, 15):
        alone = simulate([dataclasses.replace(base, trace_flows=(f,), trace_interval_s=0.02)],
                         [9]).cwnd_trace
        got = many[many.flow == f].drop(columns="replica").reset_index(drop=True)
        assert got.equals(alone.drop(columns="replica").reset_index(drop=True))
        assert alone.cwnd_pkts.max() > 2  # the window grew


def test_the_memory_check_bounds_both_traces():
    base = _scenario(n_flows=64)
    # 64 flows x 10,001 samples x 4 bytes = 2.56 MB > 1.6 MB
    with pytest.raises(ConfigError, match=r"^trace_flows: .*traces of at most 1600000 bytes"):
        dataclasses.replace(base, duration_s=100.0, trace_flows=tuple(range(64)),
                            trace_interval_s=0.01)
    ok = dataclasses.replace(base, duration_s=100.0, trace_flows=tuple(range(39)),
                             trace_interval_s=0.01)  # 39 x 10,001 x 4 = 1,560,156
    assert ds.scenario.checks.trace_bytes(ok) <= MAX_TRACE_BYTES
    # 2 links x 20,001 samples x 64 bytes = 2.56 MB
    with pytest.raises(ConfigError, match=r"^queue_trace_interval_s: 0\.005 .*64 per traced link"):
        dataclasses.replace(base, duration_s=100.0, queue_trace_interval_s=0.005)
    dataclasses.replace(base, duration_s=100.0, queue_trace_interval_s=0.005,
                        queue_trace_links=(0,))  # 1.28 MB: allowed
    with pytest.raises(ConfigError, match=r"^queue_trace_links\[0\]: 2 .*a link index in 0\.\.1"):
        dataclasses.replace(base, queue_trace_interval_s=0.1, queue_trace_links=(2,))
    with pytest.raises(ConfigError, match=r"^queue_trace_links: .*None without queue_trace"):
        dataclasses.replace(base, queue_trace_links=(0,))
    with pytest.raises(ConfigError, match=r"^queue_trace_interval_s: 0\.0 "):
        dataclasses.replace(base, queue_trace_interval_s=0.0)


def test_the_dumbbell_passes_the_traces():
    from diffsweep.scenario.dumbbell import dumbbell
    sc = dumbbell(n_flows=8, duration_s=2.0, warmup_s=0.5, trace_flows=list(range(8)),
                  trace_interval_s=0.1, queue_trace_interval_s=0.05)
    res = simulate([sc], [1])
    assert len(res.queue_trace) == 41 and res.queue_trace.queue_pkts.max() > 0
    assert sorted(set(res.cwnd_trace.flow)) == list(range(8))
    assert dumbbell(n_flows=8).digest() == dumbbell(n_flows=8, queue_trace_interval_s=None).digest()
