"""The scenario builders, by name: ``diffsweep.scenario.builders.kaur_vin(...)`` is the builder that
sweep files call ``builder = "kaur_vin"``. The standard builders (``STANDARD``: the
``dumbbell`` of ``diffsweep.scenario.dumbbell``, the ``parking_lot`` of
``diffsweep.scenario.parking_lot``) are generic; every other builder lives with
its paper (``diffsweep.papers.<paper>.scenario``) and is listed in the paper's
``Paper.builders``; this module looks the name up (``all_builders()``) when it is first used,
so a registered paper's builders appear here without being named.
"""
from __future__ import annotations

from typing import Any

from diffsweep.core.registry import builders, resolve

#: The builders that are no paper's: name -> "module:function".
STANDARD = {"dumbbell": "diffsweep.scenario.dumbbell:dumbbell"}
STANDARD["parking_lot"] = "diffsweep.scenario.parking_lot:parking_lot"  # docs/contributing.md


def all_builders() -> dict[str, str]:
    """Every builder by name: the standard ones, then every registered paper's."""
    return {**STANDARD, **builders()}


def __getattr__(name: str) -> Any:
    target = all_builders().get(name)
    if target is None:
        raise AttributeError(f"module 'diffsweep.scenario.builders' has no builder {name!r} "
                             f"(registered: {', '.join(all_builders())})")
    return resolve(target)


def __dir__() -> list[str]:
    return sorted(all_builders())
