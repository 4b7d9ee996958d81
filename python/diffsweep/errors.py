"""Errors that name what is wrong: every bad input raises ConfigError with the field path first."""


class ConfigError(ValueError):
    """A scenario, grid, sweep file or results folder is invalid.

    The message starts with the field path (``flows[3].segment_bytes``), then the offending
    value and the allowed values, so that a user can fix the input without reading code.
    """


class BackendError(RuntimeError):
    """A requested backend is not built or has no device."""


class EngineError(RuntimeError):
    """The engine reported an internal limit was hit (ring overflow, ...) for some replica."""


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
