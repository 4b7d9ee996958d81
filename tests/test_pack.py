"""pack: capacities sized per replica, from what a replica can hold, never from the batch."""
import pandas.testing as pd_testing
import pytest

from diffsweep.engine.compiled import state_bytes
from diffsweep.engine.pack import UNLIMITED_CLASS_PKTS, pack
from diffsweep.scenario.builders import kaur_vin


def test_state_bytes_do_not_depend_on_batch_size():
    """The same-slot buffer of each replica was once sized for the whole batch (a 64-flow
    replica took 9 MiB at 4,096 replicas): the state of one replica must not grow with R."""
    for n_flows in (1, 64):
        sc = kaur_vin(n_flows=n_flows, rtp_ms=8.0, ef="onoff", udp=True, duration_s=1.0, warmup_s=0.1)
        one = pack([sc], [0])
        many = pack([sc] * 512, list(range(512)))
        assert one.shape == {**many.shape, "n_replicas": 1}
        assert state_bytes(one.shape) == state_bytes(many.shape)


def test_mixed_batch_takes_each_capacity_from_its_largest_replica():
    small = kaur_vin(n_flows=1, rtp_ms=8.0, duration_s=1.0, warmup_s=0.1)
    big = kaur_vin(n_flows=64, rtp_ms=8.0, duration_s=1.0, warmup_s=0.1)
    a, b = pack([small], [0]).shape, pack([big], [0]).shape
    mixed = pack([small, big, small], [0, 1, 2]).shape
    for k in ("ack_cap", "delay_cap", "nic_chunks", "stage_cap", "emit_cap"):
        assert mixed[k] == max(a[k], b[k]), k
    assert mixed["class_caps"] == [max(x, y) for x, y in zip(a["class_caps"], b["class_caps"])]


def test_kaur_64_flow_state_is_bounded():
    """Rings sized by what a replica holds: ACKs in one pool for the replica (one loop delay
    of departures), not 64 worst-case rings (was 318 KiB in 0.1.0; target: benchmarks/gpu/gpu.md),
    access-link FIFOs in a pool of chunks (they were 128 KiB as a ring per flow)."""
    sc = kaur_vin(n_flows=64, rtp_intervals=(12, 26, 8), ef="onoff", udp=True)
    p = pack([sc], [0])
    assert p.shape["ack_cap"] <= 512
    assert state_bytes(p.shape) <= 68 * 1024  # 65.3 KiB (access pools, per-class rings)
    k5 = kaur_vin(n_flows=64, rtp_ms=8.0, ef="onoff", udp=True)  # the K5 replica: 62.4 KiB
    assert state_bytes(pack([k5], [0]).shape) <= 64 * 1024  # the 64 KiB of benchmarks/gpu/gpu.md


def test_class_rings_only_for_the_classes_a_batch_uses():
    """A batch whose links have one class each keeps one class ring per link, not kMaxClasses:
    the state shrinks by exactly the three unused rings per link."""
    from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow
    link = Link(rate_bps=10e6, prop_delay_ms=2.0, classes=(QueueClass("q", limit_pkts=500),))
    sc = Scenario(links=(link, link), flows=(TcpFlow(route=(0, 1), cls="q"),), duration_s=1.0)
    p = pack([sc], [1])
    assert p.shape["ring_classes"] == 1 and p.shape["class_caps"] == [512]  # 500 packets
    cap = p.shape["class_caps"][0]
    four = dict(p.shape, ring_classes=4, class_caps=[cap] * 4)
    assert state_bytes(four) - state_bytes(p.shape) == 2 * 3 * cap * 16  # 16-byte packets
    two = pack([kaur_vin(n_flows=1, ef="onoff", t_on_ms=10.0, duration_s=2.0, warmup_s=0.5)], [1])
    # Kaur & Vin: the unlimited EF class gets UNLIMITED_CLASS_PKTS, the best-effort class its
    # 200 KB buffer in 576-byte packets (348 -> 512)
    assert two.shape["ring_classes"] == 2 and two.shape["class_caps"] == [UNLIMITED_CLASS_PKTS, 512]


