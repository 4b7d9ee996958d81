"""sensitivity: which parameters move a metric, and by how much, alone and together.

    diffsweep sensitivity BASE --factors NAME=SPEC [NAME=SPEC ...] --metric METRIC
                          [--method sobol|morris|factorial] [--n N] [--fraction P]
                          [--seeds N] [--target-ci X] [--max-seeds N] [--max-replicas N]
                          [--set NAME=VALUE ...] [--quick] [--out DIR] [--dry-run]

``BASE`` is a registered builder (``kaur_vin``) or a sweep file (``sweeps/kaur_vin/k2.toml``):
the scenario every design point starts from. Each factor is a builder parameter, given as a
range ``LO:HI`` (``LO:HI:log``: log-uniform; integers when LO and HI are written as integers)
or as levels ``A,B,C`` (or a JSON list, ``[[1,2],[1,90]]``, for levels that are lists). A
sweep file's axes that are not factors stay as *inner axes*: every design point runs them
all, and the metric reduces them (Kaur & Vin's loss U_CBR - U_EF pairs the ``ef = [cbr,
onoff]`` points of one design point).

**Metric.** ``TABLE.COLUMN[:AGG]`` (``flows.goodput_bps:mean``, ``replicas.tcp_goodput_bps``;
AGG one of ``AGGREGATES``, default mean) aggregates a column of a results table over the rows
of one design point and seed; or a paper metric ``PAPER:NAME`` (``paper_metrics()``, e.g.
``kaur-vin:min_max_ratio``: the per-seed numbers of the paper's own tables, each paper
declaring its own in ``papers/<paper>/sensitivity.py``). One value per
(design point, seed).

**Methods.** The sampling and the estimators are SALib's (Herman & Usher, JOSS 2017):

* ``sobol``: Saltelli's scheme on a scrambled Sobol' sequence, ``n`` base samples (a power of
  2), ``n (k + 2)`` design points; first-order ``S1`` and total ``ST`` indices (Saltelli 2010 /
  Jansen estimators) with bootstrap intervals;
* ``morris``: ``n`` trajectories on a 4-level grid, ``n (k + 1)`` design points; ``mu_star``
  (mean |elementary effect|, in the metric's unit over a factor's whole range) with its
  bootstrap interval, ``mu`` and ``sigma`` (non-linearity or interactions);
* ``factorial``: the 2^k r design of R. Jain, "The Art of Computer Systems Performance
  Analysis" (1991), ch. 17-18 (``fraction`` p > 0: the 2^(k-p) design of ch. 19, generators
  from ``GENERATORS``): each factor at its two ends (a range's LO and HI, or two levels), r
  replications = the seeds; effects q_j of every factor and interaction (for a fraction: of
  every column, named by its alias chain), the sums of squares SS_j = 2^(k-p) r q_j^2 and the
  allocation of variation SS_j / SST beside the error's SSE / SST, with Student-t intervals
  of the effects, s_q = s_e / sqrt(2^(k-p) r), s_e^2 = SSE / (2^(k-p) (r - 1)).

For sobol and morris a design point's value is the mean over its seeds; the seeds are the same
at every design point (common random numbers: the same draws, so differences between points
are the factors', not the draws'). ``target_ci``: seeds are added in rounds, at every design
point alike, until the widest interval is narrow enough (``sobol``: every S1/ST half-width at
most ``target_ci``, in index units; ``morris``/``factorial``: every mu_star / effect
half-width at most ``target_ci`` x the largest |mu_star| / |effect|), or ``max_seeds``. More
seeds shrink the part of an interval that comes from the simulation's noise; a Sobol'
interval also reflects ``n`` (more base samples), which seeds do not change.

**Store.** ``DIR`` (default ``results/sensitivity-<base>-<method>``): ``sensitivity.json``
(what the study is: a rerun with the same arguments resumes, another study is refused),
``runs/`` (the resumable results folder of ``diffsweep run`` holding every replica: a rerun
or a run after Ctrl-C computes only what is missing), ``design.csv`` (the design points and
their mean metric), ``sensitivity.csv`` (the table), ``sensitivity.png``/``.pdf`` (the
figure) and ``sensitivity.md``/``.html`` (the page: ``diffsweep.report.sensitivity_page``).

**A pure function.** ``sensitivity(None, factors, function=f, ...)`` runs the same design,
estimators, rounds and page on ``f(**factor_values, seed=seed) -> float`` instead of the
engine (the correctness tests: Ishigami, Sobol' G, Jain's 2^2 3 example).
"""
from __future__ import annotations

