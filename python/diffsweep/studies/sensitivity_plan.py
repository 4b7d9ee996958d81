"""The plan of a sensitivity study: its base (a registered builder or a sweep file, or a pure
function), its factors checked against the base's parameters and typed, its metric, its design
(``diffsweep.studies.designs``) and the sweep that runs every design point: the base's inner
axes, then one zip group of the design points (``_Plan``, made by ``_plan``), with the
identity a rerun is recognised by. See ``diffsweep.studies.sensitivity``.
"""
from __future__ import annotations

import dataclasses
import inspect
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from diffsweep.core.errors import ConfigError
from diffsweep.core.errors import did_you_mean as _suggest
from diffsweep.studies.designs import (METHODS, Factor, _check_n, _check_names, _Design,
                                       _design, parse_factors)
from diffsweep.studies.sensitivity_metric import Metric, parse_metric


@dataclass
class _Plan:
    method: str
    factors: list[Factor]
    metric: Metric | None
    design: _Design
    base_name: str
    cfg: Any                  # SweepConfig of the engine study (None for a function)
    inner_points: int
    identity: dict
    function: Callable | None = None


def _base(base, quick: bool, fixed: dict):
    """(name, builder callable, SweepConfig or None) of ``base``: a registered builder's name
    or a sweep file."""
    from diffsweep.sweep import config  # noqa: PLC0415

    if isinstance(base, config.SweepConfig):
        return base.builder_name, base.builder, base
    text = str(base)
    p = Path(text)
    if text.endswith(".toml") or p.is_file():
        if not p.is_file():
            raise ConfigError(f"base: {text!r} is not a file (expected a sweep file or a "
                              "builder name)")
        cfg = config.load_sweep(p, quick=quick)
        return cfg.builder_name, cfg.builder, cfg
    if text not in config.BUILDERS:
        raise ConfigError(f"base: unknown builder {text!r} "
                          f"({_suggest(text, config.BUILDERS)}); give a registered builder or "
                          "a sweep file (path/to/sweep.toml)")
    if quick:
        raise ConfigError("--quick: a builder has no [quick] section (expected a sweep file as "
                          "the base)")
    return text, config.resolve_builder(text), None


def _params_of(fn: Callable) -> tuple[list[str], bool]:
    sig = inspect.signature(fn)
    names = [n for n, p in sig.parameters.items()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and n != "seed"]
    open_kw = any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values())
    return names, open_kw


def _typed(facs: list[Factor], fn: Callable) -> list[Factor]:
    """A range written in integers (``n_flows=1:64``) gives integers only where the parameter
    takes integers (its default is an int, or it has none): ``rtp_ms=8:80`` stays a real
    range."""
    params = inspect.signature(fn).parameters
    out = []
    for f in facs:
        p = params.get(f.name)
        d = p.default if p is not None else inspect.Parameter.empty
        if f.integer and d is not inspect.Parameter.empty and (
                isinstance(d, bool) or not isinstance(d, int)):
            f = dataclasses.replace(f, lo=float(f.lo), hi=float(f.hi), integer=False)
        out.append(f)
    return out


