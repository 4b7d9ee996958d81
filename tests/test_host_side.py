"""The host side of a reproduction (issue 22): the report's engine column (the engine call's
time and each family's share of replica-slots), per-seed tables computed in one pass equal to
the former loop's, figures drawn in parallel processes equal to those drawn in one, the claims
rated once, and a rerun that keeps the report made from the same results."""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from diffsweep.cli import app as cli
from diffsweep import papers
from diffsweep.report import cache as report_cache
from diffsweep.sweep import runner
from diffsweep.studies import reproduce as rp
from diffsweep.studies import reproduce_report
from diffsweep.core.errors import StoreError
from diffsweep.report import render as rd
from diffsweep.report.paper_report import engine_use, replica_slots, write_report
from diffsweep.core.results import Results

ROOT = Path(__file__).resolve().parents[1]
KAUR_VIN = papers.get("kaur-vin")


def _results(durations, slot_s=1e-4, calls=()):
    rep = pd.DataFrame({"point": range(len(durations)), "seed": 0,
                        "duration_s": [float(d) for d in durations], "slot_s": slot_s})
    empty = pd.DataFrame(columns=["point", "seed"])
    return Results(replicas=rep, flows=empty.copy(), queues=empty.copy(),
                   sources=empty.copy(), intervals=empty.copy(),
                   meta={"backend": "cpu", "device": "x", "engine_calls": list(calls)})


# --------------------------------------------------------------------------------------------
# the report's engine column
# --------------------------------------------------------------------------------------------
CALL = {"host": "h", "pid": 7, "wall_s": 12.0, "n_replicas": 5}


def test_replica_slots_are_duration_over_slot():
    assert replica_slots(_results([1.0, 2.0]).replicas) == 10_000 + 20_000
    assert np.isnan(replica_slots(pd.DataFrame({"point": [0]})))


def test_engine_use_shares_one_call_by_replica_slots():
    a, b = _results([1.0, 2.0], calls=[CALL]), _results([3.0, 3.0, 1.0], calls=[CALL])
    use = engine_use({"K2": a, "K3": b, "K4": None}, {"a": a, "b": b},
                     {"K2": ("a",), "K3": ("b",)})
    assert use["calls"] == [12.0]  # the same call behind both sweeps counts once
    assert use["share"] == pytest.approx({"K2": 3 / 10, "K3": 7 / 10})
    # a family reading both sweeps has the whole; another call is a second call
    c = _results([5.0], calls=[{**CALL, "pid": 8, "wall_s": 3.0}])
    use = engine_use({"K5": a}, {"a": a, "b": b, "c": c}, {"K5": ("a", "b")})
    assert sorted(use["calls"]) == [3.0, 12.0] and use["share"]["K5"] == pytest.approx(10 / 15)


def test_report_engine_column_is_the_calls_time_shared_by_replica_slots(tmp_path):
    a, b = _results([1.0, 2.0], calls=[CALL]), _results([3.0, 3.0, 1.0], calls=[CALL])
    results = {"K2": a, "K3": b}
    md, html = write_report(KAUR_VIN, results, tmp_path,
                            engine=engine_use(results, {"a": a, "b": b},
                                              {"K2": ("a",), "K3": ("b",)}))
    text = md.read_text()
    assert "| family | points | seeds | replicas | flow rows | backend | device | share of " \
           "replica-slots | engine s (share) |" in text
    assert "| K2 | 2 | 1 | 2 | 0 | cpu | x | 30.0 % | 3.6 |" in text
    assert "| K3 | 3 | 1 | 3 | 0 | cpu | x | 70.0 % | 8.4 |" in text
    assert "The replicas were computed in one engine call of 12.0 s." in text
    assert "engine wall s" not in text
    assert "<th>share of replica-slots</th>" in html.read_text()
    # without the calls (direct callers): the shares of the families given, no seconds
    md, _ = write_report(KAUR_VIN, {"K2": _results([1.0]), "K3": _results([3.0])}, tmp_path)
    text = md.read_text()
    assert "| 25.0 % |  |" in text and "No engine call is recorded" in text


