"""Parquet chunk store: manifest, resume, atomicity, corruption (diffsweep.sweep.store)."""
import json
import os
import warnings

import numpy as np
import pandas as pd
import pytest

from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES, Results
from diffsweep.sweep.store import Store, load, read_manifest


def make_chunk(pairs, intervals=False):
    """Synthetic Results for the given (point, seed) pairs: 2 flows and 1 queue per replica."""
    rep = pd.DataFrame({
        "point": [p for p, _ in pairs], "seed": [s for _, s in pairs],
        "t_on_ms": [0.4 * (p + 1) for p, _ in pairs],
        "tcp_goodput_bps": [1e6 + 1000 * p + s for p, s in pairs],
        "n_flows": 2,
    })
    flows = pd.DataFrame([
        {"point": p, "seed": s, "t_on_ms": 0.4 * (p + 1), "flow": f,
         "goodput_bps": 5e5 + 100 * p + 10 * s + f, "variant": "reno"}
        for p, s in pairs for f in (1, 0)  # deliberately unsorted
    ])
    queues = pd.DataFrame([
        {"point": p, "seed": s, "link": 0, "cls_index": 0, "cls": "be", "drops": p + s}
        for p, s in pairs
    ])
    sources = pd.DataFrame()  # a table with no columns: not written
    iv = pd.DataFrame([
        {"point": p, "seed": s, "flow": 0, "interval": i, "goodput_bps": float(i)}
        for p, s in pairs for i in range(2)
    ]) if intervals else pd.DataFrame()
    return Results(replicas=rep, flows=flows, queues=queues, sources=sources, intervals=iv,
                   meta={"wall_s": 1.5, "n_replicas": len(pairs), "backend": "cpu",
                         "np": np.int64(3)})


FIELDS = {"name": "k2", "sweep_text": "name = 'k2'\n", "backend": "cpu", "device": "test cpu"}


def opened(path, h="h" * 64, fields=FIELDS):
    s = Store(path)
    s.open(h, fields)
    return s


def test_manifest_written(tmp_path):
    s = opened(tmp_path / "out")
    assert not (tmp_path / "out" / "manifest.json").exists()  # claimed by the first chunk
    s.write_chunk(make_chunk([(0, 0)]))
    m = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert m["config_hash"] == "h" * 64
    assert m["name"] == "k2" and m["sweep_text"] == "name = 'k2'\n"
    assert m["backend"] == "cpu" and m["device"] == "test cpu"
    for k in ("diffsweep_version", "git_commit", "host", "start", "runs"):
        assert k in m
    assert m["end"] is None
    s.finish({"wall_s": 2.0})
    m = read_manifest(tmp_path / "out")
    assert m["end"] is not None and m["runs"][-1]["meta"] == {"wall_s": 2.0}
    # no temporary files left behind
    assert not [f for f in os.listdir(tmp_path / "out") if f.startswith(".tmp")]
    s.close()
    assert not (tmp_path / "out" / ".diffsweep.lock").exists()


def test_write_and_load_round_trip(tmp_path):
    s = opened(tmp_path / "out")
    a = make_chunk([(0, 0), (0, 1), (1, 0)], intervals=True)
    b = make_chunk([(1, 1), (2, 0), (2, 1)], intervals=True)
    ida = s.write_chunk(b)  # order of chunks must not show in the result
    idb = s.write_chunk(a)
    assert ida != idb
    assert s.done_replicas() == {(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)}
    files = sorted(os.listdir(tmp_path / "out" / "chunks"))
    assert f"{ida}.done.json" in files and f"{ida}.replicas.parquet" in files
    assert not any("sources" in f for f in files)
    r = s.load()
    expect = Results.concat([a, b])
    for name in TABLES:
        got, exp = getattr(r, name), getattr(expect, name)
        if exp.empty and not len(exp.columns):
            assert got.empty
            continue
        pd.testing.assert_frame_equal(got, exp, check_dtype=False)
    assert list(r.flows["flow"][:2]) == [0, 1]  # sorted
    assert r.meta["n_replicas"] == 6 and r.meta["wall_s"] == 3.0 and r.meta["backend"] == "cpu"
    # module-level load gives the same tables
    r2 = load(tmp_path / "out")
    pd.testing.assert_frame_equal(r2.replicas, r.replicas)
    pd.testing.assert_frame_equal(r2.flows, r.flows)


