"""The host side of a reproduction (issue 22): the report's engine column (the engine call's
time and each family's share of replica-slots), per-seed tables computed in one pass equal to
the former loop's, figures drawn in parallel processes equal to those drawn in one, the claims
rated once, and a rerun that keeps the report made from the same results."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from diffsweep import papers
from diffsweep.report import engine_use, replica_slots, write_report
from diffsweep.results import Results

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
