"""``diffsweep reproduce PAPER --dry-run``: what a reproduction would run, and roughly how long,
before it runs; nothing is computed or written.

The same checks as the run itself (the paper, ``--figure``, ``--seeds``, ``--threads``,
``--backend``, ``--sweeps``, and an ``--out`` that holds another paper's reproduction), then,
per sweep of the chosen families: its points, seeds and replicas, whether its folder under
``--out`` already holds results (a rerun resumes those and computes only the rest), and its
rough time (``sizing.estimate`` with the probe calibrated on this machine, as ``run
--dry-run``). The sweeps with nothing stored run in one engine call, in which a replica that
several sweeps hold runs once (``diffsweep.engine.repeats``): the total counts the distinct ones, and
the time is the sweeps' estimates scaled by the distinct share of their slots. The figures and
the report come after that time.
"""
from __future__ import annotations

import os


def plan(paper: str, out, figures: list[str] | None = None, quick: bool = False,
         seeds: int | None = None, sweeps=None, threads: int | None = None,
         backend: str = "auto") -> dict:
    """What ``reproduce(paper, out, figures, quick, ...)`` would run: a dict with the chosen
    families, one row per sweep (name, points, seeds, replicas, replica_slots, stored, seconds)
    and the totals of what is left to compute (replicas, distinct, replica_slots, seconds) and
    the backend that would run it. ConfigError for the options ``reproduce`` refuses."""
    from diffsweep.engine import compiled as engine, sizing  # noqa: PLC0415
    from diffsweep.engine.backend_choice import work_of_grids  # noqa: PLC0415
    from diffsweep.core.errors import BackendError  # noqa: PLC0415
    from diffsweep.studies.family_call import _unstored_grids  # noqa: PLC0415
    from diffsweep.studies.reproduce import prepare  # noqa: PLC0415

    spec, chosen, _, out, _, cfgs = prepare(paper, out, figures, quick, seeds, sweeps, threads,
                                            backend)
    todo = _unstored_grids(cfgs, out)
    rows, est_s, est_slots = [], 0.0, 0.0
    for name, cfg in cfgs.items():
        grid = todo.get(name)
        row = {"sweep": name, "points": cfg.n_points, "seeds": len(cfg.seeds),
               "replicas": cfg.n_replicas, "stored": grid is None}
        if grid is not None:
            est = sizing.estimate(grid, threads, probe=True)
            row.update(replica_slots=est.replica_slots, seconds=est.seconds)
            est_s += est.seconds
            est_slots += est.distinct_slots
        rows.append(row)
    work = work_of_grids(todo.values()) if todo else None
    res = {"paper": spec.name, "out": str(out), "quick": bool(quick),
           "families": [f.id for f in chosen], "sweeps": rows,
           "replicas": sum(len(g) for g in todo.values()),
           "distinct": work.replicas if work else 0,
           "replica_slots": work.replica_slots if work else 0.0,
           "seconds": est_s * work.replica_slots / est_slots if work and est_slots else 0.0,
           "threads": threads or os.cpu_count() or 1}
    try:
        res["backend"], res["backend_why"] = engine.choose_backend(backend, work, threads) \
            if work else (backend, "")
    except BackendError as e:  # the run would stop there: said, not raised
        res["backend"], res["backend_why"] = backend, f"would be refused: {e}"
    return res


def plan_lines(p: dict) -> list[str]:
    """``plan``'s result as the lines ``reproduce --dry-run`` prints."""
    from diffsweep.engine.sizing import _fmt_s  # noqa: PLC0415

    width = max([len(r["sweep"]) for r in p["sweeps"]] + [5])
    lines = [f"{p['paper']} {'--quick' if p['quick'] else 'full'} reproduction into {p['out']}: "
             f"families {', '.join(p['families'])}; {len(p['sweeps'])} sweeps"]
    for r in p["sweeps"]:
        left = ("stored: resumed, nothing to compute" if r["stored"] else
                f"{r['replica_slots']:.3g} replica-slots, ~{_fmt_s(r['seconds'])} alone")
        lines.append(f"  {r['sweep']:<{width}}  {r['points']:>5,} points x {r['seeds']:>3} seeds "
                     f"= {r['replicas']:>6,} replicas; {left}")
    if not p["replicas"]:
        lines.append("every sweep is stored: nothing to compute (the figures and the report are "
                     "drawn again only when they are not those of these results, or with --redraw)")
        return lines
    lines.append(f"to compute  : {p['replicas']:,} replicas in one engine call, {p['distinct']:,} "
                 f"of them distinct (a replica several sweeps hold runs once): "
                 f"{p['replica_slots']:.3g} replica-slots")
    lines.append(f"time (rough): ~{_fmt_s(p['seconds'])} on {p['threads']} CPU thread(s) to "
                 "compute and store them (calibrated on this machine; the figures and the "
                 "report come after)")
    lines.append(f"backend     : {p['backend']}" + (f" ({p['backend_why']})"
                                                    if p["backend_why"] else ""))
    return lines
