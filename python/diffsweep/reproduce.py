"""reproduce: run a paper's figure families through the resumable store, draw the figures and
write the claims report.

    diffsweep reproduce PAPER [--figure 2 5 f ...] [--quick] [--out DIR] [--backend ...]

PAPER is a registered paper (``diffsweep.papers``: its families, sweep files, figures, claims
and assumptions). Each family is one or more sweep files under ``sweeps/<package>/``; each
sweep runs into its own store folder ``DIR/<sweep name>/`` (a rerun resumes and recomputes
nothing finished), figures go to ``DIR/figures/`` as PNG and PDF, the report to
``DIR/report.md``, ``DIR/report.html`` and ``DIR/verdicts.json``. The replicas of every sweep
with nothing stored yet are computed in one engine call first (``_family_call``: on a GPU
one launch rather than one or more per sweep), then stored sweep by sweep.
"""
from __future__ import annotations

import platform
import signal
import time
from pathlib import Path

from . import papers

from .errors import ConfigError, SweepInterrupted

SWEEPS_DIR = Path(__file__).resolve().parent / "sweeps"


def _sweep_path(paper_dir: str, name: str) -> Path:
    """sweeps/<paper_dir>/<name>.toml in ./sweeps, the installed package, or the checkout."""
    for base in (Path.cwd() / "sweeps", SWEEPS_DIR, Path(__file__).resolve().parents[2] / "sweeps"):
        p = base / paper_dir / f"{name}.toml"
        if p.is_file():
            return p
    raise ConfigError(f"sweep {paper_dir}/{name}.toml: not found (looked in ./sweeps and the "
                      f"installed package)")


def select(families, figures: list[str] | None):
    """The families whose ``figure`` is in ``figures`` (all when None or empty)."""
    if not figures:
        return list(families)
    known = {f.figure: f for f in families}
    bad = [x for x in figures if str(x) not in known]
    if bad:
        raise ConfigError(f"--figure: {bad!r} is not allowed (expected some of "
                          f"{', '.join(known)})")
    return [known[str(x)] for x in figures]


def reproduce(paper: str, out, figures: list[str] | None = None, quick: bool = False,
              backend: str = "auto", seeds: int | None = None, progress: bool | None = None,
              threads: int | None = None, log=print):
    """Run the chosen families of the registered paper ``paper`` (e.g. "kaur-vin") and write
    figures and report into ``out``. Returns (report.md path, report.html path, verdicts)."""
    from . import config, runner
    from .figures import combine, save
    from .report import write_report

    spec = papers.get(paper)
    chosen = select(spec.families, figures)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    runs, cfgs = {}, {}
    t_all = time.perf_counter()
    names = list(dict.fromkeys(s for fam in chosen for s in fam.sweeps))
    for name in names:
        cfgs[name] = config.load_sweep(_sweep_path(spec.package, name), quick=quick, seeds=seeds)
    resume = f"diffsweep reproduce {paper} (same arguments)"
    pre, stopped = _family_call(cfgs, out, backend, threads, progress, timings, log)
    for name in names:
        cfg = cfgs[name]
        log(f"[{name}] {cfg.n_points} points x {len(cfg.seeds)} seeds -> {out / name}")
        t0 = time.perf_counter()
        runs[name] = runner.run(cfg, backend=backend, store=out / name, progress=progress,
                                threads=threads, resume_hint=resume,
                                precomputed=pre.get(name), compute=not stopped)
        timings[f"sweep {name}"] = time.perf_counter() - t0
        m = runs[name].meta
        log(f"[{name}] computed {m.get('replicas_run', 0)}, reused {m.get('replicas_reused', 0)} "
            f"in {timings[f'sweep {name}']:.1f} s")
    if stopped:
        saved = sum(len(r.replicas) for r in pre.values())
        by = f" by {stopped.name}" if stopped == signal.SIGTERM else ""
        raise SweepInterrupted(f"interrupted{by}: the {saved} replicas that finished are saved in "
                               f"the sweeps' folders under {out}. Resume with:\n  {resume}",
                               store=str(out), done=saved, resume=resume,
                               signum=stopped if isinstance(stopped, signal.Signals)
                               else signal.SIGINT)
    results = {}
    fig_paths: dict[str, list[Path]] = {}
    fig_dir = out / "figures"
    fig_dir.mkdir(exist_ok=True)
    notes: dict[str, str] = {}
    draw = spec.figure_functions() if any(f.make is None for f in chosen) else {}
    for fam in chosen:
        if fam.make is not None:
            fig_paths[fam.id], notes[fam.id] = papers.resolve(fam.make)(runs, fig_dir, spec)
            continue
        parts = [runs[s] for s in fam.sweeps]
        res = parts[0] if len(parts) == 1 else combine(parts, labels=list(fam.sweeps))
        results[fam.id] = res
        t0 = time.perf_counter()
        fig = draw[fam.id](res)
        fig_paths[fam.id] = list(save(fig, fig_dir / f"{spec.package}_fig{fam.figure}"))
        timings[f"figure {fam.id}"] = time.perf_counter() - t0
    timings["total"] = time.perf_counter() - t_all
    meta = next(iter(runs.values())).meta if runs else {}
    setup = (spec.setup + f"\n\nRun: {'--quick' if quick else 'full'}, backend "
             f"{meta.get('backend', backend)} on {platform.node()} ({platform.machine()}), "
             f"diffsweep {meta.get('version', '?')}; sweep files: "
             + ", ".join(f"sweeps/{spec.package}/{n}.toml" for n in runs) + ".")
    md, html = write_report(spec, results, out, figures=fig_paths,
                            assumptions=[run_assumption(cfgs, quick, spec.run_note), *spec.assumptions],
                            setup=setup, timings=timings, notes=notes, quick=quick)
    verdicts = spec.evaluate(results)
    log(f"wrote {md} and {html} in {timings['total']:.1f} s")
    return md, html, verdicts


