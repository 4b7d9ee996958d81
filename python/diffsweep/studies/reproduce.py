"""reproduce: run a paper's figure families through the resumable store, draw the figures and
write the claims report.

    diffsweep reproduce PAPER [--figure 2 5 f ...] [--quick] [--out DIR] [--backend ...]

PAPER is a registered paper (``diffsweep.papers``: its families, sweep files, figures, claims
and assumptions). Each family is one or more sweep files under ``sweeps/<package>/``; each
sweep runs into its own store folder ``DIR/<sweep name>/`` (a rerun resumes and recomputes
nothing finished), figures go to ``DIR/figures/`` as PNG and PDF, the report to
``DIR/report.md``, ``DIR/report.html`` and ``DIR/verdicts.json``. The replicas of every sweep
with nothing stored yet are computed in one engine call first
(``diffsweep.studies.family_call``: on a GPU one launch rather than one or more per sweep),
then stored sweep by sweep; the figures and the report are drawn from them
(``diffsweep.studies.reproduce_report``).

The sweep files are the packaged ones (``SWEEPS_DIR``, or the checkout's ``sweeps/``), never a
``./sweeps`` of the working directory: the same command gives the same results wherever it
runs. ``sweeps=DIR`` (``--sweeps DIR``) reads ``DIR/<package>/<name>.toml`` instead.

A folder holds one paper's reproduction: ``DIR/reproduce.json`` (``MARKER``) names the paper,
and another paper's reproduction into it is refused (it would overwrite the report). Every
option is checked before anything is computed or written; a folder this call created is
removed again when the call fails before writing anything into it. Figures and the report
are written to temporary files and renamed into place, so that a full disk leaves the
previous files intact and no truncated file.

This module checks the options and runs the steps; the sweep files and the folder are in
``diffsweep.studies.reproduce_folder``.
"""
from __future__ import annotations

import time
from pathlib import Path

from diffsweep.core import registry as papers
from diffsweep.core.errors import ConfigError
# (re-exported: reproduce.one_engine_call, reproduce.MARKER, reproduce.run_assumption, ...)
from diffsweep.studies.family_call import (FAMILY_COPIES,  # noqa: F401 (re-exported)
                                           FAMILY_MEMORY_FRACTION, _family_call,
                                           _unstored_grids, auto_backend, family_arrays_bytes,
                                           one_engine_call, plan_note)
from diffsweep.studies.reproduce_folder import (CHECKOUT_SWEEPS,  # noqa: F401 (re-exported)
                                                MARKER, REPORT_FILES, SWEEPS_DIR,
                                                _check_sweeps_dir, _created_root, _sweep_path,
                                                _undo_empty, check_folder, folder_paper)
from diffsweep.studies.reproduce_report import (_analyse, _parallel,  # noqa: F401
                                                _plural, _Runs, _start_figures,
                                                run_assumption)


def select(families, figures: list[str] | None, quick: bool = False):
    """The families whose ``figure`` is in ``figures`` (all when None or empty; with ``quick``
    all but the ``full_only`` ones, which run in --quick only when named)."""
    if not figures:
        return [f for f in families if not (quick and f.full_only)]
    known = {f.figure: f for f in families}
    bad = [x for x in figures if str(x) not in known]
    if bad:
        raise ConfigError(f"--figure: {bad!r} is not allowed (expected some of "
                          f"{', '.join(known)})")
    return [known[str(x)] for x in figures]


def check_options(threads, seeds, backend: str) -> None:
    """The run options, checked before anything runs (a bad ``threads`` used to be found by
    ``runner.run`` only after the family's engine call): ConfigError / BackendError naming the
    option."""
    from diffsweep import engine  # noqa: PLC0415
    from diffsweep.engine.run_args import check_threads  # noqa: PLC0415

    check_threads(threads)
    if seeds is not None and (isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1):
        raise ConfigError(f"seeds: {seeds!r} is not allowed (expected an integer >= 1)")
    if backend not in engine.BACKENDS:
        raise ConfigError(f"backend: {backend!r} is not allowed (expected one of "
                          f"{', '.join(engine.BACKENDS)})")
    engine.resolve_backend(backend)  # 'cuda' without a CUDA engine or device fails here


def prepare(paper: str, out, figures, quick: bool, seeds, sweeps, threads, backend):
    """Every check of a reproduction's options before anything is computed or written, and
    what it runs: (spec, chosen families, sweeps folder or None, out as a Path, sweep names,
    name -> SweepConfig). Every sweep file is read and checked (seeds, [quick]) before the
    folder is touched (``reproduce`` and ``reproduce_plan.plan``)."""
    from diffsweep.sweep import config

    spec = papers.get(paper)
    chosen = select(spec.families, figures, quick)
    check_options(threads, seeds, backend)
    sweeps = _check_sweeps_dir(sweeps)
    out = Path(out)
    check_folder(out, spec.name, quick)
    names = list(dict.fromkeys(s for fam in chosen for s in fam.sweeps))
    cfgs = {name: config.load_sweep(_sweep_path(spec.package, name, sweeps), quick=quick,
                                    seeds=seeds) for name in names}
    return spec, chosen, sweeps, out, names, cfgs


