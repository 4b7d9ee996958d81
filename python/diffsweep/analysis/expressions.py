"""expressions: the command line's short form of a metric of one's own, one number per replica
(docs/metrics.md, "A metric in one line").

    AGG(TABLE.COLUMN)                 mean(flows.goodput_bps), p95(transfers.completion_s)
    TABLE.COLUMN:AGG                  flows.goodput_bps:jain (the same, sensitivity's form)
    AGG(TABLE.COLUMN[COND])           sum(flows.goodput_bps[variant == "sack"])
    arithmetic of the above, numbers and named metrics:
                                      sum(flows.drops) / sum(flows.pkts_sent)
                                      tcp_goodput_bps / 1e6

``AGG`` is one of ``AGGREGATES`` over the replica's rows of the table (its flows, its link
classes, ...); ``COND`` compares a column with a number or a text (``==``, ``!=``, ``<``,
``<=``, ``>``, ``>=``), several joined by ``and``. A bare ``TABLE.COLUMN`` is its mean. The
text is parsed by Python's ``ast`` and only these forms are accepted: an expression is data,
as a sweep file is, and never calls a function of its own (``parse`` refuses anything else
with one line naming what it found).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.core.errors import did_you_mean as _suggest
from diffsweep.core.results import TABLES

KEYS = ["point", "seed"]


def _jain(a: np.ndarray) -> float:
    s2 = float(np.sum(a * a))
    return float("nan") if a.size == 0 or s2 == 0.0 else float(np.sum(a)) ** 2 / (a.size * s2)


def _minmax(a: np.ndarray) -> float:
    if a.size == 0 or np.isnan(a).any() or float(np.max(a)) == 0.0:
        return float("nan")
    return float(np.min(a)) / float(np.max(a))


def _quantile(q: float) -> Callable[[np.ndarray], float]:
    def f(a: np.ndarray) -> float:
        a = a[~np.isnan(a)]
        return float(np.quantile(a, q)) if a.size else float("nan")
    return f


def _cv(a: np.ndarray) -> float:
    a = a[~np.isnan(a)]
    m = float(np.mean(a)) if a.size else float("nan")
    return float(np.std(a, ddof=1)) / m if a.size >= 2 and m != 0 else float("nan")


#: aggregate -> (what it is, function of the replica's values, its range when it has one).
#: jain and minmax are Jain's index and the min-max ratio (Kaur & Vin Sec. 2.3(2)).
AGGREGATES: dict[str, tuple[str, Callable | str, tuple | None]] = {
    "mean": ("mean", "mean", None),
    "median": ("median", "median", None),
    "sum": ("sum", "sum", None),
    "min": ("minimum", "min", None),
    "max": ("maximum", "max", None),
    "std": ("standard deviation (ddof 1)", "std", None),
    "count": ("number of rows", "count", None),
    "jain": ("Jain's fairness index (sum x)^2 / (n sum x^2)", _jain, (0.0, 1.0)),
    "minmax": ("min-max ratio min x / max x", _minmax, (0.0, 1.0)),
    "cv": ("coefficient of variation std / mean", _cv, None),
    "p50": ("50th percentile", _quantile(0.50), None),
    "p90": ("90th percentile", _quantile(0.90), None),
    "p95": ("95th percentile", _quantile(0.95), None),
    "p99": ("99th percentile", _quantile(0.99), None),
}

_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
            ast.GtE: ">="}
_COLON = re.compile(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)(\[[^\]]*\])?:([A-Za-z_]\w*)")
_FORMS = ("AGG(TABLE.COLUMN), TABLE.COLUMN:AGG, AGG(TABLE.COLUMN[COLUMN == VALUE]), "
          "numbers, metric names and + - * /")


@dataclass(frozen=True)
class Term:
    """``agg`` of ``table.column`` over a replica's rows that meet ``where`` ((column, op,
    value), ...)."""

    table: str
    column: str
    agg: str = "mean"
    where: tuple = ()

    def text(self) -> str:
        cond = " and ".join(f"{c} {op} {v!r}" for c, op, v in self.where)
        return f"{self.agg}({self.table}.{self.column}{f'[{cond}]' if cond else ''})"


@dataclass(frozen=True)
class Expression:
    """A parsed expression: ``tree`` (the checked ``ast`` node), the ``terms`` it aggregates and
    the metric ``names`` it uses; ``bounds`` the range of a lone bounded aggregate (jain,
    minmax), else None."""

    text: str
    tree: ast.AST
    terms: tuple[Term, ...]
    names: tuple[str, ...]
    bounds: tuple | None


def looks_like(text: str) -> bool:
    """Whether ``text`` is meant as an expression (not a name): it has a call, a table's dot,
    an operator or a colon form."""
    return bool(re.search(r"[().:+*/\[\]-]", text)) or bool(re.search(r"\s", text.strip()))


def parse(text: str, known_names=()) -> Expression:
    """``text`` as an Expression; ConfigError naming what is not allowed otherwise. Metric names
    used in it must be in ``known_names``."""
    src = _COLON.sub(lambda m: f"{m.group(4)}({m.group(1)}.{m.group(2)}{m.group(3) or ''})",
                     text.strip())
    try:
        tree = ast.parse(src, mode="eval").body
    except SyntaxError as e:
        raise ConfigError(f"metric: {text!r} is not an expression (a syntax error at column "
                          f"{(e.offset or 1)}; expected {_FORMS})") from None
    terms: list[Term] = []
    names: list[str] = []
    _check(tree, text, terms, names, set(known_names))
    bounds = None
    if isinstance(tree, ast.Call) and len(terms) == 1:
        bounds = AGGREGATES[terms[0].agg][2]
    return Expression(text, tree, tuple(terms), tuple(dict.fromkeys(names)), bounds)


def _fail(text: str, what: str) -> None:
    raise ConfigError(f"metric: {text!r}: {what} is not allowed (expected {_FORMS})")


def _column_ref(node, text: str) -> tuple[str, str, tuple]:
    where: tuple = ()
    if isinstance(node, ast.Subscript):
        where = _conditions(node.slice, text)
        node = node.value
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        _fail(text, f"'{ast.unparse(node)}' as a column")
    table, column = node.value.id, node.attr
    if table not in TABLES:
        raise ConfigError(f"metric: {text!r}: unknown table {table!r} "
                          f"({_suggest(table, TABLES)})")
    return table, column, where


def _conditions(node, text: str) -> tuple:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return tuple(c for v in node.values for c in _conditions(v, text))
    if (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.left, ast.Name)
            and type(node.ops[0]) in _COMPARE):
        right = node.comparators[0]
        value = _constant(right)
        if value is None:
            _fail(text, f"the value '{ast.unparse(right)}' in a condition")
        return ((node.left.id, _COMPARE[type(node.ops[0])], value),)
    _fail(text, f"the condition '{ast.unparse(node)}'")
    return ()


def _constant(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)) \
            and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _constant(node.operand)
        return -v if isinstance(v, (int, float)) else None
    if isinstance(node, ast.Name) and node.id in ("true", "false", "True", "False"):
        return node.id.lower() == "true"
    return None


def _check(node, text: str, terms: list, names: list, known: set) -> None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult,
                                                            ast.Div)):
        _check(node.left, text, terms, names, known)
        _check(node.right, text, terms, names, known)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        _check(node.operand, text, terms, names, known)
    elif isinstance(node, ast.Constant):
        if not isinstance(node.value, (int, float)) or isinstance(node.value, bool):
            _fail(text, f"the constant {node.value!r}")
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.keywords or len(node.args) != 1:
            _fail(text, f"the call '{ast.unparse(node)}'")
        agg = node.func.id
        if agg not in AGGREGATES:
            raise ConfigError(f"metric: {text!r}: unknown aggregate {agg!r} "
                              f"({_suggest(agg, list(AGGREGATES))})")
        table, column, where = _column_ref(node.args[0], text)
        terms.append(Term(table, column, agg, where))
    elif isinstance(node, (ast.Attribute, ast.Subscript)):
        table, column, where = _column_ref(node, text)
        terms.append(Term(table, column, "mean", where))
    elif isinstance(node, ast.Name):
        if node.id not in known:
            raise ConfigError(f"metric: {text!r}: unknown metric {node.id!r} "
                              f"({_suggest(node.id, sorted(known))})")
        names.append(node.id)
    else:
        _fail(text, f"'{ast.unparse(node)}'")


def term_values(term: Term, res) -> pd.Series:
    """``term`` per replica of ``res``: a Series indexed by (point, seed) over the replicas
    table's replicas (NaN for a replica without rows; ``count`` gives 0 there)."""
    df = getattr(res, term.table)
    at = pd.MultiIndex.from_frame(res.replicas[KEYS].astype("int64"))
    if term.column not in df.columns:
        cols = [str(c) for c in df.columns if c not in KEYS]
        from diffsweep.analysis.columns import expanded  # noqa: PLC0415
        cols = cols or list(expanded(term.table))
        raise ConfigError(f"metric: {term.text()}: the {term.table} table has no column "
                          f"{term.column!r} ({_suggest(term.column, cols)})")
    for col, _, _ in term.where:
        if col not in df.columns:
            raise ConfigError(f"metric: {term.text()}: the {term.table} table has no column "
                              f"{col!r} to select rows by "
                              f"({_suggest(col, [str(c) for c in df.columns])})")
    if term.where:
        keep = np.ones(len(df), dtype=bool)
        for col, op, v in term.where:
            s = df[col]
            keep &= np.asarray({"==": s == v, "!=": s != v, "<": s < v, "<=": s <= v,
                                ">": s > v, ">=": s >= v}[op], dtype=bool)
        df = df[keep]
    if len(df) and not (pd.api.types.is_numeric_dtype(df[term.column])
                        or pd.api.types.is_bool_dtype(df[term.column])) and term.agg != "count":
        raise ConfigError(f"metric: {term.text()}: {term.table}.{term.column} is not a number "
                          "(expected a numeric column, or the aggregate count)")
    if not len(df):
        out = pd.Series(np.nan, index=at, dtype="float64")
        return out.fillna(0.0) if term.agg == "count" else out
    how = AGGREGATES[term.agg][1]
    values = df[term.column] if term.agg == "count" else df[term.column].astype("float64")
    g = values.groupby([df["point"].astype("int64"), df["seed"].astype("int64")], sort=False)
    per = g.agg(how) if isinstance(how, str) else g.apply(lambda s: how(s.to_numpy()))
    per = per.astype("float64").reindex(at)
    return per.fillna(0.0) if term.agg == "count" else per


