"""Grid: the cartesian product of a builder's parameters, times a list of seeds (docs/api.md).

``Grid(builder, seeds=10, zip_axes=None, **params)``: a param whose value is a list, tuple or
1-D ndarray is an axis (product in the order given, the last axis varying fastest); any other
value is fixed. ``zip_axes`` adds zipped groups: parameters that move together, each group being
one dimension of the product, after the plain axes (see ``Grid.__init__``).
The builder is called as ``builder(**fixed, **axis_values, seed=seed)`` when it accepts
``seed``, else without it. Every point is built once at construction, with the first seed, so
that a bad point fails here, with its axis values in the message, and not hours into a run.
An axis (and a zip group) lists distinct values (a repeated value would run its points twice).
Before anything is built, the number of points (the product of the axis lengths) is checked
against ``max_points`` (default ``diffsweep.engine.sizing.MAX_POINTS``; None: no limit).
"""
from __future__ import annotations

import difflib
import inspect
import itertools
from collections import OrderedDict

import numpy as np
import pandas as pd

from diffsweep.core.errors import BuilderError, ConfigError, check
from diffsweep.scenario import Scenario, _is_int, _plain
from diffsweep.engine.sizing import SeedRange

_MAX_SEED = 2**63 - 1  # seeds live in int64 table columns
_RESERVED = ("point", "seed")
# Scenarios of seeds other than the first, kept for repeated look-ups (the first seed's are
# all kept); bounded because a 128-flow scenario is a few hundred kB of Python objects.
_CACHE_SIZE = 256
_DEFAULT = object()  # max_points not given


_SEEDS = "an integer >= 1 (seeds 0..n-1) or a non-empty list of distinct integers >= 0"


def _seed_count(seeds) -> int:
    """How many seeds ``seeds`` gives, from its length alone (nothing listed), so that the
    size check comes before the list: a count n, a sizing.SeedRange, or a sequence."""
    if _is_int(seeds):
        check(1 <= seeds <= _MAX_SEED + 1, "seeds", seeds, _SEEDS)
        return int(seeds)
    ok = isinstance(seeds, (list, tuple, range, SeedRange)) or (
        isinstance(seeds, np.ndarray) and seeds.ndim == 1)
    check(ok and len(seeds) >= 1, "seeds", seeds, _SEEDS)
    return len(seeds)


def _seed_list(seeds) -> list[int]:
    allowed = _SEEDS
    if _is_int(seeds):
        check(seeds >= 1, "seeds", seeds, allowed)
        return list(range(int(seeds)))
    if isinstance(seeds, SeedRange) or (isinstance(seeds, range) and seeds.step > 0
                                        and seeds.start >= 0 and seeds.stop - 1 <= _MAX_SEED):
        return list(seeds)  # distinct integers in range by construction
    if isinstance(seeds, np.ndarray):
        seeds = seeds.tolist()
    check(isinstance(seeds, (list, tuple, range)) and len(seeds) >= 1, "seeds", seeds, allowed)
    out, seen = [], set()
    for i, s in enumerate(seeds):
        s = _plain(s)
        check(_is_int(s) and 0 <= s <= _MAX_SEED, f"seeds[{i}]", s,
              f"an integer in 0..{_MAX_SEED}")
        check(s not in seen, f"seeds[{i}]", s, "a seed not already in the list")
        seen.add(s)
        out.append(int(s))
    return out


def _axis_values(name, value, distinct: bool = True) -> list | None:
    """The values of an axis, or None if ``value`` is fixed."""
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return None
        # (the array's shape, not its repr: a repr spans lines, an error is one line)
        check(value.ndim == 1, name, f"an array of shape {value.shape}", "a 1-D array of axis values")
        value = value.tolist()
    elif isinstance(value, (list, tuple)):
        value = [_plain(v) for v in value]
    else:
        return None
    check(len(value) >= 1, name, value, "at least one value on this axis")
    if distinct:  # a zip group's columns may repeat values; its rows may not
        _distinct(value, name)
    return value