def reproduce(paper: str, out, figures: list[str] | None = None, quick: bool = False,
              backend: str = "auto", seeds: int | None = None, progress: bool | None = None,
              threads: int | None = None, log=print, sweeps=None, resume: str | None = None,
              redraw: bool = False, jobs: int | None = None):
    """Run the chosen families of the registered paper ``paper`` (e.g. "kaur-vin") and write
    figures and report into ``out``. Returns (report.md path, report.html path, verdicts).

    ``sweeps``: a folder of sweep files (``sweeps/<package>/<name>.toml``) to read instead of
    the packaged ones; ``resume``: the command to print for resuming after an interruption or
    a write error. The claims of families not chosen are "not measured" (never rated from
    another family's data). ConfigError before anything runs for a bad option, or an ``out``
    that holds another paper's reproduction.

    ``jobs``: processes drawing the figures (None: one per core; 1: all in this process);
    ``redraw``: draw the figures and write the report even when ``out`` holds every result and
    the report made from them by this diffsweep (``diffsweep.report.cache``), which are
    otherwise kept as they are (the verdicts returned then come from its verdicts.json)."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ConfigError(f"jobs: {jobs!r} is not allowed (expected an integer >= 1)")
    spec, chosen, sweeps, out, names, cfgs = prepare(paper, out, figures, quick, seeds, sweeps,
                                                     threads, backend)
    resume = resume or f"diffsweep reproduce {paper} (same arguments)"
    created = _created_root(out)
    marked = not (out / MARKER).is_file()
    try:
        out.mkdir(parents=True, exist_ok=True)
        if marked:
            from diffsweep.sweep.store import atomic_write_json  # noqa: PLC0415
            atomic_write_json(out / MARKER, {"paper": spec.name})
        return _reproduce(spec, out, chosen, names, cfgs, quick, backend, progress, threads,
                          log, sweeps, resume, redraw, jobs)
    except BaseException:
        _undo_empty(out, created, marked)
        raise


def _reproduce(spec, out: Path, chosen, names, cfgs, quick, backend, progress, threads, log,
               sweeps, resume, redraw=False, jobs=None):
    from diffsweep.report import cache as report_cache
    from diffsweep.sweep import runner

    timings: dict[str, float] = {}
    runs = {}
    t_all = time.perf_counter()
    options = {"figures": [f.id for f in chosen], "quick": bool(quick), "backend": backend,
               "sweeps": None if sweeps is None else str(sweeps)}
    if not redraw:
        kept = report_cache.lookup(out, report_cache.key(out, spec.name, cfgs, options))
        if kept is not None:
            log(f"every result is stored and {out / 'report.md'}, its figures and verdicts come "
                f"from these results and this diffsweep: kept as they are "
                f"({time.perf_counter() - t_all:.1f} s; --redraw draws them again)")
            return out / "report.md", out / "report.html", kept
    # one backend for the family call and every sweep's store (auto: by the predicted time of
    # what is left to run: the sweeps with nothing stored, or, when every sweep has some, all)
    grids = _unstored_grids(cfgs, out)
    backend = auto_backend(backend, grids.values() if grids else
                           (cfg.make_grid() for cfg in cfgs.values()), threads, log)
    pre, stopped = _family_call(grids, backend, threads, progress, timings, log)
    from diffsweep.report.figures import shared_combine  # noqa: PLC0415
    with shared_combine():
        runs = _Runs(cfgs, out, parallel=not stopped and _parallel(jobs, chosen))
        drawing = None
        try:
            t_store = time.perf_counter()
            if not stopped:
                # the figures are drawn from here on (the workers read each sweep once it is
                # stored): the record of the report they replace goes first
                report_cache.forget(out)
                drawing = _start_figures(spec, out, chosen, names, runs, jobs, resume)
            for name in names:
                cfg = cfgs[name]
                log(f"[{name}] {cfg.n_points} points x {_plural(len(cfg.seeds), 'seed')} -> "
                    f"{out / name}")
                t0 = time.perf_counter()
                runs.put(name, runner.run(cfg, backend=backend, store=out / name,
                                          progress=progress, threads=threads,
                                          resume_hint=resume, precomputed=pre.get(name),
                                          compute=not stopped))
                timings[f"sweep {name}"] = time.perf_counter() - t0
                m = runs[name].meta
                log(f"[{name}] computed {m.get('replicas_run', 0)}, reused "
                    f"{m.get('replicas_reused', 0)} in {timings[f'sweep {name}']:.1f} s")
            if stopped:
                from diffsweep.sweep.family_run import family_interrupted  # noqa: PLC0415
                raise family_interrupted(stopped, pre, f"in the sweeps' folders under {out}",
                                         out, resume)
            phases = {"store": time.perf_counter() - t_store}
            key = report_cache.key(out, spec.name, cfgs, options)
            md, html, verdicts, fig_paths = _analyse(spec, out, chosen, names, runs, cfgs,
                                                     quick, backend, sweeps, resume, timings,
                                                     phases, t_all, drawing)
        except BaseException:
            runs.abort()  # a worker waiting for a sweep stops
            if drawing is not None:
                drawing.close()
            raise
    report_cache.record(out, key, [md, html, out / "verdicts.json",
                                   *(p for v in fig_paths.values() for p in v)])
    log("[host] " + ", ".join(f"{k} {v:.1f} s" for k, v in phases.items()
                              if not k.startswith("figure ")))
    log("[figures] " + ", ".join(f"{k[7:]} {v:.1f} s" for k, v in phases.items()
                                 if k.startswith("figure ")))
    log(f"wrote {md} and {html} in {timings['total']:.1f} s")
    return md, html, verdicts
