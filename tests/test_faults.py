"""Issue 45's faults, beyond the one-line refusals of the catalogue (tests/bad_inputs.py): a
user's builder that raises, a lock file damaged or still being written, the warnings of times
the engine's whole slots move far (at --dry-run and at run start) and the round trip as it ran
in the flows table, and points the engine cannot tell apart."""
import json
import os
import re
import socket
import threading
import time
import warnings

import numpy as np
import pytest

import diffsweep as ds
from diffsweep.cli import app as cli
from diffsweep.engine import rounding
from diffsweep.sweep.config import BUILDERS, register_builder
from diffsweep.core.errors import BuilderError, ConfigError, FolderBusy
from diffsweep.scenario import Traffic
from diffsweep.sweep.store import LOCK, LOCK_SETTLE_S, Store
from test_ux import cli_run, one_line_error, sweep


def _mine(rate_mbps=40.0, seed=0):
    """A user's builder with a bug: a zero rate divides by zero."""
    slot_ms = 0.576 * 8 / rate_mbps
    return ds.scenarios.kaur_vin(n_flows=1, duration_s=1.0, warmup_s=0.1,
                                 link_rate_bps=rate_mbps * 1e6, bottleneck_delay_ms=slot_ms / 2)


@pytest.fixture
def mine():
    register_builder("mine_test", _mine)
    yield "mine_test"
    del BUILDERS["mine_test"]


MINE = 'name = "m"\nbuilder = "mine_test"\nseeds = 2\n[axes]\nrate_mbps = [40.0, 0.0]\n'


# --- a user's builder that raises ------------------------------------------------------------
@pytest.mark.parametrize("dry", [False, True])
def test_a_builder_exception_is_one_line_naming_the_point(tmp_path, capsys, mine, dry):
    p = sweep(tmp_path, MINE)
    rc, out, err = cli_run(capsys, "run", p, "--out", tmp_path / "out", "--quiet",
                           *(["--dry-run"] if dry else []))
    assert rc == 1, err
    one_line_error(err, r"^diffsweep: error: builder test_faults\._mine raised "
                        r"ZeroDivisionError at grid point 1 \(rate_mbps=0\.0, seed 0\): float "
                        r"division by zero$")
    assert "internal error" not in err and not (tmp_path / "out").exists()


def test_a_builder_exception_keeps_its_cause():
    with pytest.raises(BuilderError) as ei:
        ds.Grid(_mine, rate_mbps=[40.0, 0.0])
    assert isinstance(ei.value.__cause__, ZeroDivisionError)
    assert "grid point 1 (rate_mbps=0.0, seed 0)" in str(ei.value)


def test_a_builder_that_fails_for_a_later_seed_names_that_seed():
    def picky(x=1, seed=0):
        if seed == 2:
            raise RuntimeError("seed 2\nis cursed")
        return _mine()
    g = ds.Grid(picky, seeds=3, x=[1, 2])
    with pytest.raises(BuilderError, match=r"picky raised RuntimeError at grid point 1 "
                                           r"\(x=2, seed 2\): seed 2 is cursed$"):
        g.scenario(1, 2)


def _late(x=1, seed=0):
    """A user's builder that fails for seed 3 only (built in a chunk, not with the grid)."""
    if seed == 3:
        raise ValueError("bad seed 3")
    return ds.scenarios.kaur_vin(n_flows=1, duration_s=1.0, warmup_s=0.1)


def test_a_builder_failing_in_a_chunk_keeps_what_ran(tmp_path, capsys):
    register_builder("late_test", _late)
    try:
        p = sweep(tmp_path, 'name = "late"\nbuilder = "late_test"\nseeds = 4\n'
                            '[axes]\nx = [1, 2]\n')
        rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out", "--quiet",
                             "--chunk-size", "2")
    finally:
        del BUILDERS["late_test"]
    assert rc == 1
    one_line_error(err, r"^diffsweep: error: builder test_faults\._late raised ValueError at "
                        r"grid point 0 \(x=1, seed 3\): bad seed 3$")
    m = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert m["runs"][-1]["meta"]["error"].startswith("BuilderError: builder test_faults._late")
    assert 0 < len(ds.load(tmp_path / "out").replicas) < 8  # the chunks that ran are kept


