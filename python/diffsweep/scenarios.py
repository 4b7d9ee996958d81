"""The papers' scenario builders, by name: ``diffsweep.scenarios.kaur_vin(...)`` is the builder
that sweep files call ``builder = "kaur_vin"``. Each builder lives with its paper
(``diffsweep.papers.<paper>.scenario``) and is listed in the paper's ``Paper.builders``; this
module looks the name up in the registry (``diffsweep.papers.builders()``) when it is first
used, so a registered paper's builders appear here without being named.
"""
from __future__ import annotations

from typing import Any

from .papers import builders, resolve


def __getattr__(name: str) -> Any:
    target = builders().get(name)
    if target is None:
        raise AttributeError(f"module 'diffsweep.scenarios' has no builder {name!r} "
                             f"(registered: {', '.join(builders())})")
    return resolve(target)


def __dir__() -> list[str]:
    return sorted(builders())
