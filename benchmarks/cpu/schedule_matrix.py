"""Which golden cases change under which round schedule (the matrix of tests/test_schedule.py,
as a table rather than a pass/fail): `python benchmarks/cpu/schedule_matrix.py [OUT.json]`.
Used to show the matrix catches schedule-dependent models (issue 20: run at f36c9ee's traffic
model, it lists every schedule under which a case's bits change)."""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests"))
from diffsweep.engine.compiled import run_packed  # noqa: E402
from diffsweep.engine.pack import pack  # noqa: E402
from engine_cases import golden_cases  # noqa: E402
from test_schedule import CLIPS, LANES, RINGS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", help="where to write the summary (JSON); else printed only")
    args = ap.parse_args()
    cases = golden_cases()
    ref = {n: run_packed(pack([sc], [sd]), "cpu") for n, sc, sd in cases}
    rows = []
    for clip in CLIPS:
        for lanes in LANES:
            for ring in RINGS:
                for n, sc, sd in cases:
                    out = run_packed(pack([sc], [sd], lanes=lanes, emit_ring=ring), "cpu", clip_slots=clip)
                    diff = [k for k in sorted(ref[n]) if not np.array_equal(
                        np.atleast_1d(out[k]).view(np.uint8), np.atleast_1d(ref[n][k]).view(np.uint8))]
                    if diff:
                        rows.append({"clip": clip, "lanes": lanes, "emit_ring": ring, "case": n,
                                     "fields": diff})
    runs = len(CLIPS) * len(LANES) * len(RINGS)
    by_case: dict[str, int] = {}
    for r in rows:
        by_case[r["case"]] = by_case.get(r["case"], 0) + 1
    summary = {"schedules": runs, "cases": len(cases), "differing_case_runs": len(rows),
               "schedules_with_a_difference_per_case": by_case, "rows": rows}
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1))
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
