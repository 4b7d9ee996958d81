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

This module runs a study: its checks, rounds and files. What it measures is in
``diffsweep.studies.sensitivity_metric``, its plan (base, factors, design, the sweep) in
``diffsweep.studies.sensitivity_plan``, its designs and estimators in
``diffsweep.studies.designs``.
"""
from __future__ import annotations

import dataclasses
import inspect
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.studies.designs import (GENERATORS, MAX_FACTORS, METHODS,  # noqa: F401
                                       Factor, _analyse, _check_values, factorial_design,
                                       factorial_effects, parse_factors, reliability, widest)
from diffsweep.studies.sensitivity_metric import (AGGREGATES, Metric,  # noqa: F401
                                                  PaperMetric, _check_column, _column_values,
                                                  _named_values, _paper_values, paper_metrics,
                                                  parse_metric)
from diffsweep.studies.sensitivity_plan import _Plan, _plan

__all__ = ["Factor", "Metric", "SensitivityResult", "sensitivity", "parse_factors",
           "parse_metric", "factorial_design", "factorial_effects", "METHODS", "AGGREGATES",
           "PaperMetric", "paper_metrics", "GENERATORS", "MAX_FACTORS", "DEFAULT_MAX_REPLICAS"]

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


def _check_folder(out: Path, identity: dict) -> None:
    from diffsweep.studies.atlas import check_study_folder  # noqa: PLC0415

    def describe(held: dict) -> str:
        base = held.get("builder") or held.get("sweep") or held.get("function")
        return f"{held.get('method')} design of {base} over {', '.join(held.get('factors', {}))}"
    check_study_folder(out, identity, SPEC_FILE, "sensitivity study", "a sensitivity study",
                       describe, "other factors")


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
    if plan.metric.named is not None:
        _named_values(plan.metric, res, 1)  # an expression's column the scenario lacks
        return
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
    elif plan.metric.named is not None:
        vals = _named_values(plan.metric, res, n)
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
                     if plan.identity.get("sweep") else plan.base_name),
            "factors": [f.name for f in plan.factors],
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
    meta["reliability"] = reliability(method, table, plan.identity["n"], len(plan.factors))
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
    for note in meta["reliability"]["notes"]:
        log(f"[sensitivity] warning: {note}")
    log(f"[sensitivity] {rounds} round(s), {len(cur)} seeds, {meta['wall_s']:.1f} s"
        + (f"; {paths['md']}" if paths else ""))
    return SensitivityResult(table, design_df, values, out, paths, meta)