def test_empty_store_loads(tmp_path):
    s = opened(tmp_path / "out")
    assert s.done_replicas() == set()
    s.write_chunk(make_chunk([(0, 0)]))
    for c in s.chunks():  # a claimed folder whose chunks are gone
        for info in c.files.values():
            os.remove(tmp_path / "out" / "chunks" / info["file"])
        os.remove(tmp_path / "out" / "chunks" / f"{c.id}.done.json")
    r = load(tmp_path / "out")
    assert len(r) == 0 and r.meta["n_replicas"] == 0


def test_unclaimed_folder_rolled_back(tmp_path):
    """A run that writes no chunk leaves nothing: the next (other) sweep may use the folder."""
    s = opened(tmp_path / "out", h="a" * 64)
    assert (tmp_path / "out" / ".diffsweep.lock").exists()
    s.finish({"error": "failed before its first chunk"})
    s.close()
    assert not (tmp_path / "out").exists()
    s = opened(tmp_path / "out", h="b" * 64)  # not "holds results of another sweep"
    s.write_chunk(make_chunk([(0, 0)]))
    s.close()
    assert read_manifest(tmp_path / "out")["config_hash"] == "b" * 64
    # an existing empty folder is kept, only emptied of what the run made
    (tmp_path / "mine").mkdir()
    s = opened(tmp_path / "mine")
    s.close()
    assert (tmp_path / "mine").is_dir() and not os.listdir(tmp_path / "mine")


def test_resume_same_hash(tmp_path):
    s = opened(tmp_path / "out")
    s.write_chunk(make_chunk([(0, 0), (0, 1)]))
    s.finish()
    s.close()
    s2 = opened(tmp_path / "out", fields={**FIELDS, "backend": "cuda"})
    assert s2.done_replicas() == {(0, 0), (0, 1)}
    m = read_manifest(tmp_path / "out")
    assert len(m["runs"]) == 2 and m["runs"][1]["backend"] == "cuda" and m["end"] is None


def test_different_hash_is_refused(tmp_path):
    s = opened(tmp_path / "out", h="a" * 64)
    s.write_chunk(make_chunk([(0, 0)]))
    s.close()
    with pytest.raises(ConfigError, match=r"holds results of another sweep .*'k2'.*aaaaaaaaaaaa"
                                          r".*'other'.*bbbbbbbbbbbb.*--out") as info:
        Store(tmp_path / "out").open("b" * 64, {"name": "other"})
    assert str(info.value).startswith(str(tmp_path / "out"))


def test_nonempty_foreign_folder_refused(tmp_path):
    d = tmp_path / "out"
    d.mkdir()
    (d / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match=r"not a diffsweep results folder"):
        Store(d).open("h" * 64, FIELDS)


def test_load_without_manifest(tmp_path):
    d = tmp_path / "empty"
    d.mkdir()
    with pytest.raises(ConfigError, match=r"no manifest\.json") as info:
        load(d)
    assert str(info.value).startswith(str(d))
    with pytest.raises(ConfigError, match=r"no such results folder"):
        load(tmp_path / "missing")
    (d / "manifest.json").write_text("{not json")
    with pytest.raises(ConfigError, match=r"unreadable manifest"):
        load(d)
    with pytest.raises(ConfigError, match=r"unreadable manifest"):
        Store(d).open("h" * 64, FIELDS)


def test_chunk_without_done_is_ignored(tmp_path):
    s = opened(tmp_path / "out")
    cid = s.write_chunk(make_chunk([(0, 0)]))
    other = s.write_chunk(make_chunk([(1, 0)]))
    os.remove(tmp_path / "out" / "chunks" / f"{cid}.done.json")  # as if the writer crashed
    with pytest.warns(UserWarning, match=rf"{cid}: incomplete chunk"):
        done = s.done_replicas()
    assert done == {(1, 0)}
    assert any(cid in p for p in s.problems)
    assert not any(f.startswith(cid) for f in os.listdir(tmp_path / "out" / "chunks"))
    assert (tmp_path / "out" / "corrupt" / f"{cid}.replicas.parquet").exists()
    assert (tmp_path / "out" / "corrupt" / f"{cid}.reason.txt").exists()
    assert other in os.listdir(tmp_path / "out" / "chunks")[0]
    assert list(s.load().replicas["point"]) == [1]


