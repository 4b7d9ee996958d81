"""A script of benchmarks/ (not a package) imported as a module, for the tests of its
arithmetic."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str):
    """benchmarks/<name>.py (`name` as "gpu/targets") as a module, its folder on the path, as
    when the script runs (a script of another folder puts that folder on the path itself)."""
    path = BENCH / f"{name}.py"
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_main(name: str, *argv: str) -> None:
    """benchmarks/<name>.py run as `python benchmarks/<name>.py argv...` runs it."""
    mod = load(name)
    saved = sys.argv
    sys.argv = [f"{Path(name).name}.py", *argv]
    try:
        mod.main()
    finally:
        sys.argv = saved
