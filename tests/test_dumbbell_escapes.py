"""Issue 53's escapes on the dumbbell builder, each a test that failed before its fix: RED/RIO
thresholds against the buffer (any QueueClass), the window-limited warning of a run, per-flow
start times (``start_s``), ns-2's ``bytes_`` and ``queue_in_bytes_`` apart
(``red_queue_in_bytes``), and the queues table's ``all_drops``."""
import warnings

import numpy as np
import pytest

import diffsweep
from diffsweep.cli import app as cli
from diffsweep.core.errors import ConfigError
from diffsweep.engine.pack import pack
from diffsweep.scenario import QueueClass, RedThresholds
from diffsweep.scenario.dumbbell import dumbbell
from diffsweep.scenario.links import RedThresholdWarning
from diffsweep.sweep.grid import Grid

SHORT = dict(duration_s=30.0, warmup_s=10.0)


def _red_warnings(fn):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = fn()
    return out, [str(w.message) for w in got if issubclass(w.category, RedThresholdWarning)]


# --- 1. RED thresholds against the buffer ----------------------------------------------------
def test_red_auto_thresholds_above_a_small_buffer_warn_naming_both():
    # ns-2.35's automatic thresholds at 10 Mb/s: 6.25 / 18.75 mean-size packets; a buffer of
    # 10 lets RED act from 6.25 but cuts its ramp (accepted silently before)
    sc, said = _red_warnings(lambda: dumbbell(n_flows=2, aqm="red", buffer_pkts=10))
    assert len(said) == 1 and "\n" not in said[0]
    assert "red_max_th_pkts 18.75" in said[0] and "buffer_pkts (10)" in said[0]
    assert sc.params["red_min_th"] == 6.25
    _, none = _red_warnings(lambda: dumbbell(n_flows=2, aqm="red"))  # buffer 50: fits
    assert none == []


@pytest.mark.parametrize("kw, field", [
    (dict(buffer_pkts=5), "red_min_th_pkts: 6.25"),                # automatic min_th 6.25
    (dict(red_min_th_pkts=50, red_max_th_pkts=80), "red_min_th_pkts: 50.0"),
    (dict(red_min_th_pkts=12, red_max_th_pkts=20, red_bytes=False, red_queue_in_bytes=False,
          buffer_pkts=12), "red_min_th_pkts: 12.0"),
])
def test_red_min_th_at_or_above_the_buffer_is_refused(kw, field):
    with pytest.raises(ConfigError) as e:
        dumbbell(aqm="red", **kw)
    assert str(e.value).startswith(field) and "buffer_pkts" in str(e.value)


def test_rio_thresholds_against_the_buffer():
    with pytest.raises(ConfigError, match=r"^rio_thresholds\[0\]: .*buffer_pkts \(50\)"):
        dumbbell(aqm="rio-c", rio_thresholds=[[50, 60, 0.02], [5, 10, 0.1]])
    _, said = _red_warnings(lambda: dumbbell(aqm="wred", buffer_pkts=20,
                                             rio_thresholds=[[10, 30, 0.02], [2, 8, 0.1]]))
    assert len(said) == 1 and said[0].startswith("rio_thresholds[0]: max_th 30")


def test_queue_class_checks_thresholds_in_its_own_unit():
    # packets: min_th 60 of a 50-packet buffer
    with pytest.raises(ConfigError, match=r"^QueueClass\.red\[0\]\.min_th: 60\.0 .*50 packets"):
        QueueClass(aqm="red", red=[RedThresholds(60, 90, 0.1)], limit_pkts=50)
    # bytes: 20 packets x 500 B = 10000 B of buffer (red.cc's qlim); min 3000 B fits, max
    # 30000 B is above it
    q, said = _red_warnings(lambda: QueueClass(aqm="red", red=[RedThresholds(3000, 30000, 0.1)],
                                               red_bytes=True, limit_pkts=20))
    assert q.queue_in_bytes and len(said) == 1
    assert said[0].startswith("QueueClass.red[0].max_th 30000") and "10000 bytes" in said[0]
    with pytest.raises(ConfigError, match=r"min_th: 12000\.0 .*10000 bytes"):
        QueueClass(aqm="red", red=[RedThresholds(12000, 30000, 0.1)], red_bytes=True,
                   limit_pkts=20)
    # a class of a Link warns once, where it is made, not again when the Link validates it
    _, said = _red_warnings(lambda: diffsweep.Link(10e6, classes=[QueueClass(
        aqm="wred", red=[RedThresholds(10, 30, 0.02), RedThresholds(2, 8, 0.1)],
        limit_pkts=20)]))
    assert said == ["QueueClass.red[0].max_th 30 is above the buffer (20 packets, limit_pkts "
                    "/ limit_bytes): RED drops early from min_th, but the buffer overflows "
                    "before the average reaches max_th, cutting its ramp to max_p short"]


# --- 2. window-limited flows -----------------------------------------------------------------
def _window_lines(**kw):
    grid = Grid(dumbbell, seeds=[0, 1], n_flows=2, aqm=["droptail", "red"], **SHORT, **kw)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        res = diffsweep.run(grid, backend="cpu")
    return res, [str(w.message) for w in got if "window-limited" in str(w.message)]


