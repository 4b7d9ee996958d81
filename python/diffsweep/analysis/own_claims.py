"""own_claims: a researcher's own claim, rated with the papers' rules and intervals
(docs/metrics.md, "A claim of your own"; ``diffsweep atlas CLAIM --axes ...`` maps it).

A claim names a metric (any name of ``diffsweep.analysis.registry``: ``jain_index``, an
expression, ``module:function``) and one of three forms:

* ``compare``: setting ``a`` of ``axis`` against setting ``b``, per seed (the same seed is the
  same random draws: a paired difference), at every value of the sweep's other axes. With
  ``direction = "higher"`` (or "lower") it holds where the 95% interval of a - b lies above
  ``margin`` (below -margin), partly where only the mean does, and does not hold otherwise
  (``claims.sign_status``). With ``within`` it is the equivalence "no appreciable
  difference": holds where the whole interval lies within +-within, partly within
  +-``partly_within`` (default 2 x within; ``claims.flat_status``).
* ``trend``: the metric rises (``direction = "higher"``) or falls along ``axis``: the per-seed
  least-squares slope against the axis (its log with ``log = true``), significant when the
  slope's interval excludes 0 (``claims.slopes``, ``sign_status``).
* ``level``: at every point the metric's interval lies at or above ``hold_at`` (holds), below
  ``partly_at`` (does not hold), else partly (``claims.level_ci``); ``direction = "lower"``
  mirrors it (a delay at most ``hold_at``).

The statuses of the groups (the other axes' values) combine as a paper's sub-results do:
all hold -> holds, none -> does not hold, else partly holds (``claims.combine_statuses``).

A claim is written in TOML (a ``[claim]`` table: ``id``, ``text``, ``metric``, ``kind`` and
that kind's keys, and ``sweep``, the sweep file it is rated on, relative to the claim file) or
in Python (``diffsweep.claim(...)``, named on the command line as ``module:NAME``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from diffsweep.analysis import claims as cl
from diffsweep.analysis import registry
from diffsweep.core.errors import ConfigError
from diffsweep.core.errors import did_you_mean as _suggest

KINDS = ("compare", "trend", "level")
DIRECTIONS = ("higher", "lower")
#: the Claim.family under which a claim of one's own finds its sweep's Results
FAMILY = "own"


@dataclass(frozen=True)
class OwnClaim:
    """A claim of one's own (module docstring). ``sweep``: the sweep file it is rated on
    (needed by ``diffsweep atlas``); ``source``: where it was read from."""

    id: str
    text: str
    metric: str
    kind: str
    axis: str | None = None
    a: Any = None
    b: Any = None
    direction: str = "higher"
    margin: float = 0.0
    within: float | None = None
    partly_within: float | None = None
    log: bool = False
    hold_at: float | None = None
    partly_at: float | None = None
    sweep: str | None = None
    source: str = field(default="", compare=False)

    def __post_init__(self):
        where = f"claim {self.id!r}" if isinstance(self.id, str) else "claim"
        if not isinstance(self.id, str) or not self.id.strip():
            raise ConfigError(f"claim.id: {self.id!r} is not allowed (expected a short name "
                              "such as red-fairer)")
        if not isinstance(self.text, str) or not self.text.strip():
            raise ConfigError(f"{where}: text is missing (expected the claim in words)")
        if self.kind not in KINDS:
            raise ConfigError(f"{where}: kind {self.kind!r} is not allowed "
                              f"({_suggest(str(self.kind), KINDS)})")
        if self.direction not in DIRECTIONS:
            raise ConfigError(f"{where}: direction {self.direction!r} is not allowed (expected "
                              "higher or lower)")
        registry.resolve(self.metric)  # an unknown metric is named now
        if self.kind in ("compare", "trend") and not isinstance(self.axis, str):
            raise ConfigError(f"{where}: axis is missing (expected the sweep axis the {self.kind} "
                              "runs along, e.g. aqm)")
        if self.kind == "compare" and (self.a is None or self.b is None or self.a == self.b):
            raise ConfigError(f"{where}: a and b are not allowed ({self.a!r}, {self.b!r}; "
                              f"expected two different values of {self.axis})")
        for name in ("margin", "within", "partly_within", "hold_at", "partly_at"):
            v = getattr(self, name)
            if v is not None and not (isinstance(v, (int, float)) and not isinstance(v, bool)
                                      and math.isfinite(v)):
                raise ConfigError(f"{where}: {name} {v!r} is not allowed (expected a number)")
        if self.within is not None and not self.within > 0:
            raise ConfigError(f"{where}: within {self.within!r} is not allowed (expected a "
                              "number > 0)")
        if self.kind == "level" and (self.hold_at is None):
            raise ConfigError(f"{where}: hold_at is missing (expected the level the metric's "
                              "interval must clear)")

    @property
    def thresholds(self) -> str:
        """The test, in words (the atlas and reports print it)."""
        m = self.metric
        if self.kind == "compare":
            if self.within is not None:
                pw = self.partly_within if self.partly_within is not None else 2 * self.within
                return (f"per-seed {m}({self.axis}={self.a}) - {m}({self.axis}={self.b}): holds "
                        f"if its 95% CI lies within +-{self.within:g}, partly within +-{pw:g}")
            side = "above" if self.direction == "higher" else "below"
            return (f"per-seed {m}({self.axis}={self.a}) - {m}({self.axis}={self.b}): holds if "
                    f"its 95% CI lies {side} {'+' if side == 'above' else '-'}{self.margin:g}, "
                    "partly if only its mean does")
        if self.kind == "trend":
            return (f"per-seed slope of {m} against {'log2 ' if self.log else ''}{self.axis}: "
                    f"holds if its 95% CI lies {'above' if self.direction == 'higher' else 'below'}"
                    " 0, partly if only its mean does")
        pa = self.partly_at if self.partly_at is not None else self.hold_at
        rel = ">=" if self.direction == "higher" else "<="
        return (f"{m} at every point: holds if its 95% CI is {rel} {self.hold_at:g}, does not "
                f"hold if it lies beyond {pa:g} on the wrong side, partly otherwise")

    def check(self, res) -> cl.Verdict:
        """The claim's verdict on ``res`` (the Results of its sweep)."""
        m = registry.resolve(self.metric)
        v = registry.values(res, self.metric)
        axes = [a for a in (res.meta.get("axes") or []) if a in v.columns]
        if self.kind != "level" and self.axis not in v.columns:
            return cl.Verdict(cl.NM, {}, f"the results have no axis or column {self.axis!r} "
                                         f"(axes: {', '.join(axes) or 'none'})")
        others = [a for a in axes if a != self.axis]
        groups = list(v.groupby(others, sort=True, dropna=False)) if others else [((), v)]
        sts, nums, whys = [], {}, []
        for key, g in groups:
            key = key if isinstance(key, tuple) else (key,)
            label = ", ".join(f"{a}={k}" for a, k in zip(others, key)) or "all points"
            st, ci, why = self._rate(g, m)
            sts.append(st)
            nums[label] = ci
            whys.append(f"{label}: {why}")
        return cl.combined_verdict(sts, nums, whys, f"no replicas of {self.metric}")

    def _rate(self, g: pd.DataFrame, m) -> tuple[str, dict, str]:
        name = self.metric
        if self.kind == "compare":
            a = g[_same(g[self.axis], self.a)][["seed", name]]
            b = g[_same(g[self.axis], self.b)][["seed", name]]
            if a.empty or b.empty:
                missing = self.a if a.empty else self.b
                return cl.NM, {}, f"no replicas at {self.axis}={missing}"
            d = cl.paired(b, a, name, on=("seed",)).dropna(subset=["diff"])
            ci = cl.overall_ci(d, "diff")
            if self.within is not None:
                pw = self.partly_within if self.partly_within is not None else 2 * self.within
                return (cl.flat_status(ci, self.within, pw), ci,
                        f"a - b = {cl.ci_words(ci)}, {cl.flat_words(ci, self.within, pw)}")
            sign = 1 if self.direction == "higher" else -1
            shifted = {**ci, "mean": None if ci["mean"] is None else ci["mean"] - sign * self.margin,
                       "ci95": [None if x is None else x - sign * self.margin for x in ci["ci95"]]}
            return (cl.sign_status(shifted, sign), ci,
                    f"a - b = {cl.ci_words(ci)}")
        if self.kind == "trend":
            x = pd.to_numeric(g[self.axis], errors="coerce")
            if x.isna().any() or (self.log and (x <= 0).any()):
                return cl.NM, {}, f"{self.axis} is not {'positive ' if self.log else ''}numeric"
            s = cl.slopes(g.assign(**{self.axis: x}), self.axis, name,
                          log=np.log2 if self.log else (lambda v: v))
            if s.empty:
                return cl.NM, {}, f"fewer than two values of {self.axis}"
            ci = cl.overall_ci(s, "slope")
            sign = 1 if self.direction == "higher" else -1
            return (cl.sign_status(ci, sign), ci,
                    f"slope {cl.ci_words(ci)}, {cl.sign_words(ci, sign)}")
        axes = [c for c in g.columns if c == self.axis]
        per = [g] if not axes else [p for _, p in g.groupby(axes)]
        worst = []
        for p in per:
            ci = cl.overall_ci(p, name, bounds=_finite(m.bounds))
            pa = self.partly_at if self.partly_at is not None else self.hold_at
            worst.append((cl.level_ci(ci, self.hold_at, pa, self.direction == "higher"), ci))
        st = cl.combine_statuses(s for s, _ in worst)
        return st, worst[0][1], f"{name} = {cl.ci_words(worst[0][1])}"

    def check_on(self, **where):
        """The claim's check on the replicas of one setting (axis = value for each of
        ``where``): a function of the Results, not measured where the results have no such
        replicas or axis, documented with the claim's thresholds and the setting (how the
        RFC-based families rate a claim on one queue or congestion control at a time)."""
        words = ", ".join(f"{k}={v}" for k, v in where.items())

        def check(res) -> cl.Verdict:
            keep = res.replicas
            for axis, value in where.items():
                if axis not in keep.columns:
                    return cl.Verdict(cl.NM, {}, f"no replicas at {words}")
                keep = keep[_same(keep[axis], value)]
            if keep.empty:
                return cl.Verdict(cl.NM, {}, f"no replicas at {words}")
            return self.check(cl.subset(res, keep))
        check.__doc__ = (self.thresholds + (f" (on the replicas with {words})" if where else "")
                         + "; every cell of the other axes rated, combined as the papers' "
                           "sub-results")
        return check

    def as_claim(self) -> cl.Claim:
        """A :class:`claims.Claim` of the family ``FAMILY`` (how the atlas rates it)."""
        return cl.Claim(self.id, "own claim", self.text, self.check, family=FAMILY,
                        thresholds=self.thresholds)


