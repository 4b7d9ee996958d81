"""The sweep runner: chunks, store, resume after a hard kill or Ctrl-C, corrupt chunks,
another sweep in the folder, target_ci, the CLI, Dask (diffsweep.sweep.runner, diffsweep.cli.app)."""
import json
import math
import os
import re
import shlex
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pandas as pd
import pytest

import diffsweep
import diffsweep.engine.compiled as compiled
import diffsweep.engine.execution as engine
from diffsweep import Grid
from diffsweep.cli import app as cli
from diffsweep import run
from diffsweep.sweep.config import load_sweep
from diffsweep.core.errors import ConfigError, SweepInterrupted
from diffsweep.engine.pack import pack
from diffsweep.core.results import TABLES, Results
from diffsweep.sweep.runner import grid_identity, plan_chunks, replica_bytes
from diffsweep.scenario.builders import kaur_vin
from diffsweep.analysis.stats import summarize, t_quantile

SWEEP = textwrap.dedent("""\
    name = "runner_test"
    builder = "kaur_vin"
    seeds = 2
    duration_s = 3.0
    warmup_s = 0.5
    [fixed]
    n_flows = 1
    [axes]
    ef = ["cbr", "onoff"]
    t_on_ms = [0.4, 4.0, 40.0, 400.0]
    [quick]
    seeds = 1
    [quick.axes]
    t_on_ms = [4.0]
    """)


def small_grid(seeds=2, **kw):
    params = dict(n_flows=1, ef=["cbr", "onoff"], t_on_ms=[0.4, 40.0], duration_s=2.0,
                  warmup_s=0.5)
    params.update(kw)
    return Grid(kaur_vin, seeds=seeds, **params)


def assert_same(a: Results, b: Results):
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)


def no_duplicates(res: Results):
    pairs = list(zip(res.replicas["point"], res.replicas["seed"]))
    assert len(pairs) == len(set(pairs))


