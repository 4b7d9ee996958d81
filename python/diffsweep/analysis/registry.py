"""registry: metrics as named things, one number per replica (docs/metrics.md; the list:
docs/metric-names.md, ``diffsweep metrics``).

A ``Metric`` has a ``name``, a ``unit``, what it is (``what``), its range (``bounds``: a bounded
metric gets intervals that stay inside its range everywhere, ``stats.summarize``) and how it is
computed from a run's ``Results`` (``compute(res)``: a Series indexed by (point, seed)). Every
command that measures something takes one by name: ``show --metric``, ``plot --y``,
``export --metric``, ``sensitivity --metric``, ``run --target-metric``, a claim of one's own.

What a name may be (``resolve``), in this order:

1. a column of the replicas table (``tcp_goodput_bps``: the engine's own per-replica numbers);
2. a registered metric: the built-ins below (``jain_index``, ``loss_rate``,
   ``queue_delay_ms``, ...) and every ``@diffsweep.metric`` imported in this process;
3. ``"package.module:function"``: a metric in the user's own code, imported by name and marked
   with ``@diffsweep.metric`` (as a builder is: a command line is data and never calls an
   unmarked function);
4. an expression (``diffsweep.analysis.expressions``): ``sum(flows.drops) /
   sum(flows.pkts_sent)``, ``flows.goodput_bps:jain``, ``p95(transfers.completion_s)``.

``values(res, name)`` gives the metric per replica with the replicas table's columns (point,
seed, the grid's columns); ``with_metrics(res, names)`` a Results whose replicas table carries
them, which is how ``show`` and ``plot`` summarise any metric with their usual intervals.

The built-in "bottleneck" is, per replica, the link that carried the most of its capacity
(``bytes_departed x 8 / (rate_bps x measured_s)`` summed over its classes; the lowest index on
a tie): the dumbbell's link 0, a parking lot's busiest link.
"""
from __future__ import annotations

import importlib
import inspect
import math
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from diffsweep.analysis import expressions as ex
from diffsweep.core.errors import ConfigError
from diffsweep.core.errors import did_you_mean as _suggest
from diffsweep.core.results import Results

KEYS = ["point", "seed"]

#: the replicas table's measured columns (grid columns are parameters, not metrics)
REPLICA_COLUMNS = ("tcp_goodput_bps", "measured_s", "duration_s", "warmup_s", "slot_s",
                   "n_flows", "delay_rounding_ms", "slots_run")


@dataclass(frozen=True)
class Metric:
    """A per-replica number: ``compute(res) -> Series`` indexed by (point, seed) (or a
    DataFrame with point, seed and one value column); ``bounds`` (lo, hi) its range (None: a
    side without a bound); ``source``: "engine", "built-in", "user" or "expression"."""

    name: str
    unit: str
    what: str
    compute: Callable = field(repr=False, compare=False)
    bounds: tuple | None = None
    source: str = "built-in"
    tables: tuple = ()

    def values(self, res: Results) -> pd.Series:
        """The metric per replica of ``res``, in the order of ``res.replicas``."""
        at = pd.MultiIndex.from_frame(res.replicas[KEYS].astype("int64"))
        if not len(at):
            return pd.Series([], index=at, dtype="float64", name=self.name)
        try:
            out = self.compute(res)
        except ConfigError:
            raise
        except Exception as e:  # a user's metric: one line naming it, --debug shows more
            raise ConfigError(f"metric: {self.name} could not be computed "
                              f"({type(e).__name__}: {e})") from e
        return _as_series(out, at, self.name)


