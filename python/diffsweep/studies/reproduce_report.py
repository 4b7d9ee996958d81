"""A reproduction after its engine call: the sweeps as they are stored (``_Runs``, read by the
figure workers), the figures drawn while this process stores them (``_start_figures``), the
claims rated, the figures no worker started, and the report (``_analyse``, its first
assumption: ``run_assumption``). A figure or report that cannot be written is one
``StoreError`` saying what is kept and how to resume (``_write_failed``). See
``diffsweep.studies.reproduce``.
"""
from __future__ import annotations

import os
import platform
import time
from collections.abc import Mapping
from pathlib import Path

from diffsweep.core import registry as papers
from diffsweep.core.errors import StoreError
from diffsweep.studies.reproduce_folder import REPORT_FILES


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _processes(jobs) -> int:
    from diffsweep.report.render import default_workers  # noqa: PLC0415

    return default_workers() if jobs is None else jobs


def _split(jobs, chosen) -> bool:
    """Whether a make hook's parts are drawn as tasks of their own: where more processes draw
    than there are families, cores would otherwise wait idle beside the longest one
    (benchmarks/host/reproduce.md: a 12-family reproduction on 16 cores, host share 11.8 ->
    4.9 s); with fewer, the parts' shared tables would be computed in several processes for nothing
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
