"""report_cache: a reproduction's figures and report are kept when nothing they come from has
changed, so that rerunning ``diffsweep reproduce`` into a folder that holds every result takes
about a second instead of drawing every figure and rating every claim again.

What the figures, the report and verdicts.json of a reproduction are computed from, and so the
*key* of a folder's report (``key``): every file of the installed diffsweep package (its code,
the papers' data, the compiled engines), the versions of numpy, pandas, matplotlib and pyarrow,
the command's options (paper, ``--quick``, ``--figure``, ``--seeds`` through the sweeps' seeds,
``--sweeps``, the backend), the host's name and machine (the report's set-up names them), and
per sweep: its points' hash, seeds, sweep file text and the sha256 of every file of every chunk
stored in its folder. ``record`` writes the key with the sha256 of every file the
reproduction wrote (``RECORD``, after the report); ``lookup`` answers the verdicts of that report
when the key is the same and every file is still there with the same sha256, else None (then
everything is computed again; ``reproduce(redraw=True)``, ``--redraw``, always does).

The report kept is the one of the run that wrote it: its "Generated" line and its timings are
that run's. Nothing here is trusted beyond the hashes: a chunk whose files do not match their
recorded sha256 (a damaged folder) is a miss, and the run that follows handles it as before.
"""
from __future__ import annotations

import hashlib
import json
import platform
import warnings
from pathlib import Path

#: the record of a folder's report, beside it
RECORD = ".report-cache.json"
FORMAT = 1
_LIBRARIES = ("numpy", "pandas", "matplotlib", "pyarrow")


def _sha256(path: Path) -> str:
    from diffsweep.sweep.store import (_sha256_file)  # noqa: PLC0415 - the store's, for its chunks too

    return _sha256_file(path)


def code_fingerprint() -> str:
    """sha256 over every file of the installed diffsweep package (path and bytes; caches of
    compiled Python left out) and the versions of the libraries that draw and compute."""
    from importlib import metadata  # noqa: PLC0415

    root = Path(__file__).resolve().parents[1]  # the package, not this layer
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_dir() or "__pycache__" in p.parts or p.suffix == ".pyc":
            continue
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(_sha256(p).encode())
    for lib in _LIBRARIES:
        try:
            v = metadata.version(lib)
        except metadata.PackageNotFoundError:
            v = "-"
        h.update(f"{lib}={v}\0".encode())
    return h.hexdigest()


def _sweep_state(folder: Path, cfg) -> dict | None:
    """What a sweep's folder holds for ``cfg``: its points' hash, seeds, sweep text and the files
    of its chunks; None when it does not hold every replica of ``cfg`` or a chunk is damaged."""
    from diffsweep.sweep.store import MANIFEST, Store, read_manifest  # noqa: PLC0415

    try:
        if read_manifest(folder).get("config_hash") != cfg.points_sha256:
            return None
        st = Store(folder)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            chunks = st.chunks(repair=False)  # checks every file's sha256
    except Exception:  # noqa: BLE001 - not a complete, readable folder: a miss
        return None
    if st.damaged or not (folder / MANIFEST).is_file():
        return None
    have = {pr for c in chunks for pr in c.pairs}
    want = {(p, int(s)) for p in range(cfg.n_points) for s in cfg.seeds}
    if not want <= have:
        return None
    text = Path(cfg.path).read_bytes() if getattr(cfg, "path", None) else b""
    return {"points": cfg.points_sha256, "seeds": [int(s) for s in cfg.seeds],
            "sweep_sha256": hashlib.sha256(text).hexdigest(),
            "chunks": sorted([c.id, sorted((t, i["sha256"]) for t, i in c.files.items())]
                             for c in chunks)}


def key(out: Path, paper: str, cfgs: dict, options: dict) -> str | None:
    """The key of the report of ``out`` for these sweeps (name -> SweepConfig) and options, or
    None when a sweep's folder does not hold all its replicas (something is left to compute)."""
    sweeps = {}
    for name, cfg in cfgs.items():
        state = _sweep_state(Path(out) / name, cfg)
        if state is None:
            return None
        sweeps[name] = state
    doc = {"format": FORMAT, "code": code_fingerprint(), "paper": paper, "options": options,
           "host": platform.node(), "machine": platform.machine(), "sweeps": sweeps}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def forget(out: Path) -> None:
    """Remove the record (before a run rewrites the figures and the report)."""
    try:
        (Path(out) / RECORD).unlink(missing_ok=True)
    except OSError:
        pass


def record(out: Path, key_: str | None, files) -> None:
    """Write ``out/RECORD``: ``key_`` and the sha256 of each of ``files`` (paths under
    ``out``). Nothing is written without a key; a failure to write it only costs the next
    rerun its shortcut."""
    if key_ is None:
        return
    from diffsweep.sweep.store import atomic_write_json  # noqa: PLC0415

    out = Path(out)
    try:
        hashes = {Path(f).resolve().relative_to(out.resolve()).as_posix(): _sha256(Path(f))
                  for f in files}
        atomic_write_json(out / RECORD, {"format": FORMAT, "key": key_, "files": hashes})
    except (OSError, ValueError):
        forget(out)


def lookup(out: Path, key_: str | None) -> dict | None:
    """The verdicts (claim id -> Verdict, from verdicts.json: status, reason, and the numbers as
    JSON holds them) of the report in ``out`` when it was recorded under ``key_`` and every
    file recorded is unchanged; else None."""
    if key_ is None:
        return None
    out = Path(out)
    try:
        rec = json.loads((out / RECORD).read_text(encoding="utf-8"))
        if rec.get("format") != FORMAT or rec.get("key") != key_:
            return None
        files = rec["files"]
        if "verdicts.json" not in files:
            return None
        for rel, sha in files.items():
            if _sha256(out / rel) != sha:
                return None
        raw = json.loads((out / "verdicts.json").read_text(encoding="utf-8"))
        from diffsweep.analysis.claims import Verdict  # noqa: PLC0415
        return {cid: Verdict(v["status"], v.get("numbers") or {}, v.get("reason", ""))
                for cid, v in raw.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