def _as_series(out, at: pd.MultiIndex, name: str) -> pd.Series:
    if isinstance(out, pd.DataFrame):
        cols = [c for c in out.columns if c not in KEYS]
        if not set(KEYS) <= set(out.columns) or len(cols) != 1:
            raise ConfigError(f"metric: {name} returned a table with columns "
                              f"{list(map(str, out.columns))} (expected point, seed and one "
                              "value column, or a Series indexed by (point, seed))")
        out = out.set_index(KEYS)[cols[0]]
    if not isinstance(out, pd.Series):
        raise ConfigError(f"metric: {name} returned {type(out).__name__} (expected a pandas "
                          "Series indexed by (point, seed) or a DataFrame with point, seed and "
                          "a value column)")
    if out.index.nlevels != 2:
        raise ConfigError(f"metric: {name} returned a Series indexed by "
                          f"{list(out.index.names)} (expected (point, seed))")
    out.index = pd.MultiIndex.from_arrays([out.index.get_level_values(0).astype("int64"),
                                           out.index.get_level_values(1).astype("int64")],
                                          names=KEYS)
    if out.index.duplicated().any():
        raise ConfigError(f"metric: {name} returned several values for one (point, seed) "
                          "(expected one number per replica)")
    try:
        vals = pd.to_numeric(out, errors="raise").astype("float64")
    except (TypeError, ValueError):
        raise ConfigError(f"metric: {name} returned values that are not numbers") from None
    return vals.reindex(at).rename(name)


# --------------------------------------------------------------------------------------------
# the built-ins
# --------------------------------------------------------------------------------------------
def _index(res: Results) -> pd.MultiIndex:
    return pd.MultiIndex.from_frame(res.replicas[KEYS].astype("int64"))


def _flow_sum(res: Results, col: str) -> pd.Series:
    f = res.flows
    if not len(f):
        return pd.Series(np.nan, index=_index(res))
    return f.groupby([f["point"].astype("int64"), f["seed"].astype("int64")])[col] \
        .sum().astype("float64").reindex(_index(res))


def _ratio(num: pd.Series, den: pd.Series) -> pd.Series:
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den.where(den != 0)
    return out


def _fairness(res: Results, col: str) -> pd.Series:
    from diffsweep.analysis.fairness import fairness  # noqa: PLC0415

    if not len(res.flows):
        return pd.Series(np.nan, index=_index(res))
    f = fairness(res.flows)
    return f.set_index(KEYS)[col]


def _bottleneck(res: Results) -> pd.DataFrame:
    """Per replica: the busiest link's utilisation, queue in packets and bytes, longest wait,
    and rate (module docstring)."""
    q = res.queues
    cols = ["utilization", "queue_pkts", "queue_bytes", "max_delay_s", "rate_bps", "link"]
    if not len(q):
        return pd.DataFrame(np.nan, index=_index(res), columns=cols)
    measured = res.replicas.set_index(KEYS)["measured_s"].astype("float64")
    measured.index = measured.index.set_levels([lv.astype("int64") for lv in
                                                measured.index.levels])
    g = q.assign(point=q["point"].astype("int64"), seed=q["seed"].astype("int64")) \
        .groupby(KEYS + ["link"], sort=True)
    per = g.agg(bytes_departed=("bytes_departed", "sum"), rate_bps=("rate_bps", "first"),
                queue_pkts=("mean_queue_pkts", "sum"), queue_bytes=("mean_queue_bytes", "sum"),
                max_delay_s=("max_delay_s", "max")).reset_index()
    m = measured.reindex(pd.MultiIndex.from_frame(per[KEYS])).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        per["utilization"] = per["bytes_departed"].astype(float) * 8.0 / (
            per["rate_bps"].astype(float) * m)
    # the busiest link of each replica; a stable sort keeps the lowest link index on a tie
    per = per.sort_values(KEYS + ["utilization", "link"], ascending=[True, True, False, True],
                          kind="stable", na_position="last")
    top = per.drop_duplicates(KEYS, keep="first").set_index(KEYS)
    return top[cols].reindex(_index(res))


def _queue_delay_ms(res: Results) -> pd.Series:
    b = _bottleneck(res)
    with np.errstate(divide="ignore", invalid="ignore"):
        return b["queue_bytes"] * 8e3 / b["rate_bps"]


