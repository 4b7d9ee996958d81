"""Sweep files: TOML data -> a validated ``SweepConfig`` (and from it a ``Grid``).

A sweep file is *data*: it is parsed with ``tomllib`` and never evaluated as code. The builder is
named: a name in the registry ``BUILDERS`` (name -> ``"module:attribute"``, imported only when it
is first used), or a reference ``"package.module:function"`` to a builder in the user's own code
(imported when the file is loaded, so that a bad reference fails there; ``import_builder``). Everything is validated before anything runs; every error is a
``ConfigError`` whose message starts with the key path (``axes.t_on_ms.logspace: ...``) and ends
with the file it came from. Full description with examples: ``docs/sweeps.md``.

Schema
------
::

    name = "k2"                    # required, [a-z0-9_-]+
    description = "..."            # optional string
    builder = "kaur_vin"           # required: a name in BUILDERS, or "package.module:function"
                                   #   (a builder in the user's own code, imported by name)
    seeds = 10                     # optional (default 10): int >= 1 (= seeds 0..n-1), or a list of
                                   #   distinct ints >= 0
    duration_s = 200.0             # optional shortcut for fixed.duration_s (number > 0)
    warmup_s = 20.0                # optional shortcut for fixed.warmup_s (number >= 0, < duration_s)

    [fixed]                        # builder parameters held constant: TOML scalars or arrays
    n_flows = 1

    [axes]                         # one entry per swept parameter, in file order; each value is
    ef = ["onoff", "cbr"]          #   a non-empty list of distinct values, or
    t_on_ms = {logspace = [0.4, 400, 13]}  # n values from lo to hi, geometric (lo, hi: values)
    load = {linspace = [0.1, 0.9, 5]}      # n values from lo to hi, evenly spaced
    k = {range = [1, 10, 2]}               # start, start+step, ... < stop (stop excluded)

    [[zip]]                        # parameters that move together (one zip group per [[zip]])
    names = ["rtp_ms", "buffer_bytes"]
    values = [[6, 8], [30000, 40000]]      # one list (or range/logspace/linspace) per name,
                                           #   all of equal length

    [outputs]                      # optional
    figures = ["fig2"]             #   figure names: fig<figure> of a paper's families (default: none)
    tables = ["replicas", "flows"] #   tables to keep (default: all of results.TABLES)

    [quick]                        # optional overrides used by --quick; keys: seeds, duration_s,
    seeds = 2                      #   warmup_s, fixed, axes, zip. quick.fixed.X / quick.axes.X
    [quick.axes]                   #   replace parameter X (which the sweep must set; it may move
    t_on_ms = [4, 40]              #   between fixed and axes); [[quick.zip]] replaces all zip
                                   #   groups.

Parameter names are Python identifiers; ``seed``, ``seeds``, ``point`` and ``builder`` are
reserved. A parameter is set in exactly one place (fixed, axes or one zip group). Builder
parameter names themselves are checked by ``Grid`` (with did-you-mean), not here.

Points
------
The points are the cartesian product of the dimensions: first the plain axes in file order, then
the zip groups in file order (each zip group is one dimension whose values are tuples); the first
dimension varies slowest (``itertools.product`` order). ``SweepConfig.expand_points()`` lists
them.

Hashes
------
* ``sha256``: of the file's raw bytes.
* ``effective_sha256``: of the effective configuration (after ``[quick]`` and a ``seeds``
  override), canonical JSON; it changes whenever anything that is run changes.
* ``points_sha256``: of what defines a replica (builder, fixed, axes, zip groups); unchanged by
  seeds, outputs, name and description, so it is the identity to give to ``Store.open``: a run with
  more seeds (``--seeds`` or ``target_ci``) resumes into the same folder, a run with other
  points/parameters is refused there.
"""
from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import itertools
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10 needs the tomli package
    import tomli as tomllib  # type: ignore[no-redef]

