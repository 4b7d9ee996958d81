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

The sweep files are the packaged ones (``SWEEPS_DIR``, or the checkout's ``sweeps/``), never a
``./sweeps`` of the working directory: the same command gives the same results wherever it
runs. ``sweeps=DIR`` (``--sweeps DIR``) reads ``DIR/<package>/<name>.toml`` instead.

A folder holds one paper's reproduction: ``DIR/reproduce.json`` (``MARKER``) names the paper,
and another paper's reproduction into it is refused (it would overwrite the report). Every
option is checked before anything is computed or written; a folder this call created is
removed again when the call fails before writing anything into it. Figures and the report
are written to temporary files and renamed into place, so that a full disk leaves the
previous files intact and no truncated file.
"""
from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Mapping
from pathlib import Path

from diffsweep.core import registry as papers

from diffsweep.core.errors import ConfigError, StoreError

SWEEPS_DIR = Path(__file__).resolve().parents[1] / "sweeps"
#: the checkout's sweep files (an editable install or PYTHONPATH=python has no packaged copy)
CHECKOUT_SWEEPS = Path(__file__).resolve().parents[3] / "sweeps"
#: the file naming the paper whose reproduction a folder holds
MARKER = "reproduce.json"
#: what a reproduction writes at the top of its folder (besides its sweeps' folders)
REPORT_FILES = ("report.md", "report.html", "verdicts.json")


def _sweep_path(paper_dir: str, name: str, sweeps: Path | None = None) -> Path:
    """sweeps/<paper_dir>/<name>.toml: in ``sweeps`` when given, else in the installed package
    or the checkout. The working directory is never searched (a stray ./sweeps made results
    depend on where the command ran)."""
    bases = (Path(sweeps),) if sweeps is not None else (SWEEPS_DIR, CHECKOUT_SWEEPS)
    for base in bases:
        p = base / paper_dir / f"{name}.toml"
        if p.is_file():
            return p
    if sweeps is not None:
        raise ConfigError(f"--sweeps: {paper_dir}/{name}.toml is not in {sweeps} (expected "
                          f"{Path(sweeps) / paper_dir / (name + '.toml')})")
    raise ConfigError(f"sweep {paper_dir}/{name}.toml: not found (looked in the installed "
                      f"package {SWEEPS_DIR} and the checkout {CHECKOUT_SWEEPS})")


def _check_sweeps_dir(sweeps) -> Path | None:
    if sweeps is None:
        return None
    d = Path(sweeps)
    if not d.is_dir():
        raise ConfigError(f"--sweeps: {str(d)!r} is not a folder (expected a folder of sweep "
                          "files, DIR/<package>/<name>.toml, like the checkout's sweeps/)")
    return d


def folder_paper(out: Path) -> str | None:
    """The paper whose reproduction the folder ``out`` holds: the name in its ``MARKER``, else
    (a folder written before the marker existed) the paper whose title heads its report.md or
    whose claims are the keys of its verdicts.json; "an unknown paper" when a report is there
    but none matches; None when the folder holds no reproduction."""
    try:
        name = json.loads((out / MARKER).read_text(encoding="utf-8")).get("paper")
        if isinstance(name, str) and name:
            return name
    except (OSError, ValueError, AttributeError):
        pass
    present = [f for f in REPORT_FILES if (out / f).is_file()]
    if not present:
        return None
    try:
        first = (out / "report.md").read_text(encoding="utf-8").split("\n", 1)[0]
    except OSError:
        first = ""
    for name in papers.names():
        if first == f"# {papers.get(name).title}: reproduction report":
            return name
    try:
        ids = set(json.loads((out / "verdicts.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        ids = set()
    for name in papers.names():
        if ids and ids == {c.id for c in papers.get(name).claim_list()}:
            return name
    return "an unknown paper"


def check_folder(out: Path, paper: str, quick: bool) -> None:
    """Refuse to write ``paper``'s reproduction into a folder that holds another paper's: its
    report.md, report.html and verdicts.json would be overwritten (issue 23)."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out: {out} is a file, not a folder (expected a folder for the "
                          "reproduction: choose another output folder)")
    if not out.is_dir():
        return
    owner = folder_paper(out)
    if owner is None or owner == paper:
        return
    suggestion = Path("results") / f"{paper}{'-quick' if quick else ''}"
    if suggestion.resolve() == out.resolve():
        suggestion = out.with_name(f"{out.name}-{paper}")
    what = owner if owner == "an unknown paper" else f"the {owner} reproduction"
    raise ConfigError(f"--out: {out} holds {what} (its report.md, report.html and "
                      f"verdicts.json would be overwritten by {paper}'s); one folder holds one "
                      f"paper: choose another output folder, e.g. --out {suggestion}")


