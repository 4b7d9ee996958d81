"""records: what a results folder's files say, read without a ``Store``: the names of its files
(``MANIFEST``, ``CHUNKS``, ``DONE``, ``LOCK``, ...), its manifest (``read_manifest``: a missing or
damaged one said with how to repair it), its chunks' records (``count_chunks``,
``recorded_pairs``, ``Chunk``) and the check of one chunk's files against its ``.done.json``
(``check_chunk``). See the module docstring of ``diffsweep.sweep.store`` for the layout.
"""
from __future__ import annotations

import datetime as _dt
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from diffsweep.core.atomic import TMP_PREFIX, _sha256_file
from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES

FORMAT = 1
MANIFEST = "manifest.json"
CHUNKS = "chunks"
CORRUPT = "corrupt"
DONE = "done.json"
LOCK = ".diffsweep.lock"
#: keys of ``manifest_fields`` that describe one run (kept per run in ``manifest["runs"]``)
RUN_KEYS = ("backend", "device", "threads", "host", "diffsweep_version", "git_commit", "argv",
            "sweep_sha256", "effective_sha256", "quick", "seeds")


def utc_now() -> str:
    """The time now in UTC, ISO 8601 to the second (the manifest's and records' times)."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def git_commit() -> str | None:
    """``git rev-parse HEAD`` in the package folder, or None when that is not a git checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent,
                             capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and commit else None


def _rows_of(path: Path) -> int | None:
    """Rows of a Parquet file from its footer, or None when it cannot be read."""
    try:
        import pyarrow.parquet as pq  # noqa: PLC0415
        return int(pq.ParquetFile(path).metadata.num_rows)
    except Exception:  # noqa: BLE001 - a damaged or missing file: the count is unknown
        return None


def count_chunks(path: str | Path) -> int:
    """How many chunks (``.done.json`` files) the folder's ``chunks/`` holds."""
    d = Path(path) / CHUNKS
    try:
        return sum(1 for f in d.iterdir()
                   if f.name.endswith("." + DONE) and not f.name.startswith(TMP_PREFIX))
    except OSError:
        return 0


def recorded_pairs(path: str | Path) -> set[tuple[int, int]]:
    """The (point, seed) pairs the ``.done.json`` files of the folder's chunks list, read
    without checking the chunks' files (a hint: ``Store.done_replicas`` checks them)."""
    out: set[tuple[int, int]] = set()
    for f in (Path(path) / CHUNKS).glob("*." + DONE):
        try:
            out.update((int(p), int(s)) for p, s in json.loads(f.read_text())["pairs"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


def _repair_hint(p: Path, what: str) -> str:
    import shlex  # noqa: PLC0415
    n = count_chunks(p)
    return (f"{p}: {MANIFEST} {what}; run `diffsweep repair {shlex.quote(str(p))}` to rebuild "
            f"it from the folder's {n} chunk{'s' if n != 1 else ''}")


def read_manifest(path: str | Path) -> dict:
    """The manifest of results folder ``path`` (ConfigError if missing or unreadable; when the
    folder holds chunks, the message says to run ``diffsweep repair DIR``)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ConfigError(f"{p}: is a file, not a results folder (expected the folder given to "
                          "diffsweep run --out DIR or run(..., store=DIR))")
    if not p.is_dir():
        raise ConfigError(f"{p}: no such results folder")
    mf = p / MANIFEST
    has_chunks = count_chunks(p) > 0
    if not mf.is_file():
        if has_chunks:
            raise ConfigError(_repair_hint(p, "is missing"))
        raise ConfigError(f"{p}: not a diffsweep results folder (no {MANIFEST})")
    try:
        m = json.loads(mf.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        if has_chunks:
            raise ConfigError(_repair_hint(p, f"is damaged ({type(e).__name__}: {e})")) from None
        raise ConfigError(f"{mf}: unreadable manifest ({e}); the folder cannot be used: "
                          "delete it or choose another output folder") from None
    if not isinstance(m, dict) or "config_hash" not in m:
        if has_chunks:
            raise ConfigError(_repair_hint(p, "is damaged (no config_hash)"))
        raise ConfigError(f"{mf}: not a diffsweep manifest (no config_hash)")
    return m


def _pairs(df: pd.DataFrame) -> list[tuple[int, int]]:
    if df.empty:
        return []
    return [(int(p), int(s)) for p, s in zip(df["point"].to_numpy(), df["seed"].to_numpy())]


@dataclass
class Chunk:
    """A valid chunk: its id, (point, seed) pairs, files by table and creation time."""

    id: str
    pairs: list[tuple[int, int]]
    files: dict[str, dict]
    created: str
    meta: dict
    #: what the folder's manifest said when the chunk was written (without its runs) and the
    #: run that wrote it: enough to rebuild a lost manifest (``repair``); None in chunks
    #: written before diffsweep recorded them
    manifest: dict | None = None
    run: dict | None = None


def check_chunk(chunk_dir: Path, cid: str, paths: list[Path],
                verified: dict) -> tuple[Chunk | None, str, int | None]:
    """The chunk ``cid`` of ``chunk_dir`` (its files ``paths``): (the chunk, "", its
    replicas) if valid, else (None, why, its replicas or None when its .done.json cannot
    tell). ``verified``: chunk id -> the stat signature of its files when their sha256 was
    last checked (a chunk whose files did not change since is not read again)."""
    done_path = chunk_dir / f"{cid}.{DONE}"
    names = sorted(p.name for p in paths)
    if done_path not in paths:
        return None, f"incomplete chunk (no {DONE}; files {', '.join(names)})", None
    try:
        done = json.loads(done_path.read_text())
        pairs = [(int(p), int(s)) for p, s in done["pairs"]]
        files = dict(done["files"])
        for table, info in files.items():
            if table not in TABLES or not {"file", "sha256", "bytes"} <= set(info):
                raise KeyError(f"bad entry for table {table!r}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        return None, f"damaged {done_path.name} ({type(e).__name__}: {e})", None
    n = len(pairs)
    expected = {done_path.name} | {info["file"] for info in files.values()}
    extra = sorted(set(names) - expected)
    if extra:
        return None, f"unexpected files {', '.join(extra)} next to {done_path.name}", n
    sig = []
    for table, info in files.items():
        f = chunk_dir / info["file"]
        if not f.is_file():
            return None, f"missing file {info['file']}", n
        st = f.stat()
        if st.st_size != info["bytes"]:
            return None, (f"{info['file']} has {st.st_size} bytes, expected {info['bytes']} "
                          "(truncated or modified)"), n
        sig.append((info["file"], st.st_size, st.st_mtime_ns))
    sig_t = tuple(sig)
    if verified.get(cid) != sig_t:
        for table, info in files.items():
            if _sha256_file(chunk_dir / info["file"]) != info["sha256"]:
                return None, (f"{info['file']} does not match its sha256 (corrupt or "
                              "modified)"), n
        verified[cid] = sig_t
    return Chunk(cid, pairs, files, str(done.get("created", "")), done.get("meta") or {},
                 done.get("manifest"), done.get("run")), "", n
