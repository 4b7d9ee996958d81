"""family_run: every replica of several grids (a figure family's sweeps) in one engine call
(``run_family``), with the progress bar and Ctrl-C handling of ``runner.run``; each sweep's
Results are then stored by ``run(..., precomputed=)``."""
from __future__ import annotations

import signal
import sys
import threading
from typing import Any

from diffsweep.engine import execution as _engine
from diffsweep.sweep.interrupt import _Sigint
from diffsweep.sweep.progress import POLL_S, _Progress
from diffsweep.core.errors import SweepInterrupted
from diffsweep.core.results import Results


def run_family(grids: dict, backend: str = "auto", threads: int | None = None,
               progress: bool | None = None) -> tuple[dict[str, Results], Any]:
    """Every replica of several grids (a figure family's sweeps: name -> Grid) in one engine
    call (``engine.execute_many``): on CUDA as few launches as the shapes and memory allow,
    instead of a launch or more per sweep, each as long as its slowest replica. Returns
    (name -> Results, stopped): a Ctrl-C asks the engine to stop, and the replicas that finished
    are returned with stopped true (a second Ctrl-C raises KeyboardInterrupt at once): the
    ``signal.Signals`` that stopped it (SIGINT, or SIGTERM under the command line, so that the
    caller can exit with 128 + it), or True when the engine was stopped otherwise. Hand each
    Results to ``run(..., precomputed=)`` to store it in its sweep's folder."""
    names = list(grids)
    total = sum(len(grids[n]) for n in names)
    control = _engine.RunControl()
    box: dict[str, Any] = {}

    def work():
        try:
            box["res"] = _engine.execute_many([(grids[n], None) for n in names], backend,
                                              threads, control=control)
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            box["err"] = e

    show = sys.stderr.isatty() if progress is None else bool(progress)
    prog = _Progress(show, total, 0, desc="family (one engine call)")
    worker = threading.Thread(target=work, name="diffsweep-engine", daemon=True)
    # The first Ctrl-C only asks the engine to stop (a KeyboardInterrupt raised inside join()
    # can leave the thread looking finished while it runs); a second one raises at once.
    sig = _Sigint(defer=True)
    sig.control = control
    try:
        with sig:
            worker.start()
            while worker.is_alive():
                worker.join(POLL_S)
                prog.poll(control, total)
    finally:
        prog.close()
    err = box.get("err")
    stopped = signal.Signals(sig.signum) if sig.requested else True
    if isinstance(err, _engine.EngineInterrupted):
        return dict(zip(names, err.partial)), stopped
    if err is not None:
        raise err
    return dict(zip(names, box["res"])), stopped if control.stop_requested else False


def family_interrupted(stopped, pre: dict, where: str, store, resume: str) -> SweepInterrupted:
    """The error once a stopped ``run_family``'s replicas (``pre``) are stored: what is saved
    ``where`` and how to resume; its ``signum`` the signal that stopped it (SIGINT when the
    engine was stopped otherwise)."""
    saved = sum(len(r.replicas) for r in pre.values())
    by = f" by {stopped.name}" if stopped == signal.SIGTERM else ""
    return SweepInterrupted(f"interrupted{by}: the {saved} replicas that finished are saved "
                            f"{where}. Resume with:\n  {resume}", store=str(store), done=saved,
                            resume=resume, signum=stopped if isinstance(stopped, signal.Signals)
                            else signal.SIGINT)