def test_access_pool_is_a_chunk_per_flow_plus_one_buffer():
    """Kaur & Vin, 64 flows, 347-packet access buffers: one chunk (8 segments) per flow plus
    one flow's whole buffer (44 + 1 chunks), per lane; "full" holds every buffer at once."""
    sc = kaur_vin(n_flows=64, rtp_ms=8.0, ef="onoff", udp=True, duration_s=1.0, warmup_s=0.1)
    assert pack([sc], [0]).shape["nic_chunks"] == 64 + 45
    assert pack([sc], [0], lanes=16).shape["nic_chunks"] == 4 + 45
    assert pack([sc], [0], nic_pool="full").shape["nic_chunks"] == 64 * 45
    one = kaur_vin(n_flows=1, rtp_ms=8.0, duration_s=1.0, warmup_s=0.1)
    assert pack([one], [0]).shape["nic_chunks"] == 45  # never more than "full"
    with pytest.raises(ValueError, match="nic_pool='tiny' is not allowed"):
        pack([sc], [0], nic_pool="tiny")


def test_replica_whose_access_pool_runs_out_is_rerun_exactly(monkeypatch):
    """A lane's pool that runs out sets the overflow bit; simulate reruns that replica with a
    pool that cannot run out, and the tables are those of a run that never ran short."""
    from diffsweep.engine import compiled, execution as engine
    import diffsweep.engine.pack as pk
    scs = [kaur_vin(n_flows=n, rtp_ms=8.0, ef="onoff", udp=True, t_on_ms=10.0, duration_s=3.0,
                    warmup_s=0.5) for n in (1, 8)]
    full = engine.simulate(scs, [3, 4], backend="cpu")
    real = pk.nic_pool_chunks
    monkeypatch.setattr(pk, "nic_pool_chunks",
                        lambda uniq, F, lanes, how: real(uniq, F, lanes, how) if how == "full" else 2)
    short = pk.pack(scs, [3, 4])
    assert short.shape["nic_chunks"] == 2
    out = compiled.run_packed(short, "cpu")
    assert (out["overflow"] == engine._overflow_bit("access-link pool")).all()
    run_family, pools = compiled.run_family, []
    monkeypatch.setattr(compiled, "run_family",
                        lambda ps, *a, **k: pools.append([p.nic_pool for p in ps]) or run_family(ps, *a, **k))
    rerun = engine.simulate(scs, [3, 4], backend="cpu")
    # two shape groups in one engine job, both rerun in a second
    assert pools == [["compact", "compact"], ["full", "full"]]
    for name in ("replicas", "flows", "queues", "sources"):
        pd_testing.assert_frame_equal(getattr(full, name), getattr(rerun, name))


def test_a_shape_without_a_feature_s_state_is_reported_not_used():
    """State only some replicas need (RED here) is in the block only when pack says a replica
    of the batch needs it; a shape that lacks it sets the overflow bit the host raises on."""
    from diffsweep.engine.compiled import run_packed
    from diffsweep.engine.execution import _overflow_bit
    from test_diffserv import red_scenario
    p = pack([red_scenario()], [1])
    assert p.shape["aqm_states"] == 1 and p.shape["flow_ext"] == 0 and p.shape["conn_meters"] == 0
    assert int(run_packed(p, "cpu")["overflow"][0]) == 0
    p.shape["aqm_states"] = 0
    assert state_bytes(p.shape) < state_bytes({**p.shape, "aqm_states": 1})
    assert int(run_packed(p, "cpu")["overflow"][0]) == _overflow_bit("batch shape without a feature's state")


def test_the_block_puts_what_every_slot_touches_first():
    """docs/design.md, "Replica state": a slot's small parts side by side, then the counters,
    then the per-flow state and the rings, so that a slot's scalars share few cache lines
    (benchmarks/gpu/coalesce.py: 14.1 -> 12.1 lines a slot for a lone 1-flow replica). The parts
    add up to the block: make_layout names each part as it places it."""
    from diffsweep.engine.compiled import state_sections

    for n_flows in (1, 64):
        sc = kaur_vin(n_flows=n_flows, rtp_ms=8.0, ef="onoff", udp=True, duration_s=1.0,
                      warmup_s=0.1)
        shape = pack([sc], [0]).shape
        parts = state_sections(shape)
        order = list(parts)
        small = order[:order.index("outputs")]
        assert small[:3] == ["header", "links", "class_queues"]
        for name in ("sources", "lanes", "flow_tree", "delack_tree", "arrival_buffer"):
            assert name in small, name
        for name in ("senders", "receivers", "ack_pool", "queue_rings", "emission_rings"):
            assert order.index(name) > order.index("outputs"), name
        # what comes before the counters is small: under 1 KiB with 1 flow (912 bytes here)
        if n_flows == 1:
            assert sum(parts[k] for k in small) <= 1024
        assert sum(parts.values()) == state_bytes(shape)  # every byte of the block in a part