import dataclasses
import inspect
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.core.errors import did_you_mean as _suggest
from diffsweep.studies.designs import (GENERATORS, MAX_FACTORS, METHODS, Factor,  # noqa: F401
                                       _check_names, _Design, _analyse, _check_n, _check_values,
                                       _design, factorial_design, factorial_effects, parse_factors,
                                       widest)

__all__ = ["Factor", "Metric", "SensitivityResult", "sensitivity", "parse_factors",
           "parse_metric", "factorial_design", "factorial_effects", "METHODS", "AGGREGATES",
           "PaperMetric", "paper_metrics", "GENERATORS", "MAX_FACTORS", "DEFAULT_MAX_REPLICAS"]

AGGREGATES = ("mean", "median", "sum", "min", "max", "std", "count")
#: replicas (design points x inner points x seeds, with target_ci up to max_seeds) of one study
#: unless told (--max-replicas)
DEFAULT_MAX_REPLICAS = 200_000
#: the study's description of itself in its folder
SPEC_FILE = "sensitivity.json"
#: default seeds of the first round (factorial: the replications r)
DEFAULT_SEEDS = {"sobol": 2, "morris": 2, "factorial": 3}
#: max_seeds default: the first round's seeds times this
SEED_GROWTH = 4


# --------------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------
# The study
# --------------------------------------------------------------------------------------------

@dataclass
class SensitivityResult:
    """``table``: one row per factor (sobol, morris, sorted by ST / mu_star) or per effect
    (factorial, then the error); ``design``: the design points and their mean metric;
    ``values``: (design, seed, value); ``out``: the folder (None for an in-memory study of a
    function); ``paths``: the files written; ``meta``: method, metric, seeds, rounds, times."""

    table: pd.DataFrame
    design: pd.DataFrame
    values: pd.DataFrame
    out: Path | None
    paths: dict
    meta: dict

    def __repr__(self) -> str:
        return (f"SensitivityResult({self.meta.get('method')} of {self.meta.get('metric')} over "
                f"{', '.join(self.meta.get('factors', []))}: {self.meta.get('design_points')} "
                f"design points x {self.meta.get('seeds')} seeds, out={str(self.out)!r})")


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
    from diffsweep.sweep import config  # noqa: PLC0415
    from diffsweep.core.identity import digest  # noqa: PLC0415
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
        raise ConfigError(f"metric: {m.name} is a number of {m.paper.paper}'s scenarios "
                          f"(builders {', '.join(m.paper.builders)}); the base's builder is "
                          f"{name}")
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
        outputs = {"figures": [], "tables": list(config._tables())}
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


def _check_folder(out: Path, identity: dict) -> None:
    from diffsweep.studies.atlas import check_study_folder  # noqa: PLC0415
    check_study_folder(out, identity, SPEC_FILE, "sensitivity study", "a sensitivity study",
                       lambda held: f"{held.get('method')} design of "
                                    f"{held.get('builder') or held.get('sweep') or held.get('function')} "
                                    f"over {', '.join(held.get('factors', {}))}",
                       "other factors")


def _evaluate_function(plan: _Plan, seeds: list[int], fixed: dict) -> pd.DataFrame:
    names = [f.name for f in plan.factors]
    takes_seed = "seed" in inspect.signature(plan.function).parameters
    rows = []
    for d, vals in enumerate(plan.design.unique):
        kw = dict(fixed, **dict(zip(names, vals)))
        for s in seeds:
            y = plan.function(**kw, seed=s) if takes_seed else plan.function(**kw)
            rows.append({"design": d, "seed": int(s), "value": float(y)})
    return pd.DataFrame(rows, columns=["design", "seed", "value"])


