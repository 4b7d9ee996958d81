"""A link's device queue (Link.device_queue_pkts; docs/model.md, "Device queue"): ns-3's
flow-controlled device transmit queue between the queue (disc) and the wire. Hand-counted
cases on one 10 Mb/s link whose time slot is one packet's transmission (536 + 40 B), so that
waits are whole packets; CoDel's control of the disc's sojourn; the refusals."""
from __future__ import annotations

import dataclasses

import pytest

from diffsweep import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow
from diffsweep.scenario.dumbbell import dumbbell


def _one_link(devq: int, **queue) -> Scenario:
    q = QueueClass("be", **queue)
    flows = tuple(TcpFlow(variant="sack", max_window_pkts=1000, reverse_delay_ms=10.0 + k)
                  for k in range(4))
    return Scenario(links=(Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(q,),
                                device_queue_pkts=devq),),
                    flows=flows, duration_s=10.0, warmup_s=2.0, queue_delay_hist=True)


def _run(scs):
    r = simulate(scs, [1] * len(scs), backend="cpu")
    slot = float(r.replicas["slot_s"].iloc[0])
    return r, slot


def test_drop_tail_limit_counts_the_queue_alone_the_device_queue_besides():
    # slot = one packet's transmission: a packet that finds n packets ahead of it (the wire's
    # included) leaves n + 1 slots after it came... at most. Without a device queue the
    # drop-tail limit of 20 counts the packet on the wire (ns-2): the longest wait is 19
    # slots. With D packets of device queue the 20 count the queue alone: 20 - 1 waiting
    # ahead, D in the device queue, one on the wire: 19 + D + 1 slots.
    r, slot = _run([_one_link(d, limit_pkts=20) for d in (0, 1, 3)])
    longest = (r.queues["max_delay_s"] / slot).round().astype(int).tolist()
    assert longest == [19, 21, 23]
    # the queueing-delay histogram: the wait before the device queue (the queue's sojourn, as
    # ns-3's SojournTime), at most the 20 slots of the queue's 20 packets, not the 23
    h = r.queue_delay
    for rep in (1, 2):
        assert h[h["replica"] == rep]["wait_lo_ms"].max() / (slot * 1e3) <= 20 + 1e-9
    assert (r.queues["all_drops"] > 0).all()  # the buffer did fill


def test_codel_controls_the_queue_sojourn_whatever_the_device_queue():
    # A 10-packet device queue is 4.6 ms at this rate, near CoDel's 5-ms target: were CoDel to
    # see it in its sojourns it would hold the queue's own ~4.6 ms lower. It does not (ns-3's
    # CoDel times its disc alone): the median sojourn moves by far less, the longest wait grows
    # by the device queue's 10 packets.
    r, slot = _run([_one_link(d, limit_pkts=1000, aqm="codel") for d in (0, 10)])
    q = r.queues
    p50 = q["delay_p50_ms"].to_numpy()
    assert abs(p50[1] - p50[0]) < 1.5
    assert q["max_delay_s"].iloc[1] / slot >= q["max_delay_s"].iloc[0] / slot + 8
    assert (q["all_drops"] > 0).all()


def test_no_device_queue_is_the_default_and_changes_nothing():
    a = _one_link(0, limit_pkts=20, aqm="codel")
    b = dataclasses.replace(a, links=(dataclasses.replace(a.links[0], device_queue_pkts=0),))
    assert Link(rate_bps=1e6).device_queue_pkts == 0
    assert a.digest() == b.digest()
    ra, rb = simulate([a], [3], backend="cpu"), simulate([b], [3], backend="cpu")
    assert ra.queues.equals(rb.queues) and ra.flows.equals(rb.flows)


def test_a_device_queue_changes_red_and_fq_codel_runs():
    # RED averages the queue alone: with a device queue its waiting queue (queue + device
    # queue, as ns-3's PacketsInQueue of both) is larger; FQ-CoDel still drops and shares
    kw = dict(n_flows=8, rtt_ms=40.0, buffer_pkts=100, max_window_pkts=1000, tcp="sack",
              duration_s=15.0, warmup_s=5.0)
    r = simulate([dumbbell(aqm="red", device_queue_pkts=d, **kw) for d in (0, 1)]
                 + [dumbbell(aqm="fq_codel", device_queue_pkts=2, **kw)], [1, 1, 1],
                 backend="cpu")
    q = r.queues[r.queues["link"] == 0].set_index("replica")["mean_waiting_pkts"]
    assert q[1] > q[0] + 0.3
    f = r.flows[r.flows["replica"] == 2]["goodput_bps"].to_numpy()
    assert f.sum() ** 2 / (len(f) * (f ** 2).sum()) > 0.95


@pytest.mark.parametrize("value, allowed", [(-1, "an integer in [0, 64]"), (65, "[0, 64]"),
                                             (1.5, "an integer in [0, 64]")])
def test_bad_device_queue_is_refused(value, allowed):
    with pytest.raises(ConfigError, match=r"Link\.device_queue_pkts.*" + allowed.replace("[", r"\[").replace("]", r"\]")):
        Link(rate_bps=1e6, device_queue_pkts=value)


def test_device_queue_needs_one_class():
    with pytest.raises(ConfigError, match=r"device_queue_pkts.*0 on a link with 2 classes"):
        Link(rate_bps=1e6, device_queue_pkts=1,
             classes=(QueueClass("ef", limit_pkts=5), QueueClass("be", limit_pkts=5)))
    with pytest.raises(ConfigError, match=r"^device_queue_pkts"):
        dumbbell(device_queue_pkts=1, cross="cbr", cross_class="ef")
