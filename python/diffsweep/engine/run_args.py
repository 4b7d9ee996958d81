"""An engine call's own arguments (threads, lanes, the positive integers of chunk sizes and
seeds per round), checked before anything is built or written; used by ``runner``,
``engine.simulate`` and the CLI, so that none of them imports another for it. The target_ci
arguments are checked where they are used, in ``diffsweep.sweep.ci_target``."""
from __future__ import annotations

import numpy as np

from diffsweep.core.errors import ConfigError

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
