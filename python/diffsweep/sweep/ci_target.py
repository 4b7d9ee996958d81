"""ci_target: adaptive seeds (``runner.run(..., target_ci=...)``): seeds are added in rounds
until the CI half-width of the target metric is small enough at every point, or the point has
``max_seeds`` seeds. See the module docstring of ``diffsweep.sweep.runner`` ("target_ci")."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.engine.run_args import _check_positive_int

#: columns of the replicas table target_ci may use (a grid column is the same for every seed)
REPLICA_METRICS = ("tcp_goodput_bps", "measured_s", "duration_s", "warmup_s", "slot_s",
                   "n_flows", "delay_rounding_ms", "slots_run")


def _check_target_ci(grid, target_ci, target_metric, max_seeds, seeds_per_round, ci_level,
                     max_replicas: int, force: bool = False):
    """(metric or None, max_seeds, seeds_per_round): the target_ci arguments, all checked
    before anything runs; ``max_replicas``: the size limit a run is held to
    (``sizing.MAX_REPLICAS``)."""
    metric = None
    if target_ci is not None:
        if not (isinstance(target_ci, (int, float)) and not isinstance(target_ci, bool)
                and math.isfinite(target_ci) and target_ci > 0):
            raise ConfigError(f"target_ci: {target_ci!r} is not allowed (expected a finite "
                              "number > 0: a fraction of |mean| such as 0.05, or with "
                              "target_relative=False a half-width in the metric's unit)")
        allowed = list(REPLICA_METRICS)
        if target_metric in ("point", "seed") or target_metric in grid.columns:
            # a grid column is the same for every seed: its interval is 0 at once, and the
            # target "met" said nothing
            what = ("an identifier of the rows" if target_metric in ("point", "seed") else
                    "a grid column: a parameter of the sweep, the same for every seed")
            raise ConfigError(f"target_metric: {target_metric!r} is not a metric ({what}); "
                              f"expected a measured column of the replicas table: "
                              f"{', '.join(allowed)}")
        if target_metric not in allowed:
            # a named metric (jain_index, an expression, a user's module:function): computed
            # per replica from each chunk's tables (diffsweep.analysis.registry)
            from diffsweep.analysis import registry  # noqa: PLC0415
            try:
                registry.resolve(target_metric)
            except ConfigError as e:
                import difflib  # noqa: PLC0415
                names = [*allowed, *registry.METRICS]
                close = difflib.get_close_matches(str(target_metric), names, n=1)
                hint = f"did you mean {close[0]!r}?" if close else "`diffsweep metrics` " \
                    "lists them"
                if str(e).startswith("metric: unknown metric"):
                    raise ConfigError(f"target_metric: {target_metric!r} is not a metric nor "
                                      f"a column of the replicas table ({hint})") from None
                raise ConfigError("target_metric: " + str(e).removeprefix("metric: ")) \
                    from None
        max_seeds = _check_positive_int("max_seeds", max_seeds, lo=2)
        top = max_replicas // max(1, grid.n_points)
        if not force and max_seeds > top:
            # the rounds could reach points x max_seeds replicas, past the size limit a run
            # is held to (a billion ran until it was killed)
            raise ConfigError(f"max_seeds: {max_seeds!r} is not allowed (expected an integer "
                              f"from 2 to {top:,}: {grid.n_points:,} "
                              f"point{'s' if grid.n_points != 1 else ''} x max_seeds stays "
                              f"within {max_replicas:,} replicas; or force=True (or "
                              "--force) to go ahead)")
        seeds_per_round = _check_positive_int("seeds_per_round", seeds_per_round)
        if not (isinstance(ci_level, float) and 0 < ci_level < 1):
            raise ConfigError(f"ci_level: {ci_level!r} is not allowed (expected 0 < level < 1)")
        metric = target_metric
    return metric, max_seeds, seeds_per_round


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