def _created_root(out: Path) -> Path | None:
    """The outermost folder of ``out``'s path that does not exist yet (what mkdir(parents=True)
    creates), or None when ``out`` exists."""
    if out.exists():
        return None
    root = out
    for parent in out.absolute().parents:
        if parent.exists():
            break
        root = parent
    return root


def _only_marker(path: Path) -> bool:
    """``path`` holds nothing but empty folders and this module's marker."""
    for p in path.rglob("*"):
        if not p.is_dir() and not (p.name == MARKER and p.parent == path):
            return False
    return True


def _undo_empty(out: Path, created: Path | None, marked: bool) -> None:
    """After a failure that wrote nothing: remove the marker this call wrote and the folders it
    created, so that a failure before anything was saved (the engine's, a Ctrl-C) leaves no
    empty results folder behind. Anything else in the folder (a sweep's saved replicas) is
    kept."""
    try:
        if not out.is_dir() or not _only_marker(out):
            return
        if marked:
            (out / MARKER).unlink(missing_ok=True)
        if created is None:
            return  # the folder was there before: only the marker goes
        for d in sorted((p for p in out.rglob("*") if p.is_dir()), key=lambda p: len(p.parts),
                        reverse=True):
            d.rmdir()
        d = out.absolute()
        stop = created.absolute()
        while True:
            d.rmdir()
            if d == stop:
                break
            d = d.parent
    except OSError:
        pass  # best effort: the error being reported matters more


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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def check_options(threads, seeds, backend: str) -> None:
    """The run options, checked before anything runs (a bad ``threads`` used to be found by
    ``runner.run`` only after the family's engine call): ConfigError / BackendError naming the
    option."""
    from diffsweep.engine import compiled as engine  # noqa: PLC0415
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


def _processes(jobs) -> int:
    from diffsweep.report.render import default_workers  # noqa: PLC0415

    return default_workers() if jobs is None else jobs


def _split(jobs, chosen) -> bool:
    """Whether a make hook's parts are drawn as tasks of their own: where more processes draw
    than there are families, cores would otherwise wait idle beside the longest one
    (benchmarks/reproduce.md: a 12-family reproduction on 16 cores, host share 11.8 -> 4.9 s);
    with fewer, the parts' shared tables would be computed in several processes for nothing
    (the same paper's quick run on 2 cores: ~1 s more)."""
    return _processes(jobs) > len(chosen)


def _parallel(jobs, chosen) -> bool:
    """Whether the figures are drawn in other processes too (``figures.render``)."""
    from diffsweep.report.render import forks  # noqa: PLC0415

    # one family may be several tasks when it is split (a make hook with parts)
    several = len(chosen) > 1 or _split(jobs, chosen)
    return _processes(jobs) > 1 and several and forks()


class _Runs(Mapping):
    """The reproduction's sweeps, name -> Results (``runner.run``'s answer), each put here once
    stored. Figure workers are forked before the sweeps are stored (``_start_figures``): in a
    worker, a sweep that is not here is waited for until this process has stored it, then read
    from its folder (``runner.read_stored``: the tables ``runner.run`` answered here; its meta
    lacks the run's keys, which no figure reads). In this process, a sweep not stored yet is a
    KeyError, as in a dict."""

    def __init__(self, cfgs: dict, out: Path, parallel: bool):
        self._cfgs, self._out, self._pid = cfgs, out, os.getpid()
        self._have: dict = {}
        self._stored: dict = {}
        self._stop = None
        if parallel:
            import multiprocessing as mp  # noqa: PLC0415

            ctx = mp.get_context("fork")
            self._stored = {name: ctx.Event() for name in cfgs}
            self._stop = ctx.Event()

    def put(self, name: str, res) -> None:
        self._have[name] = res
        if name in self._stored:
            self._stored[name].set()

    def abort(self) -> None:
        """This process will store no more sweeps: a worker waiting for one stops."""
        if self._stop is not None:
            self._stop.set()

    def __getitem__(self, name: str):
        if name in self._have:
            return self._have[name]
        if os.getpid() == self._pid or name not in self._stored:
            raise KeyError(name)
        from diffsweep.sweep import runner  # noqa: PLC0415

        while not self._stored[name].wait(0.05):
            if self._stop.is_set():
                raise RuntimeError(f"sweep {name}: the reproduction stopped before storing it")
        self._have[name] = runner.read_stored(self._cfgs[name], self._out / name)
        return self._have[name]

    def __contains__(self, name) -> bool:
        return name in self._cfgs

    def __iter__(self):
        return iter(self._cfgs)

    def __len__(self) -> int:
        return len(self._cfgs)


