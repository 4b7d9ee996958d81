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
of one design point and seed; or a paper metric ``PAPER:NAME`` (``PAPER_METRICS``, e.g.
``kaur-vin:min_max_ratio``, the per-seed numbers of the paper's own tables). One value per
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
figure) and ``sensitivity.md``/``.html`` (the page: ``diffsweep.sensitivity_page``).

**A pure function.** ``sensitivity(None, factors, function=f, ...)`` runs the same design,
estimators, rounds and page on ``f(**factor_values, seed=seed) -> float`` instead of the
engine (the correctness tests: Ishigami, Sobol' G, Jain's 2^2 3 example).
"""
from __future__ import annotations

import dataclasses
import inspect
import itertools
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from .errors import ConfigError

__all__ = ["Factor", "Metric", "SensitivityResult", "sensitivity", "parse_factors",
           "parse_metric", "factorial_design", "factorial_effects", "METHODS", "AGGREGATES",
           "PAPER_METRICS", "GENERATORS", "MAX_FACTORS", "DEFAULT_MAX_REPLICAS"]

METHODS = ("sobol", "morris", "factorial")
AGGREGATES = ("mean", "median", "sum", "min", "max", "std", "count")
#: factors of one study (a 2^k design doubles with each; Sobol' runs n (k + 2) points)
MAX_FACTORS = 12
#: replicas (design points x inner points x seeds, with target_ci up to max_seeds) of one study
#: unless told (--max-replicas)
DEFAULT_MAX_REPLICAS = 200_000
#: the study's description of itself in its folder
SPEC_FILE = "sensitivity.json"
#: default base samples (sobol) / trajectories (morris)
DEFAULT_N = {"sobol": 64, "morris": 10}
#: default seeds of the first round (factorial: the replications r)
DEFAULT_SEEDS = {"sobol": 2, "morris": 2, "factorial": 3}
#: levels of the Morris grid
MORRIS_LEVELS = 4
#: bootstrap resamples of SALib's intervals
RESAMPLES = 1000
#: max_seeds default: the first round's seeds times this
SEED_GROWTH = 4

#: 2^(k-p) fractional designs: (k, p) -> the generators of the added factors, each the product
#: of base factors (letters A, B, ... in factor order), of the highest resolution (Jain
#: ch. 19; Montgomery, "Design and Analysis of Experiments", table of 2^(k-p) designs)
GENERATORS = {
    (3, 1): ("AB",), (4, 1): ("ABC",), (5, 1): ("ABCD",), (5, 2): ("AB", "AC"),
    (6, 1): ("ABCDE",), (6, 2): ("ABC", "BCD"), (6, 3): ("AB", "AC", "BC"),
    (7, 1): ("ABCDEF",), (7, 2): ("ABCD", "ABDE"), (7, 3): ("ABC", "BCD", "ACD"),
    (7, 4): ("AB", "AC", "BC", "ABC"),
}


# --------------------------------------------------------------------------------------------
# Factors
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Factor:
    """A factor: a builder parameter varied over a range (``lo``..``hi``, ``log``: uniform in
    log; ``integer``: values rounded to integers) or over ``levels``."""

    name: str
    lo: float | None = None
    hi: float | None = None
    log: bool = False
    integer: bool = False
    levels: tuple = ()

    @property
    def is_range(self) -> bool:
        return not self.levels

    def spec(self) -> str:
        if self.is_range:
            return f"{_num(self.lo)}:{_num(self.hi)}" + (":log" if self.log else "")
        return ",".join(_level_text(v) for v in self.levels)

    def at(self, u: float):
        """The value at ``u`` in [0, 1] (0: lo, 1: hi; levels: the u-th of equal shares)."""
        if not self.is_range:
            return self.levels[min(int(u * len(self.levels)), len(self.levels) - 1)]
        if self.log:
            x = math.exp(math.log(self.lo) + u * (math.log(self.hi) - math.log(self.lo)))
        else:
            x = self.lo + u * (self.hi - self.lo)
        x = min(max(x, self.lo), self.hi)
        return int(round(x)) if self.integer else float(f"{x:.6g}")

    def ends(self, path: str) -> tuple:
        """The factor's two values in a 2^k design: a range's ends, or its two levels."""
        if self.is_range:
            return self.at(0.0), self.at(1.0)
        if len(self.levels) != 2:
            raise ConfigError(f"{path}: {self.spec()!r} is not allowed with --method factorial "
                              f"(expected a range LO:HI or exactly two levels: a 2^k design "
                              f"puts each factor at two values)")
        return self.levels


def _num(x) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


def _level_text(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, tuple):
        return json.dumps(list(v))
    return str(v)


def _scalar(text: str):
    """A level or a --set value from the command line: int, float, true/false, JSON list, or
    the string itself."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if t.startswith("["):
        try:
            return _tuples(json.loads(t))
        except ValueError:
            return t
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return t


def _tuples(v):
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def _is_intlike(text: str) -> bool:
    t = text.strip().lstrip("+-")
    return t.isdigit()


def parse_factors(factors) -> list[Factor]:
    """``["NAME=LO:HI[:log]", "NAME=A,B,C", ...]`` (the command line) or ``{name: (lo, hi) |
    (lo, hi, "log") | [levels]}`` (Python) as Factors, in order; ConfigError naming the factor
    otherwise."""
    out: dict[str, Factor] = {}
    if isinstance(factors, str):
        factors = [factors]
    if isinstance(factors, dict):
        for name, v in factors.items():
            name = str(name)
            path = f"factors.{name}"
            if isinstance(v, tuple) and len(v) in (2, 3) and all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) for x in v[:2]):
                if len(v) == 3 and v[2] != "log":
                    raise ConfigError(f"{path}: {v!r} is not allowed (expected (lo, hi) or "
                                      "(lo, hi, 'log'))")
                out[name] = _range(name, float(v[0]), float(v[1]), len(v) == 3,
                                   all(isinstance(x, int) for x in v[:2]), repr(v))
            elif isinstance(v, (list, tuple)):
                out[name] = _levels(name, [_tuples(x) if isinstance(x, list) else x for x in v],
                                    repr(v))
            else:
                raise ConfigError(f"{path}: {v!r} is not allowed (expected a range (lo, hi) or "
                                  "(lo, hi, 'log'), or a list of at least two levels)")
    else:
        for a in factors or []:
            name, eq, spec = str(a).partition("=")
            name, spec = name.strip(), spec.strip()
            if not eq or not name or not spec:
                raise ConfigError(f"--factors: {a!r} is not allowed (expected NAME=LO:HI, "
                                  "NAME=LO:HI:log or NAME=A,B,C)")
            if name in out:
                raise ConfigError(f"--factors: {name!r} is given twice (one NAME=SPEC each)")
            path = f"factors.{name}"
            if spec.startswith("["):
                try:
                    levels = json.loads(spec)
                except ValueError:
                    levels = None
                if not isinstance(levels, list):
                    raise ConfigError(f"{path}: {spec!r} is not allowed (expected a JSON list of "
                                      "levels, e.g. [[1,2,3],[1,90]])")
                out[name] = _levels(name, [_tuples(x) for x in levels], spec)
            elif ":" in spec:
                parts = spec.split(":")
                log = len(parts) == 3 and parts[2].strip() == "log"
                try:
                    if len(parts) not in (2, 3) or (len(parts) == 3 and not log):
                        raise ValueError
                    lo, hi = float(parts[0]), float(parts[1])
                except ValueError:
                    raise ConfigError(f"{path}: {spec!r} is not allowed (expected LO:HI or "
                                      "LO:HI:log with numbers LO < HI)") from None
                out[name] = _range(name, lo, hi, log,
                                   _is_intlike(parts[0]) and _is_intlike(parts[1]), spec)
            else:
                out[name] = _levels(name, [_scalar(x) for x in spec.split(",")], spec)
    if not out:
        raise ConfigError("factors: none given (expected at least one NAME=LO:HI or "
                          "NAME=A,B,C)")
    if len(out) > MAX_FACTORS:
        raise ConfigError(f"factors: {len(out)} given; a study has at most {MAX_FACTORS}")
    if "seed" in out:
        raise ConfigError("factors.seed: 'seed' is not allowed (the seeds are the "
                          "replications: --seeds, --target-ci)")
    return list(out.values())


