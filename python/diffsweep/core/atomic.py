"""Files written whole or not at all: a temporary file beside the final one, fsync, rename,
fsync of the folder (the results folder's chunks and manifest, figures, reports, atlases).
``diffsweep.sweep.store`` re-exports these names."""
from __future__ import annotations

import hashlib
import json
import os
import uuid
from pathlib import Path
from typing import Any

import numpy as np

#: the name prefix of a file being written (left by an interrupted write: never read)
TMP_PREFIX = ".tmp-"


def jsonable(obj: Any) -> Any:
    """``obj`` as JSON can hold it: numpy scalars and arrays as Python numbers and lists,
    tuples and sets as lists, keys as strings, anything else as its ``str``."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating,)):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    return str(obj)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _fsync_file(path: Path) -> None:
    with open(path, "rb+") as f:
        f.flush()
        os.fsync(f.fileno())


def _tmp_path(final: Path) -> Path:
    return final.with_name(f"{TMP_PREFIX}{uuid.uuid4().hex[:8]}-{final.name}")


def atomic_write_files(files: dict) -> None:
    """Write each ``path: bytes`` of ``files`` to a temporary file beside it, then rename them all
    into place: an error while writing (a full disk) leaves every path as it was, and no
    temporary or truncated file (a figure's PNG and PDF, a report's three files)."""
    tmps: dict[Path, Path] = {}
    try:
        for path, data in files.items():
            path = Path(path)
            tmps[path] = tmp = _tmp_path(path)
            try:
                with open(tmp, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as e:  # named by the file it was for, not the temporary name
                raise OSError(e.errno, e.strerror or str(e), str(path)) from e
        for path, tmp in tmps.items():
            os.replace(tmp, path)
    finally:
        for tmp in tmps.values():
            if tmp.exists():
                tmp.unlink()
    for parent in {p.parent for p in tmps}:
        _fsync_dir(parent)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (tmp in the same folder, fsync, rename, fsync dir)."""
    atomic_write_files({Path(path): data})


def atomic_write_json(path: Path, obj: Any) -> None:
    text = json.dumps(jsonable(obj), indent=1, allow_nan=True) + "\n"
    atomic_write_bytes(path, text.encode())


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
