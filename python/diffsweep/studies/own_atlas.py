"""own_atlas: the plan of an atlas of a claim of one's own (``diffsweep atlas CLAIM --axes
...``; ``diffsweep.analysis.own_claims``): the claim's sweep file is the one sweep of every
cell, any builder parameter may be an axis (the builder checks each value when the cells are
built, before anything runs), and the claim is rated by its own check with the same 95%
intervals, undecided cells getting more seeds, as a paper's claim (``diffsweep.studies.atlas``).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from pathlib import Path
from types import SimpleNamespace

from diffsweep.core.errors import ConfigError


def is_own(ref) -> bool:
    """Whether the atlas's first argument names a claim of one's own (a claim file, a
    ``module:NAME``, an ``OwnClaim``), not a paper."""
    from diffsweep.analysis.own_claims import OwnClaim  # noqa: PLC0415
    if isinstance(ref, OwnClaim):
        return True
    text = str(ref)
    return text.endswith(".toml") or ":" in text or Path(text).is_file()


def own_plan(ref, axes, quick: bool, seeds):
    """The atlas's ``_Plan`` of the claim ``ref`` over ``axes``."""
    from diffsweep.analysis.own_claims import FAMILY, load_claim  # noqa: PLC0415
    from diffsweep.core import axes as ax  # noqa: PLC0415
    from diffsweep.studies import atlas_cells as at  # noqa: PLC0415
    from diffsweep.sweep import config  # noqa: PLC0415
    from diffsweep.sweep.store import jsonable  # noqa: PLC0415

    c = load_claim(ref)
    if not c.sweep:
        raise ConfigError(f"claim {c.id!r}: sweep is missing (expected the sweep file the claim "
                          "is rated on: sweep = \"my_sweep.toml\", relative to the claim file)")
    cfg = config.load_sweep(c.sweep, quick=quick, seeds=seeds)
    raw = at.parse_axes(axes)
    import inspect  # noqa: PLC0415
    params = inspect.signature(cfg.builder).parameters
    typed = {}
    for name, vals in raw.items():
        if name not in params or name == "seed":
            names = [p for p in params if p != "seed"]
            from diffsweep.core.errors import did_you_mean  # noqa: PLC0415
            raise ConfigError(f"axes: {name!r} is not a parameter of {cfg.builder_name} "
                              f"({did_you_mean(name, names)})")
        if name in (c.axis,):
            raise ConfigError(f"axes: {name!r} is the axis claim {c.id} compares or follows "
                              "(the claim is rated along it in every cell); map another "
                              "parameter")
        typed[name] = [ax.parse(v) if isinstance(v, str) else v for v in vals]
        if len(set(map(repr, typed[name]))) != len(typed[name]):
            raise ConfigError(f"axes.{name}: {typed[name]!r} repeats a value (each once)")
    n_cells = math.prod(len(v) for v in typed.values())
    if n_cells > at.MAX_CELLS:
        raise ConfigError(f"axes: {n_cells} cells; an atlas has at most {at.MAX_CELLS} (fewer "
                          "values per axis)")
    name = Path(c.sweep).stem
    spec = SimpleNamespace(name=f"own-{c.id}", title=f"a claim of one's own ({c.source or ref})",
                           family=lambda f: SimpleNamespace(sweeps=[name]))
    cells = [dict(zip(typed, combo)) for combo in itertools.product(*typed.values())]
    pv = {n: at._paper_values([cfg], n) for n in typed}
    ident = {"own_claim": jsonable({f.name: getattr(c, f.name)
                                    for f in dataclasses.fields(c) if f.name != "source"}),
             "sweep_sha256": cfg.sha256, "quick": bool(quick), "axes": jsonable(typed)}
    plan = at._Plan(spec, c.as_claim(), [c.as_claim()], [FAMILY], [name], {name: cfg}, typed,
                    cells, pv, ident)
    plan.origin = "the sweep file"
    return plan