def _queue_delay_quantile_ms(res: Results, q: float) -> pd.Series:
    """The q-quantile of the waits of every packet the bottleneck sent (its classes together)
    from the queueing-delay histogram (Scenario.queue_delay_hist, table queue_delay;
    core/qdelay.py), clipped to its longest wait; NaN where it was not recorded."""
    from diffsweep.core import qdelay  # noqa: PLC0415

    out = pd.Series(np.nan, index=_index(res))
    h = res.queue_delay
    if not len(h) or "bin" not in h.columns:
        return out
    b = _bottleneck(res)
    slot = res.replicas.set_index(KEYS)["slot_s"].astype("float64")
    h = h.assign(point=h["point"].astype("int64"), seed=h["seed"].astype("int64"))
    for key, g in h.groupby(KEYS, sort=False):
        if key not in b.index or g.empty:
            continue
        top = b.loc[key]
        g = g[g["link"] == top["link"]]
        if g.empty:
            continue
        s = float(slot.loc[key])
        counts = g.groupby("bin")["pkts"].sum()
        out.loc[key] = qdelay.quantile_slots(counts.index.to_numpy(), counts.to_numpy(), q,
                                             float(top["max_delay_s"]) / s) * s * 1e3
    return out


def _transfers(res: Results, how) -> pd.Series:
    t = res.transfers
    if not len(t) or "completion_s" not in t.columns:
        return pd.Series(np.nan, index=_index(res))
    done = t[t["completion_s"].notna()]
    g = done.groupby([done["point"].astype("int64"), done["seed"].astype("int64")])
    return g["completion_s"].agg(how).astype("float64").reindex(_index(res))


def _builtins() -> dict[str, Metric]:
    b = [
        Metric("jain_index", "", "Jain's fairness index of the TCP flows' goodput, (sum x)^2 / "
               "(n sum x^2), in [1/n, 1] (Jain, Chiu & Hawe 1984; Kaur & Vin Sec. 2.3(2))",
               lambda r: _fairness(r, "jain_index"), (0.0, 1.0), tables=("flows",)),
        Metric("min_max_ratio", "", "min over max of the TCP flows' goodput, in [0, 1] (Kaur & "
               "Vin Sec. 2.3(2)): one starved flow drives it to 0 while Jain's stays near 1",
               lambda r: _fairness(r, "min_max_ratio"), (0.0, 1.0), tables=("flows",)),
        Metric("goodput_per_flow_bps", "b/s", "mean goodput of the replica's TCP flows",
               lambda r: _ratio(_flow_sum(r, "goodput_bps"),
                                r.flows.groupby(["point", "seed"]).size().astype(float)
                                .reindex(_index(r)) if len(r.flows) else
                                pd.Series(np.nan, index=_index(r))),
               (0.0, None), tables=("flows",)),
        Metric("loss_rate", "fraction", "the TCP flows' lost packets (buffer overflows, RED's "
               "early and forced drops, random losses, their access links: flows.drops) over "
               "their packets sent, retransmissions included",
               lambda r: _ratio(_flow_sum(r, "drops"), _flow_sum(r, "pkts_sent")), (0.0, 1.0),
               tables=("flows",)),
        Metric("retransmit_rate", "fraction", "the TCP flows' retransmissions over their "
               "packets sent", lambda r: _ratio(_flow_sum(r, "retransmits"),
                                                _flow_sum(r, "pkts_sent")),
               (0.0, 1.0), tables=("flows",)),
        Metric("timeouts_per_flow", "count", "retransmission timeouts per TCP flow (Kaur & "
               "Vin Fig. 4b)", lambda r: _ratio(_flow_sum(r, "timeouts"),
                                                r.flows.groupby(["point", "seed"]).size()
                                                .astype(float).reindex(_index(r))
                                                if len(r.flows) else
                                                pd.Series(np.nan, index=_index(r))),
               (0.0, None), tables=("flows",)),
        Metric("utilization", "fraction", "the bottleneck's (busiest link's) bytes sent x 8 "
               "over its rate x measured_s, every class and packet (TCP, UDP, headers)",
               lambda r: _bottleneck(r)["utilization"], (0.0, 1.0), tables=("queues",)),
        Metric("queue_pkts", "packets", "time-average queue at the bottleneck, its classes "
               "summed", lambda r: _bottleneck(r)["queue_pkts"], (0.0, None),
               tables=("queues",)),
        Metric("queue_delay_ms", "ms", "mean queueing delay at the bottleneck: its time-average "
               "queue in bytes drained at its rate (mean_queue_bytes x 8 / rate_bps), the wait "
               "an arriving byte finds on average when the link is busy", _queue_delay_ms,
               (0.0, None), tables=("queues",)),
        *(Metric(f"queue_delay_p{int(q * 100)}_ms", "ms", f"{int(q * 100)}th percentile of "
                 "the waits of the packets the bottleneck sent (its classes together; "
                 "departure slot - arrival slot), from the queueing-delay histogram: needs "
                 "`queue_delay_hist` (NaN without; one-slot resolution below 64 slots, "
                 "interpolated in bins of 1/8-1/15 above: docs/model.md)",
                 lambda r, q=q: _queue_delay_quantile_ms(r, q), (0.0, None),
                 tables=("queue_delay",)) for q in (0.5, 0.95, 0.99)),
        Metric("max_queue_delay_ms", "ms", "the longest wait of a packet in a queue of the "
               "bottleneck", lambda r: _bottleneck(r)["max_delay_s"] * 1e3, (0.0, None),
               tables=("queues",)),
        Metric("completion_mean_s", "s", "mean completion time of the transfers that finished "
               "(traffic generators)", lambda r: _transfers(r, "mean"), (0.0, None),
               tables=("transfers",)),
        Metric("completion_p95_s", "s", "95th percentile of the finished transfers' "
               "completion times", lambda r: _transfers(r, lambda s: float(np.quantile(s, 0.95))),
               (0.0, None), tables=("transfers",)),
    ]
    return {m.name: m for m in b}


