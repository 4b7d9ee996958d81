"""Shared checks of the AQMs that judge beside the buffer (CoDel, PIE: tests/test_codel.py,
tests/test_pie.py; FQ-CoDel and the ECN variants use them too)."""
from __future__ import annotations

import numpy as np

from diffsweep.engine.compiled import run_packed
from diffsweep.engine.pack import pack
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow


def assert_is_droptail_one_larger(aqm_class: QueueClass, seed: int = 5) -> None:
    """An AQM class of limit L that never drops early gives the outputs of a drop-tail class of
    L + 1 (its limit counts the packets waiting, drop-tail's the one on the wire too), on six
    flows that overflow the buffer (so that the comparison means something)."""
    def sc(q):
        return Scenario(links=(Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(q,)),),
                        flows=tuple(TcpFlow(reverse_delay_ms=10.0 + k, max_window_pkts=60)
                                    for k in range(6)), duration_s=5.0, warmup_s=1.0)
    tail = QueueClass(aqm_class.name, limit_pkts=aqm_class.limit_pkts + 1)
    a = run_packed(pack([sc(aqm_class)], [seed]), "cpu")
    b = run_packed(pack([sc(tail)], [seed]), "cpu")
    assert a["q_drops"].sum() > 0
    for k in ("q_arrivals", "q_departures", "q_drops", "flow_delivered_bytes", "q_pkt_slots"):
        assert np.array_equal(a[k], b[k]), k
    assert a["q_early_drops"].sum() == 0


def assert_drops_early_keeps_link_busy(res, min_utilization: float = 0.85) -> None:
    """A bufferbloat run (a large buffer the flows could fill) under an AQM: every replica's
    AQM drops early and its buffer never overflows, the drops it counts are its early and
    forced ones, the link stays busy, and every flow drop is a queue drop (no access-link
    loss in these scenarios)."""
    from diffsweep.analysis import registry  # noqa: PLC0415
    q = res.queues
    assert (q["early_drops_green"] > 0).all() and (q["drops"] == 0).all()
    assert (q["all_drops"] == q["early_drops_green"] + q["forced_drops_green"]).all()
    util = registry.values(res, "utilization")["utilization"]
    assert (util > min_utilization).all()
    f = res.flows.groupby("seed")["drops"].sum()
    assert f.to_numpy().tolist() == q.groupby("seed")["all_drops"].sum().to_numpy().tolist()


def assert_parking_lot_aqm_link(aqm: str) -> None:
    """A two-link parking lot with ``aqm`` on link 0 and drop-tail on link 1: only link 0
    drops early, and its median queueing delay is the lower."""
    import diffsweep  # noqa: PLC0415
    from diffsweep.scenario.parking_lot import parking_lot  # noqa: PLC0415
    from diffsweep.sweep.grid import Grid  # noqa: PLC0415
    res = diffsweep.run(Grid(parking_lot, seeds=[1], n_links=2, n_long=2, n_cross=2,
                             aqm=[[aqm, "droptail"]], buffer_pkts=500,
                             max_window_pkts=500, duration_s=20.0, warmup_s=5.0,
                             queue_delay_hist=True), backend="cpu", quiet=True)
    q = res.queues.sort_values("link")
    assert q["aqm"].tolist() == [aqm, "droptail"]
    assert q["early_drops_green"].iloc[0] > 0 and q["early_drops_green"].iloc[1] == 0
    assert q["delay_p50_ms"].iloc[0] < q["delay_p50_ms"].iloc[1]