# --------------------------------------------------------------------------------------------
# per-seed tables in one pass = the former loop over replicas
# --------------------------------------------------------------------------------------------
def _flows(seed: int) -> pd.DataFrame:
    """Replicas of 1-70 flows (some with zeros, a NaN, all zeros), rows shuffled, a grid
    column and a per-flow column."""
    rng = np.random.default_rng(seed)
    rows = []
    for point in range(12):
        for s in range(3):
            n = int(rng.choice([1, 2, 7, 8, 9, 64, 70]))
            x = rng.random(n) * 10 ** rng.uniform(-3, 7)
            if point == 3:
                x[:] = 0.0
            if point == 4 and s == 1:
                x[n // 2] = np.nan
            if point == 5:
                x[0] = 0.0
            rows += [{"point": point, "seed": s, "flow": i, "goodput_bps": v, "timeouts": i % 3,
                      "t_on_ms": 0.4 * (point + 1), "rtt_mean_s": rng.random()}
                     for i, v in enumerate(x)]
    df = pd.DataFrame(rows)
    return df.iloc[rng.permutation(len(df))].reset_index(drop=True)


def _bits(a) -> list:
    return [np.asarray(v, dtype=float).tobytes() for v in a]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fairness_in_one_pass_is_the_loop_over_replicas(seed):
    from diffsweep.analysis import metrics
    fl = _flows(seed)
    new = metrics.fairness(fl)
    m = metrics.per_replica(fl, metrics.min_max_ratio, name="min_max_ratio")
    f = metrics.per_replica(fl, metrics.jain_index, name="jain_index")
    assert list(new.columns) == list(m.columns) + ["jain_index", "n_tcp"]
    assert _bits(new["min_max_ratio"]) == _bits(m["min_max_ratio"])  # bit for bit, NaN too
    assert _bits(new["jain_index"]) == _bits(f["jain_index"])
    assert new["n_tcp"].tolist() == [len(g) for _, g in fl.groupby(["point", "seed"])]
    assert new["n_tcp"].dtype == np.int64 and "t_on_ms" in new.columns
    to = metrics.timeouts_per_flow(fl)
    assert to["timeouts_total"].tolist() == [float(g["timeouts"].sum()) for _, g in
                                            fl.groupby(["point", "seed"])]
    assert to["n_tcp"].dtype == np.int64


def test_group_blocks_row_sums_are_np_sum_of_each_group():
    from diffsweep.analysis.metrics import group_blocks
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 40, 5000)
    v = rng.random(5000) * 10 ** rng.uniform(-5, 9, 5000)
    seen = set()
    for groups, block in group_blocks(codes, v, 40):
        for g, row in zip(groups, block):
            assert row.sum() == np.sum(v[codes == g]) and list(row) == list(v[codes == g])
            seen.add(int(g))
    assert seen == set(np.unique(codes).tolist())


def test_lee_jeong_per_seed_in_one_pass_is_the_loop_over_replicas():
    from diffsweep.papers.lee_jeong import tables as lj
    fl = _flows(3)
    fl = fl[fl["flow"] < lj.N_AGG].assign(rate_mbps=lambda d: d["goodput_bps"] / 1e6)
    fl = fl[fl.groupby(["point", "seed"])["flow"].transform("size") > 1]
    got = lj._aggregate_rates(fl)
    rows = []
    for key, g in fl.groupby(["point", "seed"], sort=True):  # the former loop
        x = g.sort_values("flow")["rate_mbps"].to_numpy(float)
        rows.append({"point": key[0], "seed": key[1], "jain": lj.jain(x),
                     "total_mbps": float(x.sum()), "tcp7_mbps": float(x[-1]),
                     "tcp1_mbps": float(x[0]), "others_mbps": float(x[:-1].mean())})
    want = pd.DataFrame(rows)
    assert list(got.columns) == list(want.columns)
    assert got[["point", "seed"]].equals(want[["point", "seed"]])
    for c in want.columns[2:]:
        assert _bits(got[c]) == _bits(want[c]), c


