"""pack: capacities sized per replica, from what a replica can hold, never from the batch."""
from diffsweep.engine import state_bytes
from diffsweep.pack import pack
from diffsweep.scenarios import kaur_vin


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
    for k in ("queue_cap", "ack_cap", "delay_cap", "nic_cap", "stage_cap", "emit_cap"):
        assert mixed[k] == max(a[k], b[k]), k


def test_kaur_64_flow_state_is_bounded():
    """Rings sized by what a replica holds: ACKs in one pool for the replica (one loop delay
    of departures), not 64 worst-case rings (was 318 KiB in 0.1.0; target: benchmarks/gpu.md)."""
    sc = kaur_vin(n_flows=64, rtp_intervals=(12, 26, 8), ef="onoff", udp=True)
    p = pack([sc], [0])
    assert p.shape["ack_cap"] <= 512
    assert state_bytes(p.shape) <= 224 * 1024


def test_class_rings_only_for_the_classes_a_batch_uses():
    """A batch whose links have one class each keeps one class ring per link, not kMaxClasses:
    the state shrinks by exactly the three unused rings per link."""
    from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow
    link = Link(rate_bps=10e6, prop_delay_ms=2.0, classes=(QueueClass("q", limit_pkts=500),))
    sc = Scenario(links=(link, link), flows=(TcpFlow(route=(0, 1), cls="q"),), duration_s=1.0)
    p = pack([sc], [1])
    assert p.shape["ring_classes"] == 1
    four = dict(p.shape, ring_classes=4)
    ring_bytes = p.shape["queue_cap"] * 16  # one class ring of 16-byte packets
    assert state_bytes(four) - state_bytes(p.shape) == 2 * 3 * ring_bytes
    two = pack([kaur_vin(n_flows=1, ef="onoff", t_on_ms=10.0, duration_s=2.0, warmup_s=0.5)], [1])
    assert two.shape["ring_classes"] == 2
