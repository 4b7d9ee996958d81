"""What a sensitivity study measures: a column metric ``TABLE.COLUMN[:AGG]`` (AGG one of
``AGGREGATES``), a paper's per-seed number ``PAPER:NAME`` (``PaperMetric``, declared in
``papers/<paper>/sensitivity.py``; every registered one: ``paper_metrics()``) or any named
metric of ``diffsweep.analysis.registry`` (``jain_index``, ``loss_rate``, an expression, a
user's ``module:function``), parsed into a ``Metric`` (``parse_metric``), and its values, one
per (design point, seed), from a run's Results (``_column_values``, ``_paper_values``,
``_named_values``). A column is checked against the engine's columns of its table
(``diffsweep.analysis.columns``) when parsed, so ``--dry-run`` refuses what the run would; a
grid column (a parameter) is never offered as a metric. See ``diffsweep.studies.sensitivity``.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.core.errors import did_you_mean as _suggest

AGGREGATES = ("mean", "median", "sum", "min", "max", "std", "count")


@dataclass(frozen=True)
class PaperMetric:
    """A paper's per-seed number, declared in the paper's package (``Paper.metrics``): ``what``
    it is, ``table`` ("module:function" giving a per-seed frame of a design point's Results),
    its ``column``, ``rows`` (a filter of that frame, e.g. one cloud: ((column, value), ...)),
    ``ratio`` (a column to divide by), ``axis``: (name, values) an inner axis it needs (no
    values: only the column), ``builders``: the builders it applies to (default the paper's).
    ``paper`` is filled in by ``paper_metrics``."""

    what: str
    table: str
    column: str
    rows: tuple = ()
    axis: tuple | None = None
    ratio: str | None = None
    builders: tuple = ()
    paper: str = ""


def paper_metrics() -> dict[str, PaperMetric]:
    """Every registered paper's metrics as ``<paper>:<name>`` -> PaperMetric (``paper`` and,
    unless declared, ``builders`` filled in from the paper)."""
    from diffsweep.core import registry as papers  # noqa: PLC0415

    out = {}
    for name in papers.names():
        spec = papers.get(name)
        for key, pm in spec.metric_map().items():
            out[f"{name}:{key}"] = dataclasses.replace(
                pm, paper=name, builders=pm.builders or tuple(spec.builders))
    return out


@dataclass(frozen=True)
class Metric:
    """What is measured: ``name`` as given; a column metric (``table``, ``column``, ``agg``)
    or a paper metric (``paper``)."""

    name: str
    table: str | None = None
    column: str | None = None
    agg: str = "mean"
    paper: PaperMetric | None = None
    named: object | None = None  # a diffsweep.analysis.registry.Metric

    @property
    def what(self) -> str:
        if self.paper is not None:
            return self.paper.what
        if self.named is not None:
            return self.named.what
        return f"the {self.agg} of {self.table}.{self.column} over a replica's rows"


def parse_metric(text: str) -> Metric:
    """``TABLE.COLUMN[:AGG]`` or a ``paper_metrics()`` name as a Metric (the column itself is
    checked on the run's first replica); ConfigError with a did-you-mean otherwise."""
    from diffsweep.core.results import TABLES  # noqa: PLC0415

    if not isinstance(text, str) or not text.strip():
        raise ConfigError(f"metric: {text!r} is not allowed (expected TABLE.COLUMN[:AGG], e.g. "
                          "flows.goodput_bps:mean, or a paper metric: "
                          + ", ".join(paper_metrics()) + ")")
    from diffsweep.analysis import expressions, registry  # noqa: PLC0415

    text = text.strip()
    known = paper_metrics()
    if text in known:
        return Metric(text, paper=known[text])
    simple = re.fullmatch(r"([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?::([A-Za-z_]\w*))?", text)
    if simple and simple.group(1) in TABLES and (simple.group(3) or "mean") in AGGREGATES:
        table, column, agg = simple.group(1), simple.group(2), simple.group(3) or "mean"
        _check_engine_column(text, table, column)
        return Metric(text, table=table, column=column, agg=agg)
    from diffsweep.core import registry as papers  # noqa: PLC0415
    if text.partition(":")[0] in papers.names():  # a paper metric's typo: kaur-vin:los
        raise ConfigError(f"metric: unknown metric {text!r} ({_suggest(text, list(known))})")
    if text in registry.METRICS or "." in text or expressions.looks_like(text):
        try:
            m = registry.resolve(text)
        except ConfigError as e:
            if simple and simple.group(1) not in TABLES:
                raise ConfigError(f"metric: unknown table {simple.group(1)!r} in {text!r} "
                                  f"({_suggest(simple.group(1), TABLES)})") from None
            raise e from None
        if m.source == "expression":
            for term in expressions.parse(text, registry.METRICS).terms:
                _check_engine_column(text, term.table, term.column)
        return Metric(text, named=m)
    raise ConfigError(f"metric: unknown metric {text!r} ("
                      + _suggest(text, [*known, *registry.METRICS]).replace(
                          "allowed: ", "expected TABLE.COLUMN[:AGG] or one of: ")
                      + "; `diffsweep metrics` lists the named ones)")


def _check_engine_column(text: str, table: str, column: str) -> None:
    """``column`` must be one of the engine's columns of ``table`` (docs/columns.md): a grid
    column is a parameter of the study, the same for every seed, never its measure."""
    from diffsweep.analysis.columns import expanded  # noqa: PLC0415
    from diffsweep.analysis.registry import METRICS  # noqa: PLC0415

    cols = [c for c in expanded(table) if c not in ("point", "seed")]
    if column in cols:
        return
    hint = _suggest(column, cols)
    if not hint.startswith("did you mean"):
        close = [n for n in METRICS if column in n or n in column]
        hint = (f"did you mean the metric {close[0]!r}?" if close else
                "the engine's columns of " + table + ": " + ", ".join(cols))
    raise ConfigError(f"metric: {text!r}: {table} has no column {column!r} measured by the "
                      f"engine ({hint})")


def _check_column(metric: Metric, frame: pd.DataFrame) -> None:
    from diffsweep.analysis.columns import expanded  # noqa: PLC0415

    if metric.column not in frame.columns:
        # the engine's columns, not the frame's: a grid column is a parameter, not a metric
        cols = [c for c in expanded(metric.table) if c not in ("point", "seed")]
        raise ConfigError(f"metric: {metric.table} has no column {metric.column!r} in this "
                          f"scenario ({_suggest(metric.column, cols)})")
    if not pd.api.types.is_numeric_dtype(frame[metric.column]) and metric.agg != "count":
        raise ConfigError(f"metric: {metric.table}.{metric.column} is not a number (expected a "
                          "numeric column, or the aggregate count)")


def _column_values(metric: Metric, res, n_design: int) -> pd.DataFrame:
    df = getattr(res, metric.table)
    _check_column(metric, df)
    if not len(df):
        return pd.DataFrame(columns=["design", "seed", "value"])
    g = df.assign(design=df["point"].to_numpy(dtype="int64") % n_design)
    out = g.groupby(["design", "seed"])[metric.column].agg(metric.agg).reset_index()
    return out.rename(columns={metric.column: "value"})


def _named_values(metric: Metric, res, n_design: int) -> pd.DataFrame:
    """A named metric (``diffsweep.analysis.registry``) per (design point, seed): its value per
    replica, averaged over a design point's inner points."""
    from diffsweep.analysis.registry import values  # noqa: PLC0415

    if not len(res.replicas):
        return pd.DataFrame(columns=["design", "seed", "value"])
    v = values(res, metric.name)
    g = pd.DataFrame({"design": v["point"].to_numpy(dtype="int64") % n_design,
                      "seed": v["seed"].to_numpy(dtype="int64"),
                      "value": v[metric.name].to_numpy(dtype=float)})
    return g.groupby(["design", "seed"])["value"].mean().reset_index()


def _paper_values(metric: Metric, res, n_design: int) -> pd.DataFrame:
    from diffsweep.core import registry as papers  # noqa: PLC0415
    from diffsweep.core.results import TABLES, Results  # noqa: PLC0415

    pm = metric.paper
    fn = papers.resolve(pm.table)
    parts = {}
    for t in TABLES:
        df = getattr(res, t)
        if len(df) and "point" in df.columns:
            parts[t] = dict(tuple(df.groupby(df["point"].to_numpy(dtype="int64") % n_design)))
        else:
            parts[t] = {}
    rows = []
    for d in sorted(parts["replicas"]):
        sub = Results(**{t: parts[t].get(d, getattr(res, t).iloc[0:0]) for t in TABLES},
                      meta=res.meta)
        try:
            frame = fn(sub)
        except ValueError as e:
            raise ConfigError(f"metric: {metric.name} cannot be computed at design point {d} "
                              f"({e})") from None
        for col, val in pm.rows:
            frame = frame[frame[col] == val]
        v = frame[pm.column].astype(float)
        if pm.ratio:
            den = frame[pm.ratio].astype(float)
            v = v / den.where(den != 0)
        per = v.groupby(frame["seed"].to_numpy()).mean()
        rows += [{"design": d, "seed": int(s), "value": float(x)} for s, x in per.items()]
    return pd.DataFrame(rows, columns=["design", "seed", "value"])
