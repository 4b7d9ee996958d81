"""The sweep's axes in its tables: what ``show``, ``plot``, ``stats.summarize`` and
``Results.where`` group and filter by (docs/api.md, "Grouping by the grid's axes").

* An axis is named by the sweep, not by the storage: a grid column named like an engine column
  that holds other values (matta_guo's ``n_flows`` axis beside the engine's count of every TCP
  flow) is stored as ``<name>_grid`` (``engine._resolve_clashes``), but ``n_flows`` in a
  grouping or a filter means the axis. ``grid_values`` reads it; a chunk whose engine column
  agreed with the grid stored no ``_grid`` column, so the engine's column is the grid's value on
  those rows.
* ``pooled``: the axes that take several values inside one group -- averaging them would pass
  different points off as one point's spread over seeds.
* ``labels``: values that are different points print differently (``%g`` printed 0.1 and
  0.1000000001 alike).
* ``same``: value equality as the grid sees it (4 and 4.0 are one point, True is not 1).
"""
from __future__ import annotations

import math
from typing import Any, Iterable

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError, did_you_mean

#: the suffix of a grid column kept beside an engine column of the same name
GRID_SUFFIX = "_grid"


def dims_of(manifest: dict) -> list[str]:
    """The axis and zipped parameter names of the sweep in a results folder's manifest."""
    desc = manifest.get("effective") or manifest.get("grid") or {}
    names = [a[0] for a in desc.get("axes", []) if isinstance(a, (list, tuple)) and a]
    for g in desc.get("zip", []) or []:
        names += list(g.get("names", []))
    return names


def axes_of(res) -> list[str] | None:
    """The sweep's axes (and zipped parameters) that a ``Results`` records in its meta (a run
    of a Grid or sweep file, a loaded folder); None when it does not know them."""
    axes = (getattr(res, "meta", None) or {}).get("axes")
    return list(axes) if isinstance(axes, (list, tuple)) else None


def has(df: pd.DataFrame, name: str) -> bool:
    """Whether ``df`` holds ``name``, as a column or as the grid's ``<name>_grid``."""
    return name in df.columns or f"{name}{GRID_SUFFIX}" in df.columns


def column_names(df: pd.DataFrame) -> list[str]:
    """The names ``df``'s columns answer to (``n_flows_grid`` answers to ``n_flows``)."""
    out = []
    for c in map(str, df.columns):
        if c.endswith(GRID_SUFFIX) and c[:-len(GRID_SUFFIX)] in df.columns:
            continue
        out.append(c[:-len(GRID_SUFFIX)] if c.endswith(GRID_SUFFIX) else c)
    return out


def _hashable(s: pd.Series) -> pd.Series:
    """Lists (a per-flow ``rtp_ms`` axis) as tuples, so that they can be grouped and compared."""
    if s.dtype != object or not s.map(lambda v: isinstance(v, (list, np.ndarray))).any():
        return s
    return s.map(lambda v: tuple(np.asarray(v).tolist()) if isinstance(v, (list, np.ndarray))
                 else v)


def grid_values(df: pd.DataFrame, name: str) -> pd.Series:
    """The value of ``name`` on each row of ``df``: the grid's (``<name>_grid``) where it was
    kept, else the column ``name``."""
    g = f"{name}{GRID_SUFFIX}"
    if g not in df.columns:
        return _hashable(df[name])
    s = df[g]
    if name in df.columns:
        # rows of chunks where engine and grid agreed have no _grid value: the engine's is it
        s = s.where(s.notna(), df[name])
        if (s.dtype.kind == "f" and df[name].dtype.kind in "iu" and s.notna().all()
                and (s == np.floor(s)).all()):
            s = s.astype(df[name].dtype)  # (NaN made the grid's integers floats)
    return _hashable(s.rename(name))


def with_grid_values(df: pd.DataFrame, names: Iterable[str]) -> pd.DataFrame:
    """``df`` with each of ``names`` holding the grid's value (``grid_values``); the ``_grid``
    columns are dropped. The engine's own column of such a name stays in the Results."""
    names = [n for n in names if has(df, n)]
    if not names:
        return df
    out = df.copy()
    for n in names:
        out[n] = grid_values(df, n)
        out = out.drop(columns=[f"{n}{GRID_SUFFIX}"], errors="ignore")
    return out


