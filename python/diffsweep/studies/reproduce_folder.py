"""Where a reproduction reads and writes: the paper's sweep files (the packaged ones,
``SWEEPS_DIR``, or the checkout's, never a ``./sweeps`` of the working directory; ``--sweeps
DIR``: ``DIR/<package>/<name>.toml``) and its results folder: which paper's reproduction a
folder holds (``MARKER``, ``folder_paper``), the refusal to write another paper's into it
(``check_folder``), and the undoing of a folder a failed call created (``_created_root``,
``_undo_empty``). See ``diffsweep.studies.reproduce``.
"""
from __future__ import annotations

import json
from pathlib import Path

from diffsweep.core import registry as papers
from diffsweep.core.errors import ConfigError

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
