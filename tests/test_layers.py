"""The package in layers (issue 50): the import-linter contract of pyproject.toml holds and
covers every sub-package (no import circle: tests/test_layout.py), each layer says what it
may import, the 0.2 module paths still lead to their modules (and say where they went), and the public API
and the CLI are what they were (tests/data/public_api.json, recorded from 0.2)."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import diffsweep
from diffsweep import _moved

ROOT = Path(__file__).resolve().parents[1]
PKG = Path(diffsweep.__file__).resolve().parent

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_import_linter_contracts_hold():
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml")) == 0, \
        "lint-imports: an import runs against the layers (run `lint-imports` to see which)"


def test_the_layers_cover_every_subpackage():
    layers = next(c for c in _contracts() if c["type"] == "layers")["layers"]
    named = {m.strip() for layer in layers for m in layer.split("|")}
    subpackages = {f"diffsweep.{p.name}" for p in PKG.iterdir()
                   if p.is_dir() and (p / "__init__.py").exists()}
    assert subpackages == named, f"not in a layer: {sorted(subpackages - named)}"
    # at the top level only the package's face, the entry point and the compiled modules
    top = {p.name for p in PKG.glob("*.py")}
    assert top == {"__init__.py", "__main__.py", "_moved.py"}, sorted(top)
    papers = next(c for c in _contracts() if c["type"] == "independence")["modules"]
    assert set(papers) == {f"diffsweep.papers.{p}" for p in diffsweep.papers.REGISTERED}


@pytest.mark.parametrize("layer", ["core", "scenario", "engine", "sweep", "analysis", "report",
                                   "studies", "cli"])
def test_each_layer_says_what_it_owns_and_may_import(layer):
    doc = importlib.import_module(f"diffsweep.{layer}").__doc__ or ""
    assert doc.startswith(f"Layer ``{layer}``"), doc[:80]
    assert "May import:" in doc


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_a_0_2_module_path_leads_to_its_new_home(old):
    new = importlib.import_module(f"diffsweep.{_moved.MOVED[old]}")
    parent = old.rpartition(".")[0]
    for name in [old] + ([parent] if parent else []):  # a fresh import, parent first
        sys.modules.pop(f"diffsweep.{name}", None)
        _moved._warned.discard(f"diffsweep.{name}")
    for key in _moved.MOVED:  # and its old submodules, which the parent's import registers
        if key.startswith(old.rpartition(".")[0] or old) and key != old and "." in key:
            sys.modules.pop(f"diffsweep.{key}", None)
    _moved._warned.discard(f"diffsweep.{old}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = importlib.import_module(f"diffsweep.{old}")
    assert got is new
    # the new package keeps its own names (a function and a submodule may share one)
    assert callable(importlib.import_module("diffsweep.engine.pack").layout)
    if old not in _moved.QUIET:
        # the old name's own line, or its old package's (``diffsweep.pack`` for pack.flows)
        said = {f"diffsweep.{o} moved to diffsweep.{_moved.MOVED[o]}" for o in (old, parent) if o}
        assert any(any(line in str(w.message) for line in said)
                   and w.category is FutureWarning for w in caught), [str(w.message) for w in caught]


def test_old_names_as_attributes_and_from_imports():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        from diffsweep import runner  # noqa: PLC0415 (the 0.2 path, on purpose)
        assert runner is importlib.import_module("diffsweep.sweep.runner")
        assert diffsweep.metrics is importlib.import_module("diffsweep.analysis.metrics")
    # the 0.2 modules that are packages now keep their names
    assert diffsweep.engine.simulate is diffsweep.simulate
    assert diffsweep.engine.run_packed is importlib.import_module(
        "diffsweep.engine.compiled").run_packed
    assert diffsweep.report.write_report.__module__ == "diffsweep.report.paper_report"
    with pytest.raises(AttributeError, match="no attribute 'not_a_module'"):
        diffsweep.not_a_module  # noqa: B018


def test_python_m_on_an_old_path_runs_the_module():
    out = subprocess.run([sys.executable, "-W", "ignore::FutureWarning", "-m",
                          "diffsweep.docs_pages", "--help"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "docs_pages" in out.stdout


def test_public_api_and_cli_unchanged():
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        from api_listing import listing
    finally:
        sys.path.pop(0)
    recorded = json.loads((Path(__file__).parent / "data" / "public_api.json").read_text())
    now = listing()
    assert now["api"] == recorded["api"]
    assert now["cli"] == recorded["cli"]


def test_docs_say_where_every_0_2_module_went():
    text = (ROOT / "docs" / "api.md").read_text()
    for old, new in _moved.MOVED.items():
        assert f"| `diffsweep.{old}` | `diffsweep.{new}` |" in text, old


def test_no_module_over_600_lines_outside_the_papers():
    # a cap is a symptom, not the reason: each module has one job (its docstring says which)
    long = {p.relative_to(PKG).as_posix(): n for p in PKG.rglob("*.py")
            if "papers" not in p.relative_to(PKG).parts
            and (n := len(p.read_text().splitlines())) > 600}
    assert long == {}