def _engine_metrics() -> dict[str, Metric]:
    from diffsweep.analysis.columns import describe  # noqa: PLC0415

    out = {}
    for c in REPLICA_COLUMNS:
        unit, what = describe("replicas", c) or ("", c)
        out[c] = Metric(c, unit, what, lambda r, c=c: r.replicas.set_index(KEYS)[c],
                        (0.0, None), source="engine", tables=("replicas",))
    return out


#: name -> Metric: the engine's replica columns, the built-ins, then ``@metric`` / ``register``
METRICS: dict[str, Metric] = {**_engine_metrics(), **_builtins()}


def register(m: Metric, replace: bool = False) -> Metric:
    """Add ``m`` under ``m.name``; a name taken by another metric is refused unless
    ``replace`` (the same function registered again, a module reloaded, is allowed)."""
    if not isinstance(m.name, str) or not m.name.isidentifier():
        raise ConfigError(f"metric: name {m.name!r} is not allowed (expected a Python "
                          "identifier such as red_share)")
    old = METRICS.get(m.name)
    if old is not None and not replace and old.compute is not m.compute and (
            old.source != "user" or getattr(old.compute, "__qualname__", None)
            != getattr(m.compute, "__qualname__", None)):
        raise ConfigError(f"metric: {m.name!r} is already a metric ({old.source}: {old.what}); "
                          "choose another name")
    METRICS[m.name] = m
    return m