# --- the lock file ----------------------------------------------------------------------------
OK = 'name = "ok"\nbuilder = "kaur_vin"\nseeds = 1\nduration_s = 1.0\nwarmup_s = 0.1\n' \
     '[fixed]\nn_flows = 1\n'


@pytest.mark.parametrize("content, why", [
    ("", r"it is empty"), ("{not json", r"not the JSON a run writes: '\{not json'"),
    ('{"pid": null, "host": null}', r"no process id in it: pid None"),
    ('{"pid": 7, "host": 3}', r"no host name in it: host 3")])
def test_a_damaged_lock_is_said_so(tmp_path, capsys, content, why):
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK).write_text(content)
    rc, _, err = cli_run(capsys, "run", sweep(tmp_path, OK), "--out", out, "--quiet")
    assert rc == 2
    one_line_error(err, rf"out: the lock file .*out/\.diffsweep\.lock is damaged \({why}\), so "
                        r"the run holding the folder cannot be named\. If no diffsweep run is "
                        r"writing into .*, delete .* or rerun with --break-lock")
    assert "None on host None" not in err
    assert sorted(os.listdir(out)) == [LOCK] and (out / LOCK).read_text() == content
    # --break-lock takes it
    rc, _, err = cli_run(capsys, "run", sweep(tmp_path, OK), "--out", out, "--quiet",
                         "--break-lock")
    assert rc == 0 and not (out / LOCK).exists(), err


def test_a_lock_being_written_is_read_again(tmp_path):
    """A run that has just made the lock (empty) writes it at once: read again, it names that
    run (a live one on this host) instead of being called damaged."""
    d = tmp_path / "out"
    d.mkdir()
    (d / LOCK).write_text("")
    owner = {"pid": os.getpid(), "host": socket.gethostname(), "start": "now"}
    t = threading.Timer(LOCK_SETTLE_S / 4, lambda: (d / LOCK).write_text(json.dumps(owner)))
    t.start()
    try:
        with pytest.raises(FolderBusy, match=rf"in use by another diffsweep run \(pid "
                                             rf"{os.getpid()} on host"):
            Store(d).open("abc", {})
    finally:
        t.join()


# --- whole slots: warnings, the run value, the same point --------------------------------------
SLOW = ('name = "slow"\nbuilder = "kaur_vin"\nseeds = 1\nduration_s = 10.0\nwarmup_s = 9.9\n'
        '[fixed]\nn_flows = 2\nlink_rate_bps = 100e3\nbottleneck_delay_ms = 0.25\n'
        '[axes]\nrtp_ms = [0.5, 100.0]\n')


def _warnings(err):
    return [ln for ln in err.splitlines() if ln.startswith("diffsweep: warning: ")]