from diffsweep.core import registry as papers
# the builder registry and references to builders in the user's code live in builder_registry;
# config re-exports them (config.BUILDERS, config.register_builder, ...)
from diffsweep.scenario.registry import (_NAME_RE, BUILDERS,  # noqa: F401 (re-exported)
                                         _builder_allowed, builder, builder_target,
                                         check_builder_on_workers, check_builder_value,
                                         import_builder, is_builder, is_reference, register_builder,
                                         resolve_builder)
from diffsweep.core.errors import ConfigError
from diffsweep.core.errors import did_you_mean as _suggest  # (config._suggest: its callers' name)
from diffsweep.core.identity import canon, digest
from diffsweep.engine.sizing import SeedRange


#: Default number of seeds when a sweep file gives none.
DEFAULT_SEEDS = 10

#: Longest axis a range/linspace/logspace may produce (guards against typos like step=1e-9).
MAX_AXIS_LEN = 100_000

TOP_KEYS = ("name", "description", "builder", "seeds", "duration_s", "warmup_s", "fixed", "axes",
            "zip", "outputs", "quick")
QUICK_KEYS = ("seeds", "duration_s", "warmup_s", "fixed", "axes", "zip")
OUTPUT_KEYS = ("figures", "tables")
#: figure names an ``[outputs] figures`` list may name beyond the registered papers' own
#: (``fig<figure>`` for every family of every paper, e.g. fig5, figt2); ``register_figure``
#: adds more
FIGURES: list[str] = []
SPEC_KEYS = ("range", "logspace", "linspace")
ZIP_KEYS = ("names", "values")
RESERVED = ("seed", "seeds", "point", "builder")

_MAX_SEED = 2**63 - 1  # seeds live in int64 table columns
_PARAM_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


# --------------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------------
def _fail(path: str, msg: str) -> None:
    raise ConfigError(f"{path}: {msg}")


def _bad(path: str, value: Any, allowed: str) -> None:
    raise ConfigError(f"{path}: {_show(value)} is not allowed (expected {allowed})")


