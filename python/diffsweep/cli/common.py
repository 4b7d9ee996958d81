"""What the subcommands of ``diffsweep`` share: the ``--backend`` help, the checks of integer
options, ``--memory-budget``'s sizes, the connection to a Dask scheduler, a results folder read
with its problems said as warnings."""
from __future__ import annotations

import argparse
import gc
import re
import sys

from diffsweep.core.errors import ConfigError

BACKEND_HELP = ("auto (default): the CPU without a CUDA device, with one the predicted fastest of "
                "cpu, cuda and cuda+cpu (the GPU and the CPU cores at once): docs/design.md")

_SIZE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([kKmMgGtT]?)(i?[bB])?\s*$")


def _bytes(text: str) -> int:
    """'4G', '512MiB', '2e9' -> bytes (K, M, G, T are powers of 1024)."""
    m = _SIZE.match(text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (e.g. 2G, 512M, 1073741824)")
    value = float(m.group(1)) * 1024 ** " KMGT".index(m.group(2).upper() or " ")
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive size")
    return int(value)


def _client(address: str):
    try:
        from distributed import Client  # noqa: PLC0415
    except ImportError:
        raise ConfigError("--scheduler: Dask is not installed; install the extra with "
                          "pip install 'diffsweep[distributed]' (or pip install "
                          "'dask[distributed]')") from None
    try:
        if not address.strip():
            raise ValueError("the address is empty")
        # A Client whose connection failed is finalized when the collector gets to it; inside
        # another Client's start (its loop thread's creation) that deadlocked distributed
        # 2026.8.0 (Client.__del__ -> LoopRunner.stop, seen in the bad-input tests' run of
        # failing addresses). Collect here, where no loop is starting.
        gc.collect()
        # an unknown scheme is refused before any Client exists (Dask's own check and words:
        # a Client made for one and left to the collector took 909 s of a clean clone's run)
        from distributed.comm import parse_address  # noqa: PLC0415
        from distributed.comm.registry import get_backend  # noqa: PLC0415
        get_backend(parse_address(address)[0])
        return Client(address, timeout=30)
    except (OSError, TimeoutError) as e:
        raise ConfigError(f"--scheduler: cannot connect to the Dask scheduler at {address!r} "
                          f"({e})") from None
    except (ValueError, TypeError) as e:  # Dask's parse of the address ("missing port number")
        raise ConfigError(f"--scheduler: {address!r} is not allowed (expected a Dask scheduler "
                          "address: tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786, as `dask "
                          f"scheduler` prints it; Dask says: {e})") from None


def _n(count: int, word: str) -> str:
    """'1 seed', '3 seeds'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _check_int(option: str, value, lo: int, hi: int | None = None) -> None:
    from diffsweep.sweep.runner import int_range  # noqa: PLC0415

    if value is not None and (value < lo or (hi is not None and value > hi)):
        raise ConfigError(f"{option}: {value!r} is not allowed (expected "
                          f"{int_range(lo, hi, option)})")


def _check_threads(value) -> None:
    """--threads: 0 (all cores) to run_args.MAX_THREADS (a million crashed OpenMP)."""
    from diffsweep.engine.run_args import MAX_THREADS  # noqa: PLC0415

    _check_int("--threads", value, 0, MAX_THREADS)


def _load_reporting(path, describe):
    """describe(path), each damaged or repeated chunk said as one warning line on stderr."""
    m, res, f = describe(path)
    for line in f["problems"]:
        print(f"diffsweep: warning: {line}", file=sys.stderr)
    return m, res, f


def said_as_warnings(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, each UserWarning it raises printed as one ``diffsweep: warning:``
    line on stderr (folder.plot and export warn on a partial folder)."""
    import warnings  # noqa: PLC0415

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        out = fn(*args, **kwargs)
    for w in caught:
        print(f"diffsweep: warning: {w.message}", file=sys.stderr)
    return out