def _plan(base, factors, metric, method, n, fraction, quick, fixed, function,
          sample_seed) -> _Plan:
    from diffsweep.core.identity import digest  # noqa: PLC0415
    from diffsweep.core.results import TABLES  # noqa: PLC0415
    from diffsweep.sweep import config  # noqa: PLC0415
    from diffsweep.sweep.store import jsonable  # noqa: PLC0415

    if method not in METHODS:
        raise ConfigError(f"method: {method!r} is not allowed "
                          f"({_suggest(str(method), METHODS)})")
    facs = parse_factors(factors)
    n = _check_n(method, n)
    if isinstance(fraction, bool) or not isinstance(fraction, int):
        raise ConfigError(f"fraction: {fraction!r} is not allowed (expected an integer >= 0)")
    if fraction and method != "factorial":
        raise ConfigError(f"fraction: {fraction} is not allowed with --method {method} "
                          "(expected 0: a fraction is a 2^(k-p) factorial design)")
    if method == "factorial" and len(facs) - fraction > 10:
        raise ConfigError(f"factors: a 2^({len(facs)}-{fraction}) design has "
                          f"{2 ** (len(facs) - fraction):,} runs; use at most 10 base factors "
                          "(a fraction, --fraction P, or fewer factors)")
    fixed = dict(fixed or {})
    if function is not None:
        if base is not None:
            raise ConfigError("base: give a base scenario or a function, not both")
        names, open_kw = _params_of(function)
        _check_names(facs, names, open_kw, f"the function {function.__name__}", fixed)
        facs = _typed(facs, function)
        design = _design(method, facs, n, fraction, sample_seed)
        ident = {"function": f"{function.__module__}:{function.__qualname__}",
                 "factors": {f.name: f.spec() for f in facs}, "method": method, "n": n,
                 "fraction": fraction, "sample_seed": sample_seed, "fixed": jsonable(fixed)}
        return _Plan(method, facs, None, design, function.__name__, None, 1, ident, function)
    if base is None:
        raise ConfigError("base: missing (expected a builder name, e.g. kaur_vin, or a sweep "
                          "file)")
    name, builder, cfg0 = _base(base, quick, fixed)
    names, open_kw = _params_of(builder)
    _check_names(facs, names, open_kw, f"builder {name}", fixed)
    m = parse_metric(metric)
    if m.paper is not None and name not in m.paper.builders:
        from diffsweep.analysis.registry import METRICS  # noqa: PLC0415
        plain = m.name.partition(":")[2]
        alt = f"; for any scenario: --metric {plain}" if plain in METRICS else ""
        raise ConfigError(f"metric: {m.name} is a number of {m.paper.paper}'s scenarios "
                          f"(builders {', '.join(m.paper.builders)}); the base's builder is "
                          f"{name}{alt}")
    facs = _typed(facs, builder)
    design = _design(method, facs, n, fraction, sample_seed)
    fac_names = {f.name for f in facs}
    if cfg0 is not None:
        base_fixed = {k: v for k, v in cfg0.fixed.items() if k not in fac_names}
        axes = {k: v for k, v in cfg0.axes.items() if k not in fac_names}
        zips = list(cfg0.zips)
        for g in zips:
            both = fac_names & set(g.names)
            if both:
                raise ConfigError(f"factors: {sorted(both)[0]!r} is zipped with "
                                  f"{', '.join(x for x in g.names if x not in both)} in "
                                  f"{cfg0.path}; a factor cannot be part of a zip group")
        outputs = dict(cfg0.outputs)
        sweep_id = {"sweep": str(cfg0.path), "sweep_sha256": cfg0.sha256, "quick": bool(quick)}
    else:
        base_fixed, axes, zips = {}, {}, []
        outputs = {"figures": [], "tables": list(TABLES)}
        sweep_id = {"builder": name}
    for k, v in fixed.items():
        # a one-value axis, not a fixed value: the tables then carry it as a column (the
        # papers' per-seed tables read some, e.g. kaur_vin's ef)
        base_fixed.pop(k, None)
        axes[k] = [v]
    if m.paper is not None and m.paper.axis is not None:
        ax, need = m.paper.axis
        if ax not in axes and not need:
            raise ConfigError(f"metric: {m.name} reads {ax} from the tables (expected {ax} "
                              f"as an axis of the base sweep file, or --set {ax}=VALUE)")
        have = axes.get(ax, [base_fixed[ax]] if ax in base_fixed else [])
        if not set(need) <= set(have):
            now = f"the base has {ax} = {have}" if have else f"the base does not set {ax}"
            raise ConfigError(f"metric: {m.name} needs the inner axis {ax} = "
                              f"{list(need)} ({now}); use a sweep file "
                              f"with [axes] {ax} = {json.dumps(list(need))} as the base")
    cols = [f.name for f in facs]
    zip_group = config.ZipGroup(tuple(cols), tuple(design.unique))
    cfg = config.SweepConfig(name=f"sensitivity-{name}"[:60], builder_name=name,
                             fixed=base_fixed, axes=axes, zips=zips + [zip_group],
                             seeds=[0], outputs=outputs,
                             description=f"{method} sensitivity design", quick=quick)
    cfg._builder = builder
    cfg.points_sha256 = digest(cfg._points_dict())
    inner = math.prod(len(v) for v in axes.values()) * math.prod(len(g) for g in zips)
    # the metric is not part of the identity: the runs do not depend on it, so another
    # metric over the same design, into the same folder, reuses them
    ident = {**sweep_id, "factors": {f.name: f.spec() for f in facs},
             "method": method, "n": n, "fraction": fraction, "sample_seed": sample_seed,
             "fixed": jsonable(fixed)}
    return _Plan(method, facs, m, design, name, cfg, inner, ident)