def _vkey(v) -> str:
    """Identity of an axis value for duplicate detection (4 and 4.0 are the same point)."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return repr(v)
    if isinstance(v, (int, float, np.integer, np.floating)):
        return repr(float(v))
    if isinstance(v, (list, tuple)):
        return "(" + ",".join(_vkey(x) for x in v) + ")"
    return repr(v)


def _distinct(values: list, name: str) -> None:
    seen: dict[str, int] = {}
    for i, v in enumerate(values):
        k = _vkey(v)
        if k in seen:
            raise ConfigError(f"{name}[{i}]: duplicate value {v!r} (same as {name}[{seen[k]}]); "
                              "each point would be run twice (expected distinct values)")
        seen[k] = i


def _zip_groups(zip_axes) -> list[tuple[str, dict[str, list]]]:
    """``zip_axes`` -> [(label, {name: values})]: a list of mappings (labels ``zip_axes[i]``) or
    a mapping label -> mapping."""
    allowed = ("a list of {name: [values]} mappings, one per group of parameters that move "
               "together, or a mapping label -> {name: [values]}")
    if zip_axes is None or (isinstance(zip_axes, (dict, list, tuple)) and len(zip_axes) == 0):
        return []
    if isinstance(zip_axes, dict) and zip_axes and all(isinstance(g, dict) for g in zip_axes.values()):
        groups = [(f"zip_axes[{label!r}]", g) for label, g in zip_axes.items()]
    elif isinstance(zip_axes, (list, tuple)) and all(isinstance(g, dict) for g in zip_axes):
        groups = [(f"zip_axes[{i}]", g) for i, g in enumerate(zip_axes)]
    else:
        raise ConfigError(f"zip_axes: {zip_axes!r} is not allowed (expected {allowed})")
    out = []
    for label, g in groups:
        check(len(g) >= 1, label, g, "at least one parameter name")
        vals = {}
        for name, v in g.items():
            check(isinstance(name, str), label, name, "parameter names (strings)")
            values = _axis_values(f"{label}.{name}", v, distinct=False)
            check(values is not None, f"{label}.{name}", v,
                  "a list of values (zipped parameters move together along one dimension)")
            vals[name] = values
        lengths = {n: len(v) for n, v in vals.items()}
        if len(set(lengths.values())) != 1:
            detail = ", ".join(f"{n}: {k}" for n, k in lengths.items())
            raise ConfigError(f"{label}: lists of unequal length ({detail}); zipped parameters "
                              "move together, so every list needs the same number of values")
        rows = [tuple(vals[n][i] for n in vals) for i in range(next(iter(lengths.values())))]
        _distinct(rows, f"{label}(rows)")
        out.append((label, vals))
    return out


class Grid:
    """Points (the product of the axes) times seeds; see the module docstring."""

    def __init__(self, builder, seeds=10, zip_axes=None, max_points=_DEFAULT,
                 max_replicas=_DEFAULT, **params):
        """``zip_axes``: groups of parameters that move together, e.g.
        ``zip_axes=[{"rtp_ms": [6, 8], "buffer_bytes": [30000, 40000]}]`` gives 2 values along
        one dimension (rtp_ms=6 with buffer_bytes=30000, then 8 with 40000). A list of such
        mappings (one per group) or a mapping label -> mapping. Each group is one dimension of
        the product, after the plain axes, in the order given (the order of a sweep file's
        ``[[zip]]`` groups); every list of a group has the same length. A zipped parameter is a
        column of the tables like an axis, and cannot also be given in ``params``.

        ``max_points``: most points built (default ``diffsweep.engine.sizing.MAX_POINTS``; None: no
        limit); checked from the axis lengths before anything is built. ``max_replicas``: most
        replicas (points x seeds; default ``diffsweep.engine.sizing.MAX_REPLICAS``; None: no limit,
        but never more than the free memory can list), checked from the counts before the
        seeds are listed. ``seeds``, ``zip_axes``, ``max_points`` and ``max_replicas`` are not
        builder parameters."""
        check(callable(builder), "builder", builder, "a callable returning a Scenario")
        self.builder = builder
        n_seeds = _seed_count(seeds)
        name = getattr(builder, "__name__", repr(builder))
        accepted, var_kw, required = self._signature(builder)
        self._accepts_seed = var_kw or "seed" in accepted

        if "seed" in params:
            raise ConfigError(f"seed: {params['seed']!r} is not allowed here (expected "
                              "seeds=...: the Grid passes each replica's seed to the builder)")
        groups = _zip_groups(zip_axes)
        zip_names: dict[str, str] = {}
        for label, g in groups:
            for n in g:
                if n == "seed":
                    raise ConfigError(f"{label}.seed: not allowed (expected seeds=...: the Grid "
                                      "passes each replica's seed to the builder)")
                if n in params:
                    raise ConfigError(f"{label}.{n}: also given as a parameter; a parameter is "
                                      "either fixed, an axis or in one zip group")
                if n in zip_names:
                    raise ConfigError(f"{label}.{n}: also in {zip_names[n]}; a parameter is in "
                                      "at most one zip group")
                zip_names[n] = label
        if not var_kw:
            choices = [a for a in accepted if a != "seed"]
            for p in [*params, *zip_names]:
                if p not in accepted:
                    close = difflib.get_close_matches(p, choices, n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    where = f"{zip_names[p]}.{p}" if p in zip_names else p
                    raise ConfigError(f"{where}: not a parameter of {name}{hint}; {name} "
                                      "accepts: " + ", ".join(choices))
        for r in required:
            if r not in params and r not in zip_names and r != "seed":
                raise ConfigError(f"{r}: missing (required by {name})")

        self.axes: dict[str, list] = {}
        self.fixed: dict = {}
        for p, v in params.items():
            values = _axis_values(p, v)
            if values is None:
                self.fixed[p] = _plain(v.item() if isinstance(v, np.ndarray) else v)
            else:
                self.axes[p] = values
        #: zip groups, in order: each a {name: values} mapping whose lists move together
        self.zips: list[dict[str, list]] = [g for _, g in groups]
        self._dim_names = list(self.axes) + [n for g in self.zips for n in g]
        from diffsweep.engine import sizing  # noqa: PLC0415
        sizes = [len(v) for v in self.axes.values()] + [len(next(iter(g.values())))
                                                       for g in self.zips]
        if max_points is _DEFAULT:
            max_points = sizing.MAX_POINTS
        if max_points is not None and not (_is_int(max_points) and max_points >= 1):
            raise ConfigError(f"max_points: {max_points!r} is not allowed (expected an integer "
                              ">= 1, or None for no limit)")
        dims_text = " x ".join(f"{k} {n}" for k, n in zip(
            list(self.axes) + ["zip(" + ", ".join(g) + ")" for g in self.zips], sizes))
        sizing.check_points(sizing.product(sizes), max_points, dims_text)
        if max_replicas is _DEFAULT:
            max_replicas = sizing.MAX_REPLICAS
        if max_replicas is not None and not (_is_int(max_replicas) and max_replicas >= 1):
            raise ConfigError(f"max_replicas: {max_replicas!r} is not allowed (expected an "
                              "integer >= 1, or None for no limit)")
        sizing.check_replicas(sizing.product(sizes) * n_seeds, max_replicas is None,
                              force_hint="max_replicas=None (or --force)", limit=max_replicas)
        self.seeds = _seed_list(seeds)
        dims = [[{k: v} for v in vals] for k, vals in self.axes.items()]
        dims += [[{n: vals[i] for n, vals in g.items()} for i in range(len(next(iter(g.values()))))]
                 for g in self.zips]
        self._point_values = [{k: v for d in combo for k, v in d.items()}
                              for combo in itertools.product(*dims)]

        self._seed_dependence: dict[int, bool] = {}
        self._first = [self._build(p, self.seeds[0]) for p in range(len(self._point_values))]
        self._cache: OrderedDict[tuple[int, int], Scenario] = OrderedDict()
        self._make_tables()

    # --- construction helpers ---

    @staticmethod
    def _signature(builder) -> tuple[list[str], bool, list[str]]:
        try:
            sig = inspect.signature(builder)
        except (TypeError, ValueError):  # some builtins have none: accept anything
            return [], True, []
        kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        accepted = [p.name for p in sig.parameters.values() if p.kind in kinds]
        required = [p.name for p in sig.parameters.values()
                    if p.kind in kinds and p.default is inspect.Parameter.empty]
        var_kw = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values())
        return accepted, var_kw, required

    def _where(self, point: int, seed: int) -> str:
        values = ", ".join(f"{k}={v!r}" for k, v in self._point_values[point].items())
        where = f"grid point {point}" + (f": {values}" if values else "")
        return where + (f"; seed {seed}" if self._accepts_seed else "")

    def _builder_error(self, e: BaseException, point: int, seed: int, hook: str = ""):
        """BuilderError: the builder (its ``hook``, e.g. ``seed_matters``) raised ``e`` at
        ``point`` with ``seed``."""
        name = getattr(self.builder, "__name__", repr(self.builder))
        module = getattr(self.builder, "__module__", None)
        full = f"{module}.{name}" if module and module != "builtins" else name
        what = f"{full}.{hook}" if hook else full
        msg = " ".join(str(e).split()) or "(no message)"  # the builder's message, on one line
        values = [f"{k}={v!r}" for k, v in self._point_values[point].items()]
        values += [f"seed {seed}"] if self._accepts_seed else []
        at = f"grid point {point}" + (f" ({', '.join(values)})" if values else "")
        return BuilderError(f"builder {what} raised {type(e).__name__} at {at}: {msg}")

    def _seed_matters(self, point: int) -> bool:
        """Whether the builder's scenario at ``point`` depends on the seed. A builder may say
        it does not (``builder.seed_matters(**params) -> bool``; e.g. kaur_vin draws only
        stratified RTPs from it): every seed of such a point then shares one Scenario object,
        built and packed once (the engine takes each replica's seed apart from its scenario).
        Where it does, a builder may also say how (``builder.reseed(first, seed, **params) ->
        Scenario``: the scenario for ``seed`` given ``first``, the one it built for the
        point's first seed; equal to ``builder(**params, seed=seed)``)."""
        says = getattr(self.builder, "seed_matters", None)
        if says is None:
            return True
        known = self._seed_dependence.get(point)
        if known is None:
            try:
                known = bool(says(**{**self.fixed, **self._point_values[point]}))
            except ConfigError:
                raise
            except Exception as e:
                raise self._builder_error(e, point, self.seeds[0], "seed_matters") from e
            self._seed_dependence[point] = known
        return known

    def _build(self, point: int, seed: int) -> Scenario:
        kwargs = {**self.fixed, **self._point_values[point]}
        # A builder may say how another seed changes the point's first scenario (e.g. kaur_vin:
        # only the flows' delays, Scenario.with_flow_delays): cheaper than building it again,
        # and pack then packs the point's seeds as one family.
        first = getattr(self, "_first", None)  # (None while the first seeds are built)
        reseed = getattr(self.builder, "reseed", None) if first is not None else None
        if self._accepts_seed and reseed is None:
            kwargs["seed"] = seed
        try:
            scenario = (self.builder(**kwargs) if reseed is None
                        else reseed(first[point], seed, **kwargs))
        except ConfigError as e:
            raise ConfigError(f"{e} ({self._where(point, seed)})") from None
        except Exception as e:  # the user's code: one line naming the point, not a traceback
            raise self._builder_error(e, point, seed, "reseed" if reseed else "") from e
        if not isinstance(scenario, Scenario):
            raise ConfigError(f"builder: returned {type(scenario).__name__} for "
                              f"{self._where(point, seed)} (expected a Scenario)")
        return scenario

    def _make_tables(self) -> None:
        param_names: list[str] = []
        for sc in self._first:
            for k in sc.params:
                if k in _RESERVED:
                    raise ConfigError(f"params: {k!r} is not allowed (expected column names "
                                      f"other than {', '.join(map(repr, _RESERVED))})")
                # An axis (or zipped parameter) of the same name already carries the value the
                # builder was given.
                if k not in self._dim_names and k not in param_names:
                    param_names.append(k)
        self.columns: list[str] = list(self._dim_names) + param_names
        rows = []
        for p, (values, sc) in enumerate(zip(self._point_values, self._first)):
            row = {"point": p, **values}
            row.update({k: sc.params.get(k) for k in param_names})
            rows.append(row)
        points = pd.DataFrame(rows, columns=["point", *self.columns])
        points["point"] = points["point"].astype("int64")
        self.points: pd.DataFrame = points

        n_seeds = len(self.seeds)
        rep = points.loc[points.index.repeat(n_seeds)].reset_index(drop=True)
        rep.insert(1, "seed", np.tile(np.asarray(self.seeds, dtype="int64"), len(points)))
        self.replicas: pd.DataFrame = rep

    # --- public ---

    @property
    def n_points(self) -> int:
        return len(self._point_values)

    def __len__(self) -> int:
        """Number of replicas: points x seeds."""
        return self.n_points * len(self.seeds)

    def scenario(self, point: int, seed: int) -> Scenario:
        """The scenario of ``point`` for ``seed`` (any seed >= 0, not only the grid's own: an
        adaptive run may add replicas)."""
        point, seed = _plain(point), _plain(seed)
        check(_is_int(point) and 0 <= point < self.n_points, "point", point,
              f"an integer in 0..{self.n_points - 1}")
        check(_is_int(seed) and 0 <= seed <= _MAX_SEED, "seed", seed,
              f"an integer in 0..{_MAX_SEED}")
        point, seed = int(point), int(seed)
        if not self._accepts_seed or seed == self.seeds[0] or not self._seed_matters(point):
            return self._first[point]
        key = (point, seed)
        sc = self._cache.get(key)
        if sc is None:
            sc = self._build(point, seed)
            self._cache[key] = sc
            if len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return sc

    def __repr__(self) -> str:
        name = getattr(self.builder, "__name__", repr(self.builder))
        axes = ", ".join(f"{k}[{len(v)}]" for k, v in self.axes.items())
        for g in self.zips:
            axes += (", " if axes else "") + "zip(" + ", ".join(g) + f")[{len(next(iter(g.values())))}]"
        return f"Grid({name}, points={self.n_points}, seeds={len(self.seeds)}, axes=({axes}))"
