"""The installed diffsweep's version (the manifest's ``diffsweep_version``, the report's stamp),
read from the package metadata so that no layer imports the package's face for it."""
from __future__ import annotations


def diffsweep_version() -> str:
    """The installed diffsweep version, else "unknown" (running from a source tree)."""
    try:
        from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415
    except ImportError:  # pragma: no cover
        return "unknown"
    try:
        return version("diffsweep")
    except PackageNotFoundError:
        return "unknown"