def _show(value: Any) -> str:
    """TOML-ish rendering of a value for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (_dt.date, _dt.time, _dt.datetime)):
        return value.isoformat()
    return repr(value)


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _check_keys(table: dict, allowed: Iterable[str], prefix: str) -> None:
    allowed = list(allowed)
    for key in table:
        if key not in allowed:
            _fail(_join(prefix, key), f"unknown key '{key}' ({_suggest(key, allowed)})")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _round(x: float) -> float:
    """Round to 12 significant digits so that 0.1*3 shows as 0.3 and endpoints are exact."""
    return float(f"{x:.12g}")


def _key(v: Any) -> str:
    """Type-aware identity of a value, for duplicate detection (1, 1.0 and true differ)."""
    return json.dumps(canon(v), sort_keys=True)


# --------------------------------------------------------------------------------------------
# values, axes
# --------------------------------------------------------------------------------------------
def _value(v: Any, path: str) -> Any:
    """A parameter value: a TOML scalar (string, integer, float, boolean) or an array of them
    (arrays become tuples, so that a value is hashable and never mistaken for an axis)."""
    if isinstance(v, (str, bool, int, float)):
        return v
    if isinstance(v, list):
        return tuple(_value(x, f"{path}[{i}]") for i, x in enumerate(v))
    if isinstance(v, dict):
        _bad(path, v, "a string, number, boolean or array; tables are not parameter values")
    if isinstance(v, (_dt.date, _dt.time, _dt.datetime)):
        _bad(path, v, "a string, number, boolean or array; dates and times are not supported")
    _bad(path, v, "a string, number, boolean or array")  # pragma: no cover


def _count(x: float, path: str, spec: Any, allowed: str) -> int:
    if not math.isfinite(x) or x > MAX_AXIS_LEN:
        _bad(path, spec, f"{allowed}; at most {MAX_AXIS_LEN} values")
    return int(x)


def _expand_range(spec: Any, path: str) -> list:
    allowed = "[start, stop, step]: finite numbers, step != 0, at least one value; stop is excluded"
    if not (isinstance(spec, list) and len(spec) == 3 and all(_is_num(x) for x in spec)
            and all(math.isfinite(x) for x in spec)):
        _bad(path, spec, allowed)
    start, stop, step = spec
    if step == 0 or (stop - start) / step <= 0:
        _bad(path, spec, allowed)
    if all(_is_int(x) for x in spec):
        _count(abs((stop - start) / step), path, spec, allowed)
        return list(range(start, stop, step))
    ratio = (stop - start) / step
    n = _count(math.ceil(ratio - 1e-9 * max(1.0, abs(ratio))), path, spec, allowed)
    return [_round(start + i * step) for i in range(max(n, 1))]


def _expand_logspace(spec: Any, path: str) -> list:
    allowed = "[lo, hi, n] with 0 < lo < hi, n >= 2 (lo and hi are the values, not exponents)"
    if not (isinstance(spec, list) and len(spec) == 3 and _is_num(spec[0]) and _is_num(spec[1])
            and _is_int(spec[2]) and math.isfinite(spec[0]) and math.isfinite(spec[1])
            and 0 < spec[0] < spec[1] and spec[2] >= 2):
        _bad(path, spec, allowed)
    lo, hi, n = spec
    _count(n, path, spec, allowed)
    a, b = math.log(lo), math.log(hi)
    vals = [_round(math.exp(a + (b - a) * i / (n - 1))) for i in range(n)]
    vals[0], vals[-1] = float(lo), float(hi)
    return vals


def _expand_linspace(spec: Any, path: str) -> list:
    allowed = "[lo, hi, n] with lo < hi finite numbers, n >= 2"
    if not (isinstance(spec, list) and len(spec) == 3 and _is_num(spec[0]) and _is_num(spec[1])
            and _is_int(spec[2]) and math.isfinite(spec[0]) and math.isfinite(spec[1])
            and spec[0] < spec[1] and spec[2] >= 2):
        _bad(path, spec, allowed)
    lo, hi, n = spec
    _count(n, path, spec, allowed)
    vals = [_round(lo + (hi - lo) * i / (n - 1)) for i in range(n)]
    vals[0], vals[-1] = float(lo), float(hi)
    return vals


_EXPANDERS = {"range": _expand_range, "logspace": _expand_logspace, "linspace": _expand_linspace}


def _axis(v: Any, path: str, distinct: bool = True) -> list:
    """An axis: a non-empty list of distinct values or {range|logspace|linspace = [...]}.
    ``distinct=False``: a zip group's column, whose rows (not values) must be distinct."""
    if isinstance(v, dict):
        _check_keys(v, SPEC_KEYS, path)
        if len(v) != 1:
            _bad(path, v, "exactly one of range = [start, stop, step], logspace = [lo, hi, n], "
                          "linspace = [lo, hi, n]")
        (kind, spec), = v.items()
        return _EXPANDERS[kind](spec, f"{path}.{kind}")
    if not isinstance(v, list):
        _bad(path, v, "a list of values, or a table {range = [start, stop, step]}, "
                      "{logspace = [lo, hi, n]} or {linspace = [lo, hi, n]}")
    if not v:
        _fail(path, "empty axis (expected at least one value)")
    vals = [_value(x, f"{path}[{i}]") for i, x in enumerate(v)]
    if distinct:
        _no_duplicates(vals, path)
    return vals


def _no_duplicates(vals: list, path: str) -> None:
    seen: dict[str, int] = {}
    for i, x in enumerate(vals):
        k = _key(x)
        if k in seen:
            _fail(f"{path}[{i}]", f"duplicate value {_show(x)} (same as {path}[{seen[k]}]); "
                                  "each point would be run twice")
        seen[k] = i


def _param_name(name: str, path: str) -> None:
    if not _PARAM_RE.match(name):
        _bad(path, name, "a parameter name: letters, digits and _, not starting with a digit")
    if name in RESERVED:
        _bad(path, name, "a parameter name other than the reserved " + ", ".join(RESERVED))


