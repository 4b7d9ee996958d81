"""The designs and estimators of ``diffsweep.studies.sensitivity``: factors (ranges and levels), the
sampled designs (SALib's Sobol' and Morris samplers; the 2^k and 2^(k-p) sign tables of R. Jain,
"The Art of Computer Systems Performance Analysis", ch. 17-19), and the analysis of one value
per (design point, seed): SALib's estimators, or Jain's effects with the allocation of
variation. Nothing here runs a simulation."""
from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError

__all__ = ["Factor", "parse_factors", "factorial_design", "factorial_effects", "widest",
           "METHODS", "GENERATORS", "MAX_FACTORS"]

METHODS = ("sobol", "morris", "factorial")
#: factors of one study (a 2^k design doubles with each; Sobol' runs n (k + 2) points)
MAX_FACTORS = 12
#: default base samples (sobol) / trajectories (morris)
DEFAULT_N = {"sobol": 64, "morris": 10}
#: levels of the Morris grid
MORRIS_LEVELS = 4
#: bootstrap resamples of SALib's intervals
RESAMPLES = 1000

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
    from diffsweep.core.errors import did_you_mean as _suggest  # noqa: PLC0415

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
    from diffsweep.analysis.stats import t_quantile  # noqa: PLC0415

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
        if n is not None:
            raise ConfigError(f"n: {n!r} is not allowed with --method factorial (a 2^(k-p) "
                              "design has its runs; its replications are the seeds: --seeds)")
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
    # the bootstrap's seed: SALib's sobol.analyze (1.6) draws unseeded resamples for seed 0
    # (`if seed:`), so 0 would give another interval at every call
    boot = sample_seed + 1
    mean = values.groupby("design")["value"].mean().reindex(range(len(design.unique)))
    y = mean.to_numpy(dtype=float)[design.index]
    problem = {"num_vars": len(factors), "names": names, "bounds": [[0.0, 1.0]] * len(factors)}
    if method == "sobol":
        from SALib.analyze import sobol  # noqa: PLC0415
        s = sobol.analyze(problem, y, calc_second_order=False, num_resamples=RESAMPLES,
                          conf_level=level, seed=boot)
        tab = pd.DataFrame({"factor": names, "S1": s["S1"], "S1_conf": s["S1_conf"],
                            "ST": s["ST"], "ST_conf": s["ST_conf"]})
        for c in ("S1", "ST"):
            tab[f"{c}_low"] = tab[c] - tab[f"{c}_conf"]
            tab[f"{c}_high"] = tab[c] + tab[f"{c}_conf"]
        return tab.sort_values("ST", ascending=False, kind="stable").reset_index(drop=True)
    from SALib.analyze import morris  # noqa: PLC0415
    s = morris.analyze(problem, np.asarray(design.unit, dtype=float), y,
                       num_resamples=RESAMPLES, conf_level=level, num_levels=MORRIS_LEVELS,
                       seed=boot)
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


#: Sobol': a half-width above this (index units) says little about a share of variance
SOBOL_WIDE = 0.1
#: Sobol': the half-width a suggested n aims at
SOBOL_AIM = 0.05
#: Sobol': how far an estimate may stray past what the indices can be (S1 <= ST, 0 <= S1,
#: sum S1 <= 1) before it is called estimation noise, not a property of the metric
SOBOL_SLACK = 0.02
#: Morris: a mu* half-width above this share of the largest mu* leaves its rank unsure
MORRIS_WIDE = 0.3
#: Morris: the share of the largest mu* a suggested n aims at
MORRIS_AIM = 0.1


def _next_n(method: str, n: int, half: float, aim: float) -> int:
    """The n that would shrink a half-width ``half`` to ``aim``: bootstrap intervals of both
    estimators shrink as 1/sqrt(n) (Saltelli et al. 2010, section 4; Morris's mean of r
    elementary effects: its standard error is sigma / sqrt(r)); sobol rounded up to a power
    of 2."""
    need = max(n + 1, int(math.ceil(n * (half / aim) ** 2)))
    if method == "sobol":
        need = 1 << (need - 1).bit_length()
    return need


