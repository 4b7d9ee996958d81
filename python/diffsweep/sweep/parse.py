"""Sweep files, checked: the values, axes and sections of a parsed sweep document.

The parts ``diffsweep.sweep.config`` puts together into a ``SweepConfig`` (the schema is in its
docstring, and in ``docs/sweeps.md``): parameter values and names, axes (a list of values or a
``range``/``logspace``/``linspace`` expanded to one), seeds, ``[[zip]]`` groups
(``ZipGroup``), the top-level and ``[quick]`` layers and the ``[quick]`` overrides applied to
them, and the names an ``[outputs]`` section may give (``figure_names``, ``register_figure``;
the tables of ``results.TABLES``). Every error is a ``ConfigError`` whose message starts with
the key path (``axes.t_on_ms.logspace: ...``).
"""
from __future__ import annotations

import datetime as _dt
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from diffsweep.core import registry as papers
from diffsweep.core.errors import ConfigError
from diffsweep.core.errors import did_you_mean as _suggest
from diffsweep.core.identity import canon
from diffsweep.engine.sizing import SeedRange
from diffsweep.scenario.registry import _NAME_RE

#: Longest axis a range/linspace/logspace may produce (guards against typos like step=1e-9).
MAX_AXIS_LEN = 100_000

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
# zip groups, layers (the top level and [quick])
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ZipGroup:
    """Parameters that move together: ``values[i]`` is the tuple of the parameters' values at
    position ``i`` (one tuple per step along this dimension)."""

    names: tuple[str, ...]
    values: tuple[tuple, ...]

    def __len__(self) -> int:
        return len(self.values)



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
        if not (isinstance(names, list) and len(names) >= 2
                and all(isinstance(n, str) for n in names)):
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
                _bad(sp, v, "a finite number > 0" if short == "duration_s"
                     else "a finite number >= 0")
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


# --------------------------------------------------------------------------------------------
# [outputs]: figure and table names
# --------------------------------------------------------------------------------------------
def _tables() -> tuple[str, ...]:
    from diffsweep.core.results import TABLES  # noqa: PLC0415
    return TABLES


def figure_names() -> list[str]:
    """Every name ``[outputs] figures`` accepts: ``fig<figure>`` of each registered paper's
    families, in natural order (fig2 .. fig11, then figf, figt1, ...), then the registered
    extras."""
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


def _str_list(v: Any, path: str, allowed: Iterable[str] | None,
              kind: str = "table") -> list[str]:
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
