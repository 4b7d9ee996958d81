"""Identity of what a run computes: canonical JSON and its SHA-256.

``canon(value)`` turns parameter values (scalars, tuples, lists, dicts, non-finite floats) into
plain JSON data with one spelling per value; ``digest(value)`` is the SHA-256 of its canonical
JSON (sorted keys, no spaces). ``config`` hashes sweep files with them and ``runner`` names the
results folder of a grid with them, so that both spell a configuration the same way.
"""
from __future__ import annotations

import hashlib
import json
import math
from typing import Any

__all__ = ["canon", "digest"]


def canon(v: Any) -> Any:
    """``v`` as plain JSON data: tuples become lists, dict keys strings, a non-finite float
    ``{"float": "nan"}``, any other object ``{type name: str(v)}``."""
    if isinstance(v, (list, tuple)):
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return {str(k): canon(x) for k, x in v.items()}
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"float": repr(v)}
    return {type(v).__name__: str(v)}


def digest(obj: Any) -> str:
    """SHA-256 (hex) of the canonical JSON of ``obj``."""
    text = json.dumps(canon(obj), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()
