"""A run's own arguments (threads, lanes, chunk sizes, seeds per round), checked before
anything is built or written; used by ``runner``, ``engine.simulate`` and the CLI, so that
none of them imports another for it."""
from __future__ import annotations

import math

import numpy as np

from diffsweep.core.errors import ConfigError

#: columns of the replicas table target_ci may use (a grid column is the same for every seed)
REPLICA_METRICS = ("tcp_goodput_bps", "measured_s", "duration_s", "warmup_s", "slot_s",
                   "n_flows", "delay_rounding_ms", "slots_run")


#: most CPU threads a run may ask for (``threads``, ``--threads``): far above the cores of
#: any machine the engine runs on, far below where OpenMP fails to create them (a million
#: threads ended in "libgomp: Thread creation failed" or a segmentation fault, with an empty
#: results folder left behind); 0 or None: all OpenMP threads (the machine's cores)
MAX_THREADS = 1024


def _check_positive_int(name: str, v, lo: int = 1, hi: int | None = None) -> int | None:
    if v is None:
        return None
    if (isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo
            or (hi is not None and v > hi)):
        raise ConfigError(f"{name}: {v!r} is not allowed (expected "
                          f"{int_range(lo, hi, name)})")
    return int(v)


def int_range(lo: int, hi: int | None, name: str = "") -> str:
    """'an integer >= 1', or for the threads 'an integer from 0 (all cores) to 1024'."""
    if hi is None:
        return f"an integer >= {lo}"
    zero = " (all cores)" if lo == 0 and name.lstrip("-") == "threads" else ""
    return f"an integer from {lo}{zero} to {hi}"


def check_threads(threads, name: str = "threads") -> int | None:
    """``threads`` (None, or 0..MAX_THREADS), checked before anything is built or written."""
    return _check_positive_int(name, threads, lo=0, hi=MAX_THREADS)


def check_lanes(lanes) -> int | None:
    """``lanes`` (None: the backend's default, or a power of two up to the engine's
    ``max_lanes``), checked before anything is built or written: the engine's own refusal
    came as a ValueError after the packing, and a float as pybind11's "Unable to cast"."""
    if lanes is None:
        return None
    from diffsweep.engine.pack import layout  # noqa: PLC0415

    top = int(layout().limits.get("max_lanes", 32))
    if (isinstance(lanes, bool) or not isinstance(lanes, (int, np.integer)) or lanes < 1
            or lanes > top or lanes & (lanes - 1)):
        raise ConfigError(f"lanes: {lanes!r} is not allowed (expected None, or a power of two "
                          f"from 1 to {top}: the threads that share one replica)")
    return int(lanes)


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
            import difflib  # noqa: PLC0415
            close = difflib.get_close_matches(str(target_metric), allowed, n=1)
            hint = f"did you mean {close[0]!r}?" if close else "one of " + ", ".join(allowed)
            raise ConfigError(f"target_metric: {target_metric!r} is not a column of the "
                              f"replicas table ({hint})")
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