def _range(name, lo, hi, log, integer, shown) -> Factor:
    path = f"factors.{name}"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ConfigError(f"{path}: {shown!r} is not allowed (expected finite numbers LO < HI)")
    if lo >= hi:
        raise ConfigError(f"{path}: {shown!r} is not allowed (expected LO < HI: the range "
                          f"{lo:g}..{hi:g} is empty or reversed)")
    if log and lo <= 0:
        raise ConfigError(f"{path}: {shown!r} is not allowed (expected 0 < LO < HI for a log "
                          "range)")
    if integer:
        return Factor(name, int(lo), int(hi), log, True)
    return Factor(name, lo, hi, log, False)


def _levels(name, levels, shown) -> Factor:
    path = f"factors.{name}"
    if len(levels) < 2:
        raise ConfigError(f"{path}: {shown!r} is not allowed (expected a range LO:HI or at "
                          "least two levels A,B: a factor must vary)")
    keys = [repr(v) for v in levels]
    if len(set(keys)) != len(keys):
        raise ConfigError(f"{path}: {shown!r} repeats a level (each once)")
    return Factor(name, levels=tuple(levels))


def _check_names(factors: list[Factor], allowed: list[str], open_kwargs: bool, what: str,
                 fixed: dict) -> None:
    from .config import _suggest  # noqa: PLC0415

    for f in factors:
        if f.name not in allowed and not open_kwargs:
            raise ConfigError(f"factors: {f.name!r} is not a parameter of {what} "
                              f"({_suggest(f.name, allowed)})")
    for k in fixed:
        if k not in allowed and not open_kwargs:
            raise ConfigError(f"--set: {k!r} is not a parameter of {what} "
                              f"({_suggest(k, allowed)})")
        if any(f.name == k for f in factors):
            raise ConfigError(f"--set: {k!r} is also a factor (a parameter is fixed or varied, "
                              "not both)")