def test_truncated_parquet_detected(tmp_path):
    s = opened(tmp_path / "out")
    good = s.write_chunk(make_chunk([(0, 0), (0, 1)]))
    bad = s.write_chunk(make_chunk([(1, 0), (1, 1)]))
    f = tmp_path / "out" / "chunks" / f"{bad}.flows.parquet"
    size = f.stat().st_size
    with open(f, "r+b") as fh:
        fh.truncate(size // 2)
    # load() of the folder reports but does not move anything
    with pytest.warns(UserWarning, match=rf"{bad}.flows.parquet has {size // 2} bytes"):
        r = load(tmp_path / "out")
    assert sorted(set(r.replicas["point"])) == [0]
    assert f.exists()
    s.close()
    # the store of a run reports, moves aside, and leaves those replicas to recompute
    s2 = opened(tmp_path / "out")
    with pytest.warns(UserWarning, match=rf"{bad}.*truncated"):
        done = s2.done_replicas()
    assert done == {(0, 0), (0, 1)}
    assert s2.problems and "moved to" in s2.problems[0]
    assert not f.exists() and (tmp_path / "out" / "corrupt" / f.name).exists()
    assert good in os.listdir(tmp_path / "out" / "chunks")[0]
    # recompute the missing pairs: the store is whole again, with no warning
    s2.write_chunk(make_chunk([(1, 0), (1, 1)]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Store(tmp_path / "out").done_replicas() == {(0, 0), (0, 1), (1, 0), (1, 1)}
        assert len(load(tmp_path / "out")) == 4


def test_same_size_corruption_detected(tmp_path):
    s = opened(tmp_path / "out")
    cid = s.write_chunk(make_chunk([(0, 0)]))
    f = tmp_path / "out" / "chunks" / f"{cid}.replicas.parquet"
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF
    f.write_bytes(bytes(data))
    with pytest.warns(UserWarning, match="sha256"):
        assert s.done_replicas() == set()


def test_damaged_done_json(tmp_path):
    s = opened(tmp_path / "out")
    cid = s.write_chunk(make_chunk([(0, 0)]))
    (tmp_path / "out" / "chunks" / f"{cid}.done.json").write_text('{"pairs": [[0, 0]')
    with pytest.warns(UserWarning, match=r"damaged"):
        assert s.done_replicas() == set()


def test_duplicate_pairs_keep_first_chunk(tmp_path):
    s = opened(tmp_path / "out")
    first = make_chunk([(0, 0), (0, 1)])
    s.write_chunk(first)
    second = make_chunk([(0, 1), (1, 0)])
    second.replicas["tcp_goodput_bps"] += 7.0
    s.write_chunk(second)
    with pytest.warns(UserWarning, match="older chunk"):
        r = s.load()
    assert len(r.replicas) == 3 and len(r.flows) == 6
    row = r.replicas[(r.replicas.point == 0) & (r.replicas.seed == 1)]
    assert float(row["tcp_goodput_bps"].iloc[0]) == 1e6 + 1


def test_write_chunk_checks(tmp_path):
    s = opened(tmp_path / "out")
    bad = make_chunk([(0, 0)])
    bad.flows = bad.flows.drop(columns=["seed"])
    with pytest.raises(ValueError, match="flows"):
        s.write_chunk(bad)
    dup = make_chunk([(0, 0), (0, 0)])
    with pytest.raises(ValueError, match="twice"):
        s.write_chunk(dup)
    empty = Results(*(pd.DataFrame() for _ in TABLES))
    assert s.write_chunk(empty) is None


def test_stale_tmp_files_removed_on_open(tmp_path):
    s = opened(tmp_path / "out")
    s.write_chunk(make_chunk([(0, 0)]))
    stale = tmp_path / "out" / "chunks" / ".tmp-deadbeef-c000000s0-x.replicas.parquet"
    stale.write_bytes(b"partial")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert s.done_replicas() == {(0, 0)}  # temporary files are never taken for chunks
    s.close()
    opened(tmp_path / "out")
    assert not stale.exists()