def _old_session_intervals(tr: pd.DataFrame) -> pd.DataFrame:
    """Matta & Guo's session_intervals as it was: the grid columns copied per interval and
    grouped on."""
    from diffsweep.papers.matta_guo import tables as mt
    grid = mt._grid_cols(tr)
    tr = tr[tr["traffic"].astype(str).isin(("short", "long"))]
    tr = tr.assign(cls=tr["traffic"].astype(str), session=tr["slot"].astype(np.int64))
    start, dur = tr["start_s"].to_numpy(float), tr["duration_s"].to_numpy(float)
    end = tr["end_s"].to_numpy(float)
    done = np.isfinite(end)
    end = np.where(done, end, dur)
    size = tr["size_pkts"].to_numpy(float)
    pk = np.where(done, size, np.clip(tr["pkts_sent"].to_numpy(float)
                                      - tr["retransmits"].to_numpy(float), 0, size))
    n_int = int(np.floor(np.nanmax(dur) / 20.0 + 1e-9))
    lo = np.arange(n_int) * 20.0
    ov = np.clip(np.minimum(end[:, None], lo[None, :] + 20.0)
                 - np.maximum(start[:, None], lo[None, :]), 0.0, None)
    share = pk[:, None] * ov / np.maximum(end - start, 1e-9)[:, None]
    base = tr[["point", "seed"] + grid + ["cls", "session"]].reset_index(drop=True)
    df = pd.concat([base.assign(interval=i, pkts=share[:, i]) for i in range(n_int)],
                   ignore_index=True)
    df = df[df["interval"] * 20.0 + 20.0 <= df["duration_s"] + 1e-9]
    out = df.groupby(["point", "seed"] + grid + ["cls", "session", "interval"], sort=True,
                     dropna=False)["pkts"].sum().reset_index()
    out["goodput_bps"] = out["pkts"] * 576 * 8 / 20.0
    return out


def test_matta_guo_session_intervals_grouped_per_replica_are_the_former_ones():
    from diffsweep.papers.matta_guo import tables as mt
    rng = np.random.default_rng(4)
    rows = []
    for point in range(3):
        for seed in range(2):
            dur = (60.0, 100.0, 100.0)[point]
            for k in range(40):
                start = rng.uniform(0, dur)
                end = start + rng.exponential(10) if k % 5 else np.nan
                rows.append({"point": point, "seed": seed, "traffic": ("short", "long",
                                                                        "web")[k % 3],
                             "slot": k % 7, "size_pkts": 20, "start_s": start, "end_s": end,
                             "pkts_sent": 25, "retransmits": 3, "duration_s": dur,
                             "scheme": ("size-based", "red", "drop-tail")[point],
                             "isolation": point == 0, "k": 0.5 * point})
    tr = pd.DataFrame(rows)
    new, old = mt.session_intervals(tr), _old_session_intervals(tr)
    assert list(new.columns) == list(old.columns) and (new.dtypes == old.dtypes).all()
    pd.testing.assert_frame_equal(new, old, check_exact=True)


def test_kaur_vin_labels_once_per_setting_are_those_of_each_row():
    from diffsweep.papers.kaur_vin import tables as kv
    rep = pd.DataFrame({"ef": ["onoff", None, "cbr", "none", np.nan, "onoff"] * 3,
                        "udp": [True, False, True, False, True, False] * 3,
                        "ef_rate_bps": [1.2e7, 0.0, 1.2e7, 0.0, 0.0, 1.2e7] * 3})
    got = kv._labels(rep)
    recs = rep.to_dict("records")
    assert got == ([kv._ef_kind(r) for r in recs], [kv._has_udp(r) for r in recs],
                   [kv.network_label(r) for r in recs])
    with pytest.raises(ValueError, match="ef: 'x' is not allowed"):
        kv._labels(rep.assign(ef="x"))


