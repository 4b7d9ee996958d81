"""ci_target: adaptive seeds (``runner.run(..., target_ci=...)``): seeds are added in rounds
until the CI half-width of the target metric is small enough at every point, or the point has
``max_seeds`` seeds. See the module docstring of ``diffsweep.sweep.runner`` ("target_ci")."""
from __future__ import annotations

import numpy as np
import pandas as pd


def _rows_for(grid, pairs: list[tuple[int, int]]) -> pd.DataFrame:
    """Replica rows (point, seed, grid columns) for any (point, seed) pairs, in the given order."""
    keys = pd.DataFrame({"point": np.array([p for p, _ in pairs], dtype="int64"),
                         "seed": np.array([s for _, s in pairs], dtype="int64")})
    return keys.merge(grid.points, on="point", how="left", sort=False)


def _target_ci_rounds(session, grid, wanted, order, prog, target, metric, relative,
                      max_seeds, per_round, level) -> dict:
    """Add seeds in rounds to the points whose CI half-width is above ``target``. ``session``:
    the run's ``session.Session`` (its metric table, the pairs done, ``run_rows``)."""
    from diffsweep.analysis.stats import ci_targets_unmet, summarize  # noqa: PLC0415

    rounds = 0
    while True:
        values = session.metric_table()
        if len(values):
            keys = pd.MultiIndex.from_arrays([values["point"].astype("int64"),
                                              values["seed"].astype("int64")])
            values = values[keys.isin(list(order))]
        summary = summarize(values, by=["point"], metrics=[metric], level=level)
        missing = sorted(set(wanted) - set(summary["point"].astype(int)))
        unmet = set(ci_targets_unmet(summary, target, relative)["point"].astype(int))
        unmet |= set(missing)
        grow = sorted(p for p in unmet if len(wanted[p]) < max_seeds)
        if not grow:
            break
        rounds += 1
        new_pairs = []
        for p in grow:
            k = min(per_round, max_seeds - len(wanted[p]))
            top = max(wanted[p])
            seeds = list(range(top + 1, top + 1 + k))
            wanted[p].extend(seeds)
            new_pairs.extend((p, s) for s in seeds)
        for pr in new_pairs:
            order[pr] = len(order)
        prog.grow(len(order))
        rows = _rows_for(grid, new_pairs)
        prog_before = len(session.done.intersection(new_pairs))
        if prog_before:
            prog.skip(prog_before)
        session.run_rows(rows)
    capped = sorted(unmet)
    return {"ci_target": float(target), "ci_metric": metric, "ci_relative": bool(relative),
            "ci_level": level, "ci_rounds": rounds, "ci_max_seeds": max_seeds,
            "ci_capped_points": capped,
            "ci_seeds_per_point": {int(p): len(s) for p, s in wanted.items()},
            "ci_summary": summary}