def test_a_window_limited_run_warns_and_one_that_is_not_does_not():
    # issue 53: two 100-ms flows at ns-2's window_ 20 get 1.6 Mb/s each of 10 Mb/s, no loss
    res, lines = _window_lines()
    assert (res.flows["drops"] == 0).all()
    cap = 20 * 1000 * 8 / res.flows["rtt_mean_s"]
    assert np.allclose(res.flows["goodput_bps"], cap, rtol=0.01)
    assert len(lines) == 1 and "\n" not in lines[0]
    assert lines[0].startswith("8 of 8 TCP flows (100%), in 4 of 4 replicas,")
    assert "raise max_window_pkts (ns-2's window_, default 20)" in lines[0]
    res, lines = _window_lines(max_window_pkts=200)
    assert (res.flows["drops"] > 0).all() and lines == []


def test_diffsweep_run_says_the_window_limit_on_stderr(tmp_path, capsys):
    sweep = tmp_path / "w.toml"
    sweep.write_text('name = "w"\nbuilder = "dumbbell"\nseeds = 1\n[fixed]\nn_flows = 2\n'
                     'duration_s = 30.0\nwarmup_s = 10.0\n')
    assert cli.main(["run", str(sweep), "--out", str(tmp_path / "out"), "--backend", "cpu",
                     "--quiet"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "window-limited" in line]
    assert len(err) == 1 and err[0].startswith("diffsweep: warning: 2 of 2 TCP flows (100%)")


# --- 3. per-flow start times -----------------------------------------------------------------
def test_start_s_one_value_a_list_and_its_checks():
    assert [f.start_s for f in dumbbell(n_flows=3, start_s=2.5).flows] == [2.5] * 3
    sc = dumbbell(n_flows=3, start_s=[0, 1.5, 40])
    assert [f.start_s for f in sc.flows] == [0.0, 1.5, 40.0]
    assert dumbbell.seed_matters(start_s=[0, 1]) is False and dumbbell.seed_matters()
    for bad, what in (([0, 1], "a list of n_flows (3)"), (50, "< duration_s / 2 (50 s)"),
                      (-1, ">= 0"), ([0, 1, "x"], "start_s[2]")):
        with pytest.raises(ConfigError, match=r"^start_s") as e:
            dumbbell(n_flows=3, start_s=bad)
        assert what in str(e.value)


def test_flows_start_when_start_s_says():
    # flow 1 starts 20 s into a 50-s run (no warm-up), both held at a window of 8 packets
    # (no contention): 30/50 of the bytes of flow 0, which starts at 0
    grid = Grid(dumbbell, seeds=[0], n_flows=2, duration_s=50.0, warmup_s=0.0,
                max_window_pkts=8, start_s=[[0.0, 20.0]])  # a per-flow list in an axis
    assert grid.n_points == 1
    res = diffsweep.run(grid, backend="cpu")
    got = res.flows.sort_values("flow")["delivered_bytes"].to_numpy()
    assert 0.55 < got[1] / got[0] < 0.62


# --- 4. bytes_ and queue_in_bytes_ apart -----------------------------------------------------
def test_red_bytes_and_queue_in_bytes_are_two_settings():
    before = dumbbell(aqm="red")
    (q,) = before.links[0].classes
    # both true, as before the split: the field holds its default and stays out of the
    # scenario's dict, so the scenario keeps its digest and its results folder
    assert q.red_bytes and q.red_queue_in_bytes is None and q.queue_in_bytes
    assert "red_queue_in_bytes" not in str(before.to_dict())
    sc = dumbbell(aqm="red", red_bytes=True, red_queue_in_bytes=False)
    (q,) = sc.links[0].classes
    assert q.red_bytes and not q.queue_in_bytes
    assert q.limit_pkts == 50 and q.red[0].min_th == 6.25  # packets, not x 500 B
    rows = pack([sc], [0]).arrays
    assert rows["red_bytes"][0, 0, 0] == 1 and rows["red_queue_in_bytes"][0, 0, 0] == 0
    (q,) = dumbbell(aqm="red", red_bytes=False, red_queue_in_bytes=True).links[0].classes
    assert not q.red_bytes and q.queue_in_bytes and q.limit_bytes == 50 * 500 + 1039
    with pytest.raises(ConfigError, match="^red_queue_in_bytes"):
        dumbbell(aqm="red", red_queue_in_bytes="yes")


def test_the_engine_averages_packets_when_only_bytes_is_set():
    # bytes_ alone: the average queue counts packets (thresholds 6.25 / 18.75 packets), so its
    # time average stays below the 50-packet buffer; before the split it counted bytes
    res = diffsweep.run(Grid(dumbbell, seeds=[0], n_flows=8, aqm="red", red_bytes=True,
                             red_queue_in_bytes=False, max_window_pkts=100, **SHORT),
                        backend="cpu")
    (avg,) = res.queues["red_avg_green"]
    assert 1.0 < avg < 50.0
    assert res.queues["early_drops_green"].sum() > 0


# --- 5. every discard of a class -------------------------------------------------------------
def test_all_drops_counts_every_discard_of_the_class():
    res = diffsweep.run(Grid(dumbbell, seeds=[0], n_flows=8, aqm=["droptail", "red"],
                             max_window_pkts=100, **SHORT), backend="cpu")
    q = res.queues.sort_values("point")
    # every loss of the flows' packets is at the bottleneck class here (no loss element, the
    # access links never fill): the flows' drops sum to the class's discards
    per_point = res.flows.groupby("point")["drops"].sum().sort_index().to_numpy()
    assert (q["all_drops"].to_numpy() == per_point).all()
    dt, red = q.iloc[0], q.iloc[1]
    assert dt["all_drops"] == dt["drops"] > 0
    assert red["all_drops"] > red["drops"]  # RED's early drops are not in drops
