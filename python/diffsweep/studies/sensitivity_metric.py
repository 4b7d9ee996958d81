"""What a sensitivity study measures: a column metric ``TABLE.COLUMN[:AGG]`` (AGG one of
``AGGREGATES``) or a paper's per-seed number ``PAPER:NAME`` (``PaperMetric``, declared in
``papers/<paper>/sensitivity.py``; every registered one: ``paper_metrics()``), parsed into a
``Metric`` (``parse_metric``), and its values, one per (design point, seed), from a run's
Results (``_column_values``, ``_paper_values``). See ``diffsweep.studies.sensitivity``.
"""
from __future__ import annotations

import dataclasses
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

    @property
    def what(self) -> str:
        if self.paper is not None:
            return self.paper.what
        return f"the {self.agg} of {self.table}.{self.column} over a replica's rows"


def parse_metric(text: str) -> Metric:
    """``TABLE.COLUMN[:AGG]`` or a ``paper_metrics()`` name as a Metric (the column itself is
    checked on the run's first replica); ConfigError with a did-you-mean otherwise."""
    from diffsweep.core.results import TABLES  # noqa: PLC0415

    if not isinstance(text, str) or not text.strip():
        raise ConfigError(f"metric: {text!r} is not allowed (expected TABLE.COLUMN[:AGG], e.g. "
                          "flows.goodput_bps:mean, or a paper metric: "
                          + ", ".join(paper_metrics()) + ")")
    text = text.strip()
    known = paper_metrics()
    if text in known:
        return Metric(text, paper=known[text])
    if "." not in text:
        raise ConfigError(f"metric: unknown metric {text!r} ("
                          + _suggest(text, list(known)).replace(
                              "allowed: ", "expected TABLE.COLUMN[:AGG] or one of: ") + ")")
    table, _, rest = text.partition(".")
    column, colon, agg = rest.partition(":")
    if table not in TABLES:
        raise ConfigError(f"metric: unknown table {table!r} in {text!r} "
                          f"({_suggest(table, TABLES)})")
    if not column:
        raise ConfigError(f"metric: {text!r} is not allowed (expected TABLE.COLUMN[:AGG])")
    agg = agg if colon else "mean"
    if agg not in AGGREGATES:
        raise ConfigError(f"metric: unknown aggregate {agg!r} in {text!r} "
                          f"({_suggest(agg, AGGREGATES)})")
    return Metric(text, table=table, column=column, agg=agg)


def _check_column(metric: Metric, frame: pd.DataFrame) -> None:
    cols = [c for c in frame.columns if c not in ("point", "seed", "replica")]
    if metric.column not in frame.columns:
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