# --------------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PaperMetric:
    """A paper's per-seed number: ``paper`` (CLI name), ``builders`` it applies to, ``what``
    it is, ``table`` ("module:function" giving a per-seed frame), ``column`` of it, ``rows``
    (a filter of that frame, e.g. one cloud), ``axis``: an inner axis it needs (name, values)."""

    paper: str
    builders: tuple
    what: str
    table: str
    column: str
    rows: tuple = ()
    axis: tuple | None = None
    ratio: str | None = None   # column divided by this one (F1/F2)


PAPER_METRICS = {
    "kaur-vin:loss": PaperMetric(
        "kaur-vin", ("kaur_vin",), "loss in TCP throughput U_CBR - U_EF (sec. 2.3(1); Fig. 2a, "
        "3, 4a): utilisation with CBR EF minus with on-off EF, same seed",
        "diffsweep.papers.kaur_vin.tables:loss_per_seed", "loss", axis=("ef", ("cbr", "onoff"))),
    "kaur-vin:min_max_ratio": PaperMetric(
        "kaur-vin", ("kaur_vin",), "min-max ratio M of the TCP flows' goodputs (sec. 2.3(2); "
        "Fig. 5, 7)", "diffsweep.papers.kaur_vin.tables:fairness_per_seed", "min_max_ratio",
        axis=("ef", ())),
    "kaur-vin:jain_index": PaperMetric(
        "kaur-vin", ("kaur_vin",), "Jain's fairness index F of the TCP flows' goodputs "
        "(sec. 2.3(2))", "diffsweep.papers.kaur_vin.tables:fairness_per_seed", "jain_index",
        axis=("ef", ())),
    "kaur-vin:timeouts_per_flow": PaperMetric(
        "kaur-vin", ("kaur_vin",), "retransmission timeouts per TCP flow (Fig. 2b, 4b)",
        "diffsweep.papers.kaur_vin.tables:timeouts_per_seed", "timeouts_per_flow",
        axis=("ef", ())),
    "rossi:af_completion_s": PaperMetric(
        "rossi", ("rossi",), "mean completion time of the AF cloud's transfers, s (Figs. 2, 5)",
        "diffsweep.papers.rossi.tables:per_cloud", "completion_s", rows=(("cloud", "AF"),)),
    "rossi:be_completion_s": PaperMetric(
        "rossi", ("rossi",), "mean completion time of the BE cloud's transfers, s",
        "diffsweep.papers.rossi.tables:per_cloud", "completion_s", rows=(("cloud", "BE"),)),
    "rossi:af_drop_pct": PaperMetric(
        "rossi", ("rossi",), "drop percentage of the AF cloud's packets (Figs. 3, 6)",
        "diffsweep.papers.rossi.tables:per_cloud", "drop_pct", rows=(("cloud", "AF"),)),
    "habib:f1_f2_goodput_ratio": PaperMetric(
        "habib", ("habib_2a",), "goodput of aggregate F1 (short RTT) over F2's (Figs. 3-4: "
        "1 is the fair share)", "diffsweep.papers.habib.tables:totals", "f1_mbps",
        ratio="f2_mbps"),
    "habib:f1_minus_f2_mbps": PaperMetric(
        "habib", ("habib_2a",), "goodput of F1 minus F2's, Mb/s",
        "diffsweep.papers.habib.tables:totals", "f1_minus_f2"),
}


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
    """``TABLE.COLUMN[:AGG]`` or a ``PAPER_METRICS`` name as a Metric (the column itself is
    checked on the run's first replica); ConfigError with a did-you-mean otherwise."""
    from .config import _suggest  # noqa: PLC0415
    from .results import TABLES  # noqa: PLC0415

    if not isinstance(text, str) or not text.strip():
        raise ConfigError(f"metric: {text!r} is not allowed (expected TABLE.COLUMN[:AGG], e.g. "
                          "flows.goodput_bps:mean, or a paper metric: "
                          + ", ".join(PAPER_METRICS) + ")")
    text = text.strip()
    if text in PAPER_METRICS:
        return Metric(text, paper=PAPER_METRICS[text])
    if "." not in text:
        raise ConfigError(f"metric: unknown metric {text!r} ("
                          + _suggest(text, list(PAPER_METRICS)).replace(
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
    from .config import _suggest  # noqa: PLC0415

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
    from . import papers  # noqa: PLC0415
    from .results import TABLES, Results  # noqa: PLC0415

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
# Designs
# --------------------------------------------------------------------------------------------

def _letters(k: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(k)]


def factorial_design(k: int, p: int = 0) -> tuple[np.ndarray, list[str], list[str]]:
    """The sign table of a 2^(k-p) design (Jain ch. 17-19): (signs, one row per run and one
    column per factor, the first factor alternating fastest; the column words of the effects
    that can be estimated, each a product of base factors "A", "AB", ...; their alias chains
    as text, e.g. "AB = CD")."""
    if p < 0 or p >= k:
        raise ConfigError(f"fraction: {p!r} is not allowed (expected an integer in [0, "
                          f"{k - 1}] for {k} factors)")
    if p and (k, p) not in GENERATORS:
        raise ConfigError(f"fraction: 2^({k}-{p}) is not allowed (designs with generators: "
                          + ", ".join(f"2^({a}-{b})" for a, b in GENERATORS) + ")")
    base = k - p
    letters = _letters(k)
    runs = np.array([[1 if (i >> j) & 1 else -1 for j in range(base)]
                     for i in range(2 ** base)], dtype=int)
    cols = [runs[:, j] for j in range(base)]
    gens = GENERATORS.get((k, p), ())
    for g in gens:
        cols.append(np.prod([runs[:, ord(c) - ord("A")] for c in g], axis=0))
    signs = np.stack(cols, axis=1) if cols else runs
    # the defining relation: I = each generator word times its factor, and their products
    words = {frozenset(g) ^ frozenset(letters[base + i]) for i, g in enumerate(gens)}
    group = {frozenset()}
    for w in words:
        group |= {x ^ w for x in group}
    base_words = []
    for r in range(1, base + 1):
        base_words += ["".join(c) for c in itertools.combinations(letters[:base], r)]
    chains = []
    for w in base_words:
        alias = sorted({"".join(sorted(frozenset(w) ^ g)) for g in group},
                       key=lambda s: (len(s), s))
        chains.append(" = ".join(alias))
    names = [c.split(" = ")[0] for c in chains]
    return signs, names, chains


def factorial_effects(signs: np.ndarray, y: np.ndarray, names: list[str], terms: list[str],
                      level: float = 0.95) -> pd.DataFrame:
    """Jain's 2^k r analysis (ch. 18) of the responses ``y`` (one row per run of ``signs``,
    one column per replication): one row per effect in ``terms`` (column words over the base
    factors "A", "AB", ...; ``names``: the factor names, A first) and one for the error, with
    ``effect`` q, ``ci_low``/``ci_high``, ``sum_of_squares``, ``variation_pct`` (of SST) and
    ``significant`` (the interval excludes 0). The first row is the mean q0."""
    from .stats import t_quantile  # noqa: PLC0415

    y = np.asarray(y, dtype=float)
    runs, r = y.shape
    base = int(round(math.log2(runs)))
    ybar = y.mean(axis=1)
    sse = float(((y - ybar[:, None]) ** 2).sum())
    dof = runs * (r - 1)
    s_e = math.sqrt(sse / dof) if dof > 0 else float("nan")
    s_q = s_e / math.sqrt(runs * r)
    t = t_quantile((1 + level) / 2, dof) if dof > 0 else float("nan")
    rows = []
    q0 = float(ybar.mean())
    rows.append({"term": "mean", "effect": q0, "ci_low": q0 - t * s_q, "ci_high": q0 + t * s_q,
                 "sum_of_squares": float("nan"), "variation_pct": float("nan")})
    ss = {}
    for w in terms:
        col = np.prod([signs[:, ord(c) - ord("A")] for c in w], axis=0)
        q = float((col * ybar).sum() / runs)
        ss[w] = runs * r * q * q
        rows.append({"term": w, "effect": q, "ci_low": q - t * s_q, "ci_high": q + t * s_q,
                     "sum_of_squares": ss[w]})
    sst = sum(ss.values()) + sse
    for row in rows[1:]:
        row["variation_pct"] = 100.0 * row["sum_of_squares"] / sst if sst > 0 else float("nan")
    rows.append({"term": "error", "effect": float("nan"), "ci_low": float("nan"),
                 "ci_high": float("nan"), "sum_of_squares": sse,
                 "variation_pct": 100.0 * sse / sst if sst > 0 else float("nan")})
    out = pd.DataFrame(rows)
    out["significant"] = (out["ci_low"] > 0) | (out["ci_high"] < 0)
    out.loc[out["term"] == "error", "significant"] = False
    label = {w: " x ".join(names[ord(c) - ord("A")] for c in w) for w in terms}
    out.insert(1, "factors", out["term"].map(lambda w: label.get(w, w)))
    return out


@dataclass
class _Design:
    unit: np.ndarray          # samples x factors in [0, 1] (sobol, morris) or signs (factorial)
    values: list[tuple]       # per sample: the factor values
    unique: list[tuple]       # the distinct design points
    index: np.ndarray         # sample -> its design point
    terms: list[str] = field(default_factory=list)     # factorial: the effects' words
    chains: list[str] = field(default_factory=list)    # factorial: their alias chains


def _design(method: str, factors: list[Factor], n: int, fraction: int, sample_seed: int) -> _Design:
    k = len(factors)
    if method == "factorial":
        signs, terms, chains = factorial_design(k, fraction)
        ends = [f.ends(f"factors.{f.name}") for f in factors]
        values = [tuple(ends[j][0 if s < 0 else 1] for j, s in enumerate(row)) for row in signs]
        unit = signs
    else:
        problem = {"num_vars": k, "names": [f.name for f in factors], "bounds": [[0.0, 1.0]] * k}
        if method == "sobol":
            from SALib.sample import sobol  # noqa: PLC0415
            unit = sobol.sample(problem, n, calc_second_order=False, seed=sample_seed)
        else:
            from SALib.sample import morris  # noqa: PLC0415
            unit = morris.sample(problem, n, num_levels=MORRIS_LEVELS, seed=sample_seed)
        values = [tuple(f.at(float(u)) for f, u in zip(factors, row)) for row in unit]
        terms, chains = [], []
    seen: dict[str, int] = {}
    unique, index = [], []
    for v in values:
        key = repr(v)
        if key not in seen:
            seen[key] = len(unique)
            unique.append(v)
        index.append(seen[key])
    return _Design(unit, values, unique, np.asarray(index, dtype=int), terms, chains)


def _check_n(method: str, n) -> int:
    if method == "factorial":
        return 0
    if n is None:
        return DEFAULT_N[method]
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise ConfigError(f"n: {n!r} is not allowed (expected an integer >= 2: "
                          + ("base samples, a power of 2" if method == "sobol" else
                             "Morris trajectories") + ")")
    if method == "sobol" and n & (n - 1):
        raise ConfigError(f"n: {n!r} is not allowed (expected a power of 2 for sobol: the "
                          f"Sobol' sequence is balanced at powers of 2, e.g. "
                          f"{1 << (n.bit_length() - 1)} or {1 << n.bit_length()})")
    return n


# --------------------------------------------------------------------------------------------
# Analysis
# --------------------------------------------------------------------------------------------

def _analyse(method: str, factors: list[Factor], design: _Design, values: pd.DataFrame,
             level: float, sample_seed: int) -> pd.DataFrame:
    """The method's table from the (design, seed, value) frame."""
    names = [f.name for f in factors]
    if method == "factorial":
        wide = values.pivot(index="design", columns="seed", values="value")
        y = wide.reindex(range(len(design.unique))).to_numpy(dtype=float)[design.index]
        tab = factorial_effects(design.unit, y, names, design.terms, level)
        alias = dict(zip(design.terms, design.chains))
        tab["aliases"] = tab["term"].map(lambda w: alias.get(w, ""))
        return tab
    mean = values.groupby("design")["value"].mean().reindex(range(len(design.unique)))
    y = mean.to_numpy(dtype=float)[design.index]
    problem = {"num_vars": len(factors), "names": names, "bounds": [[0.0, 1.0]] * len(factors)}
    if method == "sobol":
        from SALib.analyze import sobol  # noqa: PLC0415
        s = sobol.analyze(problem, y, calc_second_order=False, num_resamples=RESAMPLES,
                          conf_level=level, seed=sample_seed)
        tab = pd.DataFrame({"factor": names, "S1": s["S1"], "S1_conf": s["S1_conf"],
                            "ST": s["ST"], "ST_conf": s["ST_conf"]})
        for c in ("S1", "ST"):
            tab[f"{c}_low"] = tab[c] - tab[f"{c}_conf"]
            tab[f"{c}_high"] = tab[c] + tab[f"{c}_conf"]
        return tab.sort_values("ST", ascending=False, kind="stable").reset_index(drop=True)
    from SALib.analyze import morris  # noqa: PLC0415
    s = morris.analyze(problem, np.asarray(design.unit, dtype=float), y,
                       num_resamples=RESAMPLES, conf_level=level, num_levels=MORRIS_LEVELS,
                       seed=sample_seed)
    tab = pd.DataFrame({"factor": names, "mu_star": np.asarray(s["mu_star"], float),
                        "mu_star_conf": np.asarray(s["mu_star_conf"], float),
                        "mu": np.asarray(s["mu"], float), "sigma": np.asarray(s["sigma"], float)})
    tab["mu_star_low"] = tab["mu_star"] - tab["mu_star_conf"]
    tab["mu_star_high"] = tab["mu_star"] + tab["mu_star_conf"]
    return tab.sort_values("mu_star", ascending=False, kind="stable").reset_index(drop=True)


def widest(method: str, table: pd.DataFrame) -> tuple[float, float]:
    """(the widest interval's half-width, the scale target_ci is relative to: 1 for sobol,
    the largest |mu_star| or |effect| otherwise)."""
    if method == "sobol":
        w = float(np.nanmax(table[["S1_conf", "ST_conf"]].to_numpy()))
        return w, 1.0
    if method == "morris":
        return (float(np.nanmax(table["mu_star_conf"])),
                float(np.nanmax(np.abs(table["mu_star"]))))
    eff = table[~table["term"].isin(["mean", "error"])]
    half = (eff["ci_high"] - eff["ci_low"]) / 2
    return float(np.nanmax(half)) if len(half) else float("nan"), \
        float(np.nanmax(np.abs(eff["effect"]))) if len(eff) else float("nan")


def _check_values(metric_name: str, values: pd.DataFrame, design: _Design, factors,
                  kept: str = "") -> None:
    """A constant metric, or one missing at a design point, has nothing to attribute."""
    n = len(design.unique)
    per = values.groupby("design")["value"].apply(lambda v: v.notna().any())
    per = per.reindex(range(n), fill_value=False)
    bad = [int(d) for d in np.flatnonzero(~per.to_numpy(dtype=bool))]
    if bad:
        d = bad[0]
        at = ", ".join(f"{f.name}={_level_text(v)}" for f, v in zip(factors, design.unique[d]))
        raise ConfigError(f"metric: {metric_name} has no value (NaN or no rows) at {len(bad)} "
                          f"of {n} design points, e.g. design point {d} ({at}) (choose a "
                          "metric defined over the whole factor space, or narrower ranges"
                          + kept + ")")
    v = values["value"].to_numpy(dtype=float)
    v = v[np.isfinite(v)]
    if len(v) and float(np.ptp(v)) == 0.0:
        raise ConfigError(f"metric: {metric_name} is constant ({v[0]:g} at every design point "
                          "and seed): there is no variation to attribute to the factors "
                          "(choose another metric, or wider factor ranges" + kept + ")")


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
    from . import config  # noqa: PLC0415

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
        raise ConfigError(f"base: unknown builder {text!r} ({config._suggest(text, config.BUILDERS)}); "
                          "give a registered builder or a sweep file (path/to/sweep.toml)")
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
    from . import config  # noqa: PLC0415
    from .identity import digest  # noqa: PLC0415
    from .store import jsonable  # noqa: PLC0415

    if method not in METHODS:
        raise ConfigError(f"method: {method!r} is not allowed ({config._suggest(str(method), METHODS)})")
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
                             description=f"{method} sensitivity of {m.name}", quick=quick)
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
    from .atlases import check_study_folder  # noqa: PLC0415
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
    from . import runner  # noqa: PLC0415

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
    from . import runner  # noqa: PLC0415

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
    from .store import recorded_pairs  # noqa: PLC0415
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
    metric: ``TABLE.COLUMN[:AGG]`` or a ``PAPER_METRICS`` name; method: sobol, morris or
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
    from . import reproduce, sizing  # noqa: PLC0415
    from .store import atomic_write_json  # noqa: PLC0415

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
            "base": plan.base_name, "factors": [f.name for f in plan.factors],
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
        from .sensitivity_page import write_sensitivity  # noqa: PLC0415
        meta["wall_s"] = time.perf_counter() - t_all
        paths = write_sensitivity(table, design_df, out, meta)
        meta["wall_s"] = time.perf_counter() - t_all
        from .store import jsonable  # noqa: PLC0415
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


# --------------------------------------------------------------------------------------------
# The command line (registered by diffsweep.cli)
# --------------------------------------------------------------------------------------------

def add_subcommand(sub, backends, backend_help: str) -> None:
    """The ``diffsweep sensitivity`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser(
        "sensitivity", help="which parameters move a metric: factorial designs, Morris "
        "screening, Sobol' indices",
        description="Run a design over FACTORS of the BASE scenario (a builder name or a "
        "sweep file), measure METRIC at every design point and seed (the same seeds at every "
        "point), and write DIR/sensitivity.csv, DIR/sensitivity.png and DIR/sensitivity.md/"
        ".html: Sobol' indices, Morris mu*/sigma or 2^k r factorial effects with the "
        "allocation of variation, each with its interval. A rerun resumes; Ctrl-C stops "
        "after saving the finished replicas.")
    s.add_argument("base", metavar="BASE", help="a builder (e.g. kaur_vin) or a sweep file")
    s.add_argument("--factors", nargs="+", required=True, metavar="NAME=SPEC",
                   help="builder parameters: NAME=LO:HI, NAME=LO:HI:log or NAME=A,B,C (levels)")
    s.add_argument("--metric", required=True, metavar="METRIC",
                   help="TABLE.COLUMN[:AGG] (AGG: " + ", ".join(AGGREGATES) + "; default mean) "
                   "or a paper metric: " + ", ".join(PAPER_METRICS))
    s.add_argument("--method", default="sobol", choices=METHODS,
                   help="sobol (default), morris or factorial (2^k r, Jain ch. 17-19)")
    s.add_argument("--n", type=int, default=None, metavar="N",
                   help="sobol: base samples, a power of 2 (default 64: n (k+2) design "
                   "points); morris: trajectories (default 10: n (k+1) points)")
    s.add_argument("--fraction", type=int, default=0, metavar="P",
                   help="factorial: a 2^(k-P) fractional design (default 0: full)")
    s.add_argument("--seeds", type=int, default=None, metavar="N",
                   help="seeds per design point in the first round (default 2; factorial 3: "
                   "the replications r)")
    s.add_argument("--target-ci", type=float, default=None, metavar="X",
                   help="add seeds until every interval's half-width is at most X (sobol: in "
                   "index units; morris, factorial: X times the largest mu* or |effect|)")
    s.add_argument("--max-seeds", type=int, default=None, metavar="N",
                   help="--target-ci: most seeds per design point (default 4 x --seeds)")
    s.add_argument("--max-replicas", type=int, default=DEFAULT_MAX_REPLICAS, metavar="N",
                   help=f"refuse a design needing more replicas (default {DEFAULT_MAX_REPLICAS:,})")
    s.add_argument("--set", nargs="+", default=None, metavar="NAME=VALUE", dest="set_",
                   help="builder parameters fixed at every design point (e.g. duration_s=20)")
    s.add_argument("--level", type=float, default=0.95, metavar="L",
                   help="confidence of the intervals (default 0.95)")
    s.add_argument("--sample-seed", type=int, default=0, metavar="N",
                   help="seed of the design's sampling and of the bootstrap (default 0)")
    s.add_argument("--quick", action="store_true", help="the sweep file's [quick] overrides")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="output folder (default results/sensitivity-<base>-<method>)")
    s.add_argument("--backend", default="auto", choices=backends, help=backend_help)
    s.add_argument("--threads", type=int, default=None, metavar="N", help="CPU threads")
    s.add_argument("--dry-run", action="store_true",
                   help="print the design's size and a rough time; run nothing")
    s.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    s.set_defaults(fn=run_cli)


def _parse_set(items) -> dict:
    out = {}
    for a in items or []:
        k, eq, v = str(a).partition("=")
        k = k.strip()
        if not eq or not k or not v.strip():
            raise ConfigError(f"--set: {a!r} is not allowed (expected NAME=VALUE)")
        out[k] = _scalar(v)
    return out


def run_cli(args) -> int:
    """``diffsweep sensitivity``: exit status 0, or an error raised for cli.main to print."""
    import shlex  # noqa: PLC0415

    from .cli import _check_int  # noqa: PLC0415

    _check_int("--threads", args.threads, 0)
    _check_int("--seeds", args.seeds, 1)
    _check_int("--max-replicas", args.max_replicas, 1)
    _check_int("--sample-seed", args.sample_seed, 0)
    log = (lambda *a, **k: None) if args.quiet else print
    kw = dict(n=args.n, fraction=args.fraction, seeds=args.seeds, target_ci=args.target_ci,
              max_seeds=args.max_seeds, max_replicas=args.max_replicas, level=args.level,
              fixed=_parse_set(args.set_), quick=args.quick, out=args.out,
              backend=args.backend, threads=args.threads, sample_seed=args.sample_seed,
              progress=False if args.quiet else None, log=log)
    if args.dry_run:
        info = sensitivity(args.base, args.factors, args.metric, args.method, dry_run=True,
                           **kw)
        print(f"design      : {args.method}, {info['samples']:,} samples, "
              f"{info['design_points']:,} distinct design points")
        print(f"inner points: {info['inner_points']:,} per design point (the base's axes)")
        print(f"seeds       : {info['seeds']} per point"
              + (f" (up to {info['max_seeds']} with --target-ci: "
                 f"{info['most_replicas']:,} replicas at most)"
                 if args.target_ci is not None else ""))
        est = info["estimate"]
        for line in est.lines():
            print(line)
        print("nothing was run (--dry-run)")
        return 0
    resume = shlex.join(["diffsweep", *args.argv])
    res = sensitivity(args.base, args.factors, args.metric, args.method, resume=resume,
                      manifest={"argv": args.argv}, **kw)
    if not args.quiet:
        head, rows = _table_text(res)
        print(head)
        for r in rows:
            print(r)
        print(f"sensitivity: {res.paths['md']}\n             {res.paths['html']}")
    return 0


def _table_text(res) -> tuple[str, list[str]]:
    from .sensitivity_page import table_rows  # noqa: PLC0415

    head, rows = table_rows(res.table, res.meta["method"])
    if res.meta["method"] == "factorial":
        head, rows = head[:-1], [r[:-1] for r in rows]
    width = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    fmt = lambda r: "  ".join(str(x).ljust(w) for x, w in zip(r, width)).rstrip()
    return fmt(head), [fmt(r) for r in rows]
