"""Errors that name what is wrong: every bad input raises ConfigError with the field path first.

Every error diffsweep raises on purpose is a ``DiffsweepError``; the command line prints its
message as one line (``diffsweep: error: ...``) and shows a traceback only with ``--debug``.
"""
import difflib as _difflib
import errno as _errno
import signal as _signal


class DiffsweepError(Exception):
    """Base of the errors diffsweep raises on purpose (a user can act on the message)."""


class ConfigError(DiffsweepError, ValueError):
    """A scenario, grid, sweep file or results folder is invalid.

    The message starts with the field path (``flows[3].segment_bytes``), then the offending
    value and the allowed values, so that a user can fix the input without reading code.
    """


class BackendError(DiffsweepError, RuntimeError):
    """A requested backend is not built or has no device."""


class EngineError(DiffsweepError, RuntimeError):
    """The engine reported an internal limit was hit (ring overflow, ...) for some replica."""


class StoreError(DiffsweepError, OSError):
    """A results folder cannot be read or written (read-only, disk full, no permission, a path
    through a regular file). An ``OSError`` (``errno``, ``filename`` as the OS gave them) whose
    message names the path, what failed and what to do."""

    def __init__(self, message: str, errno: int | None = None, filename=None):
        super().__init__(message)
        self.errno = errno
        self.filename = filename

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "results folder error"

    def __reduce__(self):  # errno and filename too (raised in a figure-drawing process)
        return type(self), (str(self), self.errno, self.filename)


class BuilderError(DiffsweepError, RuntimeError):
    """A scenario builder (a sweep's ``builder``, a Grid's callable: often the user's own code)
    raised something other than ConfigError at a grid point: one line naming the builder, the
    point's parameters and seed, and the builder's own exception and message (the exception
    itself is the ``__cause__``; ``--debug`` shows its traceback). The command line exits with 1:
    not a usage error of diffsweep, a failure in code diffsweep called."""


class IncompleteResults(DiffsweepError):
    """A results folder lacks replicas of its sweep (not computed yet, or in damaged chunks), so
    an export of it would look complete while it is not (the command line exits with 3)."""


class FolderBusy(ConfigError):
    """Another run holds the lock of a results folder (``DIR/.diffsweep.lock``)."""


_HINTS = {
    _errno.ENOSPC: "the disk is full: free some space, then rerun to resume",
    _errno.EDQUOT: "the disk quota is exceeded: free some space, then rerun to resume",
    _errno.EROFS: "the file system is read-only: choose another output folder (--out)",
    _errno.EACCES: "no permission to write there: choose another output folder (--out)",
    _errno.EPERM: "no permission to write there: choose another output folder (--out)",
    _errno.ENOTDIR: "a part of the path is a file, not a folder: choose another output folder "
                    "(--out)",
    _errno.EEXIST: "a file is in the way: choose another output folder (--out)",
    _errno.ENAMETOOLONG: "the path is too long: choose a shorter output folder (--out)",
}


def store_error(e: OSError, path, doing: str) -> StoreError:
    """A ``StoreError`` for the OSError ``e`` raised while ``doing`` (e.g. "write a chunk")
    in the folder ``path``: one line naming the path, the reason and what to do."""
    if isinstance(e, StoreError):
        return e
    where = e.filename if getattr(e, "filename", None) else path
    why = e.strerror or str(e) or type(e).__name__
    hint = _HINTS.get(e.errno or -1, "check the path and its permissions, or choose another "
                      "output folder (--out)")
    return StoreError(f"{where}: cannot {doing} ({why}); {hint}", e.errno, where)


class SweepInterrupted(KeyboardInterrupt):
    """A sweep stopped by Ctrl-C (or SIGTERM, see ``raise_terminated``) after writing its
    finished chunks. The message says what is saved and how to resume; ``store``, ``done``,
    ``total`` and ``resume`` carry the same facts, ``signum`` the signal that stopped it (the
    command line exits with 128 + signum: 130 for Ctrl-C, 143 for SIGTERM). A
    ``KeyboardInterrupt``, so that code that does not know it still stops."""

    def __init__(self, message: str, store: str | None = None, done: int = 0, total: int = 0,
                 resume: str | None = None, signum: int = _signal.SIGINT):
        super().__init__(message)
        self.store, self.done, self.total, self.resume = store, done, total, resume
        self.signum = int(signum)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "interrupted"


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an exception by ``raise_terminated``: a ``KeyboardInterrupt`` so that
    everything that cleans up after a Ctrl-C (the runner saving what finished, the lock being
    released, ``finally`` blocks) does the same after a SIGTERM."""

    signum = _signal.SIGTERM

    def __str__(self) -> str:
        return "terminated (SIGTERM)"


def raise_terminated(signum, frame):
    """A SIGTERM handler that makes SIGTERM behave like Ctrl-C: it raises ``Terminated`` where
    Python's default SIGINT handler raises KeyboardInterrupt, and ``diffsweep.run`` takes SIGTERM
    over (stop the engine, save what finished, ``SweepInterrupted`` with signum 15) only while
    this handler is installed. The command line installs it; a Python program opts in with
    ``signal.signal(signal.SIGTERM, diffsweep.core.errors.raise_terminated)`` (left alone, SIGTERM
    keeps its default: the process dies at once, as a library should not decide otherwise)."""
    raise Terminated()


def did_you_mean(key: str, allowed) -> str:
    """'did you mean 'x'?' for the closest of ``allowed``, else the list of what is allowed:
    the tail of every one-line error about a name (config, axes, builders)."""
    allowed = list(allowed)
    close = _difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'?"
    return "allowed: " + ", ".join(allowed) if allowed else "nothing is allowed here"


def check(cond: bool, field: str, value, allowed: str) -> None:
    """Raise ConfigError naming ``field`` unless ``cond`` holds."""
    if not cond:
        raise ConfigError(f"{field}: {value!r} is not allowed (expected {allowed})")
