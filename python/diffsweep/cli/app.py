"""The `diffsweep` command line."""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading

from diffsweep.cli import (atlas, builders, demo, export, info, metrics, plot, plot_trace,
                           repair, reproduce, run, sensitivity, show, trace)
from diffsweep.core.errors import (ConfigError, DiffsweepError, IncompleteResults, StoreError,
                                   SweepInterrupted, raise_terminated)
from diffsweep import engine

#: the subcommands, in the order ``diffsweep --help`` lists them; each module's
#: ``add_subcommand(sub)`` adds its parser, whose ``fn`` runs the command
SUBCOMMANDS = (info, demo, run, reproduce, atlas, builders, metrics, sensitivity, show, plot,
               trace, plot_trace, export, repair)


def _debug_requested(argv: list[str]) -> tuple[bool, list[str]]:
    """``--debug`` anywhere on the line (or DIFFSWEEP_DEBUG=1): show tracebacks."""
    debug = "--debug" in argv or os.environ.get("DIFFSWEEP_DEBUG", "") not in ("", "0")
    return debug, [a for a in argv if a != "--debug"]


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that the exit flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _exiting_on_interrupt() -> None:
    """After a Ctrl-C (SIGTERM) the command is on its way out with status 130 (143): a further
    Ctrl-C or SIGTERM (the "stop at once" one) must not turn that into a death by the signal
    halfway through."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def entry() -> None:
    """The ``diffsweep`` program: main(), leaving a Ctrl-C after an interrupt ignored until the
    process has exited (Python's finalizer would otherwise restore SIGINT's default action)."""
    sys.exit(main(_program=True))


def main(argv: list[str] | None = None, *, _program: bool = False) -> int:
    """The command line, callable in-process (``main(["run", ...])``): returns the exit
    status; the SIGINT and SIGTERM handlers are as they were on return."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug, argv = _debug_requested(argv)
    in_main = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGINT) if in_main else None
    before_term = signal.getsignal(signal.SIGTERM) if in_main else None
    if before_term == signal.SIG_DFL:
        # SIGTERM (kill, systemd, a batch system's time limit) stops like Ctrl-C: the runner
        # saves what finished and releases the lock, instead of the process dying at once
        signal.signal(signal.SIGTERM, raise_terminated)
    try:
        return _main(argv, debug)
    except BrokenPipeError:  # e.g. diffsweep reproduce ... | head
        _silence_stdout()
        return 141
    except SweepInterrupted as e:
        _exiting_on_interrupt()
        print(f"\ndiffsweep: {e}", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt as e:  # Terminated (SIGTERM) too
        _exiting_on_interrupt()
        print(f"\ndiffsweep: {str(e) or 'interrupted'}", file=sys.stderr)
        return 128 + getattr(e, "signum", signal.SIGINT)
    except (DiffsweepError, OSError) as e:
        if debug:
            raise
        code = 2 if isinstance(e, ConfigError) else 3 if isinstance(e, IncompleteResults) else 1
        if isinstance(e, StoreError) or not isinstance(e, OSError):
            msg = str(e)
        else:  # an OSError diffsweep did not expect: still one line, with the path
            where = e.filename or "?"
            msg = f"{where}: {e.strerror or e}"
        print(f"diffsweep: error: {msg}", file=sys.stderr)
        return code
    except Exception as e:  # a bug: one line and how to see more
        if debug:
            raise
        print(f"diffsweep: internal error: {type(e).__name__}: {e} (rerun with --debug for the "
              "traceback, and please report it)", file=sys.stderr)
        return 1
    finally:
        if in_main and not _program and before is not None:
            signal.signal(signal.SIGINT, before)
            if before_term is not None:
                signal.signal(signal.SIGTERM, before_term)


def _main(argv: list[str], debug: bool) -> int:
    p = argparse.ArgumentParser(prog="diffsweep", description=__doc__,
                                epilog="--debug (anywhere): show the traceback of an error")
    p.add_argument("--version", action="version", version=f"diffsweep {engine.version()}")
    sub = p.add_subparsers(dest="cmd", required=True)
    for command in SUBCOMMANDS:
        command.add_subcommand(sub)
    args = p.parse_args(argv)
    args.argv = argv
    return args.fn(args)


if __name__ == "__main__":
    entry()