def _seeds(v: Any, path: str) -> list[int]:
    allowed = "an integer >= 1 (seeds 0..n-1) or a non-empty list of distinct integers >= 0"
    if _is_int(v):
        if v < 1:
            _bad(path, v, allowed)
        if v > _MAX_SEED + 1:
            _bad(path, v, f"an integer in 1..{_MAX_SEED + 1} (seeds 0..n-1, below 2**63)")
        # a count, not a list: the size check comes first (make_grid, the runner)
        return SeedRange(v)
    if isinstance(v, (list, tuple)) and v and all(_is_int(s) and s >= 0 for s in v):
        if len(set(v)) != len(v):
            dup = next(s for s in v if list(v).count(s) > 1)
            _bad(path, list(v), f"{allowed}; seed {dup} appears twice")
        if max(v) > _MAX_SEED:
            _bad(path, list(v), "seeds below 2**63")
        return [int(s) for s in v]
    _bad(path, v, allowed)
    return []  # pragma: no cover


# --------------------------------------------------------------------------------------------
# the config object
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ZipGroup:
    """Parameters that move together: ``values[i]`` is the tuple of the parameters' values at
    position ``i`` (one tuple per step along this dimension)."""

    names: tuple[str, ...]
    values: tuple[tuple, ...]

    def __len__(self) -> int:
        return len(self.values)