def write_sweep(tmp_path, text=SWEEP, name="sweep.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


class Counter:
    """Wraps engine.execute, counting calls and replicas."""

    def __init__(self, monkeypatch):
        self.calls = 0
        self.replicas = 0
        self._orig = engine.execute
        monkeypatch.setattr(engine, "execute", self)

    def __call__(self, grid, rows=None, *args, **kw):
        self.calls += 1
        self.replicas += len(grid.replicas if rows is None else rows)
        return self._orig(grid, rows, *args, **kw)


# --------------------------------------------------------------------------------------------
# plain runs and chunks
# --------------------------------------------------------------------------------------------
def test_simple_call_is_unchanged():
    g = small_grid(seeds=[4, 2, 7])  # unsorted seeds: the order is the grid's
    a = engine.execute(g, None, "cpu")
    b = run(g, backend="cpu")
    assert_same(a, b)
    c = run(g, backend="cpu", chunk_size=5)
    assert c.meta["chunks_run"] == 3 and c.meta["replicas_run"] == 12
    assert_same(a, c)
    for k in ("version", "backend", "device", "threads", "wall_s", "n_replicas"):
        assert k in b.meta
    assert b.meta["n_replicas"] == 12 and b.meta["backend"] == "cpu"


def test_chunks_follow_the_memory_budget():
    g = small_grid(seeds=3)
    per = replica_bytes(g.scenario(0, 0))
    # inputs and outputs per replica (the engine's working state is per worker, not replica)
    assert per > sum(a.nbytes for a in pack([g.scenario(0, 0)], [0]).arrays.values())
    chunks, info = plan_chunks(g, g.replicas, memory_budget_bytes=int(2.5 * per),
                               max_replicas=4096)
    assert [len(c) for c in chunks] == [2] * 6 and info["bytes_per_replica"] == per
    chunks, _ = plan_chunks(g, g.replicas, memory_budget_bytes=1 << 40, max_replicas=5)
    assert [len(c) for c in chunks] == [5, 5, 2]
    # replicas of the same shape are kept together
    g2 = Grid(kaur_vin, seeds=2, t_on_ms=[1.0, 2.0], n_flows=[1, 2], duration_s=1.0,
              warmup_s=0.1)
    chunks, _ = plan_chunks(g2, g2.replicas, 1 << 40, 4)
    assert [sorted(set(c["n_flows"])) for c in chunks] == [[1], [2]]
    r = run(g, backend="cpu", memory_budget_bytes=int(2.5 * per))
    assert r.meta["chunks_run"] == 6 and r.meta["memory_budget_bytes"] == int(2.5 * per)
    assert_same(r, run(g, backend="cpu"))


def test_repeats_share_a_chunk_and_run_once(tmp_path):
    # T_on is moot without an EF source: the three ef=None points build one scenario, and each
    # seed's three replicas of it go in one chunk (engine.simulate runs them once), wherever
    # the grid lists them and whatever the chunk size allows
    g = Grid(kaur_vin, seeds=3, ef=[None, "onoff"], t_on_ms=[1.0, 2.0, 5.0], duration_s=1.0,
             warmup_s=0.1)
    moot = set(g.replicas.loc[g.replicas["ef"].isna(), "point"])
    for size in (3, 4, 5, 7):
        chunks, _ = plan_chunks(g, g.replicas, 1 << 40, size)
        assert sum(len(c) for c in chunks) == len(g) and max(len(c) for c in chunks) <= size
        seen = [(c["point"].isin(moot) & (c["seed"] == s)).sum() for c in chunks for s in range(3)]
        assert sorted(n for n in seen if n) == [3, 3, 3]
    # without the grouping (what benchmarks/cpu/repeats.py counts as before it): the grid's order
    plain, _ = plan_chunks(g, g.replicas, 1 << 40, 4, group_repeats=False)
    assert pd.concat(plain)[["point", "seed"]].values.tolist() == \
        g.replicas[["point", "seed"]].values.tolist()
    whole = run(g, backend="cpu")
    assert whole.meta["distinct_replicas"] == 3 + 9  # one of each seed's three, the EF points
    apart = run(g, backend="cpu", chunk_size=4)
    assert apart.meta["distinct_replicas"] == 12 and apart.meta["chunks_run"] == 5
    assert_same(whole, apart)
    one = run(g, backend="cpu", chunk_size=1)
    assert one.meta["distinct_replicas"] == 18
    assert_same(whole, one)
    # a family's call ran them (its meta: 12 distinct); stored by run, its replicas count each,
    # not the family's count once per chunk
    from diffsweep.sweep.runner import run_family
    pre, _ = run_family({"g": g}, backend="cpu", progress=False)
    assert pre["g"].meta["distinct_replicas"] == 12
    stored = run(g, backend="cpu", store=tmp_path / "s", precomputed=pre["g"], chunk_size=4)
    assert stored.meta["replicas_run"] == stored.meta["distinct_replicas"] == 18


def test_tables_do_not_depend_on_the_chunks(tmp_path):
    # points without sources (ef=None) next to points with: a chunk of the former has an empty
    # sources table, which must not change the dtypes of the whole table
    g = Grid(kaur_vin, seeds=2, ef=[None, "cbr"], t_on_ms=[1.0, 10.0], duration_s=1.0,
             warmup_s=0.1)
    one = run(g, backend="cpu")
    assert len(one.sources) == 4 and one.sources["pkts_emitted"].dtype != object
    assert_same(one, run(g, backend="cpu", chunk_size=2))
    a = run(g, backend="cpu", store=tmp_path / "a", chunk_size=1)
    b = run(g, backend="cpu", store=tmp_path / "b", chunk_size=3)
    assert_same(a, b)
    assert a.sources["pkts_emitted"].dtype == one.sources["pkts_emitted"].dtype


def test_bad_run_arguments():
    g = small_grid(seeds=1)
    with pytest.raises(ConfigError, match=r"^chunk_size: 0 "):
        run(g, backend="cpu", chunk_size=0)
    with pytest.raises(ConfigError, match=r"^backend: 'gpu' "):
        run(g, backend="gpu")
    with pytest.raises(ConfigError, match=r"^target_ci: -1 "):
        run(g, backend="cpu", target_ci=-1)
    with pytest.raises(ConfigError, match=r"^target_metric: 'tcp_goodput' .*did you mean "
                                          r"'tcp_goodput_bps'"):
        run(g, backend="cpu", target_ci=0.1, target_metric="tcp_goodput")
    with pytest.raises(ConfigError, match=r"^tables: 'flow' "):
        run(g, backend="cpu", tables=["flow"])


# --------------------------------------------------------------------------------------------
# the store: resume, finished sweeps, another sweep, corrupt chunks
# --------------------------------------------------------------------------------------------
def test_finished_sweep_recomputes_nothing(tmp_path, monkeypatch):
    g = small_grid()
    first = run(g, backend="cpu", store=tmp_path / "out", chunk_size=3)
    assert first.meta["replicas_run"] == 8 and first.meta["chunks_run"] == 3
    count = Counter(monkeypatch)
    again = run(small_grid(), backend="cpu", store=tmp_path / "out", chunk_size=3)
    assert count.calls == 0 and again.meta["replicas_run"] == 0
    assert again.meta["replicas_reused"] == 8
    assert_same(first, again)
    assert_same(first, diffsweep.load(tmp_path / "out"))
    no_duplicates(again)
    # same values as an in-memory run (sorted by point, seed)
    mem = run(g, backend="cpu")
    pd.testing.assert_series_equal(first.replicas["tcp_goodput_bps"],
                                   mem.replicas["tcp_goodput_bps"])


def test_more_seeds_resume_into_the_folder(tmp_path, monkeypatch):
    run(small_grid(seeds=2), backend="cpu", store=tmp_path / "out")
    count = Counter(monkeypatch)
    more = run(small_grid(seeds=3), backend="cpu", store=tmp_path / "out")
    assert count.replicas == 4 and more.meta["replicas_run"] == 4  # only seed 2 of 4 points
    assert len(more) == 12
    fresh = run(small_grid(seeds=3), backend="cpu", store=tmp_path / "fresh")
    assert_same(more, fresh)
    # fewer seeds: the folder's other replicas are kept, not returned
    fewer = run(small_grid(seeds=1), backend="cpu", store=tmp_path / "out")
    assert len(fewer) == 4 and set(fewer.replicas["seed"]) == {0}
    assert len(diffsweep.load(tmp_path / "out")) == 12


def test_another_sweep_into_the_folder_is_refused(tmp_path):
    run(small_grid(seeds=1), backend="cpu", store=tmp_path / "out")
    with pytest.raises(ConfigError, match=r"holds results of another sweep.*--out"):
        run(small_grid(seeds=1, rtp_ms=10.0), backend="cpu", store=tmp_path / "out")
    with pytest.raises(ConfigError, match=r"holds results of another sweep"):
        run(small_grid(seeds=1, t_on_ms=[0.4, 4.0]), backend="cpu", store=tmp_path / "out")
    with pytest.raises(ConfigError, match=r"^tables: .*differ from the tables kept"):
        run(small_grid(seeds=1), backend="cpu", store=tmp_path / "out", tables=["replicas"])
    # the identity of a Python grid: builder, fixed, axes; not the seeds
    h1, f1 = grid_identity(small_grid(seeds=1))
    assert h1 == grid_identity(small_grid(seeds=5))[0] != grid_identity(small_grid(rtp_ms=9.0))[0]
    assert f1["builder"] == "diffsweep.papers.kaur_vin.scenario:kaur_vin"


def test_cli_another_sweep_exits_2(tmp_path, capsys):
    p = write_sweep(tmp_path)
    assert cli.main(["run", str(p), "--out", str(tmp_path / "out"), "--quick", "--quiet",
                     "--backend", "cpu"]) == 0
    changed = write_sweep(tmp_path, SWEEP.replace("n_flows = 1", "n_flows = 2"), "changed.toml")
    capsys.readouterr()
    assert cli.main(["run", str(changed), "--out", str(tmp_path / "out"), "--quick",
                     "--backend", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "holds results of another sweep" in err and "runner_test" in err
    assert "delete" in err and "--out" in err
    # the full sweep is another set of points than --quick: refused too
    assert cli.main(["run", str(p), "--out", str(tmp_path / "out"), "--backend", "cpu"]) == 2
    # --seeds adds seeds to the same points: resumes
    assert cli.main(["run", str(p), "--out", str(tmp_path / "out"), "--quick", "--seeds", "3",
                     "--quiet", "--backend", "cpu"]) == 0
    assert len(diffsweep.load(tmp_path / "out")) == 2 * 1 * 3


def test_corrupt_chunk_is_detected_and_recomputed(tmp_path, monkeypatch):
    g = small_grid()
    ref = run(g, backend="cpu", store=tmp_path / "out", chunk_size=2)
    chunks = tmp_path / "out" / "chunks"
    done = sorted(done_files(chunks))
    assert len(done) == 4
    victim = json.loads(done[1].read_text())
    f = chunks / victim["files"]["flows"]["file"]
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])  # truncated
    other = json.loads(done[2].read_text())
    (chunks / f"{other['chunk']}.done.json").unlink()  # as if killed before its done.json
    # diffsweep.load reports and skips, without changing the folder
    with pytest.warns(UserWarning) as record:
        partial = diffsweep.load(tmp_path / "out")
    msgs = " ".join(str(w.message) for w in record)
    assert "truncated or modified" in msgs and "incomplete chunk" in msgs
    assert len(partial) == 4 and f.exists()
    count = Counter(monkeypatch)
    with pytest.warns(UserWarning) as record:
        again = run(small_grid(), backend="cpu", store=tmp_path / "out", chunk_size=2)
    msgs = " ".join(str(w.message) for w in record)
    assert "truncated or modified" in msgs and "incomplete chunk" in msgs
    assert count.replicas == 4 and again.meta["replicas_run"] == 4
    assert len(again.meta["problems"]) == 2
    assert_same(ref, again)
    no_duplicates(again)
    moved = os.listdir(tmp_path / "out" / "corrupt")
    assert any(n.endswith(".reason.txt") for n in moved) and f.name in moved


# --------------------------------------------------------------------------------------------
# hard kill and Ctrl-C of a CLI run in a subprocess
# --------------------------------------------------------------------------------------------
# Each chunk sleeps a little, so that the run is surely killed mid-way.
SLOW_CLI = textwrap.dedent("""\
    import sys, time
    import diffsweep.sweep.session as r
    orig = r.run_chunk
    def slow(*a, **k):
        time.sleep(0.25)
        return orig(*a, **k)
    r.run_chunk = slow
    from diffsweep.cli.app import main
    sys.exit(main(sys.argv[1:]))
    """)


def start_slow(tmp_path, args):
    script = tmp_path / "slow_cli.py"
    script.write_text(SLOW_CLI)
    return subprocess.Popen([sys.executable, str(script), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)


def done_files(chunks_dir):
    """The finished chunks' .done.json files (not the temporary files of a write in progress,
    .tmp-*, which pathlib's glob also matches)."""
    if not chunks_dir.is_dir():
        return []
    return [f for f in chunks_dir.glob("*.done.json") if not f.name.startswith(".")]


def wait_for_chunk(proc, chunks_dir, timeout=60.0):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if done_files(chunks_dir):
            return
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the run ended before a chunk was written (rc {proc.returncode}): {err}")
        time.sleep(0.005)
    proc.kill()
    pytest.fail("no chunk written in time")


def test_resume_after_sigkill(tmp_path):
    p = write_sweep(tmp_path)
    args = ["run", str(p), "--out", str(tmp_path / "out"), "--backend", "cpu", "--chunk-size",
            "2", "--quiet", "--threads", "1"]
    proc = start_slow(tmp_path, args)
    wait_for_chunk(proc, tmp_path / "out" / "chunks")
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL  # killed, not finished
    written = len(done_files(tmp_path / "out" / "chunks"))
    assert 1 <= written < 8
    # rerun: completes the missing replicas only
    assert cli.main(args) == 0
    resumed = diffsweep.load(tmp_path / "out")
    m = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert m["runs"][-1]["meta"]["replicas_run"] == 16 - 2 * written
    # an uninterrupted run gives the same tables
    ref_args = ["run", str(p), "--out", str(tmp_path / "ref"), "--backend", "cpu", "--quiet"]
    assert cli.main(ref_args) == 0
    ref = diffsweep.load(tmp_path / "ref")
    assert len(ref) == 16
    assert_same(ref, resumed)
    no_duplicates(resumed)


def test_ctrl_c_stops_after_writing_and_says_how_to_resume(tmp_path):
    p = write_sweep(tmp_path)
    args = ["run", str(p), "--out", str(tmp_path / "out"), "--backend", "cpu", "--chunk-size",
            "2", "--threads", "1"]
    proc = start_slow(tmp_path, args)
    wait_for_chunk(proc, tmp_path / "out" / "chunks")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Resume with:" in err
    resume = err.strip().splitlines()[-1].strip()
    assert resume == shlex.join(["diffsweep", *args])
    written = len(done_files(tmp_path / "out" / "chunks"))
    assert 1 <= written < 8
    assert not (tmp_path / "out" / "corrupt").exists()  # nothing half-written
    assert cli.main(shlex.split(resume)[1:] + ["--quiet"]) == 0
    ref = run(load_sweep(p), backend="cpu", store=tmp_path / "ref")
    assert_same(ref, diffsweep.load(tmp_path / "out"))


def test_python_interrupt_message(tmp_path, monkeypatch):
    calls = []
    orig = engine.execute

    def interrupt_second(grid, rows=None, *a, **k):
        calls.append(len(rows))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return orig(grid, rows, *a, **k)

    monkeypatch.setattr(engine, "execute", interrupt_second)
    with pytest.raises(SweepInterrupted, match=r"2 of 8 replicas are saved in .*Resume with:\n"
                                               r"  run the same call again with store=") as e:
        run(small_grid(), backend="cpu", store=tmp_path / "out", chunk_size=2)
    assert isinstance(e.value, KeyboardInterrupt) and e.value.done == 2
    monkeypatch.setattr(engine, "execute", orig)
    assert run(small_grid(), backend="cpu", store=tmp_path / "out").meta["replicas_run"] == 6


# --------------------------------------------------------------------------------------------
# target_ci
# --------------------------------------------------------------------------------------------
BASE = 1e6


def fake_value(point, seed):
    """Point 0: constant; point 1: +-10 % alternating by seed; point 2: +-50 %."""
    d = {0: 0.0, 1: 0.1, 2: 0.5}[point]
    return BASE * (1 - d if seed % 2 == 0 else 1 + d)


def fake_execute(grid, rows=None, backend="auto", threads=None, lanes=None, control=None):
    rows = (grid.replicas if rows is None else rows).reset_index(drop=True)
    rep = rows.copy()
    rep["duration_s"] = 1.0
    rep["tcp_goodput_bps"] = [fake_value(p, s) for p, s in zip(rows["point"], rows["seed"])]
    empty = pd.DataFrame()
    return Results(replicas=rep, flows=empty, queues=empty, sources=empty, intervals=empty,
                   meta={"backend": "fake", "wall_s": 0.0})


def expected_seeds(point, target, relative, start, step, cap):
    """Seeds the point needs: the first n of start, start+step, ... (capped) whose values
    fake_value(point, 0..n-1) have a 95 % CI half-width t(0.975, n-1) * std / sqrt(n) within
    target."""
    n = start
    while True:
        v = np.array([fake_value(point, s) for s in range(n)])
        half = t_quantile(0.975, n - 1) * v.std(ddof=1) / math.sqrt(n)
        if (half / abs(v.mean()) if relative else half) <= target or n >= cap:
            return n
        n = min(n + step, cap)


@pytest.mark.parametrize("relative", [True, False])
def test_target_ci_stops_at_the_right_round(tmp_path, monkeypatch, relative):
    monkeypatch.setattr(engine, "execute", fake_execute)
    g = Grid(kaur_vin, seeds=2, t_on_ms=[1.0, 2.0, 3.0], duration_s=1.0, warmup_s=0.1)
    target = 0.05 if relative else 0.05 * BASE
    res = run(g, backend="cpu", target_ci=target, target_relative=relative, max_seeds=30)
    n1 = expected_seeds(1, target, relative, 2, 2, 30)
    # closed form for n even: mean BASE, std 0.1 BASE sqrt(n/(n-1)), so the relative
    # half-width is t(0.975, n-1) 0.1 / sqrt(n-1): 0.0512 at n = 18, 0.0480 at n = 20
    assert n1 == 20
    assert t_quantile(0.975, 17) * 0.1 / math.sqrt(17) > 0.05 >= t_quantile(0.975, 19) * 0.1 / 19 ** 0.5
    assert expected_seeds(2, target, relative, 2, 2, 30) == 30
    want = {0: 2, 1: n1, 2: 30}
    assert res.meta["ci_seeds_per_point"] == want
    assert res.meta["ci_capped_points"] == [2]
    assert res.meta["ci_rounds"] == (30 - 2) // 2
    counts = res.replicas.groupby("point")["seed"].apply(sorted).to_dict()
    assert counts == {p: list(range(n)) for p, n in want.items()}
    assert res.meta["replicas_run"] == sum(want.values())
    s = res.meta["ci_summary"].set_index("point")
    assert s.loc[0, "ci_halfwidth"] == 0.0 and s.loc[1, "n"] == n1
    # the same into a store, then resumed: identical tables, nothing recomputed
    a = run(g, backend="cpu", target_ci=target, target_relative=relative, max_seeds=30,
            store=tmp_path / "out", chunk_size=7)
    b = run(g, backend="cpu", target_ci=target, target_relative=relative, max_seeds=30,
            store=tmp_path / "out", chunk_size=7)
    assert b.meta["replicas_run"] == 0 and b.meta["ci_seeds_per_point"] == want
    assert_same(a, b)
    pd.testing.assert_frame_equal(a.replicas, res.replicas, check_dtype=False)


def test_target_ci_seeds_per_round(monkeypatch):
    monkeypatch.setattr(engine, "execute", fake_execute)
    g = Grid(kaur_vin, seeds=2, t_on_ms=[1.0, 2.0], duration_s=1.0, warmup_s=0.1)
    res = run(g, backend="cpu", target_ci=0.05, seeds_per_round=5, max_seeds=40)
    n1 = expected_seeds(1, 0.05, True, 2, 5, 40)  # n = 2, 7, 12, ...
    assert res.meta["ci_seeds_per_point"] == {0: 2, 1: n1}
    assert res.meta["ci_rounds"] == (n1 - 2) // 5 and res.meta["ci_capped_points"] == []
    # a cap that is not start + k * step: the last round adds only what the cap allows
    res = run(g, backend="cpu", target_ci=0.05, seeds_per_round=5, max_seeds=9)
    assert res.meta["ci_seeds_per_point"] == {0: 2, 1: 9} and res.meta["ci_capped_points"] == [1]


def test_target_ci_real_run():
    g = Grid(kaur_vin, seeds=2, n_flows=1, ef=["cbr", "onoff"], t_on_ms=[4.0, 40.0],
             duration_s=2.0, warmup_s=0.5)
    target, cap = 0.03, 6
    res = run(g, backend="cpu", target_ci=target, max_seeds=cap)
    s = summarize(res, by=["point"], metrics=["tcp_goodput_bps"]).set_index("point")
    capped = set(res.meta["ci_capped_points"])
    for p, row in s.iterrows():
        rel = row["ci_halfwidth"] / abs(row["mean"]) if row["mean"] else 0.0
        n = res.meta["ci_seeds_per_point"][p]
        assert row["n"] == n
        if p in capped:
            assert n == cap and not rel <= target
        else:
            assert rel <= target
            if n > 2:  # it got more seeds because its CI was too wide one round earlier
                prev = res.replicas[(res.replicas["point"] == p)
                                    & (res.replicas["seed"] < n - 2)]
                sp = summarize(prev, by=["point"], metrics=["tcp_goodput_bps"]).iloc[0]
                assert not sp["ci_halfwidth"] / abs(sp["mean"]) <= target


def test_cli_target_ci_reports_capped_points(tmp_path, capsys):
    p = write_sweep(tmp_path)
    rc = cli.main(["run", str(p), "--out", str(tmp_path / "out"), "--backend", "cpu",
                   "--target-ci", "1e-9", "--max-seeds", "3", "--quick", "--seeds", "2"])
    assert rc == 0
    out, err = capsys.readouterr()
    # CBR points are deterministic here (half-width 0); on-off points cannot reach 1e-9
    assert "target_ci 1e-09 (relative) on tcp_goodput_bps" in out
    assert "reached max_seeds=3" in err and "ef='onoff'" in err


# --------------------------------------------------------------------------------------------
# the CLI and bad sweep files
# --------------------------------------------------------------------------------------------
HEAD = 'name = "bad"\nbuilder = "kaur_vin"\n'
BAD_CLI = [
    (HEAD + "seedz = 3\n", "seedz: unknown key 'seedz' (did you mean 'seeds'?)"),
    ('name = "bad"\n', "builder: missing required key"),
    ('name = "bad"\nbuilder = "kaur_vn"\n', "builder: unknown builder 'kaur_vn'"),
    (HEAD + "seeds = 0\n", "seeds: 0 is not allowed"),
    (HEAD + "[axes]\nt_on_ms = {logspace = [0.4, 400]}\n", "axes.t_on_ms.logspace: [0.4, 400]"),
    (HEAD + "[axes]\nt_on_ms = []\n", "axes.t_on_ms: empty axis"),
    (HEAD + "[axes]\nt_on_ms = [1, 2, 1]\n", "axes.t_on_ms[2]: duplicate value 1"),
    (HEAD + "[fixed]\nn_flows = 1\n[axes]\nn_flows = [1, 2]\n", "axes.n_flows: also set in [fixed]"),
    (HEAD + "duration_s = 10\nwarmup_s = 10\n", "warmup_s: 10 is not allowed"),
    (HEAD + '[[zip]]\nnames = ["rtp_ms", "buffer_bytes"]\nvalues = [[6, 8], [1, 2, 3]]\n',
     "zip[0].values: lists of unequal length (rtp_ms: 2, buffer_bytes: 3)"),
    (HEAD + '[outputs]\ntables = ["replica"]\n', "outputs.tables[0]: unknown table 'replica'"),
    (HEAD + "[fixed]\nn_flows = 1\n[quick.fixed]\nn_flowz = 2\n", "quick.fixed.n_flowz"),
    (HEAD + "[axes]\nt_onms = [1.0, 2.0]\n", "axes.t_onms: not a parameter of kaur_vin (did you "
                                             "mean 't_on_ms'?)"),
    (HEAD + "[axes]\nt_on_ms = [1.0, -1.0]\n", "axes.t_on_ms: -1.0 is not allowed"),
    (HEAD + "seeds 3\n", "TOML syntax error"),
]


@pytest.mark.parametrize("text,message", BAD_CLI, ids=[f"bad{i}" for i in range(len(BAD_CLI))])
def test_cli_bad_sweep_exits_2(tmp_path, capsys, text, message):
    p = write_sweep(tmp_path, text, "bad.toml")
    assert cli.main(["run", str(p), "--out", str(tmp_path / "out"), "--backend", "cpu"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("diffsweep: error: ") and message in err
    assert not (tmp_path / "out").exists()  # nothing ran, nothing was created


def test_cli_subprocess_bad_sweep_and_quick(tmp_path):
    p = write_sweep(tmp_path, HEAD + "seedz = 3\n", "bad.toml")
    r = subprocess.run([sys.executable, "-m", "diffsweep.cli", "run", str(p), "--out",
                        str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "seedz: unknown key 'seedz'" in r.stderr
    p = write_sweep(tmp_path, HEAD, "noquick.toml")
    assert cli.main(["run", str(p), "--out", str(tmp_path / "o"), "--quick"]) == 2


def test_cli_run_output(tmp_path, capsys):
    p = write_sweep(tmp_path)
    assert cli.main(["run", str(p), "--out", str(tmp_path / "out"), "--backend", "cpu",
                     "--quick", "--memory-budget", "1G"]) == 0
    out = capsys.readouterr().out
    assert "runner_test: 2 points, 2 replicas (2 run, 0 already in" in out
    m = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert m["name"] == "runner_test" and m["quick"] is True
    assert m["runs"][-1]["argv"][0] == "run" and m["runs"][-1]["end"]
    assert m["runs"][-1]["meta"]["memory_budget_bytes"] == 1 << 30
    # T_on is moot without EF: the 4 points make one scenario, run once a seed (a chunk each)
    p = write_sweep(tmp_path, SWEEP.replace('"cbr", "onoff"', '"none"'), "moot.toml")
    assert cli.main(["run", str(p), "--out", str(tmp_path / "moot"), "--backend", "cpu",
                     "--chunk-size", "4"]) == 0
    out = capsys.readouterr().out
    assert "4 points, 8 replicas (8 run: 2 distinct, their repeats copied, 0 already in" in out


# --------------------------------------------------------------------------------------------
# Dask
# --------------------------------------------------------------------------------------------
def dying_kaur_vin(marker="", seed=0, **kw):
    """kaur_vin, except that the first Dask worker to build seed 1 dies on the spot."""
    if marker and seed == 1 and not os.path.exists(marker):
        try:
            from distributed import get_worker
            get_worker()
        except (ImportError, ValueError):
            pass  # not in a worker
        else:
            open(marker, "w").close()
            os._exit(1)
    return kaur_vin(seed=seed, **kw)


def test_dask_matches_local_run(tmp_path, dask_client):
    g = small_grid(seeds=3)
    local = run(g, backend="cpu", store=tmp_path / "local")
    dist = run(small_grid(seeds=3), backend="cpu", threads=1, store=tmp_path / "dask",
               client=dask_client)
    assert dist.meta["distributed"] and dist.meta["chunks_run"] > 1
    assert_same(local, dist)
    no_duplicates(dist)
    # without a store, and with 'auto' resolved on each worker
    assert_same(run(g, backend="cpu"), run(g, backend="auto", client=dask_client, threads=1))
    # the CLI's --scheduler
    p = write_sweep(tmp_path)
    addr = dask_client.scheduler.address
    assert cli.main(["run", str(p), "--out", str(tmp_path / "cli"), "--backend", "cpu",
                     "--quiet", "--scheduler", addr, "--quick"]) == 0
    assert_same(run(load_sweep(p, quick=True), backend="cpu", store=tmp_path / "cli_local"),
                diffsweep.load(tmp_path / "cli"))


def test_dask_lost_worker_costs_one_chunk(tmp_path, dask_client):
    marker = tmp_path / "died"
    params = dict(n_flows=1, ef=["onoff"], t_on_ms=[0.4, 4.0, 40.0], duration_s=2.0,
                  warmup_s=0.5, marker=str(marker))
    local = run(Grid(dying_kaur_vin, seeds=2, **params), backend="cpu", store=tmp_path / "local")
    dist = run(Grid(dying_kaur_vin, seeds=2, **params), backend="cpu", threads=1,
               client=dask_client, chunk_size=1, store=tmp_path / "out")
    assert marker.exists()  # a worker did die
    assert dist.meta["replicas_run"] == 6 and dist.meta["chunks_run"] == 6
    no_duplicates(dist)
    assert len(done_files(tmp_path / "out" / "chunks")) == 6
    assert_same(local, dist)


# --------------------------------------------------------------------------------------------
# a figure family in one engine call (reproduce)
# --------------------------------------------------------------------------------------------
def test_family_call_stores_the_same_tables_as_one_run_per_sweep(tmp_path):
    from diffsweep.sweep.runner import run_family
    ga, gb = small_grid(), small_grid(n_flows=8, seeds=3)
    pre, stopped = run_family({"a": ga, "b": gb}, backend="cpu", progress=False)
    assert not stopped and len(pre["a"].replicas) == len(ga) and len(pre["b"].replicas) == len(gb)
    for name, g in (("a", ga), ("b", gb)):
        got = run(g, backend="cpu", store=tmp_path / name, precomputed=pre[name])
        assert got.meta["replicas_run"] == len(g)
        run(g, backend="cpu", store=tmp_path / f"ref_{name}")
        assert_same(diffsweep.load(tmp_path / f"ref_{name}"), diffsweep.load(tmp_path / name))


def test_stopped_family_call_saves_what_finished_and_resumes(tmp_path, monkeypatch):
    """Ctrl-C during the family's call: the engine stops once the 1-flow shape group's
    replicas have finished, before the 8-flow group's start (the stop request arrives then);
    those replicas are stored, nothing else is computed; a resumed run computes the rest and
    ends with the tables of one uninterrupted run."""
    from diffsweep.sweep.runner import run_family
    ga, gb = small_grid(), small_grid(n_flows=8, seeds=3)
    real = compiled.run_family

    def first_then_stop(ps, backend, threads=None, control=None, *a):
        out = real(ps[:1], backend, threads, control, *a)
        control.request_stop()
        return out + real(ps[1:], backend, threads, control, *a)  # stopped: none starts
    monkeypatch.setattr(compiled, "run_family", first_then_stop)
    pre, stopped = run_family({"a": ga, "b": gb}, backend="cpu", progress=False)
    monkeypatch.setattr(compiled, "run_family", real)
    assert stopped and len(pre["a"].replicas) == len(ga) and len(pre["b"].replicas) == 0
    for name, g in (("a", ga), ("b", gb)):
        got = run(g, backend="cpu", store=tmp_path / name, precomputed=pre[name], compute=False)
        assert got.meta["replicas_run"] == len(pre[name].replicas)
    assert len(diffsweep.load(tmp_path / "a")) == len(ga)
    assert run(gb, backend="cpu", store=tmp_path / "b").meta["replicas_run"] == len(gb)
    for name, g in (("a", ga), ("b", gb)):
        run(g, backend="cpu", store=tmp_path / f"ref_{name}")
        assert_same(diffsweep.load(tmp_path / f"ref_{name}"), diffsweep.load(tmp_path / name))


def test_show_says_a_killed_run_was_finished_by_the_next(tmp_path):
    """Issue 53: a run killed with SIGKILL writes no end time, and ``show`` kept calling it
    "running or killed" after a second run had finished its replicas. While it is the last run
    and its lock is held it may still run; once its owner is gone, or a later run finished, it
    is said killed, naming the run that finished its replicas."""
    import io
    from contextlib import redirect_stdout
    p = write_sweep(tmp_path)
    args = ["run", str(p), "--out", str(tmp_path / "out"), "--backend", "cpu", "--chunk-size",
            "2", "--quiet", "--threads", "1"]
    proc = start_slow(tmp_path, args)
    wait_for_chunk(proc, tmp_path / "out" / "chunks")
    buf = io.StringIO()
    with redirect_stdout(buf):  # still running: its lock is held by a live process
        assert cli.main(["show", str(tmp_path / "out")]) == 0
    assert re.search(r"^run 1 .*, running or killed$", buf.getvalue(), re.M), buf.getvalue()
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert (tmp_path / "out" / ".diffsweep.lock").exists()  # left behind by the killed run
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert cli.main(["show", str(tmp_path / "out")]) == 0
    assert re.search(r"^run 1 .*, killed \(it wrote no end\)$", buf.getvalue(), re.M), \
        buf.getvalue()
    assert cli.main(args) == 0  # breaks the stale lock (a warning) and resumes
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert cli.main(["show", str(tmp_path / "out")]) == 0
    out = buf.getvalue()
    assert re.search(r"^run 1 .*, killed \(it wrote no end\); its replicas were finished by "
                     r"run 2$", out, re.M), out
    assert re.search(r"^run 2 .*, done$", out, re.M) and "running or killed" not in out, out