def reliability(method: str, table: pd.DataFrame, n: int, k: int) -> dict:
    """Whether a study's estimates can be read: ``{"notes": [one line each], "suggested_n":
    int | None, "checked": what was checked, when nothing was found}``. Sobol': an S1 above its ST, a negative index, a sum of S1 above 1 (none can
    hold of the true indices: each says the estimate is mostly noise at this n) and intervals
    wider than SOBOL_WIDE; Morris: mu* intervals wider than MORRIS_WIDE x the largest mu*
    (the ranking is not resolved). ``suggested_n`` aims every interval at SOBOL_AIM (index
    units) or MORRIS_AIM x the largest mu*. Seeds shrink only the part of an interval that
    is the simulation's noise; n shrinks the sampling part too. Empty for factorial (its
    intervals are Student-t of the replications)."""
    notes: list[str] = []
    if method == "sobol":
        for _, r in table.iterrows():
            f = r["factor"]
            if r["S1"] > r["ST"] + SOBOL_SLACK:
                notes.append(f"{f}: S1 {r['S1']:.3g} above ST {r['ST']:.3g} (S1 <= ST holds of "
                             "the true indices: estimation noise)")
            for c in ("S1", "ST"):
                if r[c] < -SOBOL_SLACK:
                    notes.append(f"{f}: {c} {r[c]:.3g} below 0 (an index is a share of "
                                 "variance: estimation noise)")
        total = float(np.nansum(table["S1"]))
        if total > 1 + SOBOL_SLACK:
            notes.append(f"the S1 sum to {total:.3g}, above 1 (estimation noise)")
        half = float(np.nanmax(table[["S1_conf", "ST_conf"]].to_numpy()))
        wide = table[(table["S1_conf"] > SOBOL_WIDE) | (table["ST_conf"] > SOBOL_WIDE)]
        if len(wide):
            notes.append(f"intervals of {', '.join(map(str, wide['factor']))} wider than "
                         f"+-{SOBOL_WIDE:g} (widest +-{half:.3g})")
        if not notes:
            return {"notes": [], "suggested_n": None,
                    "checked": "no index outside what indices can be (S1 <= ST, S1 >= 0, "
                               f"sum S1 <= 1) and every interval within +-{SOBOL_WIDE:g}"}
        m = _next_n(method, n, max(half, SOBOL_AIM * 2 ** 0.5), SOBOL_AIM)
        notes.append(f"n = {n} is too small for these estimates: n = {m} ({m * (k + 2):,} "
                     f"design points) would bring the widest half-width from {half:.3g} to "
                     f"about {SOBOL_AIM:g} (intervals shrink as 1/sqrt(n))")
        return {"notes": notes, "suggested_n": m}
    if method == "morris":
        top = float(np.nanmax(np.abs(table["mu_star"])))
        if not top > 0:
            return {"notes": [], "suggested_n": None}
        wide = table[table["mu_star_conf"] > MORRIS_WIDE * top]
        half = float(np.nanmax(table["mu_star_conf"]))
        if len(wide):
            notes.append(f"mu* intervals of {', '.join(map(str, wide['factor']))} wider than "
                         f"+-{MORRIS_WIDE:g} x the largest mu* ({top:.3g}): their ranking is "
                         "not resolved")
        if not notes:
            return {"notes": [], "suggested_n": None,
                    "checked": f"every mu* interval within +-{MORRIS_WIDE:g} x the largest "
                               f"mu* ({top:.3g})"}
        m = _next_n(method, n, half, MORRIS_AIM * top)
        notes.append(f"n = {n} trajectories are too few for this ranking: n = {m} "
                     f"({m * (k + 1):,} design points) would bring the widest mu* half-width "
                     f"from {half:.3g} to about {MORRIS_AIM * top:.3g} ({MORRIS_AIM:g} x the "
                     "largest mu*)")
        return {"notes": notes, "suggested_n": m}
    return {"notes": [], "suggested_n": None}


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