@dataclass
class SweepConfig:
    """A validated sweep (see the module docstring for the schema)."""

    name: str
    builder_name: str
    fixed: dict[str, Any]
    axes: dict[str, list]
    zips: list[ZipGroup]
    seeds: list[int]  # or a sizing.SeedRange (seeds = n): equal to list(range(n)), unlisted
    outputs: dict[str, list[str]]
    description: str = ""
    text: str = field(default="", repr=False)
    sha256: str = ""
    points_sha256: str = ""
    path: Path | None = None
    quick: bool = False
    _builder: Callable | None = field(default=None, repr=False, compare=False)

    # -- builder --------------------------------------------------------------------------
    @property
    def builder(self) -> Callable:
        """The builder callable, imported from ``BUILDERS`` on first use."""
        if self._builder is None:
            self._builder = resolve_builder(self.builder_name)
        return self._builder

    @functools.cached_property
    def effective_sha256(self) -> str:
        """The hash of ``effective()``, made when first read: it lists every seed, which for a
        count refused by the size check (10^12 seeds) is never done."""
        return digest(self.effective())

    # -- points ---------------------------------------------------------------------------
    def dimensions(self) -> list[tuple[tuple[str, ...], list[tuple]]]:
        """The dimensions in cartesian order: plain axes (file order), then zip groups.
        Each is (names, values) with every value a tuple over names."""
        dims = [((k,), [(v,) for v in vals]) for k, vals in self.axes.items()]
        dims += [(g.names, list(g.values)) for g in self.zips]
        return dims

    @property
    def n_points(self) -> int:
        return math.prod(len(vals) for _, vals in self.dimensions())

    @property
    def n_replicas(self) -> int:
        return self.n_points * len(self.seeds)

    def expand_points(self, with_fixed: bool = False) -> list[dict[str, Any]]:
        """One dict per point, in cartesian order (first dimension slowest), mapping each axis
        and each zipped parameter to its value (and, with ``with_fixed``, the fixed ones too)."""
        dims = self.dimensions()
        out = []
        for combo in itertools.product(*(vals for _, vals in dims)):
            point = dict(self.fixed) if with_fixed else {}
            for (names, _), values in zip(dims, combo):
                point.update(zip(names, values))
            out.append(point)
        return out

    def grid_params(self) -> dict[str, Any]:
        """Keyword arguments for ``Grid(builder, seeds=..., **params)``: fixed values and axes
        (lists). A fixed *array* value is passed as a one-value axis ``[tuple]``, since Grid treats
        any list/tuple as an axis. Zip groups are given separately (``grid_zip_axes``)."""
        params: dict[str, Any] = {}
        for k, v in self.fixed.items():
            params[k] = [v] if isinstance(v, tuple) else v
        for k, vals in self.axes.items():
            params[k] = list(vals)
        return params

    def grid_zip_axes(self) -> list[dict[str, list]]:
        """The zip groups as ``Grid(..., zip_axes=...)`` takes them: one {name: values} per group."""
        return [{n: [row[i] for row in g.values] for i, n in enumerate(g.names)}
                for g in self.zips]

    def make_grid(self, max_points: Any = "default", max_replicas: Any = "default"):
        """``Grid(builder, seeds=seeds, zip_axes=grid_zip_axes(), **fixed, **axes)`` (see
        ``grid_params``). The grid does not know this config: give the config itself to
        ``diffsweep.run(cfg, store=DIR)`` to name the folder by ``points_sha256``, as the CLI
        does. ``max_points`` and ``max_replicas``: as ``Grid``'s (default
        ``sizing.MAX_POINTS`` and ``sizing.MAX_REPLICAS``; None: no limit), checked from
        ``n_points`` and ``n_replicas`` before any point or seed is listed."""
        from diffsweep.engine import sizing  # noqa: PLC0415
        limit = sizing.MAX_POINTS if max_points == "default" else max_points
        dims = " x ".join(f"{','.join(names)} {len(vals)}" for names, vals in self.dimensions())
        sizing.check_points(self.n_points, limit, dims, what=f"sweep '{self.name}'",
                            force_hint="--force (max_points=None)")
        sizing.check_replicas(self.n_replicas, max_replicas is None, f"sweep '{self.name}'",
                              "--force (max_replicas=None)",
                              None if max_replicas in ("default", None) else max_replicas)
        params = self.grid_params()
        from diffsweep.sweep.grid import Grid  # noqa: PLC0415 - imported late on purpose
        grid = Grid(self.builder, seeds=self.seeds, zip_axes=self.grid_zip_axes() or None,
                    max_points=None, max_replicas=None, **params)
        return grid

    # -- descriptions ----------------------------------------------------------------------
    def effective(self) -> dict[str, Any]:
        """The effective configuration as plain data (hashed into ``effective_sha256``)."""
        return {
            "name": self.name,
            "description": self.description,
            "builder": self.builder_name,
            "seeds": list(self.seeds),
            **self._points_dict(),
            "outputs": {k: list(v) for k, v in self.outputs.items()},
        }

    def _points_dict(self) -> dict[str, Any]:
        return {
            "builder": self.builder_name,
            "fixed": dict(sorted(self.fixed.items())),
            "axes": [[k, list(v)] for k, v in self.axes.items()],
            "zip": [{"names": list(g.names), "values": [list(r) for r in g.values]}
                    for g in self.zips],
        }

    def manifest_fields(self) -> dict[str, Any]:
        """What a results folder's manifest should record about this sweep."""
        return {
            "name": self.name,
            "description": self.description,
            "builder": self.builder_name,
            # what the name imports (a registered name's "module:function"): enough to find
            # the builder's code again from the folder alone
            "builder_target": builder_target(self.builder_name),
            "sweep_path": str(self.path) if self.path is not None else None,
            "sweep_text": self.text,
            "sweep_sha256": self.sha256,
            "effective_sha256": self.effective_sha256,
            "points_sha256": self.points_sha256,
            "quick": self.quick,
            "seeds": list(self.seeds),
            "n_points": self.n_points,
            "effective": canon(self.effective()),
        }


# --------------------------------------------------------------------------------------------
# parsing
# --------------------------------------------------------------------------------------------
@dataclass
class _Layer:
    seeds: list[int] | None = None
    fixed: dict[str, Any] = field(default_factory=dict)
    axes: dict[str, list] = field(default_factory=dict)
    zips: list[ZipGroup] | None = None


def _table(doc: dict, key: str, path: str) -> dict:
    v = doc.get(key, {})
    if not isinstance(v, dict):
        _bad(path, v, "a table ([" + path + "])")
    return v