def test_rounding_and_window_warn_at_dry_run_and_at_run_start(tmp_path, capsys):
    p = sweep(tmp_path, SLOW)
    rc, out, err = cli_run(capsys, "run", p, "--out", tmp_path / "out", "--dry-run")
    assert rc == 0, err
    dry = [ln for ln in out.splitlines() if ln.startswith("warning     : ")]
    assert len(dry) == 2, out
    assert re.search(r"round-trip delays rounded to whole slots by more than 10% at 1 of 2 "
                     r"points \(point 0 \(rtp_ms=0\.5\): flow 0's rtp_ms 0\.5 ms runs as 46\.08 "
                     r"ms\); slots of 46\.08 ms", dry[0]), dry[0]
    assert re.search(r"measurement window of fewer than 100 slots at 2 of 2 points \(point 0 "
                     r"\(rtp_ms=0\.5\): duration_s - warmup_s = 0\.1 s asked, 2 slot\(s\) = "
                     r"0\.09216 s run", dry[1]), dry[1]
    assert not (tmp_path / "out").exists()
    rc, out, err = cli_run(capsys, "run", p, "--out", tmp_path / "out", "--quiet")
    assert rc == 0, err
    run = _warnings(err)
    assert [ln.removeprefix("diffsweep: warning: ") for ln in run] == \
        [ln.removeprefix("warning     : ") for ln in dry]
    res = ds.load(tmp_path / "out")
    f = res.flows.sort_values(["point", "flow"])
    assert f["rtp_ms"].tolist() == [0.5, 0.5, 100.0, 100.0]
    assert np.allclose(f["rtp_ms_run"], [46.08, 46.08, 92.16, 92.16])


def test_a_plain_sweep_warns_of_nothing(tmp_path, capsys):
    rc, _, err = cli_run(capsys, "run", sweep(tmp_path, OK), "--out", tmp_path / "out")
    assert rc == 0 and not _warnings(err), err
    g = ds.Grid(ds.scenarios.kaur_vin, seeds=1, n_flows=4, duration_s=2.0, warmup_s=0.5,
                rtp_intervals=[(12, 26, 4)])
    assert rounding.check(g) == []


def _web(slot_s=None, seed=0):
    """One 1 Mb/s link (default slot 8.512 ms) and no TcpFlow of its own: a generator of
    one-packet transfers whose template asks for a 15-ms round trip."""
    tmpl = ds.TcpFlow(segment_bytes=1024, header_bytes=40, reverse_delay_ms=10.0,
                      egress_delay_ms=2.5)
    tr = Traffic(name="web", flow=tmpl, mean_interarrival_s=1.0, size_set_pkts=(1,), pool=4)
    link = ds.Link(rate_bps=1e6, prop_delay_ms=2.5, classes=(ds.QueueClass("be"),))
    return ds.Scenario(links=(link,), traffic=(tr,), duration_s=10.0, slot_s=slot_s)


def test_a_traffic_generators_round_trip_is_checked_too():
    """A generator's transfers run its template flow's round trip, on rows after the
    scenario's own flows: a 15-ms one runs as two 8.512-ms slots at the default slot and is
    warned about, naming the generator (it was not: the check read Scenario.flows only, so
    Habib's Table II ran F3 at 8.512 ms without a word); at a 0.5-ms slot it runs exactly."""
    lines = rounding.check(ds.Grid(_web, seeds=1))
    assert len(lines) == 1, lines
    assert re.search(r"at 1 of 1 points \(point 0: traffic web's transfers' rtp_ms 15 ms run as "
                     r"17\.024 ms\); slots of 8\.512 ms", lines[0]), lines[0]
    assert rounding.check(ds.Grid(_web, seeds=1, slot_s=5e-4)) == []


def test_rtp_ms_run_is_what_the_engine_rounded():
    """flows.rtp_ms_run differs from rtp_ms by the engine's own rounding error
    (replicas.delay_rounding_ms, computed in pack), on a route of several links too."""
    g = ds.Grid(ds.scenarios.kaur_vin, seeds=2, n_flows=8, duration_s=2.0, warmup_s=0.5,
                rtp_intervals=[(12, 26, 4)], link_rate_bps=[2e6, 40e6])
    res = ds.run(g, backend="cpu", progress=False)
    err = (res.flows["rtp_ms_run"] - res.flows["rtp_ms"]).abs().groupby(
        [res.flows["point"], res.flows["seed"]]).max()
    want = res.replicas.set_index(["point", "seed"])["delay_rounding_ms"]
    assert (want > 0).all()
    assert np.allclose(err.sort_index().to_numpy(), want.sort_index().to_numpy(), atol=1e-9)
    slot_ms = res.replicas.set_index(["point", "seed"])["slot_s"] * 1e3
    per = res.flows.set_index(["point", "seed"])
    k = per["rtp_ms_run"] / slot_ms.reindex(per.index)
    assert np.allclose(k, np.round(k))  # whole slots


