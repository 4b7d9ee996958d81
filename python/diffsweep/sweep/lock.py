"""lock: one writer at a time in a results folder: the lock file ``DIR/.diffsweep.lock`` (created
with ``O_EXCL``; the owner's pid, host, start time and command), taken by ``Store.open`` and
``repair``, a stale one (its owner gone from this host) or one broken on purpose
(``break_lock``) broken with a warning, a damaged one said so, and released by ``Store.close``.
See the module docstring of ``diffsweep.sweep.store`` ("One writer at a time").
"""
from __future__ import annotations

import json
import os
import socket
import time
import warnings
from pathlib import Path

from diffsweep.core.atomic import jsonable
from diffsweep.core.errors import FolderBusy, store_error
from diffsweep.sweep.records import LOCK, utc_now

#: seconds to wait before a lock file that reads as damaged is read again (a run that has just
#: created it writes its content at once after)
LOCK_SETTLE_S = 0.2


def _damaged_lock(owner: dict) -> str:
    """What is wrong with a lock file's content (``Store.lock_owner``), '' if nothing: it must
    be the JSON object a run writes, with an integer pid and a host name."""
    if "text" in owner:
        text = owner["text"].strip()
        return "it is empty" if not text else f"not the JSON a run writes: {text[:40]!r}"
    pid, host = owner.get("pid"), owner.get("host")
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return f"no process id in it: pid {pid!r}"
    if not isinstance(host, str) or not host:
        return f"no host name in it: host {host!r}"
    return ""


class FolderLock:
    """The lock of the results folder ``self.path`` (mixed into ``Store``, which sets ``path``
    and ``_locked``)."""

    path: Path
    _locked: bool

    @property
    def lock_path(self) -> Path:
        return self.path / LOCK

    def lock_owner(self) -> dict | None:
        """The content of the lock file (pid, host, start, argv), or None when unlocked."""
        try:
            text = self.lock_path.read_text()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise store_error(e, self.lock_path, "read the lock file") from None
        try:
            owner = json.loads(text)
            return owner if isinstance(owner, dict) else {"text": text}
        except json.JSONDecodeError:
            return {"text": text[:200]}

    @staticmethod
    def _alive(pid) -> bool:
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return False
        except (PermissionError, ValueError, TypeError, OverflowError):
            return True  # exists but not ours, or unreadable: assume alive
        return True

    def _acquire(self, break_lock: bool, argv=None) -> None:
        me = {"pid": os.getpid(), "host": socket.gethostname(), "start": utc_now(),
              "argv": list(argv) if argv else None}
        for _attempt in range(3):
            try:
                fd = os.open(self.lock_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                owner = self.lock_owner()
                if owner is None:  # released in between: try again
                    continue
                damaged = _damaged_lock(owner)
                if damaged and not break_lock:
                    time.sleep(LOCK_SETTLE_S)  # a run that has just made it may be writing it
                    owner = self.lock_owner()
                    if owner is None:
                        continue
                    damaged = _damaged_lock(owner)
                if damaged and not break_lock:
                    # read as "pid None on host None" before: no run can be named, say so
                    raise FolderBusy(
                        f"{self.path}: the lock file {self.lock_path} is damaged ({damaged}), so "
                        "the run holding the folder cannot be named. If no diffsweep run is "
                        f"writing into {self.path}, delete {self.lock_path} or rerun with "
                        "--break-lock (break_lock=True)") from None
                host, pid = owner.get("host"), owner.get("pid")
                here = host == me["host"] and pid is not None
                stale = here and not self._alive(pid)
                if break_lock and here and not stale:
                    # Its owner runs on this host: breaking the lock would let both runs write
                    # into the folder (one run's record lost from the manifest, every replica
                    # computed twice and reported as duplicate chunks on each load).
                    raise FolderBusy(
                        f"{self.path}: --break-lock (break_lock=True) refused: the run holding "
                        f"the lock, pid {pid} on this host ({host}, since "
                        f"{owner.get('start', '?')}), is still running; wait for it to finish "
                        f"or stop it (Ctrl-C in its terminal, or kill {pid}), then rerun. If pid "
                        f"{pid} is not a diffsweep run (a reused pid), delete {self.lock_path}"
                    ) from None
                if stale or break_lock:
                    why = ("its owner (pid %s on %s) is no longer running" % (pid, host)
                           if stale else "break_lock=True (--break-lock)")
                    warnings.warn(f"{self.lock_path}: breaking the lock: {why}", stacklevel=3)
                    self.lock_path.unlink(missing_ok=True)
                    continue
                since = owner.get("start", "?")
                raise FolderBusy(
                    f"{self.path}: in use by another diffsweep run (pid {pid} on host {host}, "
                    f"since {since}); two runs into one folder would compute everything twice. "
                    f"Wait for it to finish, or if that run is gone, rerun with --break-lock "
                    f"(break_lock=True) or delete {self.lock_path}") from None
            except OSError as e:
                raise store_error(e, self.path, "create the lock file") from None
            try:
                with os.fdopen(fd, "w") as f:
                    f.write(json.dumps(jsonable(me)) + "\n")
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as e:
                self.lock_path.unlink(missing_ok=True)
                raise store_error(e, self.lock_path, "write the lock file") from None
            self._locked = True
            return
        raise FolderBusy(f"{self.path}: could not take the lock {self.lock_path} (another run "
                         "keeps taking it)")

    def _release(self) -> None:
        """Remove the lock file when this process holds it."""
        if self._locked:
            try:
                owner = self.lock_owner() or {}
                if owner.get("pid") == os.getpid():
                    self.lock_path.unlink(missing_ok=True)
            except OSError:
                pass
            self._locked = False