def _parse_zips(v: Any, prefix: str) -> list[ZipGroup]:
    if not (isinstance(v, list) and all(isinstance(g, dict) for g in v)):
        _bad(prefix, v, f"[[{prefix}]] tables with names = [...] and values = [[...], ...]")
    groups = []
    for gi, g in enumerate(v):
        gp = f"{prefix}[{gi}]"
        _check_keys(g, ZIP_KEYS, gp)
        for k in ZIP_KEYS:
            if k not in g:
                _fail(f"{gp}.{k}", "missing required key")
        names = g["names"]
        if not (isinstance(names, list) and len(names) >= 2 and all(isinstance(n, str) for n in names)):
            _bad(f"{gp}.names", names, "a list of at least two parameter names")
        for i, n in enumerate(names):
            _param_name(n, f"{gp}.names[{i}]")
        if len(set(names)) != len(names):
            _bad(f"{gp}.names", names, "distinct parameter names")
        values = g["values"]
        if not (isinstance(values, list) and len(values) == len(names)):
            _bad(f"{gp}.values", values,
                 f"one list of values per name ({len(names)} lists for {_show(names)})")
        # a column may repeat a value (buffer 6 with two link rates); only rows must differ
        cols = [_axis(col, f"{gp}.values[{j}]", distinct=False) for j, col in enumerate(values)]
        lengths = [len(c) for c in cols]
        if len(set(lengths)) != 1:
            detail = ", ".join(f"{n}: {k}" for n, k in zip(names, lengths))
            _fail(f"{gp}.values", f"lists of unequal length ({detail}); zipped parameters move "
                                  "together, so every list needs the same number of values")
        rows = [tuple(r) for r in zip(*cols)]
        _no_duplicates(rows, f"{gp}.values(rows)")
        groups.append(ZipGroup(tuple(names), tuple(rows)))
    return groups


def _parse_layer(doc: dict, prefix: str) -> _Layer:
    """Parse seeds/duration_s/warmup_s/fixed/axes/zip of the top level or of [quick]."""
    layer = _Layer()
    if "seeds" in doc:
        layer.seeds = _seeds(doc["seeds"], _join(prefix, "seeds"))
    fixed_path = _join(prefix, "fixed")
    for k, v in _table(doc, "fixed", fixed_path).items():
        _param_name(k, f"{fixed_path}.{k}")
        layer.fixed[k] = _value(v, f"{fixed_path}.{k}")
    for short in ("duration_s", "warmup_s"):
        if short in doc:
            sp = _join(prefix, short)
            v = doc[short]
            ok = _is_num(v) and math.isfinite(v) and (v > 0 if short == "duration_s" else v >= 0)
            if not ok:
                _bad(sp, v, "a finite number > 0" if short == "duration_s" else "a finite number >= 0")
            if short in layer.fixed:
                _fail(sp, f"set both here and as {fixed_path}.{short}; keep one")
            layer.fixed[short] = v
    axes_path = _join(prefix, "axes")
    for k, v in _table(doc, "axes", axes_path).items():
        _param_name(k, f"{axes_path}.{k}")
        layer.axes[k] = _axis(v, f"{axes_path}.{k}")
    if "zip" in doc:
        layer.zips = _parse_zips(doc["zip"], _join(prefix, "zip"))
    return layer


def _check_disjoint(fixed: dict, axes: dict, zips: list[ZipGroup], prefix: str = "") -> None:
    where: dict[str, str] = {k: f"[{_join(prefix, 'fixed')}]" for k in fixed}
    for k in axes:
        if k in where:
            _fail(f"{_join(prefix, 'axes')}.{k}", f"also set in {where[k]}; a parameter is either "
                                                  "fixed, an axis or in one zip group")
        where[k] = f"[{_join(prefix, 'axes')}]"
    for gi, g in enumerate(zips):
        for n in g.names:
            if n in where:
                _fail(f"{_join(prefix, 'zip')}[{gi}].names", f"'{n}' is also set in {where[n]}; a "
                      "parameter is either fixed, an axis or in one zip group")
            where[n] = f"[[{_join(prefix, 'zip')}]] group {gi}"