def test_run_warns_from_python(tmp_path):
    g = ds.Grid(ds.scenarios.kaur_vin, seeds=1, n_flows=1, duration_s=1.0, warmup_s=0.99)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        ds.run(g, backend="cpu", progress=False)
    lines = [str(x.message) for x in w if issubclass(x.category, UserWarning)]
    assert len(lines) == 1 and lines[0].startswith("measurement window of fewer than 100 "
                                                   "slots at 1 of 1 points"), lines


def test_points_the_engine_cannot_tell_apart_are_refused(tmp_path, capsys):
    text = SLOW.replace("rtp_ms = [0.5, 100.0]", "rtp_ms = [0.5, 30.0, 100.0]")
    rc, _, err = cli_run(capsys, "run", sweep(tmp_path, text), "--out", tmp_path / "out")
    assert rc == 2
    one_line_error(err, r"axes\.rtp_ms: 0\.5 and 30\.0 are the same point to the engine \(grid "
                        r"points 0 and 1: the flows' round trips \(0\.5 ms and 30 ms for flow "
                        r"0\) both run as 46\.08 ms, whole slots of 46\.08 ms\)")
    assert not (tmp_path / "out").exists()
    # the same scenario twice (an axis moot at a point) is not refused: it runs once
    g = ds.Grid(ds.scenarios.kaur_vin, seeds=1, n_flows=1, duration_s=1.0, warmup_s=0.1,
                ef=[None, "cbr"], t_on_ms=[1.0, 2.0])
    assert rounding.check(g) == []


def test_two_axes_that_differ_together_are_both_named():
    g = ds.Grid(ds.scenarios.kaur_vin, seeds=1, n_flows=1, duration_s=10.0, warmup_s=1.0,
                link_rate_bps=100e3, bottleneck_delay_ms=0.25, ef=None,
                zip_axes=[{"rtp_ms": [0.5, 8.0], "ef_fraction": [0.3, 0.2]}])
    with pytest.raises(ConfigError, match=r"^rtp_ms, ef_fraction: \(0\.5, 0\.3\) and "
                                          r"\(8\.0, 0\.2\) are the same point to the engine"):
        rounding.check(g)


def test_rtp_run_ms_adds_the_links_before_the_last():
    from diffsweep.engine.pack import pack
    sc = ds.Scenario(
        links=(ds.Link(rate_bps=1e6, prop_delay_ms=10.0, classes=(ds.QueueClass("be"),)),
               ds.Link(rate_bps=1e6, prop_delay_ms=3.0, classes=(ds.QueueClass("be"),))),
        flows=(ds.TcpFlow(route=(0, 1), cls="be", reverse_delay_ms=5.0),),
        duration_s=1.0, warmup_s=0.1)
    pk = pack([sc], [0])
    slot_ms = float(pk.slot_s[0]) * 1e3
    got = rounding.rtp_run_ms(pk.arrays, pk.slot_s)[0, 0]
    want = (round(10.0 / slot_ms) + max(1, round((3.0 + 5.0) / slot_ms))) * slot_ms
    assert got == pytest.approx(want) and got != pytest.approx(sc.flow_rtp_ms(0))



# --- --dry-run's time, calibrated on this machine ------------------------------------------
def _small_grid():
    return ds.Grid(ds.scenarios.kaur_vin, seeds=2, n_flows=2, duration_s=2.0, warmup_s=0.5,
                   t_on_ms=[1.0, 10.0])


