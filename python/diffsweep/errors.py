"""Errors that name what is wrong: every bad input raises ConfigError with the field path first.

Every error diffsweep raises on purpose is a ``DiffsweepError``; the command line prints its
message as one line (``diffsweep: error: ...``) and shows a traceback only with ``--debug``.
"""
import errno as _errno


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
    """A sweep stopped by Ctrl-C after writing its finished chunks. The message says what is
    saved and how to resume; ``store``, ``done``, ``total`` and ``resume`` carry the same facts.
    A ``KeyboardInterrupt``, so that code that does not know it still stops."""

    def __init__(self, message: str, store: str | None = None, done: int = 0, total: int = 0,
                 resume: str | None = None):
        super().__init__(message)
        self.store, self.done, self.total, self.resume = store, done, total, resume

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "interrupted"


def check(cond: bool, field: str, value, allowed: str) -> None:
    """Raise ConfigError naming ``field`` unless ``cond`` holds."""
    if not cond:
        raise ConfigError(f"{field}: {value!r} is not allowed (expected {allowed})")