def _check_warmup(fixed: dict, prefix: str = "") -> None:
    d, w = fixed.get("duration_s"), fixed.get("warmup_s")
    if _is_num(d) and _is_num(w) and not w < d:
        _bad(_join(prefix, "warmup_s"), w, f"a warm-up shorter than duration_s = {d}")


def _apply_quick(fixed: dict, axes: dict, zips: list[ZipGroup], seeds: list[int],
                 q: _Layer) -> tuple[dict, dict, list[ZipGroup], list[int]]:
    fixed, axes, zips = dict(fixed), dict(axes), list(zips)
    base_zip_names = {n for g in zips for n in g.names}
    known = list(fixed) + list(axes) + [n for g in zips for n in g.names]

    def unknown(path: str, k: str) -> None:
        _fail(path, f"[quick] overrides '{k}', which the sweep does not set "
                    f"({_suggest(k, known)}); [quick] may only override parameters the sweep sets")

    if q.zips is not None:
        for gi, g in enumerate(q.zips):
            for n in g.names:
                if n not in known:
                    unknown(f"quick.zip[{gi}].names", n)
                fixed.pop(n, None)
                axes.pop(n, None)
        zips = list(q.zips)
    zip_names = {n for g in zips for n in g.names}
    for section, table in (("fixed", q.fixed), ("axes", q.axes)):
        for k, v in table.items():
            path = f"quick.{section}.{k}"
            if k not in known:
                unknown(path, k)
            if k in zip_names:
                _fail(path, f"'{k}' is in a [[zip]] group; override the group with [[quick.zip]]")
            if k in q.fixed and k in q.axes:
                _fail(path, "set both in [quick.fixed] and [quick.axes]; keep one")
            if section == "fixed":
                axes.pop(k, None)
                fixed[k] = v
            else:
                fixed.pop(k, None)
                axes[k] = v
    have = set(fixed) | set(axes) | zip_names
    for n in sorted(base_zip_names - have):
        _fail("quick.zip", f"drops '{n}', which the sweep's [[zip]] sets; add it to a "
                           "[[quick.zip]] group, [quick.fixed] or [quick.axes]")
    return fixed, axes, zips, (q.seeds if q.seeds is not None else seeds)


def loads_sweep(text: str | bytes, source: str | Path = "<string>", quick: bool = False,
                seeds: int | list[int] | None = None) -> SweepConfig:
    """Parse and validate sweep-file text (see ``load_sweep``)."""
    raw = text.encode() if isinstance(text, str) else bytes(text)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{source}: not UTF-8 text ({e})") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{source}: TOML syntax error: {e}") from None
    try:
        cfg = _build(doc, quick, seeds)
    except ConfigError as e:
        raise ConfigError(f"{e} (in {source})") from None
    cfg.text = text
    cfg.sha256 = hashlib.sha256(raw).hexdigest()
    cfg.path = Path(source) if not str(source).startswith("<") else None
    return cfg