def test_a_sweep_read_by_several_families_gives_its_tables_once(monkeypatch):
    from test_report import R, fair_data

    from diffsweep.analysis import metrics
    from diffsweep.report.figures import combine, shared_combine
    from diffsweep.papers.kaur_vin import tables as kv
    calls = []
    real = metrics.fairness
    monkeypatch.setattr(metrics, "fairness", lambda fl: calls.append(1) or real(fl))
    a, b = (R(fair_data(lambda *_: m, tons=(1.0,), seeds=2)) for m in (0.5, 0.4))
    with shared_combine():
        k6, k7 = combine([a, b], labels=["x", "y"]), combine([a, b], labels=["x", "y"])
        assert k6 is k7 and combine([a, b], labels=["x", "z"]) is not k6
        t6, t7 = kv.fairness_per_seed(k6), kv.fairness_per_seed(k7)
    assert len(calls) == 1 and t6.equals(t7) and t6 is not t7  # (each caller its own copy)
    assert combine([a, b], labels=["x", "y"]) is not k6  # outside the block: a new one


def test_the_papers_tables_are_computed_once_per_results():
    from diffsweep.papers.habib import tables as ht
    from diffsweep.papers.lee_jeong import tables as lj
    from diffsweep.papers.matta_guo import tables as mt
    from diffsweep.papers.rossi import tables as rt
    for fn in (mt.session_intervals, mt.per_interval, mt.per_seed, rt.per_class, rt.per_cloud,
               ht.per_aggregate, ht.totals, ht.trace_summary, ht.telnet, ht.www,
               lj.per_connection, lj.per_seed):
        assert getattr(fn, "__wrapped__", None) is not None, fn.__qualname__  # per_results


# --------------------------------------------------------------------------------------------
# figures in parallel processes
# --------------------------------------------------------------------------------------------
def test_render_runs_the_tasks_in_other_processes_in_order():
    tasks = [lambda i=i: (i, os.getpid()) for i in range(5)]
    # while this process is busy (meanwhile), the worker takes every task
    done, extra = rd.render(tasks, 2, meanwhile=lambda: time.sleep(1.0) or os.getpid())
    assert [out[0] for out, _ in done] == list(range(5)) and extra == os.getpid()
    assert all(out[1] != os.getpid() for out, _ in done) and all(s >= 0 for _, s in done)
    done, extra = rd.render(tasks, 1, meanwhile=lambda: "here")  # the serial fallback
    assert [out for out, _ in done] == [(i, os.getpid()) for i in range(5)] and extra == "here"
    assert rd.default_workers() >= 1


def test_render_draws_here_too_from_the_back_once_meanwhile_is_done(tmp_path):
    """The worker takes the tasks from the front, this process (after meanwhile) from the back:
    every task runs once, the answers come in task order."""
    def task(i):
        (tmp_path / f"{i}-{os.getpid()}").touch()
        time.sleep(0.2)
        return i, os.getpid()
    tasks = [lambda i=i: task(i) for i in range(8)]
    done, _ = rd.render(tasks, 2, meanwhile=lambda: time.sleep(0.3))
    assert [out[0] for out, _ in done] == list(range(8))
    assert sorted(int(p.name.split("-")[0]) for p in tmp_path.iterdir()) == list(range(8))
    here = [i for (i, pid), _ in done if pid == os.getpid()]
    there = [i for (i, pid), _ in done if pid != os.getpid()]
    assert here and there and min(here) > max(there)  # this process took the last ones


def test_render_raises_a_task_error_here():
    def bad():
        raise StoreError("/x/fig.png: cannot write the figure (No space left on device)", 28,
                         "/x/fig.png")
    with pytest.raises(StoreError, match="No space left") as e:
        rd.render([lambda: 1, bad, lambda: 3], 2)
    assert e.value.errno == 28 and e.value.filename == "/x/fig.png"


def _counted(monkeypatch, module, name: str, *also) -> list:
    """``module.name`` (and the same name in ``also``, modules that imported it) replaced by a
    wrapper that appends to the list returned at each call."""
    calls = []
    real = getattr(module, name)

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)
    for m in (module, *also):
        monkeypatch.setattr(m, name, counting)
    return calls