def metric(fn: Callable | None = None, *, name: str | None = None, unit: str = "",
           bounds: tuple | None = None, what: str | None = None):
    """Make ``fn(res) -> per-replica Series`` a named metric (``diffsweep.metric``)::

        @diffsweep.metric(unit="fraction", bounds=(0, 1))
        def red_share(res):
            \"\"\"Share of the packets marked red.\"\"\"
            f = res.flows.groupby(["point", "seed"])
            return f["pkts_red"].sum() / f["pkts_sent"].sum()

    ``name`` defaults to the function's name, ``what`` to its docstring's first line. The
    metric is registered (usable by name in this process) and the function is marked, so that
    a command line may name it as ``"package.module:function"``. Returns ``fn`` itself."""
    def mark(f: Callable) -> Callable:
        if not callable(f):
            raise TypeError(f"diffsweep.metric: {f!r} is not callable")
        _check_bounds(bounds, getattr(f, "__name__", "metric"))
        doc = inspect.getdoc(f) or ""
        m = Metric(name or f.__name__, unit, what or (doc.splitlines()[0] if doc else
                                                      f"{f.__module__}:{f.__qualname__}"),
                   f, tuple(bounds) if bounds is not None else None, source="user")
        register(m)
        try:
            f.diffsweep_metric = m
        except (AttributeError, TypeError):
            raise TypeError(f"diffsweep.metric: cannot mark {f!r}; wrap it in a Python "
                            "function") from None
        return f
    return mark(fn) if fn is not None else mark


def _check_bounds(bounds, name: str) -> None:
    if bounds is None:
        return
    ok = (isinstance(bounds, (tuple, list)) and len(bounds) == 2
          and all(b is None or (isinstance(b, (int, float)) and math.isfinite(b))
                  for b in bounds)
          and not (bounds[0] is not None and bounds[1] is not None and bounds[0] >= bounds[1]))
    if not ok:
        raise ConfigError(f"metric {name}: bounds {bounds!r} is not allowed (expected (lo, hi) "
                          "with lo < hi, either side None for no bound)")


def _import(ref: str) -> Metric:
    from diffsweep.scenario.registry import import_builder  # noqa: PLC0415

    obj = import_builder(ref, path="metric", shown=repr(ref), require_mark=False)
    m = getattr(obj, "diffsweep_metric", None)
    if not isinstance(m, Metric):
        raise ConfigError(f"metric: {ref!r} is not marked as a diffsweep metric (decorate it "
                          "with @diffsweep.metric; a command line may call only functions made "
                          "to be metrics)")
    return m


def resolve(name: str) -> Metric:
    """The Metric ``name`` stands for (module docstring, "What a name may be"); ConfigError
    with a did-you-mean otherwise."""
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"metric: {name!r} is not allowed (expected a metric name; "
                          "`diffsweep metrics` lists them)")
    name = name.strip()
    if name in METRICS:
        return METRICS[name]
    if _REF.match(name) and not _is_colon_form(name):
        return _import(name)
    if ex.looks_like(name):
        e = ex.parse(name, known_names=METRICS)
        return Metric(name, "", "the expression " + " ".join(name.split()),
                      lambda r, e=e: ex.evaluate(e, r, lambda n: METRICS[n].values(r)),
                      e.bounds, source="expression",
                      tables=tuple(dict.fromkeys(t.table for t in e.terms)))
    raise ConfigError(f"metric: unknown metric {name!r} ({_suggest(name, list(METRICS))}; "
                      "or an expression such as sum(flows.drops) / sum(flows.pkts_sent); "
                      "`diffsweep metrics` lists them)")


#: a metric in the user's code: "package.module:function"
_REF = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")


def _is_colon_form(name: str) -> bool:
    """``flows.goodput_bps:jain``: a table's column and an aggregate, not a module reference."""
    left, _, right = name.partition(":")
    table = left.split(".", 1)[0]
    from diffsweep.core.results import TABLES  # noqa: PLC0415
    return table in TABLES and right.isidentifier()


def values(res: Results, name: str) -> pd.DataFrame:
    """The metric ``name`` per replica: the replicas table's point, seed and grid columns and a
    column ``name`` (as given: ``"mymod:share"`` stays that)."""
    v = resolve(name).values(res)
    out = res.replicas.copy()
    out[name] = v.to_numpy()  # under the name asked (a reference's text, not its function's)
    return out