def evaluate(expr: Expression, res, named: Callable[[str], pd.Series]) -> pd.Series:
    """The expression per replica (a Series indexed by (point, seed) in the order of
    ``res.replicas``); ``named(name)`` gives a named metric's Series. Division by 0 gives NaN
    (a replica where the ratio is undefined), never inf."""
    values = {t: term_values(t, res) for t in expr.terms}
    cache: dict[str, pd.Series] = {}

    def ev(node):
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            with np.errstate(divide="ignore", invalid="ignore"):
                out = a / b
            return out.replace([np.inf, -np.inf], np.nan) if isinstance(out, pd.Series) \
                else (out if np.isfinite(out) else np.nan)
        if isinstance(node, ast.UnaryOp):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.Constant):
            return float(node.value)
        if isinstance(node, ast.Name):
            if node.id not in cache:
                cache[node.id] = named(node.id)
            return cache[node.id]
        if isinstance(node, ast.Call):
            table, column, where = _column_ref(node.args[0], expr.text)
            return values[Term(table, column, node.func.id, where)]
        table, column, where = _column_ref(node, expr.text)
        return values[Term(table, column, "mean", where)]

    out = ev(expr.tree)
    at = pd.MultiIndex.from_frame(res.replicas[KEYS].astype("int64"))
    if not isinstance(out, pd.Series):  # a constant expression
        return pd.Series(float(out), index=at)
    return out.reindex(at).astype("float64")
