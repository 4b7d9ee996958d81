"""Recorded outputs: two small Kaur & Vin sweeps (K2 and K5 with unequal RTPs, 2 seeds, 3 s) run
again and compared with the tables recorded in ``tests/data/recorded/`` (exact equality: every
column, every value, every dtype; an object
column, e.g. of tuples, as the ``repr`` of each value). Any change of a number, in the engine, the builder or the
Kaur & Vin per-seed tables that the figures and the claims read, fails here.

The recorded files were written by ``python tests/test_recorded.py --record`` before the Kaur &
Vin code moved into ``diffsweep.papers``; record again only for an intended change of results,
and say so in the commit.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

from diffsweep import config, runner
from diffsweep.papers.kaur_vin import tables as kv

DATA = Path(__file__).resolve().parent / "data" / "recorded"
SWEEPS = ("k2", "k5_unequal")
RESULT_TABLES = ("replicas", "flows", "queues", "sources")


def _run(name: str):
    cfg = config.load_sweep(DATA / f"{name}.toml", quick=True)
    return runner.run(cfg, backend="cpu", progress=False, quiet=True)


def _derived(name: str, res) -> dict[str, pd.DataFrame]:
    """The per-seed tables of the Kaur & Vin package (what figures and claims are computed from)."""
    if name == "k2":
        return {"loss": kv.loss_per_seed(res), "timeouts": kv.timeouts_per_seed(res)}
    return {"fairness": kv.fairness_per_seed(res), "normalized": kv.normalized_per_flow(res),
            "padhye": kv.padhye_per_flow(res)}


def _all_tables(name: str) -> dict[str, pd.DataFrame]:
    res = _run(name)
    out = {t: getattr(res, t) for t in RESULT_TABLES}
    out.update(_derived(name, res))
    return out


def _storable(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with every object column (tuples, bools mixed with None, ...) as the ``repr`` of
    each value, which Parquet stores exactly (it would turn tuples into float lists)."""
    df = df.reset_index(drop=True).copy()
    for c in df.columns:
        if df[c].dtype == object:
            df[c] = df[c].map(repr)
    return df


def _path(name: str, table: str) -> Path:
    return DATA / f"{name}.{table}.parquet"


@pytest.mark.parametrize("name", SWEEPS)
def test_tables_equal_recorded(name):
    for table, got in _all_tables(name).items():
        want = pd.read_parquet(_path(name, table))
        assert len(got) > 0, f"{name}.{table}: empty"
        pd.testing.assert_frame_equal(_storable(got), want, check_exact=True,
                                      obj=f"{name}.{table}")


def record() -> None:  # pragma: no cover - run by hand
    for name in SWEEPS:
        for table, df in _all_tables(name).items():
            _storable(df).to_parquet(_path(name, table))
            print(f"recorded {_path(name, table)} ({len(df)} rows)")


if __name__ == "__main__" and "--record" in sys.argv:
    record()