K2_SWEEPS = ("k2", "k2_newreno", "k2_ns2000")


def shrunk_k2(dest: Path, names=K2_SWEEPS) -> Path:
    """The K2 and K2v sweep files (or ``names``) with a tiny [quick]: 2 seeds of 3 s (1 s
    warm-up)."""
    (dest / "sweeps/kaur_vin").mkdir(parents=True)
    for name in names:
        head, quick = (ROOT / f"sweeps/kaur_vin/{name}.toml").read_text().split("[quick]", 1)
        for pattern, repl in ((r"seeds = \d+", "seeds = 2"), (r"duration_s = [\d.]+",
                                                                "duration_s = 3.0"),
                              (r"warmup_s = [\d.]+", "warmup_s = 1.0")):
            quick = re.sub(pattern, repl, quick, count=1)
        (dest / f"sweeps/kaur_vin/{name}.toml").write_text(head + "[quick]" + quick)
    return dest / "sweeps"


def reproduce_k2(out: Path, sweeps: Path, *more) -> None:
    rc = cli.main(["reproduce", "kaur-vin", "--figure", "2", "2v", "--quick", "--out", str(out),
                   "--backend", "cpu", "--quiet", "--sweeps", str(sweeps), *map(str, more)])
    assert rc == 0


def _masked(text: str) -> str:
    """A report without what differs from run to run: its minute and its timings."""
    text = re.sub(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d", "Generated <date>", text)
    text = re.sub(r"((?:sweep|figure|family engine call|total)[^|<]*(?:\| |</td><td>))[0-9.]+ s",
                  r"\1<s>", text)
    return re.sub(r"engine call of [0-9.]+ s|\| [0-9.]+ % \| [0-9.]+ \||<td>[0-9.]+ %</td>"
                  r"<td>[0-9.]+</td>", "<engine>", text)


@pytest.fixture(scope="module")
def k2_folders(tmp_path_factory):
    """The K2 and K2v families reproduced twice from the same shrunk sweeps: figures drawn in
    this process (--jobs 1) and in two others (--jobs 2)."""
    d = tmp_path_factory.mktemp("k2")
    sweeps = shrunk_k2(d)
    reproduce_k2(d / "serial", sweeps, "--jobs", "1")
    reproduce_k2(d / "parallel", sweeps, "--jobs", "2")
    return d / "serial", d / "parallel", sweeps


def test_parallel_figures_and_report_are_the_serial_ones(k2_folders):
    serial, parallel, _ = k2_folders
    names = sorted(p.name for p in (serial / "figures").iterdir())
    assert names == sorted(p.name for p in (parallel / "figures").iterdir())
    assert {"kaur_vin_fig2.png", "kaur_vin_fig2_variants.png"} <= set(names)
    for name in names:
        a, b = ((f / "figures" / name).read_bytes() for f in (serial, parallel))
        if name.endswith(".pdf"):  # a PDF carries the time it was written
            a, b = (re.sub(rb"/CreationDate \([^)]*\)", b"", x) for x in (a, b))
        assert a == b, name
    assert (serial / "verdicts.json").read_bytes() == (parallel / "verdicts.json").read_bytes()
    for f in ("report.md", "report.html"):
        assert _masked((serial / f).read_text()) == _masked((parallel / f).read_text()), f
    # the K2v note (made in a worker) is in the report
    assert "ns-2.35" in (parallel / "report.md").read_text()


def test_a_family_drawn_in_parts_is_the_one_drawn_whole(tmp_path):
    """K5v (``make_k5v.parts``: four figures, a note and four verdict sets) drawn as parallel
    tasks and joined gives the figures and the report note of the hook run whole, here."""
    from diffsweep import papers
    from diffsweep.papers.kaur_vin import explain

    fam = papers.get("kaur-vin").family("K5v")
    parts, _ = explain.k5v_parts({}, tmp_path, papers.get("kaur-vin"))
    assert len(parts) == 7 + explain.JITTER_PARTS  # fixed, whatever the data (none here)
    # split only where more processes draw than there are families
    from diffsweep.studies.reproduce_report import _split
    assert _split(16, [fam] * 12) and not _split(2, [fam] * 12) and not _split(12, [fam] * 12)
    sweeps = shrunk_k2(tmp_path, fam.sweeps)
    outs = []
    for jobs in ("1", "3"):
        out = tmp_path / f"jobs{jobs}"
        rc = cli.main(["reproduce", "kaur-vin", "--figure", "5v", "--quick", "--out", str(out),
                       "--backend", "cpu", "--quiet", "--sweeps", str(sweeps), "--jobs", jobs])
        assert rc == 0
        outs.append(out)
    names = sorted(p.name for p in (outs[0] / "figures").glob("*.png"))
    assert names == ["kaur_vin_fig5_jitter.png", "kaur_vin_fig5_random.png",
                     "kaur_vin_fig7_jitter.png", "kaur_vin_fig7_random.png"]
    for name in names:
        assert (outs[0] / "figures" / name).read_bytes() == (outs[1] / "figures" / name).read_bytes()
    a, b = (_masked((o / "report.md").read_text()) for o in outs)
    assert a == b
    assert "under each condition" in a and "index order + 0.1 ms send jitter" in a


def test_the_claims_are_rated_once(tmp_path, k2_folders, monkeypatch):
    _, _, sweeps = k2_folders
    from diffsweep.analysis import claims
    from diffsweep.report import paper_report as report
    calls = _counted(monkeypatch, claims, "evaluate_all", report)
    reproduce_k2(tmp_path / "out", sweeps, "--jobs", "1")
    assert len(calls) == 1  # was twice: in write_report and again for the return value


# --------------------------------------------------------------------------------------------
# a rerun keeps the report made from the same results
# --------------------------------------------------------------------------------------------
def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture
def copied(k2_folders, tmp_path):
    serial, _, sweeps = k2_folders
    out = tmp_path / "out"
    shutil.copytree(serial, out)
    return out, sweeps


def _redrawn(monkeypatch) -> list:
    """Counts the drawings started (figures.render.start: a list that grows by one per
    drawing)."""
    return _counted(monkeypatch, rd, "start")


def test_a_rerun_keeps_the_report_and_touches_nothing(copied, monkeypatch):
    out, sweeps = copied
    assert (out / report_cache.RECORD).is_file()
    before = snapshot(out)

    def no_work(*a, **k):
        raise AssertionError("a rerun with the same results drew or read again")
    monkeypatch.setattr(rd, "render", no_work)
    monkeypatch.setattr(rd, "start", no_work)
    monkeypatch.setattr(runner, "run", no_work)
    md, html, verdicts = rp.reproduce("kaur-vin", out, figures=["2", "2v"], quick=True,
                                      backend="cpu", progress=False, log=lambda *a: None,
                                      sweeps=sweeps)
    assert md == out / "report.md" and html == out / "report.html"
    assert snapshot(out) == before  # not even a run record in the sweeps' manifests
    stored = json.loads((out / "verdicts.json").read_text())
    assert {k: v.status for k, v in verdicts.items()} == {k: v["status"]
                                                           for k, v in stored.items()}
    assert verdicts["K2.1"].reason == stored["K2.1"]["reason"]


def test_a_changed_report_or_redraw_or_other_code_or_options_draw_again(copied, monkeypatch):
    out, sweeps = copied
    calls = _redrawn(monkeypatch)
    with open(out / "report.md", "a") as f:
        f.write("edited\n")
    reproduce_k2(out, sweeps)  # a file that is not what was written: everything again
    assert len(calls) == 1 and "edited" not in (out / "report.md").read_text()
    reproduce_k2(out, sweeps)
    assert len(calls) == 1  # kept
    reproduce_k2(out, sweeps, "--redraw")
    assert len(calls) == 2
    (out / "figures" / "kaur_vin_fig2.png").unlink()
    reproduce_k2(out, sweeps)
    assert len(calls) == 3 and (out / "figures" / "kaur_vin_fig2.png").is_file()
    monkeypatch.setattr(report_cache, "code_fingerprint", lambda: "another diffsweep")
    reproduce_k2(out, sweeps)
    assert len(calls) == 4
    monkeypatch.undo()
    calls = _redrawn(monkeypatch)
    rc = cli.main(["reproduce", "kaur-vin", "--figure", "2", "--quick", "--out", str(out),
                   "--backend", "cpu", "--quiet", "--sweeps", str(sweeps)])
    assert rc == 0 and len(calls) == 1  # other families chosen: another report
    assert "was not run by this reproduction (--figure 2)" in (out / "report.md").read_text()


def test_a_damaged_or_missing_chunk_is_computed_and_drawn_again(copied, monkeypatch):
    out, sweeps = copied
    calls = _redrawn(monkeypatch)
    chunk = sorted((out / "k2_newreno" / "chunks").glob("*.done.json"))[0]
    parquet = sorted(chunk.parent.glob("*.flows.parquet"))[0]
    parquet.write_bytes(parquet.read_bytes()[:-10])  # truncated: its sha256 no longer matches
    assert report_cache.key(out, "kaur-vin", {}, {}) is not None  # (no sweep: nothing to check)
    with pytest.warns(UserWarning, match="truncated or modified"):
        reproduce_k2(out, sweeps)
    assert len(calls) == 1
    runs = json.loads((out / "k2_newreno" / "manifest.json").read_text())["runs"]
    assert runs[-1]["meta"]["replicas_run"] > 0  # recomputed
    reproduce_k2(out, sweeps)
    assert len(calls) == 1  # and then kept


# --------------------------------------------------------------------------------------------
# figure workers started before the sweeps are stored
# --------------------------------------------------------------------------------------------
def _k2_cfg(sweeps: Path):
    from diffsweep.sweep import config
    return config.load_sweep(sweeps / "kaur_vin" / "k2.toml", quick=True)


def test_read_stored_is_the_answer_of_run(k2_folders, tmp_path):
    serial, _, sweeps = k2_folders
    shutil.copytree(serial / "k2", tmp_path / "k2")
    cfg = _k2_cfg(sweeps)
    ran = runner.run(cfg, backend="cpu", store=tmp_path / "k2", progress=False)
    assert ran.meta["replicas_run"] == 0
    got = runner.read_stored(cfg, tmp_path / "k2")
    for name in ("replicas", "flows", "queues", "sources", "intervals"):
        pd.testing.assert_frame_equal(getattr(got, name), getattr(ran, name), check_exact=True)


def _table_sum(res) -> float:
    return float(res.flows["goodput_bps"].sum())


def test_a_worker_reads_a_sweep_once_it_is_stored_and_stops_when_told(k2_folders, tmp_path):
    serial, _, sweeps = k2_folders
    shutil.copytree(serial / "k2", tmp_path / "k2")
    cfg = _k2_cfg(sweeps)
    runs = reproduce_report._Runs({"k2": cfg, "k3": cfg}, tmp_path, parallel=True)
    with pytest.raises(KeyError):
        runs["k2"]  # here, a sweep not stored yet is not there
    drawing = rd.start([lambda: _table_sum(runs["k2"]), lambda: os.getpid()], 2)
    time.sleep(0.3)
    stored = runner.read_stored(cfg, tmp_path / "k2")
    runs.put("k2", stored)
    done, _ = drawing.finish()
    assert done[0][0] == _table_sum(stored) and done[0][1] >= 0.25  # it waited for the sweep
    # a sweep this process will never store: the worker waiting for it stops
    drawing = rd.start([lambda: runs["k3"], lambda: time.sleep(0.5)], 2)
    time.sleep(0.2)
    runs.abort()
    with pytest.raises(RuntimeError, match="stopped before storing it"):
        drawing.finish()
