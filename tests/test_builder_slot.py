"""The dumbbell's and the parking lot's ``slot_s`` (docs/model.md, "Time"): the engine runs at
the slot given, the default is one packet time at the fastest rate (the access links'
100 Mb/s, faster than the 10 Mb/s bottleneck), and a bad one is refused naming the builder's
parameter."""
from __future__ import annotations

import pytest

from diffsweep import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.scenario.dumbbell import dumbbell
from diffsweep.scenario.parking_lot import parking_lot

KW = dict(n_flows=2, duration_s=4.0, warmup_s=1.0)


def test_the_slot_given_is_the_slot_run():
    access_pkt_s = 1040 * 8 / 100e6  # one packet at access_bps: the default slot
    bottleneck_pkt_s = 1040 * 8 / 10e6  # one at bottleneck_bps: a coarser slot, given
    r = simulate([dumbbell(**KW), dumbbell(slot_s=bottleneck_pkt_s, **KW),
                  parking_lot(duration_s=4.0, warmup_s=1.0),
                  parking_lot(slot_s=bottleneck_pkt_s, duration_s=4.0, warmup_s=1.0)],
                 [1, 1, 1, 1], backend="cpu")
    slots = r.replicas.set_index("replica")["slot_s"]
    assert slots[0] == pytest.approx(access_pkt_s) and slots[1] == pytest.approx(bottleneck_pkt_s)
    assert slots[2] == pytest.approx(access_pkt_s) and slots[3] == pytest.approx(bottleneck_pkt_s)
    # the same link rate at either slot (byte credit carries over: docs/model.md, "Time")
    g = r.flows.groupby("replica")["goodput_bps"].sum()
    assert g[1] == pytest.approx(g[0], rel=0.02)


@pytest.mark.parametrize("builder", [dumbbell, parking_lot])
def test_bad_slot_is_refused(builder):
    with pytest.raises(ConfigError, match=r"^slot_s: -1\.0 is not allowed \(expected a number of seconds > 0"):
        builder(slot_s=-1)