# --------------------------------------------------------------------------------------------
# values: identity, labels, parsing
# --------------------------------------------------------------------------------------------
def _plain(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def key(v: Any) -> tuple:
    """A value's identity as a grid point: 4 and 4.0 alike, True apart from 1, every NaN
    alike, lists by their items."""
    v = _plain(v)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, float)):
        return ("nan",) if isinstance(v, float) and math.isnan(v) else ("num", float(v))
    if isinstance(v, (list, tuple, np.ndarray)):
        return ("seq", tuple(key(x) for x in (v.tolist() if isinstance(v, np.ndarray) else v)))
    if v is None:
        return ("nan",)
    return ("str", str(v))


def same(s: pd.Series, value: Any) -> pd.Series:
    """The rows of ``s`` equal to ``value`` as grid points (``key``)."""
    value = _plain(value)
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if numeric and s.dtype.kind in "iuf" and not math.isnan(value):
        return s == value
    want = key(value)
    return s.map(lambda v: key(v) == want).astype(bool)


def _order(k: tuple) -> tuple:
    """Sort order of a ``key``: numbers by value, then lists item by item, true/false, text,
    missing values last."""
    rank = ("num", "seq", "bool", "str", "nan").index(k[0])
    if k[0] == "seq":
        return (rank, tuple(_order(x) for x in k[1]))
    return (rank, *k[1:])


def distinct(values: Iterable[Any]) -> list:
    """The distinct values (by ``key``), sorted (``_order``)."""
    seen: dict[tuple, Any] = {}
    for v in values:
        seen.setdefault(key(v), _plain(v))
    return [seen[k] for k in sorted(seen, key=_order)]


def _fmt(v: Any, digits: int) -> str:
    v = _plain(v)
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x, digits) for x in v) + "]"
    return str(v)


def labels(values: Iterable[Any], digits: int = 6) -> list[str]:
    """Labels of ``values``, in order: ``%.{digits}g`` for numbers, with more digits (up to
    17, where every two floats differ) for all of them while two different values would print
    alike; equal values (``key``) get the same label."""
    values = list(values)
    for d in range(digits, 18):
        out = [_fmt(v, d) for v in values]
        owner: dict[str, tuple] = {}
        if all(owner.setdefault(s, key(v)) == key(v) for s, v in zip(out, values)):
            return out
    return [repr(_plain(v)) for v in values]  # pragma: no cover - 17 digits tell floats apart


def listing(values: Iterable[Any], most: int = 12) -> str:
    """'10, 30' (the distinct values, labelled apart; ', ...' after ``most``)."""
    vals = distinct(values)
    text = ", ".join(labels(vals[:most]))
    return text + (f", ... ({len(vals)} values)" if len(vals) > most else "")


def parse(text: str) -> Any:
    """A value typed on the command line: true/false, an integer, a number, a [list], else the
    text itself."""
    t = text.strip()
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    if t.startswith("[") and t.endswith("]"):
        items = [x for x in t[1:-1].split(",") if x.strip()]
        return tuple(parse(x) for x in items)
    return text


# --------------------------------------------------------------------------------------------
# grouping
# --------------------------------------------------------------------------------------------
def pooled(values: pd.DataFrame, keys: list[str], axes: Iterable[str]) -> dict[str, list]:
    """The axes (columns of ``values``, not in ``keys``) that take more than one value within
    a group of ``keys`` (all rows one group when ``keys`` is empty), each with its values."""
    out = {}
    for a in axes:
        if a in keys or a not in values.columns or values.empty:
            continue
        col = values[a].map(key)
        if keys:
            n = col.groupby([values[k].map(key) for k in keys], dropna=False).nunique(
                dropna=False)
            spread = bool((n > 1).any())
        else:
            spread = col.nunique(dropna=False) > 1
        if spread:
            out[a] = distinct(values[a])
    return out


def pooling_error(what: str, pooled_axes: dict[str, list], remedy: str) -> ConfigError:
    """The refusal of a grouping that would pool ``pooled_axes`` into one interval."""
    each = [f"{a} ({listing(v)})" for a, v in pooled_axes.items()]
    axes = ("axis " + each[0] if len(each) == 1
            else "axes " + ", ".join(each[:-1]) + " and " + each[-1])
    return ConfigError(f"{what} would pool the {axes} into one interval over seeds (different "
                       f"points as one); {remedy}")


def suggest(name: str, axes: Iterable[str], columns: Iterable[str]) -> str:
    """'did you mean ...?' among ``axes`` and ``columns``, else the axes."""
    axes = list(dict.fromkeys(axes))
    hint = did_you_mean(name, list(dict.fromkeys([*axes, *columns])))
    if hint.startswith("did you mean"):
        return hint
    return ("the sweep's axes: " + ", ".join(axes)) if axes else "no axes; columns: " + \
        ", ".join(dict.fromkeys(columns))
