"""interrupt: Ctrl-C and SIGTERM while a sweep runs (``runner.run``, ``runner.run_family``):
the first asks the engine to stop and the replicas that finished are saved, a second stops at
once. See the module docstring of ``diffsweep.sweep.runner`` ("Ctrl-C")."""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any

from diffsweep.core.errors import Terminated, raise_terminated


class _Sigint:
    """Ctrl-C (and SIGTERM, when the command line asked for it) while a sweep runs.

    ``defer`` (a local run): the first Ctrl-C sets ``requested`` and asks the engine to stop
    (``RunControl.request_stop``: it stops within about a second, at any chunk size); the replicas
    that finished are saved, then the run raises ``SweepInterrupted``. A second Ctrl-C stops at
    once: with ``hard_exit`` (the command line) ``on_hard_exit`` says what is saved and the
    process exits with status 128 + the signal (``os._exit``: the engine thread is not waited
    for); else KeyboardInterrupt is raised in the main thread.
    Without ``defer`` (Dask) Ctrl-C raises at once, except inside ``critical()`` (a chunk being
    written), after which it is raised.

    SIGTERM is handled exactly like Ctrl-C while its handler is ``errors.raise_terminated`` (the
    command line installs it: a service manager's or a batch system's stop must not lose the
    chunk in progress nor leave the lock behind); ``signum`` is the first signal received."""

    def __init__(self, defer: bool, hard_exit: bool = False):
        self.defer = defer
        self.hard_exit = hard_exit
        self.requested = False
        self.signum = signal.SIGINT  # the signal of the first stop request
        self.control = None          # the RunControl of the chunk in progress
        self.on_hard_exit = None     # called before os._exit (says what is saved)
        self._critical = 0
        self._old: dict[int, Any] = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                self._old[signal.SIGINT] = signal.signal(signal.SIGINT, self._handle)
            if signal.getsignal(signal.SIGTERM) is raise_terminated:
                self._old[signal.SIGTERM] = signal.signal(signal.SIGTERM, self._handle)
        return self

    def __exit__(self, *exc):
        # On the way out of an interrupted command-line run, keep the handlers: a second Ctrl-C
        # (or SIGTERM) during the unwinding must still exit at once, not kill the process by
        # the signal.
        if not (self.hard_exit and self.requested):
            for signum, old in self._old.items():
                signal.signal(signum, old)
        return False

    def _interrupt(self) -> KeyboardInterrupt:
        return Terminated() if self.signum == signal.SIGTERM else KeyboardInterrupt()

    def first(self, signum: int = signal.SIGINT) -> None:
        """The first stop request (from the handler, or from a KeyboardInterrupt caught)."""
        self.requested = True
        self.signum = signum
        if self.control is not None:
            self.control.request_stop()
        if signum == signal.SIGINT:
            what, again = "", "Ctrl-C again to stop at once"
        else:
            what, again = f"{signal.Signals(signum).name}: ", "a second one or Ctrl-C stops at once"
        sys.stderr.write(f"\ndiffsweep: {what}stopping; saving the replicas that finished "
                         f"({again})\n")
        sys.stderr.flush()

    def second(self, signum: int = signal.SIGINT) -> None:
        if self.hard_exit:
            try:
                if self.on_hard_exit is not None:
                    self.on_hard_exit()
            finally:
                os._exit(128 + int(signum))
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    def _handle(self, signum, frame):
        if not self.defer:
            if not self.requested:
                self.signum = signum
            if self.requested or not self._critical:
                raise self._interrupt()
            self.requested = True
            return
        if self.requested:
            self.second(signum)
        self.first(signum)

    @contextmanager
    def critical(self):
        self._critical += 1
        try:
            yield
        finally:
            self._critical -= 1
        if self.requested and not self.defer and not self._critical:
            raise self._interrupt()