def _family_results(fam, runs):
    """A family's Results: its one sweep, or its sweeps combined (within ``shared_combine``:
    one object per family and process, whose per-seed tables are computed once)."""
    from diffsweep.report.figures import combine  # noqa: PLC0415

    parts = [runs[s] for s in fam.sweeps]
    return parts[0] if len(parts) == 1 else combine(parts, labels=list(fam.sweeps))


def _start_figures(spec, out: Path, chosen, names, runs, jobs, resume):
    """Start drawing the figures of the families ``chosen`` (``figures.render.start``), one task
    per family (a split make hook's parts each a task, first: ``_split``), before the sweeps
    are stored: a worker takes its tasks at once and reads each sweep as soon as this process
    has stored it (``_Runs``), so that it draws while this process stores. Whole make hooks
    are last: this process, which takes the tasks from the back once the sweeps are stored
    and the claims rated, starts them first (they draw several figures and may rate claims:
    started late, one would finish alone; a hook that rates claims on a family's own data gets
    the verdicts the claims rated here just gave, ``claims._rated``). Returns the ``Drawing``,
    its tasks' places in task order as ``order`` and per family (its places, its join or
    None) as ``joins``."""
    from diffsweep.report.figures import save  # noqa: PLC0415
    from diffsweep.report.render import start  # noqa: PLC0415

    fig_dir = out / "figures"
    try:
        fig_dir.mkdir(exist_ok=True)
    except OSError as e:
        raise _write_failed(e, out, names, {}, resume) from None

    def draw(fam):
        stem = fig_dir / f"{spec.package}_fig{fam.figure}"
        return list(save(spec.figure_functions()[fam.id](_family_results(fam, runs)), stem)), None

    # (the figure modules, and matplotlib, are imported by the task that first needs them: in
    # a worker, while this process stores the sweeps). A make hook with ``parts`` (see
    # ``papers.Family``) is several tasks, put together by its ``join`` once drawn, where
    # there are more processes than families (``_split``).
    tasks, joins = [], []  # joins: per family, (its tasks' places, join or None)
    split_ok = _split(jobs, chosen)
    for fam in chosen:
        split = (getattr(papers.resolve(fam.make), "parts", None)
                 if fam.make is not None and split_ok else None)
        if split is not None:
            parts, join = split(runs, fig_dir, spec)
        else:  # a hook is imported by the task that runs it
            parts = [(lambda make=fam.make: papers.resolve(make)(runs, fig_dir, spec))
                     if fam.make is not None else (lambda fam=fam: draw(fam))]
            join = None
        joins.append((list(range(len(tasks), len(tasks) + len(parts))), join))
        # parts first (workers take from the front: a long family's pieces start at once),
        # then plain families, then whole make hooks (this process starts those first)
        rank = 0 if join is not None else 2 if fam.make is not None else 1
        tasks += [(rank, part) for part in parts]
    first = sorted(range(len(tasks)), key=lambda i: tasks[i][0])
    drawing = start([tasks[i][1] for i in first], jobs)
    drawing.order = first
    drawing.joins = joins
    return drawing