#: the family's one engine call is made when its replicas' arrays fit in this fraction of
#: the memory budget of a chunk (runner.default_memory_budget); else each sweep runs alone
FAMILY_MEMORY_FRACTION = 0.5


def _family_call(cfgs: dict, out: Path, backend: str, threads, progress, timings: dict, log):
    """Every replica of the sweeps that have nothing stored yet, in one engine call
    (``runner.run_family``): a GPU launch lasts as long as its slowest replica, so one per sweep
    (a family of 20 sweeps) would cost 20 such spans. Sweeps with results already (a resumed
    reproduction) run on their own. Skipped when the replicas' arrays would not fit in
    FAMILY_MEMORY_FRACTION of a chunk's memory budget. Returns (name -> Results, stopped)."""
    from . import engine, runner  # noqa: PLC0415
    from .store import CHUNKS  # noqa: PLC0415

    grids = {}
    for name, cfg in cfgs.items():
        chunks = out / name / CHUNKS
        if chunks.is_dir() and any(chunks.iterdir()):
            continue
        grids[name] = cfg.make_grid()
    if not grids:
        return {}, False
    need = 0
    for g in grids.values():  # the grid's first and last points, a seed each, as a sample
        per = max(runner.replica_bytes(g.scenario(p, g.seeds[0]), g.seeds[0])
                  for p in {0, g.n_points - 1})
        need += 2 * per * len(g)
    budget = runner.default_memory_budget(engine.resolve_backend(backend))
    if need > FAMILY_MEMORY_FRACTION * budget:
        log(f"[family] {need / 2**20:.0f} MiB of arrays: above {FAMILY_MEMORY_FRACTION:g} of the "
            f"{budget / 2**20:.0f} MiB budget, so each sweep runs alone")
        return {}, False
    n = sum(len(g) for g in grids.values())
    log(f"[family] {len(grids)} sweeps, {n} replicas in one engine call")
    t0 = time.perf_counter()
    pre, stopped = runner.run_family(grids, backend, threads, progress)
    timings["family engine call"] = time.perf_counter() - t0
    log(f"[family] {sum(len(r.replicas) for r in pre.values())} replicas in "
        f"{timings['family engine call']:.1f} s" + (" (stopped)" if stopped else ""))
    return pre, stopped


def _setting(cfg, key: str) -> str:
    if key in cfg.fixed:
        v = cfg.fixed[key]
        return f"{v:g} s" if isinstance(v, (int, float)) else str(v)
    for names in [(k,) for k in cfg.axes] + [g.names for g in cfg.zips]:
        if key in names:
            return "varied (a grid axis)"
    return "the builder's default"


def run_assumption(cfgs, quick: bool, note: str = "") -> str:
    """The report's first assumption, from the sweep files actually run (after ``[quick]`` and
    ``--seeds``): duration, warm-up and seeds per point, grouped by sweep; ``note`` (the
    paper's ``run_note``) says what the paper itself gives."""
    groups: dict[tuple, list[str]] = {}
    for name, cfg in cfgs.items():
        key = (_setting(cfg, "duration_s"), _setting(cfg, "warmup_s"), len(cfg.seeds))
        groups.setdefault(key, []).append(name)
    parts = [f"duration {d}, warm-up {w}, {n} seed{'s' if n != 1 else ''} per point "
             f"({', '.join(names)})" for (d, w, n), names in groups.items()]
    how = (" with their [quick] sections (which also have fewer grid points)" if quick else "")
    return (f"Per replica, as the sweep files run here set them{how}: " + "; ".join(parts)
            + "." + (f" {note}" if note else ""))