def load_sweep(path: str | Path, quick: bool = False,
               seeds: int | list[int] | None = None) -> SweepConfig:
    """Read, parse and validate a sweep file.

    ``quick``: apply the file's ``[quick]`` overrides (ConfigError if it has none).
    ``seeds``: override the seeds (int n -> 0..n-1, or a list), after ``[quick]``.
    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{p}: sweep file not found") from None
    except OSError as e:
        raise ConfigError(f"{p}: cannot read the sweep file ({e.strerror or e})") from None
    return loads_sweep(raw, source=p, quick=quick, seeds=seeds)


def _build(doc: dict, quick: bool, seeds_override: Any) -> SweepConfig:
    _check_keys(doc, TOP_KEYS, "")
    for k in ("name", "builder"):
        if k not in doc:
            _fail(k, "missing required key")
    name = doc["name"]
    if not (isinstance(name, str) and _NAME_RE.match(name)):
        _bad("name", name, "a string of [a-z0-9_-]+")
    description = doc.get("description", "")
    if not isinstance(description, str):
        _bad("description", description, "a string")
    builder = doc["builder"]
    if not isinstance(builder, str):
        _bad("builder", builder, _builder_allowed())
    check_builder_value(builder)
    # a reference to the user's code is imported now, so that a bad one fails at load, as an
    # unknown name does (registered names stay lazy: importing every paper costs time)
    resolved = import_builder(builder) if is_reference(builder) else None

    base = _parse_layer(doc, "")
    seeds = base.seeds if base.seeds is not None else list(range(DEFAULT_SEEDS))
    zips = base.zips or []
    _check_disjoint(base.fixed, base.axes, zips)
    _check_warmup(base.fixed)

    outputs_raw = _table(doc, "outputs", "outputs")
    _check_keys(outputs_raw, OUTPUT_KEYS, "outputs")
    outputs = {"figures": _str_list(outputs_raw.get("figures", []), "outputs.figures", figure_names(),
                                    "figure"),
               "tables": _str_list(outputs_raw.get("tables", list(_tables())), "outputs.tables",
                                   _tables())}

    fixed, axes = dict(base.fixed), dict(base.axes)
    q_raw = doc.get("quick")
    if q_raw is not None:
        if not isinstance(q_raw, dict):
            _bad("quick", q_raw, "a table [quick]")
        _check_keys(q_raw, QUICK_KEYS, "quick")
        q = _parse_layer(q_raw, "quick")
        qf, qa, qz, qs = _apply_quick(fixed, axes, zips, seeds, q)  # validated even if unused
        _check_disjoint(qf, qa, qz, "quick")
        _check_warmup(qf, "quick")
        if quick:
            fixed, axes, zips, seeds = qf, qa, qz, qs
    elif quick:
        _fail("quick", "the sweep file has no [quick] section, so --quick cannot be used with it")
    if seeds_override is not None:
        seeds = _seeds(seeds_override, "seeds (override)")

    cfg = SweepConfig(name=name, builder_name=builder, fixed=fixed, axes=axes, zips=list(zips),
                      seeds=seeds if isinstance(seeds, SeedRange) else list(seeds),
                      outputs=outputs, description=description, quick=quick,
                      _builder=resolved)
    cfg.points_sha256 = digest(cfg._points_dict())
    return cfg


def _tables() -> tuple[str, ...]:
    from diffsweep.core.results import TABLES  # noqa: PLC0415
    return TABLES


def figure_names() -> list[str]:
    """Every name ``[outputs] figures`` accepts: ``fig<figure>`` of each registered paper's
    families, in natural order (fig2 .. fig11, then figf, figt1, ...), then the registered
    extras."""
    import re  # noqa: PLC0415

    from diffsweep.core import registry as papers  # noqa: PLC0415
    names = {f"fig{fam.figure}" for name in papers.names() for fam in papers.get(name).families}

    def natural(n: str):
        m = re.fullmatch(r"fig(\d+)(.*)", n)
        return (0, int(m.group(1)), m.group(2)) if m else (1, 0, n)
    return list(dict.fromkeys(sorted(names, key=natural) + FIGURES))


def register_figure(name: str) -> None:
    """Allow ``name`` in ``[outputs] figures``."""
    if not (isinstance(name, str) and _NAME_RE.match(name)):
        _bad("figure", name, "a name of [a-z0-9_-]+")
    if name not in figure_names():
        FIGURES.append(name)


def _str_list(v: Any, path: str, allowed: Iterable[str] | None, kind: str = "table") -> list[str]:
    if not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
        _bad(path, v, "a list of strings" + (": " + ", ".join(allowed) if allowed else ""))
    if len(set(v)) != len(v):
        _bad(path, v, "distinct names")
    for i, x in enumerate(v):
        if allowed is not None and x not in allowed:
            _fail(f"{path}[{i}]", f"unknown {kind} '{x}' ({_suggest(x, allowed)})")
        if allowed is None and not _NAME_RE.match(x):
            _bad(f"{path}[{i}]", x, "a name of [a-z0-9_-]+")
    return list(v)