def _finite(bounds):
    if bounds is None or bounds[0] is None or bounds[1] is None:
        return None
    return tuple(bounds)


def _same(col: pd.Series, value) -> pd.Series:
    from diffsweep.core import axes as ax  # noqa: PLC0415
    return pd.Series(ax.same(col, value), index=col.index).astype(bool)


def claim(**kw) -> OwnClaim:
    """A claim of one's own in Python (``diffsweep.claim``)::

        RED_FAIRER = diffsweep.claim(id="red-fairer", text="RED is fairer than drop-tail",
                                     metric="jain_index", kind="compare", axis="aqm",
                                     a="red", b="droptail", sweep="dumbbell.toml")

    The keys are those of a claim file's ``[claim]`` table (module docstring); an unknown one
    is refused naming it."""
    allowed = [f.name for f in fields(OwnClaim) if f.name != "source"]
    for k in kw:
        if k not in allowed:
            raise ConfigError(f"claim: unknown key {k!r} ({_suggest(k, allowed)})")
    return OwnClaim(**kw)


def load_claim(ref: str) -> OwnClaim:
    """A claim file (``*.toml``, its ``[claim]`` table) or ``module:NAME`` (a
    ``diffsweep.claim`` in the user's module)."""
    if isinstance(ref, OwnClaim):
        return ref
    text = str(ref)
    if text.endswith(".toml") or Path(text).is_file():
        return _from_file(Path(text))
    if ":" in text:
        module, _, name = text.partition(":")
        import importlib  # noqa: PLC0415
        try:
            mod = importlib.import_module(module)
        except Exception as e:
            raise ConfigError(f"claim: {text!r}: importing module {module!r} failed "
                              f"({type(e).__name__}: {e})") from None
        obj = getattr(mod, name, None)
        if not isinstance(obj, OwnClaim):
            names = [n for n in dir(mod) if isinstance(getattr(mod, n), OwnClaim)]
            raise ConfigError(f"claim: {text!r} is not a claim made with diffsweep.claim "
                              f"(claims in {module}: {', '.join(names) or 'none'})")
        return obj
    raise ConfigError(f"claim: {text!r} is not allowed (expected a claim file CLAIM.toml or "
                      "module:NAME of a diffsweep.claim)")


def _from_file(path: Path) -> OwnClaim:
    try:
        import tomllib  # noqa: PLC0415
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # noqa: PLC0415
    if not path.is_file():
        raise ConfigError(f"claim: {str(path)!r}: no such file (expected a claim file with a "
                          "[claim] table)")
    try:  # utf-8-sig: an editor's byte-order mark is not a syntax error
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"claim: {path}: cannot be read ({e})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"claim: {path}: not valid TOML ({e})") from None
    extra = [k for k in data if k != "claim"]
    if "claim" not in data or not isinstance(data["claim"], dict) or extra:
        raise ConfigError(f"claim: {path}: expected one [claim] table"
                          + (f" (found {', '.join(extra)})" if extra else ""))
    kw = dict(data["claim"])
    if isinstance(kw.get("sweep"), str):  # relative to the claim file, as a user reads it
        kw["sweep"] = str((path.parent / kw["sweep"]).resolve())
    c = claim(**kw)
    return OwnClaim(**{f.name: getattr(c, f.name) for f in fields(OwnClaim)
                       if f.name != "source"}, source=str(path))