def with_metrics(res: Results, names) -> Results:
    """``res`` with each metric of ``names`` as a column of its replicas table (a metric
    already a replicas column is left as it is), so that the summaries, plots and exports of
    ``diffsweep.sweep.folder`` take it as any replicas column."""
    import dataclasses  # noqa: PLC0415

    rep = res.replicas.copy()
    for n in names:
        if n in rep.columns:
            continue
        rep[n] = resolve(n).values(res).to_numpy()
    return dataclasses.replace(res, replicas=rep)


def bounds_of(name: str) -> tuple | None:
    """The range of a registered metric ``name`` (None when it has none or is not one)."""
    m = METRICS.get(name)
    if m is None and isinstance(name, str) and ex.looks_like(name):
        try:  # an expression's own range (a lone jain or minmax aggregate)
            m = resolve(name)
        except ConfigError:
            return None
    return m.bounds if m is not None else None


def listing() -> list[Metric]:
    """Every registered metric, engine columns first, then built-ins, then the user's."""
    order = {"engine": 0, "built-in": 1, "user": 2}
    return sorted(METRICS.values(), key=lambda m: order.get(m.source, 3))


def _range(b) -> str:
    if b is None:
        return "-"
    lo, hi = b
    return f"[{'-inf' if lo is None else f'{lo:g}'}, {'inf' if hi is None else f'{hi:g}'}]"


PAGE_INTRO = """\
# Metric names

Generated from `diffsweep.analysis.registry` by `python -m diffsweep.report.docs_pages`; do
not edit by hand (`tests/test_docs_pages.py` fails while this page differs). `diffsweep metrics`
prints the same list, with your own `@diffsweep.metric`s when their module is named.

Every name here is one number per replica, usable in `diffsweep show DIR --metric NAME`,
`plot --y NAME`, `export --metric NAME`, `sensitivity --metric NAME`, `run --target-metric NAME`,
a claim of one's own and Python (`diffsweep.analysis.registry.values(res, NAME)`). A metric
with a range gets intervals that stay inside it (on the logit scale for a two-sided range,
`confidence.bounded_ci`; cut at the bound for one side). Besides these names:

- `package.module:function`: your own `@diffsweep.metric` (docs/metrics.md, "A metric of your
  own");
- an expression: `AGG(TABLE.COLUMN)` or `TABLE.COLUMN:AGG` with AGG one of
  {aggs}, rows chosen with `[COLUMN == VALUE]`, combined with numbers, these names and
  `+ - * /`, e.g. `sum(flows.drops) / sum(flows.pkts_sent)`,
  `p95(transfers.completion_s)`, `flows.goodput_bps[variant == "sack"]:sum`.

The bottleneck is, per replica, the link that carried the most of its capacity.

| name | unit | range | what | reads |
|---|---|---|---|---|
"""


def metrics_markdown() -> str:
    """docs/metric-names.md."""
    rows = [f"| `{m.name}` | {m.unit or '-'} | {_range(m.bounds)} | "
            f"{m.what.replace('|', chr(92) + '|')} | {', '.join(m.tables) or '-'} |\n"
            for m in listing() if m.source != "user"]
    return PAGE_INTRO.replace("{aggs}", ", ".join(f"`{a}`" for a in ex.AGGREGATES)) \
        + "".join(rows)


def import_module(module: str) -> None:
    """Import the user's ``module`` (``diffsweep metrics --module``): its ``@metric``s
    register themselves. ConfigError naming it when it cannot be imported."""
    try:
        importlib.import_module(module)
    except Exception as e:
        raise ConfigError(f"--module: {module!r} cannot be imported ({type(e).__name__}: "
                          f"{e}; the module must be importable: install it, or add its folder "
                          "to PYTHONPATH)") from None