def test_the_probe_is_kept_per_machine_and_a_damaged_cache_is_ignored(tmp_path, monkeypatch):
    from diffsweep.engine import sizing
    monkeypatch.setenv("DIFFSWEEP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sizing, "free_threads", lambda threads: float(threads))  # no load
    g = _small_grid()
    first = sizing.estimate(g, 2, probe=True)
    assert first.calibrated.startswith("calibrated on this machine: ") and first.seconds > 0
    cache = sizing.probe_cache_path()
    kept = json.loads(cache.read_text())
    assert len(kept) == 1
    (ratio, records), = kept.values()
    assert ratio > 0 and records == 0  # kaur_vin has no traffic generators
    # read back: the same ratio, no probe
    again = sizing.estimate(g, 2, probe=True)
    assert again.calibrated.startswith("calibrated on this machine (a probe kept")
    # the kept ratio is what scales the model: ten times it, about ten times the engine's share
    key = next(iter(kept))
    cache.write_text(json.dumps({key: [ratio * 10, 0.0]}))
    tenfold = sizing.estimate(g, 2, probe=True)
    assert tenfold.engine_s == pytest.approx(10 * again.engine_s)
    assert tenfold.seconds == pytest.approx(tenfold.engine_s + tenfold.host_s)
    for junk in ("{not json", "[1, 2]", json.dumps({key: "fast"})):
        cache.write_text(junk)
        est = sizing.estimate(g, 2, probe=True)
        assert est.calibrated.startswith("calibrated on this machine: "), junk  # probed again
        assert isinstance(json.loads(cache.read_text())[key], list)


def test_an_unwritable_cache_does_not_stop_the_estimate(tmp_path, monkeypatch):
    from diffsweep.engine import sizing
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("DIFFSWEEP_CACHE_DIR", str(tmp_path / "file" / "cache"))
    est = sizing.estimate(_small_grid(), 2, probe=True)
    assert est.calibrated.startswith("calibrated on this machine: ")


def test_dry_run_says_how_its_time_was_had(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DIFFSWEEP_CACHE_DIR", str(tmp_path / "cache"))
    rc, out, err = cli_run(capsys, "run", sweep(tmp_path, OK), "--out", tmp_path / "out",
                           "--dry-run")
    assert rc == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("time (rough)"))
    assert re.search(r"^time \(rough\): [0-9.]+ s on \d+ CPU thread\(s\) \(from 1 sampled "
                     r"point\(s\); calibrated on this machine: 1 point\(s\) run for ", line), line
    assert not (tmp_path / "out").exists()


def test_a_run_does_not_probe(tmp_path, monkeypatch):
    """Only --dry-run probes: a run's own size check keeps the model (no cache written)."""
    monkeypatch.setenv("DIFFSWEEP_CACHE_DIR", str(tmp_path / "cache"))
    ds.run(_small_grid(), backend="cpu", progress=False)
    assert not (tmp_path / "cache").exists()


def test_repair_with_seeds_no_run_could_list_is_refused(tmp_path, capsys):
    assert cli.main(["run", str(sweep(tmp_path, OK)), "--out", str(tmp_path / "out"),
                     "--quiet"]) == 0
    capsys.readouterr()
    before = sorted(p.name for p in (tmp_path / "out").rglob("*"))
    rc, _, err = cli_run(capsys, "repair", tmp_path / "out", "--sweep", tmp_path / "s.toml",
                         "--seeds", "1000000000000")
    assert rc == 2  # (was an internal error: MemoryError)
    one_line_error(err, r"sweep 'ok': 1,000,000,000,000 replicas \(points x seeds\) cannot even "
                        r"be listed in the free memory")
    assert sorted(p.name for p in (tmp_path / "out").rglob("*")) == before


def test_a_builder_error_crosses_a_process_boundary():
    """A Dask worker's exception comes back pickled: the one line survives it."""
    import pickle
    with pytest.raises(BuilderError) as ei:
        ds.Grid(_mine, rate_mbps=[40.0, 0.0])
    back = pickle.loads(pickle.dumps(ei.value))
    assert type(back) is BuilderError and str(back) == str(ei.value)
