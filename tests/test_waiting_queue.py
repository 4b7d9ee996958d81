"""queues.mean_waiting_pkts: the packets waiting, the one on the wire left out, each from the
middle of its arrival slot to the start of its transmission (docs/model.md, Links; what ns-2's
queue monitor integrates). A measure only: the engine's bits elsewhere are the recorded ones
(test_engine_golden.py, test_recorded.py)."""
from __future__ import annotations

import dataclasses

import numpy as np

from diffsweep import simulate
from diffsweep.scenario.dumbbell import dumbbell
from diffsweep.scenario.parking_lot import parking_lot

# one 1040-byte packet at the 10 Mb/s bottleneck: the slot these cases are computed at (given
# as slot_s: the default is one packet at the 100 Mb/s access links, a tenth of it)
PKT_S = 1040 * 8 / 10e6


def _busy(res) -> np.ndarray:
    q = res.queues
    measured = q["replica"].map(res.replicas.set_index("replica")["measured_s"])
    return (q["bytes_departed"] * 8 / q["rate_bps"] / measured).to_numpy()


def _as_cbq(sc):
    """The same scenario with its bottleneck as one "cbq" class holding the whole link."""
    l0 = sc.links[0]
    one = dataclasses.replace(l0.classes[0], share=1.0)
    return dataclasses.replace(sc, links=(dataclasses.replace(l0, scheduler="cbq", classes=(one,)),)
                               + tuple(sc.links[1:]))


def test_standing_queue_waits_half_a_slot_less_than_its_length_less_the_wire():
    """One window-limited flow whose window exceeds the path's packets (window 20, 12 packet
    times of round trip): 8 packets stand in the queue at every slot's end, the head among
    them on the wire, and each of the others started at a slot's end: 8 - 1 + 1/2. The same
    numbers through the cbq path (a class's head on its own pipe's wire)."""
    sc = dumbbell(n_flows=1, rtt_ms=10.0, bottleneck_delay_ms=2.0, duration_s=20, warmup_s=5,
                  seed=1, slot_s=PKT_S)
    res = simulate([sc, _as_cbq(sc)], [1, 1], backend="cpu")
    q = res.queues[res.queues["link"] == 0]
    assert (q["drops"] == 0).all()
    assert np.allclose(q["mean_queue_pkts"], 8.0, rtol=0, atol=1e-3)
    assert np.allclose(q["mean_waiting_pkts"], q["mean_queue_pkts"] - 0.5, rtol=0, atol=1e-3)
    assert q["mean_waiting_pkts"].iloc[0] == q["mean_waiting_pkts"].iloc[1]


def test_a_lone_packet_never_waits():
    """One flow whose window is below the path's packets: every packet reaches an idle link
    and leaves within its slot, so nothing waits; the slot-end length less the busy fraction
    (the comparisons' estimate before this column) says -busy."""
    sc = dumbbell(n_flows=1, rtt_ms=40.0, duration_s=20, warmup_s=5, seed=1, slot_s=PKT_S)
    res = simulate([sc], [1], backend="cpu")
    q = res.queues[res.queues["link"] == 0]
    busy = _busy(res)[q.index]
    assert q["mean_waiting_pkts"].iloc[0] == 0.0
    assert busy[0] > 0.3 and q["mean_queue_pkts"].iloc[0] - busy[0] < -0.3


def test_waiting_queue_is_between_zero_and_the_length():
    """Per packet the wait counted is at most its slot-end count less its slot on the wire plus
    half a slot, and never below 0: so over every queue, drop-tail and RED, at one packet time
    and at a quarter of it (up to one slot of the window's edges)."""
    scs = []
    for aqm in ("droptail", "red"):
        sc = parking_lot(n_links=2, n_long=4, n_cross=4, aqm=aqm, duration_s=15, warmup_s=5,
                         seed=2, slot_s=PKT_S)
        scs += [sc, dataclasses.replace(sc, slot_s=PKT_S / 4)]
    res = simulate(scs, [2] * len(scs), backend="cpu")
    q = res.queues
    tol = 1e-3
    assert (q["mean_waiting_pkts"] >= -tol).all()
    assert (q["mean_waiting_pkts"] <= q["mean_queue_pkts"] + tol).all()
    assert (q["mean_waiting_pkts"] > 0).any()


def test_waiting_queue_barely_moves_with_the_slot():
    """RED's parking lot (3 links, 8 long + 4 cross flows a link): refining the slot from one
    packet time to a quarter moves the waiting queue by under 7% (10 seeds x 60 s: +5.5% on
    link 0) while the slot-end length less the busy fraction moves by over 12% (+17%): the
    latter's error is a whole slot per packet at one packet time, the former's is not."""
    seeds = list(range(1, 11))
    scs = [parking_lot(n_links=3, n_long=8, n_cross=4, aqm="red", duration_s=60, warmup_s=10,
                       seed=s, slot_s=PKT_S) for s in seeds]
    fine = [dataclasses.replace(sc, slot_s=PKT_S / 4) for sc in scs]
    res = simulate(scs + fine, seeds * 2, backend="cpu")
    q = res.queues.assign(old=res.queues["mean_queue_pkts"] - _busy(res),
                          fine=res.queues["replica"] >= len(seeds))
    by = q.groupby(["fine", "link"])[["mean_waiting_pkts", "old"]].mean()
    for link in range(3):
        w0, w1 = by.loc[(False, link), "mean_waiting_pkts"], by.loc[(True, link), "mean_waiting_pkts"]
        o0, o1 = by.loc[(False, link), "old"], by.loc[(True, link), "old"]
        assert abs(w1 / w0 - 1) < 0.07, (link, w0, w1)
        assert o1 / o0 - 1 > 0.12, (link, o0, o1)
