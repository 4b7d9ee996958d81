"""atlases: where a paper's claim holds, mapped over parameters the paper never swept.

    diffsweep atlas PAPER CLAIM --axes NAME=VALUES [NAME=VALUES ...] [--seeds N] [--quick]
                    [--max-seeds N] [--out DIR]
    diffsweep atlas PAPER --list

A paper checks a claim at its own set-up; the atlas checks it at every cell of a 1-3 axis grid
around that set-up. A cell is the claim's own sweeps (the sweep files of the figure families
its check reads; for a conclusion, of the claims it rests on) with the cell's values put in:
a parameter the sweeps fix (or leave at the builder's default) takes the cell's value, and a
parameter a sweep varies (a grid axis) is pinned to it, so that the claim is rated over the
sweep's other axes at that one value. Each cell's claim is rated by the paper's own check,
with the same per-seed 95% intervals as the reports (``diffsweep.analysis.claims``).

Which parameters a claim may be mapped over, and their sensible ranges, each paper declares
(``Paper.maps``: a list of :class:`Mappable`); ``--list`` shows them.

**Undecided.** The verdict on the intervals is set beside the verdict on the point estimates
(``claims.point_estimates``: every interval shrunk to its mean, the verdict ever more seeds
would tend to). Where they differ, the intervals are too wide to decide: the cell gets more
seeds (every seed it has again, in rounds) until they agree or it has ``max_seeds``; a cell
still split is "undecided". A cell whose two verdicts agree keeps its seeds: a "partly holds"
there comes from sub-results that disagree (a claim true at some of its points), not from
noise.

**Output** (``DIR``, default ``results/atlas-<paper>-<claim>``): ``atlas.json`` (what the atlas
is: paper, claim, axes, quick; a rerun with the same is resumed, another is refused),
``cells/<k>/<sweep>/`` (each cell's sweeps, the resumable store of ``diffsweep run``: a rerun
or a run after Ctrl-C computes only what is missing), ``verdicts.csv`` (one row per cell),
``atlas.png``/``.pdf`` (a strip for one axis, a heatmap for two, small multiples for three;
the paper's own point outlined) and ``atlas.md``/``atlas.html``. Every cell's replicas that
are not stored yet run in one engine call per round (on a GPU one launch: the large-grid job
the engine is for).
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diffsweep.core import registry as papers
from diffsweep.core.errors import ConfigError
from diffsweep.studies.atlas_cells import (MAX_AXES, MAX_CELLS, _expand,  # noqa: F401
                                           _paper_values, _Plan, parse_axes)

__all__ = ["MapParam", "Mappable", "AtlasResult", "atlas", "mappable", "parse_axes",
           "UNDECIDED", "ATLAS_STATUSES", "MAX_AXES", "MAX_CELLS"]

UNDECIDED = "undecided"
#: a cell's status: a verdict of ``diffsweep.analysis.claims.STATUSES`` or undecided
ATLAS_STATUSES = ("holds", "partly holds", "does not hold", UNDECIDED, "not measured")
#: the atlas's description of itself in its folder
SPEC_FILE = "atlas.json"
#: max_seeds default: the first round's seeds times this
SEED_GROWTH = 4


@dataclass(frozen=True)
class MapParam:
    """A builder parameter a claim may be mapped over. ``kind``: "float", "int", "bool" or
    "choice" (one of ``choices``); ``lo``/``hi``: the sensible range of a number, inclusive
    (values outside are refused: the model or the claim's reading stops making sense there);
    ``suggested``: the values ``--list`` proposes; ``what``: what it is, with its unit."""

    name: str
    kind: str
    what: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()
    suggested: tuple = ()

    def allowed(self) -> str:
        if self.kind == "choice":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"an integer in [{int(self.lo)}, {int(self.hi)}]"
        return f"a number in [{self.lo:g}, {self.hi:g}]"

    def value(self, v: Any, path: str) -> Any:
        """``v`` (a string from the command line, or a Python value) as this parameter's type,
        checked against its range; ConfigError naming ``path`` otherwise."""
        raw = v
        try:
            if self.kind == "bool":
                if isinstance(v, str) and v.strip().lower() in ("true", "false", "1", "0"):
                    v = v.strip().lower() in ("true", "1")
                if not isinstance(v, bool):
                    raise ValueError
            elif self.kind == "choice":
                v = v.strip() if isinstance(v, str) else v
                if v not in self.choices:
                    raise ValueError
            else:
                if isinstance(v, bool):
                    raise ValueError
                x = float(v)
                if self.kind == "int":
                    if not x.is_integer():
                        raise ValueError
                    v = int(x)
                else:
                    v = x
                if not (math.isfinite(x) and self.lo <= x <= self.hi):
                    raise ValueError
        except (TypeError, ValueError):
            raise ConfigError(f"{path}: {raw!r} is not allowed (expected {self.allowed()}: "
                              f"{self.what})") from None
        return v


@dataclass(frozen=True)
class Mappable:
    """A claim of a paper (``claim``: its id) and the parameters it may be mapped over."""

    claim: str
    params: tuple[MapParam, ...]
    note: str = ""

    def param(self, name: str) -> MapParam | None:
        return next((p for p in self.params if p.name == name), None)


def mappable(paper: str) -> dict[str, Mappable]:
    """The claims of ``paper`` that may be mapped, by claim id (empty when it declares none)."""
    spec = papers.get(paper)
    return {m.claim: m for m in spec.map_list()}


# --------------------------------------------------------------------------------------------
# Plan: the claim's families and sweeps, the cells and their sweep configurations
# --------------------------------------------------------------------------------------------

def _claims_needed(spec, claim_id: str):
    """(the claim, every claim its verdict rests on including itself, the families they read)."""
    claims = {c.id: c for c in spec.claim_list()}
    if claim_id not in claims:
        raise ConfigError(f"claim: {claim_id!r} is not a claim of {spec.name} (expected one of "
                          f"{', '.join(claims)})")
    need, todo = {}, [claim_id]
    while todo:
        c = claims[todo.pop()]
        if c.id in need:
            continue
        need[c.id] = c
        todo.extend(c.depends)
    fams = []
    for c in need.values():
        if c.family is not None and c.family not in fams:
            fams.append(c.family)
    return claims[claim_id], list(need.values()), fams


def _pinned(cfg, values: dict, where: str):
    """``cfg`` with ``values`` put in: fixed parameters replaced, axes pinned to one value."""
    from diffsweep.core.identity import digest  # noqa: PLC0415

    fixed, axes = dict(cfg.fixed), dict(cfg.axes)
    for name, v in values.items():
        for g in cfg.zips:
            if name in g.names:
                raise ConfigError(f"axes.{name}: {where} varies it together with "
                                  f"{', '.join(n for n in g.names if n != name)} (a zip group); "
                                  "it cannot be mapped")
        axes.pop(name, None)
        fixed[name] = v
    out = dataclasses.replace(cfg, fixed=fixed, axes=axes, zips=list(cfg.zips))
    out.points_sha256 = digest(out._points_dict())
    return out


def _plan(paper: str, claim: str, axes, quick: bool, seeds, sweeps) -> _Plan:
    from diffsweep.sweep import config
    from diffsweep.studies import reproduce_folder  # noqa: PLC0415

    spec = papers.get(paper)
    maps = mappable(paper)
    the_claim, needed, fams = _claims_needed(spec, claim)
    if claim not in maps:
        listed = ", ".join(maps) or "none"
        raise ConfigError(f"claim: {claim} of {paper} declares no parameters to map over "
                          f"(mappable claims of {paper}: {listed}; `diffsweep atlas {paper} "
                          "--list` shows them)")
    m = maps[claim]
    raw = parse_axes(axes)
    typed = {}
    for name, vals in raw.items():
        p = m.param(name)
        if p is None:
            raise ConfigError(f"axes: {name!r} is not allowed for {claim} (expected one of "
                              f"{', '.join(q.name for q in m.params)})")
        typed[name] = [p.value(v, f"axes.{name}[{i}]") for i, v in enumerate(vals)]
        if len(set(map(repr, typed[name]))) != len(typed[name]):
            raise ConfigError(f"axes.{name}: {typed[name]!r} repeats a value (each once)")
    n_cells = math.prod(len(v) for v in typed.values())
    if n_cells > MAX_CELLS:
        raise ConfigError(f"axes: {n_cells} cells ({' x '.join(str(len(v)) for v in typed.values())}"
                          f"); an atlas has at most {MAX_CELLS} (fewer values per axis)")
    sweeps_dir = reproduce_folder._check_sweeps_dir(sweeps)
    names = [s for f in fams for s in spec.family(f).sweeps]
    names = list(dict.fromkeys(names))
    base = {n: config.load_sweep(reproduce_folder._sweep_path(spec.package, n, sweeps_dir),
                                 quick=quick, seeds=seeds) for n in names}
    cells = [dict(zip(typed, combo)) for combo in itertools.product(*typed.values())]
    pv = {n: _paper_values(list(base.values()), n) for n in typed}
    from diffsweep.sweep.store import jsonable  # noqa: PLC0415

    identity = {"paper": spec.name, "claim": claim, "quick": bool(quick),
                "axes": jsonable(typed),
                "sweeps": names, "sweeps_dir": None if sweeps_dir is None else str(sweeps_dir)}
    return _Plan(spec, the_claim, needed, fams, names, base, typed, cells, pv, identity)


def _cell_cfgs(plan: _Plan, cell: dict, seeds: list[int] | None = None) -> dict:
    out = {}
    for n, cfg in plan.base.items():
        c = _pinned(cfg, cell, f"sweep {n}")
        if seeds is not None:
            c = dataclasses.replace(c, seeds=list(seeds))
        out[n] = c
    return out


# --------------------------------------------------------------------------------------------
# Rating a cell
# --------------------------------------------------------------------------------------------

def rate(plan: _Plan, runs: dict) -> tuple[Any, Any]:
    """(verdict on the intervals, verdict on the point estimates) of the plan's claim on one
    cell's runs (sweep name -> Results)."""
    from diffsweep.analysis import claims as cl  # noqa: PLC0415
    from diffsweep.report.figures import combine  # noqa: PLC0415

    results = {}
    for fam_id in plan.families:
        fam = plan.paper.family(fam_id)
        parts = [runs[s] for s in fam.sweeps]
        results[fam_id] = parts[0] if len(parts) == 1 else combine(parts, labels=list(fam.sweeps))
    v = cl.evaluate_all(results, plan.claims)[plan.claim.id]
    with cl.point_estimates():
        vm = cl.evaluate_all(results, plan.claims)[plan.claim.id]
    return v, vm


def status_of(v, vm) -> str:
    """The atlas's status of a cell: the verdict where the point estimates agree with it,
    else undecided (its intervals are too wide to decide)."""
    if v.status == "not measured" or v.status == vm.status:
        return v.status
    return UNDECIDED


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------

@dataclass
class AtlasResult:
    """``table``: one row per cell (the axes, status, verdict, point-estimate verdict, seeds,
    paper_point, reason); ``out``: the folder; ``paths``: the files written."""

    table: Any
    out: Path
    paths: dict
    meta: dict

    def __repr__(self) -> str:
        counts = self.table["status"].value_counts().to_dict() if len(self.table) else {}
        return (f"AtlasResult({self.meta.get('paper')} {self.meta.get('claim')}, "
                f"{len(self.table)} cells {counts}, out={str(self.out)!r})")


def _check_folder(out: Path, identity: dict) -> None:
    def what(held):
        return (f"{held.get('paper')} {held.get('claim')} over {', '.join(held.get('axes', {}))}"
                + (" (--quick)" if held.get("quick") else ""))
    check_study_folder(out, identity, SPEC_FILE, "atlas", "an atlas", what, "other axes")


def check_study_folder(out: Path, identity: dict, spec_file: str, kind: str, a_kind: str,
                       describe, varied: str) -> None:
    """Refuse ``out`` unless it is missing, empty, or holds the study ``identity`` (its
    ``spec_file`` says so): one folder holds one atlas (``kind``), one sensitivity study
    (``diffsweep.studies.sensitivity``); ``describe(held identity)`` names the study found there."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out: {out} is a file, not a folder (expected a folder for the "
                          f"{kind})")
    f = out / spec_file
    if not out.is_dir() or not any(out.iterdir()):
        return
    if not f.is_file():
        raise ConfigError(f"--out: {out} is not empty and holds no {kind} ({spec_file}); "
                          "choose another output folder")
    try:
        held = json.loads(f.read_text(encoding="utf-8")).get("identity")
    except (OSError, ValueError, AttributeError):
        raise ConfigError(f"--out: {f} is damaged (not {a_kind} description); move it aside "
                          "or choose another output folder") from None
    if held != identity:
        what = describe(held) if isinstance(held, dict) else f"another {kind}"
        raise ConfigError(f"--out: {out} holds the {kind} of {what} with {varied} or "
                          f"settings; one folder holds one {kind}: choose another output "
                          "folder")


def _run_round(plan: _Plan, todo: dict, out: Path, backend, threads, progress, log,
               resume: str) -> dict:
    """Run the cells ``todo`` (cell index -> seeds) and return cell -> {sweep: Results}: every
    replica not stored yet in one engine call (when it fits the memory budget), then each
    cell's sweeps stored and read back."""
    from diffsweep.studies import family_call
    from diffsweep.sweep import runner  # noqa: PLC0415
    from diffsweep.sweep.family_run import family_interrupted  # noqa: PLC0415

    cfgs = {k: _cell_cfgs(plan, plan.cells[k], seeds) for k, seeds in todo.items()}
    grids = {}  # "cell/sweep" -> the seeds with nothing stored at any point
    for k, by_sweep in cfgs.items():
        for n, cfg in by_sweep.items():
            # a seed stored at some points only (a run stopped in a chunk) is completed by
            # runner.run below
            have = _stored_seeds(out / "cells" / str(k) / n)
            new = [s for s in cfg.seeds if s not in have]
            if new:
                grids[f"{k}/{n}"] = dataclasses.replace(cfg, seeds=new).make_grid()
    # auto: by the predicted time of the seeds left to run (all of the round's when each has
    # some stored: a stopped chunk's rest)
    backend = family_call.auto_backend(backend, grids.values() if grids else
                                       (c.make_grid() for by in cfgs.values()
                                        for c in by.values()),
                                       threads, log, "[atlas]")
    pre, stopped = {}, False
    if grids:
        pre, stopped, _ = family_call.one_engine_call(grids, backend, threads, progress, log,
                                                      "[atlas]", f"{len(todo)} cells",
                                                      "each cell's sweep")
    runs = {}
    for k, by_sweep in cfgs.items():
        runs[k] = {}
        for n, cfg in by_sweep.items():
            runs[k][n] = runner.run(cfg, backend=backend, store=out / "cells" / str(k) / n,
                                    progress=progress if not pre else False, threads=threads,
                                    resume_hint=resume, precomputed=pre.get(f"{k}/{n}"),
                                    compute=not stopped, quiet=True)
    if stopped:
        raise family_interrupted(stopped, pre, f"under {out / 'cells'}", out, resume)
    return runs


def atlas(paper: str, claim: str, axes, *, seeds: int | None = None, quick: bool = False,
          out=None, max_seeds: int | None = None, backend: str = "auto",
          threads: int | None = None, progress: bool | None = None, log=print, sweeps=None,
          resume: str | None = None) -> AtlasResult:
    """Map ``claim`` of ``paper`` over ``axes`` (module docstring). ``axes``: {name: values}
    or ``["NAME=V1,V2", ...]``; ``seeds``: seeds per point of the first round (default the
    sweep files', with ``quick`` their [quick] ones); ``max_seeds``: the most a cell gets
    where it is undecided (default ``SEED_GROWTH`` x the first round's; equal to ``seeds``:
    no adaptive seeds); ``out``: the folder (default ``results/atlas-<paper>-<claim>``).
    Everything is checked before anything runs; a rerun resumes."""
    from diffsweep.studies import reproduce  # noqa: PLC0415
    from diffsweep.sweep.store import atomic_write_json  # noqa: PLC0415

    t_all = time.perf_counter()
    reproduce.check_options(threads, seeds, backend)
    from diffsweep.studies import own_atlas  # noqa: PLC0415
    if own_atlas.is_own(paper):  # a claim of one's own: a claim file or module:NAME
        plan = own_atlas.own_plan(paper, axes, quick, seeds)
        claim = plan.claim.id
    else:
        plan = _plan(paper, claim, axes, quick, seeds, sweeps)
    first = list(next(iter(plan.base.values())).seeds)
    if max_seeds is None:
        max_seeds = SEED_GROWTH * len(first)
    if isinstance(max_seeds, bool) or not isinstance(max_seeds, int) or max_seeds < len(first):
        raise ConfigError(f"max_seeds: {max_seeds!r} is not allowed (expected an integer >= the "
                          f"first round's {len(first)} seeds)")
    # every cell's scenarios built once before anything is written: a value the builder
    # refuses is named here, with its cell
    for k, cell in enumerate(plan.cells):
        for n, cfg in _cell_cfgs(plan, cell).items():
            try:
                g = cfg.make_grid()
                g.scenario(0, g.seeds[0])
            except ConfigError as e:
                raise ConfigError(f"{e} (atlas cell {k}: "
                                  + ", ".join(f"{a}={v!r}" for a, v in cell.items())
                                  + f"; sweep {n})") from None
    out = Path(out) if out is not None else Path("results") / f"atlas-{plan.paper.name}-{claim}"
    _check_folder(out, plan.identity)
    resume = resume or f"diffsweep atlas {paper} {claim} (same arguments)"
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_json(out / SPEC_FILE, {"identity": plan.identity})
    log(f"[atlas] {plan.paper.name} {claim}: {len(plan.cells)} cells ("
        + " x ".join(f"{a} {len(v)}" for a, v in plan.axes.items())
        + f"), sweeps {', '.join(plan.sweeps)}, {len(first)} seeds per point first, up to "
        f"{max_seeds} where undecided -> {out}")
    seeds_of = {k: list(first) for k in range(len(plan.cells))}
    # a resumed atlas: cells that got more seeds before keep them
    for k in seeds_of:
        stored = _stored_seeds(out / "cells" / str(k) / plan.sweeps[0])
        if stored and len(stored) > len(first) and set(first) <= stored:
            seeds_of[k] = sorted(stored)
    verdicts, todo, rounds = {}, dict(seeds_of), 0
    t_engine, used = 0.0, set()
    while todo:
        t0 = time.perf_counter()
        runs = _run_round(plan, todo, out, backend, threads, progress, log, resume)
        used |= {r.meta.get("backend", "?") for by in runs.values() for r in by.values()}
        t_engine += time.perf_counter() - t0
        grow = {}
        for k in todo:
            v, vm = rate(plan, runs[k])
            verdicts[k] = (v, vm)
            s = seeds_of[k]
            if status_of(v, vm) == UNDECIDED and len(s) < max_seeds:
                add = min(len(s), max_seeds - len(s))
                seeds_of[k] = s + list(range(max(s) + 1, max(s) + 1 + add))
                grow[k] = seeds_of[k]
        rounds += 1
        if grow:
            log(f"[atlas] round {rounds}: {len(grow)} undecided cells get more seeds ("
                + ", ".join(f"{k}: {len(s)}" for k, s in sorted(grow.items())[:8])
                + (" ..." if len(grow) > 8 else "") + ")")
        todo = grow
    table = _table(plan, verdicts, seeds_of)
    meta = {"paper": plan.paper.name, "claim": claim, "rounds": rounds,
            "wall_s": time.perf_counter() - t_all, "compute_s": t_engine,
            "max_seeds": max_seeds, "first_seeds": len(first), "quick": bool(quick),
            "backend": "+".join(sorted(used))}
    from diffsweep.report.atlas_page import write_atlas  # noqa: PLC0415
    paths = write_atlas(plan, table, out, meta)
    meta["wall_s"] = time.perf_counter() - t_all
    atomic_write_json(out / SPEC_FILE, {"identity": plan.identity, "meta": meta})
    counts = table["status"].value_counts().to_dict()
    log(f"[atlas] {len(table)} cells: " + ", ".join(f"{counts.get(s, 0)} {s}"
                                                    for s in ATLAS_STATUSES if counts.get(s))
        + f" ({meta['wall_s']:.1f} s); {paths['md']}")
    return AtlasResult(table, out, paths, meta)


def _stored_seeds(store: Path) -> set:
    """Seeds the store's chunks list at any point (a hint: runner.run checks the chunks)."""
    from diffsweep.sweep.store import recorded_pairs  # noqa: PLC0415
    return {s for _, s in recorded_pairs(store)}


def _table(plan: _Plan, verdicts: dict, seeds_of: dict):
    import pandas as pd  # noqa: PLC0415

    rows = []
    for k, cell in enumerate(plan.cells):
        v, vm = verdicts[k]
        paper_point = all(_same(cell[a], plan.paper_values[a][0]) for a in cell)
        rows.append({"cell": k, **cell, "status": status_of(v, vm), "verdict": v.status,
                     "point_estimate_verdict": vm.status, "seeds": len(seeds_of[k]),
                     "paper_point": paper_point, "reason": v.reason})
    return pd.DataFrame(rows)


def _same(v, paper_vals: list) -> bool:
    for p in paper_vals:
        if isinstance(v, float) or isinstance(p, float):
            try:
                if math.isclose(float(v), float(p), rel_tol=1e-9, abs_tol=0.0):
                    return True
            except (TypeError, ValueError):
                pass
        elif v == p:
            return True
    return False