def _probe(plan: _Plan, backend: str, threads) -> None:
    """The metric's column checked on one replica (in memory, nothing written): an unknown
    column is named before the study runs."""
    from diffsweep.sweep import runner  # noqa: PLC0415

    if plan.metric.paper is not None:
        return
    one = dataclasses.replace(plan.cfg, zips=plan.cfg.zips[:-1] + [
        dataclasses.replace(plan.cfg.zips[-1], values=plan.cfg.zips[-1].values[:1])],
        axes={k: v[:1] for k, v in plan.cfg.axes.items()}, seeds=[0])
    one._builder = plan.cfg._builder
    grid = one.make_grid(max_points=None, max_replicas=None)
    res = runner.run_chunk(grid, grid.replicas.iloc[:1], backend, threads)
    _check_column(plan.metric, getattr(res, plan.metric.table))


def _evaluate_engine(plan: _Plan, seeds: list[int], out: Path, backend, threads, progress,
                     resume, manifest, chunk_size) -> tuple[pd.DataFrame, dict]:
    from diffsweep.sweep import runner  # noqa: PLC0415

    cfg = dataclasses.replace(plan.cfg, seeds=list(seeds))
    cfg._builder = plan.cfg._builder
    res = runner.run(cfg, backend=backend, threads=threads, store=out / "runs",
                     progress=progress, quiet=False, resume_hint=resume, force=True,
                     manifest=manifest, chunk_size=chunk_size)
    n = len(plan.design.unique)
    if plan.metric.paper is not None:
        vals = _paper_values(plan.metric, res, n)
    else:
        vals = _column_values(plan.metric, res, n)
    return vals, res.meta


def _stored_seeds(store: Path) -> set:
    from diffsweep.sweep.store import recorded_pairs  # noqa: PLC0415
    return {s for _, s in recorded_pairs(store)}


