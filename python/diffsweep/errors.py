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


def check(cond: bool, field: str, value, allowed: str) -> None:
    """Raise ConfigError naming ``field`` unless ``cond`` holds."""
    if not cond:
        raise ConfigError(f"{field}: {value!r} is not allowed (expected {allowed})")