def _analyse(spec, out: Path, chosen, names, runs, cfgs, quick, backend, sweeps, resume,
             timings: dict, phases: dict, t_all: float, drawing):
    """The host's work after the sweeps: every family's Results (a sweep read by several
    families combined once), the claims rated here, once, while the workers draw the figures
    (``drawing``, started before the sweeps were stored), then the figures no worker has
    started drawn here (``figures.render``), and the report. Returns (report.md, report.html,
    verdicts, figure paths by family)."""
    from diffsweep.report.paper_report import engine_use, write_report  # noqa: PLC0415

    results = {fam.id: _family_results(fam, runs) for fam in chosen if fam.make is None}
    fig_paths: dict[str, list[Path]] = {}
    notes: dict[str, str] = {}
    # a family that was not run is not rated, even where its claims could read another
    # family's data (a paper's ``lookup`` may fall back to every family's flows): that would
    # rate it on part of its data
    ids = {f.id for f in chosen}
    why = f"--figure {' '.join(x.figure for x in chosen)}"
    not_run = {f.id: (f"not rated: figure {f.figure} (sweeps {', '.join(f.sweeps)}) was not run "
                      f"by this reproduction ("
                      + (f"--quick runs it only when --figure names it: --figure {f.figure}"
                         if quick and f.full_only else why) + ")")
               for f in spec.families if f.id not in ids}
    try:
        done, (verdicts, t_claims) = drawing.finish(
            meanwhile=lambda: _timed(_evaluate, spec, results, not_run))
        done = [d for _, d in sorted(zip(drawing.order, done))]
        # per family: its answer (a split hook's parts joined) and seconds (its longest part's,
        # waiting for its sweeps included: the parts run side by side)
        done = [(join([done[i][0] for i in places]), max(done[i][1] for i in places))
                if join is not None else done[places[0]] for places, join in drawing.joins]
        phases.update({"claims": t_claims, "figures": time.perf_counter() - drawing.t0})
        phases.update({f"figure {fam.id}": seconds for fam, (_, seconds) in zip(chosen, done)})
        for fam, ((paths, note), seconds) in zip(chosen, done):
            fig_paths[fam.id] = paths
            if fam.make is not None:
                notes[fam.id] = note
            else:
                timings[f"figure {fam.id}"] = seconds
        timings["total"] = time.perf_counter() - t_all
        stored = dict(runs.items())
        meta = next(iter(stored.values())).meta if stored else {}
        where = "sweeps" if sweeps is None else str(sweeps)
        setup = (spec.setup + f"\n\nRun: {'--quick' if quick else 'full'}, backend "
                 f"{meta.get('backend', backend)} on {platform.node()} ({platform.machine()}), "
                 f"diffsweep {meta.get('version', '?')}; sweep files: "
                 + ", ".join(f"{where}/{spec.package}/{n}.toml" for n in stored) + ".")
        t0 = time.perf_counter()
        md, html = write_report(spec, results, out, figures=fig_paths,
                                assumptions=[run_assumption(cfgs, quick, spec.run_note),
                                             *spec.assumptions],
                                setup=setup, timings=timings, notes=notes, quick=quick,
                                not_run=not_run, verdicts=verdicts,
                                engine=engine_use(results, stored,
                                                  {f.id: f.sweeps for f in chosen}))
        phases["report"] = time.perf_counter() - t0
    except OSError as e:  # a full disk, say: what is kept, and how to go on
        raise _write_failed(e, out, names, fig_paths, resume) from None
    return md, html, verdicts, fig_paths


def _evaluate(spec, results, not_run) -> dict:
    """The verdict of every claim of the paper ``spec`` on ``results`` (family id -> Results)."""
    from diffsweep.analysis.claims import evaluate_all  # noqa: PLC0415 - pandas, only when used
    return evaluate_all(results, spec.claim_list(), not_run)


def _timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def _write_failed(e: OSError, out: Path, names, fig_paths, resume: str) -> StoreError:
    """One line for a figure or report that could not be written: the OS's reason, what this
    reproduction has written and kept, and the command that resumes it."""
    from diffsweep.core.errors import store_error  # noqa: PLC0415

    err = store_error(e, out, "write the figures and the report")
    done = sum(len(v) for v in fig_paths.values())
    msg = (f"{err}. Kept: the results of the sweeps {', '.join(names)} in {out} (a rerun "
           f"computes nothing again) and {_plural(done, 'figure file')} written; the report "
           f"({', '.join(REPORT_FILES)}) is as it was before this run. Resume with: {resume}")
    return StoreError(msg, err.errno, err.filename)


#: the family's one engine call is made when its replicas' arrays fit in this fraction of
#: the memory budget of a chunk (runner.default_memory_budget); else each sweep runs alone
FAMILY_MEMORY_FRACTION = 0.5
#: the call holds its arrays about twice: on the host and the device (CUDA), or the engine's
#: outputs and the tables made from them (CPU)
FAMILY_COPIES = 2


def _unstored_grids(cfgs: dict, out: Path) -> dict:
    """name -> Grid of the sweeps of ``cfgs`` with nothing stored under ``out`` yet."""
    from diffsweep.sweep.store import CHUNKS  # noqa: PLC0415

    return {name: cfg.make_grid() for name, cfg in cfgs.items()
            if not ((out / name / CHUNKS).is_dir() and any((out / name / CHUNKS).iterdir()))}


def _family_call(grids: dict, backend: str, threads, progress, timings: dict, log):
    """Every replica of ``grids`` (the sweeps with nothing stored yet: ``_unstored_grids``) in
    one engine call (``runner.run_family``): a GPU launch lasts as long as its slowest replica,
    so one per sweep (a family of 20 sweeps) would cost 20 such spans. Sweeps with results
    already (a resumed reproduction) run on their own. Skipped when the replicas' arrays would
    not fit in FAMILY_MEMORY_FRACTION of a chunk's memory budget. Returns (name -> Results,
    stopped)."""
    if not grids:
        return {}, False
    pre, stopped, seconds = one_engine_call(grids, backend, threads, progress, log,
                                            "[family]", f"{len(grids)} sweeps", "each sweep")
    if seconds is not None:
        timings["family engine call"] = seconds
    return pre, stopped