def sensitivity(base, factors, metric: str | None = None, method: str = "sobol", *,
                n: int | None = None, fraction: int = 0, seeds: int | None = None,
                target_ci: float | None = None, max_seeds: int | None = None,
                max_replicas: int | None = DEFAULT_MAX_REPLICAS, level: float = 0.95,
                fixed: dict | None = None, quick: bool = False, out=None,
                backend: str = "auto", threads: int | None = None,
                progress: bool | None = None, log=print, function: Callable | None = None,
                sample_seed: int = 0, dry_run: bool = False, resume: str | None = None,
                manifest: dict | None = None, chunk_size: int | None = None):
    """Which of ``factors`` move ``metric`` over ``base`` (module docstring).

    base: a registered builder name or a sweep file (or None with ``function``); factors:
    ``{name: (lo, hi) | (lo, hi, "log") | [levels]}`` or ``["NAME=LO:HI[:log]", "NAME=A,B"]``;
    metric: ``TABLE.COLUMN[:AGG]`` or a ``paper_metrics()`` name; method: sobol, morris or
    factorial; n: base samples (sobol, a power of 2; default 64) or trajectories (morris,
    default 10); fraction: p of a 2^(k-p) design; seeds: seeds of the first round (default 2,
    factorial 3: the replications r); target_ci, max_seeds: adaptive seeds (default max 4 x
    seeds); max_replicas: the most replicas the study may need (design points x inner points x
    seeds, with target_ci max_seeds); level: the intervals' confidence; fixed: builder
    parameters set for every design point; log: where the progress lines go (None: nowhere);
    out: the folder (default
    ``results/sensitivity-<base>-<method>``; for a function, None: nothing written).
    ``dry_run``: return the size (a dict: design points, replicas, the rough time) and run
    nothing. ``chunk_size``: most replicas per stored chunk (``diffsweep.run``'s). Everything is
    checked before anything is written; a rerun resumes."""
    from diffsweep.studies import reproduce
    from diffsweep.engine import sizing  # noqa: PLC0415
    from diffsweep.sweep.store import atomic_write_json  # noqa: PLC0415

    t_all = time.perf_counter()
    if log is None:
        log = lambda *a, **k: None  # noqa: E731
    reproduce.check_options(threads, seeds, backend)
    if not (isinstance(level, float) and 0 < level < 1):
        raise ConfigError(f"level: {level!r} is not allowed (expected a number in (0, 1))")
    plan = _plan(base, factors, metric, method, n, fraction, quick, fixed, function,
                 sample_seed)
    if seeds is None:
        seeds = DEFAULT_SEEDS[method]
    if method == "factorial" and seeds < 2 and target_ci is not None:
        raise ConfigError(f"seeds: {seeds} is not allowed with target_ci for factorial "
                          "(expected >= 2: the effects' intervals come from the replications)")
    if target_ci is not None:
        if isinstance(target_ci, bool) or not (isinstance(target_ci, (int, float))
                                               and 0 < target_ci < math.inf):
            raise ConfigError(f"target_ci: {target_ci!r} is not allowed (expected a finite "
                              "number > 0)")
    if max_seeds is None:
        max_seeds = SEED_GROWTH * seeds if target_ci is not None else seeds
    if isinstance(max_seeds, bool) or not isinstance(max_seeds, int) or max_seeds < seeds:
        raise ConfigError(f"max_seeds: {max_seeds!r} is not allowed (expected an integer >= "
                          f"the first round's {seeds} seeds)")
    n_design = len(plan.design.unique)
    most = n_design * plan.inner_points * (max_seeds if target_ci is not None else seeds)
    if max_replicas is not None and most > max_replicas:
        raise ConfigError(
            f"design: {n_design:,} design points x {plan.inner_points} inner point(s) x "
            f"{max_seeds if target_ci is not None else seeds} seeds = {most:,} replicas is "
            f"above --max-replicas {max_replicas:,}; use a smaller --n, fewer factors, a "
            "fraction (--fraction), fewer seeds (--seeds, --max-seeds), or raise "
            "--max-replicas")
    first = list(range(seeds))
    if dry_run:
        info = {"method": method, "design_points": n_design, "samples": len(plan.design.values),
                "inner_points": plan.inner_points, "seeds": seeds, "max_seeds": max_seeds,
                "replicas": n_design * plan.inner_points * seeds, "most_replicas": most,
                "estimate": None}
        if plan.cfg is not None:
            cfg = dataclasses.replace(plan.cfg, seeds=first)
            cfg._builder = plan.cfg._builder
            info["estimate"] = sizing.estimate(cfg.make_grid(max_points=None, max_replicas=None),
                                               threads)
        return info
    # every design point's scenario built once before anything is written: a value the
    # builder refuses is named with its design point
    if plan.cfg is not None:
        try:
            cfg = dataclasses.replace(plan.cfg, seeds=[0])
            cfg._builder = plan.cfg._builder
            cfg.make_grid(max_points=None, max_replicas=None)
        except ConfigError as e:
            raise ConfigError(f"{e} (a design point of the factors "
                              + ", ".join(f"{f.name}={f.spec()}" for f in plan.factors)
                              + ")") from None
        _probe(plan, backend, threads)
    fixed = dict(fixed or {})
    if plan.cfg is not None:
        out = Path(out) if out is not None else Path("results") / (
            f"sensitivity-{plan.base_name}-{method}")
    elif out is not None:
        out = Path(out)
    if out is not None:
        _check_folder(out, plan.identity)
    resume = resume or "the same diffsweep sensitivity call (same arguments)"
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        atomic_write_json(out / SPEC_FILE, {"identity": plan.identity})
    log(f"[sensitivity] {method} of {plan.metric.name if plan.metric else plan.base_name} over "
        + ", ".join(f"{f.name}={f.spec()}" for f in plan.factors)
        + f": {n_design} design points x {plan.inner_points} inner x {seeds} seeds"
        + (f" (up to {max_seeds} for --target-ci {target_ci:g})" if target_ci else "")
        + (f" -> {out}" if out is not None else ""))
    cur = list(first)
    if plan.cfg is not None and out is not None and target_ci is not None:
        # a resumed study: the seeds added before are kept
        stored = _stored_seeds(out / "runs")
        if len(stored) > len(cur) and set(cur) <= stored:
            cur = sorted(s for s in stored if s < max_seeds)
    rounds, t_engine, used, ran = 0, 0.0, set(), 0
    while True:
        t0 = time.perf_counter()
        if plan.function is not None:
            values = _evaluate_function(plan, cur, fixed)
            used.add("function")
        else:
            values, m = _evaluate_engine(plan, cur, out, backend, threads, progress, resume,
                                         manifest, chunk_size)
            used.add(m.get("backend", "?"))
            ran += int(m.get("replicas_run", 0))
        t_engine += time.perf_counter() - t0
        rounds += 1
        _check_values(plan.metric.name if plan.metric else plan.base_name, values,
                      plan.design, plan.factors,
                      f"; the runs are kept in {out / 'runs'}: another --metric with the same "
                      "--out reuses them" if plan.cfg is not None else "")
        table = _analyse(method, plan.factors, plan.design, values, level, sample_seed)
        half, scale = widest(method, table)
        if target_ci is None or len(cur) >= max_seeds or not (half > target_ci * scale):
            break
        add = min(len(cur), max_seeds - len(cur))
        log(f"[sensitivity] round {rounds}: widest half-width {half:.3g} > {target_ci:g}"
            + (f" x {scale:.3g}" if method != "sobol" else "")
            + f"; {len(cur)} -> {len(cur) + add} seeds")
        cur = cur + list(range(max(cur) + 1, max(cur) + 1 + add))
    met = target_ci is None or not (half > target_ci * scale)
    design_df = pd.DataFrame(plan.design.unique, columns=[f.name for f in plan.factors])
    design_df.insert(0, "design", range(n_design))
    agg = values.groupby("design")["value"].agg(["mean", "std", "count"]).reindex(range(n_design))
    design_df["metric_mean"] = agg["mean"].to_numpy()
    design_df["metric_std"] = agg["std"].to_numpy()
    design_df["seeds"] = agg["count"].to_numpy()
    meta = {"method": method, "metric": plan.metric.name if plan.metric else plan.base_name,
            "metric_what": plan.metric.what if plan.metric else "the function's value",
            "base": (f"{plan.identity['sweep']} (builder {plan.base_name})"
                     if plan.identity.get("sweep") else plan.base_name), "factors": [f.name for f in plan.factors],
            "factor_specs": {f.name: f.spec() for f in plan.factors}, "n": plan.identity["n"],
            "fraction": fraction, "design_points": n_design,
            "samples": len(plan.design.values), "inner_points": plan.inner_points,
            "seeds": len(cur), "first_seeds": seeds, "max_seeds": max_seeds,
            "target_ci": target_ci, "target_met": met, "widest_half_width": half,
            "scale": scale, "rounds": rounds, "level": level,
            "replicas": n_design * plan.inner_points * len(cur), "replicas_run": ran,
            "compute_s": t_engine,
            "backend": "+".join(sorted(used)), "quick": bool(quick),
            "identity": plan.identity}
    if plan.cfg is not None:
        meta["fixed"] = {**plan.cfg.fixed, **fixed}
        meta["inner_axes"] = {k: list(v) for k, v in plan.cfg.axes.items() if k not in fixed}
    paths = {}
    if out is not None:
        from diffsweep.report.sensitivity_page import write_sensitivity  # noqa: PLC0415
        meta["wall_s"] = time.perf_counter() - t_all
        paths = write_sensitivity(table, design_df, out, meta)
        meta["wall_s"] = time.perf_counter() - t_all
        from diffsweep.sweep.store import jsonable  # noqa: PLC0415
        atomic_write_json(out / SPEC_FILE, {"identity": plan.identity,
                                            "meta": jsonable({k: v for k, v in meta.items()
                                                              if k != "identity"})})
    else:
        meta["wall_s"] = time.perf_counter() - t_all
    if target_ci is not None and not met:
        log(f"[sensitivity] warning: the widest half-width {half:.3g} is still above "
            f"target_ci {target_ci:g}" + (f" x {scale:.3g}" if method != "sobol" else "")
            + f" at max_seeds={max_seeds}")
    log(f"[sensitivity] {rounds} round(s), {len(cur)} seeds, {meta['wall_s']:.1f} s"
        + (f"; {paths['md']}" if paths else ""))
    return SensitivityResult(table, design_df, values, out, paths, meta)
