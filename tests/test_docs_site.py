"""The documentation site builds with `mkdocs build --strict` (mkdocs.yml): every page in the
navigation exists, every link between pages and to a heading resolves, and the API reference
is generated from the docstrings without a warning."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

def _absent(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:  # a parent package missing
        return True


missing = [m for m in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")
           if _absent(m)]


@pytest.mark.skipif(bool(missing), reason="the docs tools are not installed (pip install "
                    f"'.[docs]'): missing {', '.join(missing)}")
def test_mkdocs_build_strict(tmp_path):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d",
                           str(tmp_path / "site")], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for page in ("index.html", "reference/index.html", "reference/engine/index.html",
                 "findings/index.html", "reports/kaur-vin/report/index.html"):
        assert (tmp_path / "site" / page).is_file(), page
    api = (tmp_path / "site" / "reference" / "index.html").read_text()
    for name in ("diffsweep.run", "diffsweep.Grid", "diffsweep.Results", "diffsweep.Scenario"):
        assert name in api, name
