"""A script of benchmarks/ (not a package) imported as a module, for the tests of its
arithmetic."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str):
    """benchmarks/<name>.py as a module (benchmarks/ on the path, as when a script runs: the
    scripts share yardstick.py)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_main(name: str, *argv: str) -> None:
    """benchmarks/<name>.py run as `python benchmarks/<name>.py argv...` runs it."""
    mod = load(name)
    saved = sys.argv
    sys.argv = [f"{name}.py", *argv]
    try:
        mod.main()
    finally:
        sys.argv = saved
