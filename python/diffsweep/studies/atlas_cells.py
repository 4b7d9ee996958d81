"""atlas_cells: what an atlas's cells are made of, shared by a paper's claim
(``diffsweep.studies.atlas``) and a claim of one's own (``diffsweep.studies.own_atlas``):
the axes as given (``parse_axes``), how a sweep sets a parameter (``_paper_values``) and the
plan (``_Plan``)."""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any

from diffsweep.core.errors import ConfigError

MAX_AXES = 3
#: cells of one atlas (each cell is a claim's whole set of sweeps)
MAX_CELLS = 400


def parse_axes(axes) -> dict[str, list]:
    """``["NAME=V1,V2,...", ...]`` (the command line; ``lin:LO:HI:N`` and ``log:LO:HI:N`` give N
    evenly or log-evenly spaced numbers) or ``{name: [values]}`` (Python) as {name: [raw
    values]}, in order; ConfigError naming the axis otherwise."""
    if isinstance(axes, dict):
        out = {}
        for k, v in axes.items():
            vals = list(v) if isinstance(v, (list, tuple)) else [v]
            out[str(k)] = vals
        items = out
    else:
        if isinstance(axes, str):
            axes = [axes]
        items = {}
        for a in axes or []:
            name, eq, vals = str(a).partition("=")
            name = name.strip()
            if not eq or not name or not vals.strip():
                raise ConfigError(f"--axes: {a!r} is not allowed (expected NAME=V1,V2,... or "
                                  "NAME=lin:LO:HI:N or NAME=log:LO:HI:N)")
            if name in items:
                raise ConfigError(f"--axes: {name!r} is given twice (one NAME=VALUES each)")
            items[name] = _expand(vals.strip(), name)
    if not items:
        raise ConfigError(f"axes: none given (expected 1 to {MAX_AXES} NAME=VALUES)")
    if len(items) > MAX_AXES:
        raise ConfigError(f"axes: {len(items)} given ({', '.join(items)}); an atlas has 1 to "
                          f"{MAX_AXES} axes")
    for name, vals in items.items():
        if not vals:
            raise ConfigError(f"axes.{name}: no values (expected at least one)")
    return items


def _expand(text: str, name: str) -> list:
    kind, _, rest = text.partition(":")
    if kind in ("lin", "log") and rest:
        parts = rest.split(":")
        try:
            lo, hi, n = float(parts[0]), float(parts[1]), int(parts[2])
            if len(parts) != 3 or n < 1 or not (math.isfinite(lo) and math.isfinite(hi)):
                raise ValueError
            if kind == "log" and (lo <= 0 or hi <= 0):
                raise ValueError
        except (ValueError, IndexError):
            raise ConfigError(f"axes.{name}: {text!r} is not allowed (expected {kind}:LO:HI:N, "
                              f"N >= 1{', LO and HI > 0' if kind == 'log' else ''})") from None
        if n == 1:
            return [lo]
        if kind == "lin":
            return [lo + (hi - lo) * i / (n - 1) for i in range(n)]
        return [float(f"{math.exp(math.log(lo) + (math.log(hi) - math.log(lo)) * i / (n - 1)):.6g}")
                for i in range(n)]
    return [v.strip() for v in text.split(",") if v.strip()]


def _paper_values(cfgs: list, name: str) -> tuple[list, str]:
    """The paper's own values of parameter ``name`` in its sweeps, and how they are set
    ("fixed", "axis" or "default")."""
    vals, how = [], "default"
    for cfg in cfgs:
        if name in cfg.fixed:
            vals.append(cfg.fixed[name])
            how = "fixed" if how == "default" else how
        elif name in cfg.axes:
            vals.extend(cfg.axes[name])
            how = "axis"
        else:
            p = inspect.signature(cfg.builder).parameters.get(name)
            if p is not None and p.default is not inspect.Parameter.empty:
                vals.append(p.default)
    out = []
    for v in vals:
        if v not in out:
            out.append(v)
    return out, how


@dataclass
class _Plan:
    paper: Any
    claim: Any
    claims: list
    families: list
    sweeps: list[str]
    base: dict            # sweep name -> SweepConfig as the paper runs it
    axes: dict            # name -> [typed values]
    cells: list[dict]     # one {name: value} per cell, first axis slowest
    paper_values: dict    # name -> ([values], how)
    identity: dict
    origin: str = "the paper"  # whose set-up paper_values are (own claims: the sweep file)