def auto_backend(backend: str, grids, threads, log, tag: str = "[backend]") -> str:
    """``backend`` resolved once for all the replicas of ``grids`` (Grids, made only when
    'auto' has a device and CPU cores to choose between: ``engine.choose_backend``), the
    choice logged."""
    from diffsweep.engine import compiled as engine  # noqa: PLC0415
    from diffsweep.engine.backend_choice import work_of_grids  # noqa: PLC0415

    name, why = engine.choose_backend(backend, lambda: work_of_grids(grids), threads)
    if why:
        log(f"{tag} {why}")
    return name


def one_engine_call(grids: dict, backend, threads, progress, log, tag: str, what: str,
                    alone: str):
    """Every replica of ``grids`` (name -> Grid) in one ``runner.run_family`` call, when their
    arrays fit in FAMILY_MEMORY_FRACTION of a chunk's memory budget (``reproduce`` and
    ``atlases``). Returns (name -> Results, stopped, the call's seconds); ({}, False, None)
    when it does not fit, and ``alone`` (what then runs on its own) is said."""
    from diffsweep.engine import compiled as engine
    from diffsweep.sweep import runner  # noqa: PLC0415

    need = FAMILY_COPIES * family_arrays_bytes(grids, backend)
    budget = runner.default_memory_budget(engine.resolve_backend(backend))
    if need > FAMILY_MEMORY_FRACTION * budget:
        log(f"{tag} {need / 2**20:.0f} MiB of arrays: above {FAMILY_MEMORY_FRACTION:g} of the "
            f"{budget / 2**20:.0f} MiB budget, so {alone} runs alone")
        return {}, False, None
    n = sum(len(g) for g in grids.values())
    log(f"{tag} {what}, {n} replicas in one engine call")
    t0 = time.perf_counter()
    pre, stopped = runner.run_family(grids, backend, threads, progress)
    seconds = time.perf_counter() - t0
    meta = next(iter(pre.values())).meta if pre else {}
    log(f"{tag} {sum(len(r.replicas) for r in pre.values())} replicas in {seconds:.1f} s"
        + (" (stopped)" if stopped else "")
        + (f"; {meta['distinct_replicas']} of {meta['n_replicas']} distinct: each run once, its "
           "repeats copied" if "distinct_replicas" in meta else "")
        + plan_note(meta.get("cuda_plan"))
        + "".join(f"; {v['replicas']} on {b} in {v['wall_s']:.1f} s"
                  for b, v in meta.get("split", {}).items()))
    return pre, stopped, seconds


def plan_note(plan: dict | None) -> str:
    """How a CUDA call spread its replicas (``engine.cuda_plan``), for the log: '' on the CPU."""
    if not plan:
        return ""
    waves = plan.get("waves") or 1
    return (f"; cuda {plan['kernel']} kernel: {plan['warps']} tasks of up to {plan['per_warp']} "
            f"replicas for {plan['resident_warps']} resident warps"
            + (f", {waves} waves (tasks wait for a warp to finish)" if waves > 1 else ""))


def family_arrays_bytes(grids: dict, backend: str = "auto") -> int:
    """Input and output bytes of the arrays of one engine call over every replica of ``grids``
    (name -> Grid), as ``engine.simulate`` lays them out (``engine.arrays_bytes``: its launches,
    each padded to its largest replica), from each point's first-seed scenario, which stands
    for its seeds: a seed changes a point's delays or draws, not its dimensions. (The former
    estimate, a chunk's bytes per replica of the first and last points, doubled, counted 1 kB
    per transfer record as a table row: 8,044 MiB for a paper's quick sweeps with a web
    background, whose arrays are 227 MiB, so their one call was skipped.) A replica the
    grids share (the same scenario and seed) is counted once: the call runs it once
    (``diffsweep.engine.repeats``)."""
    from diffsweep.engine import execution as engine, repeats  # noqa: PLC0415

    points = [g.scenario(p, g.seeds[0]) for g in grids.values() for p in range(g.n_points)]
    seeds = [g.seeds for g in grids.values() for _ in range(g.n_points)]
    return engine.arrays_bytes([points[i] for i, k in repeats.distinct_points(points, seeds)
                                for _ in range(k)], backend)


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
