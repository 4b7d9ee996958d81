"""Where the modules of diffsweep 0.2's flat package went (issue 50: the package in layers).

``import diffsweep.runner`` (and ``from diffsweep import runner``, ``diffsweep.runner`` after
``import diffsweep``) keeps working: it gives the module's new home, the same module object, and
says where that is (a ``FutureWarning``, shown to users by default, once per name). Nothing of
diffsweep itself imports an old path (the test suite turns such warnings into errors).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

#: old module (under ``diffsweep.``) -> its new home (under ``diffsweep.``); docs/api.md lists it
MOVED = {
    "errors": "core.errors", "identity": "core.identity", "atomic": "core.atomic",
    "results": "core.results", "axes": "core.axes",
    "builder_registry": "scenario.registry", "scenarios": "scenario.builders",
    "pack": "engine.pack", "pack.flows": "engine.pack.flows",
    "pack.layout": "engine.pack.layout", "pack.links": "engine.pack.links",
    "pack.markers": "engine.pack.markers", "pack.sources": "engine.pack.sources",
    "pack.traffic": "engine.pack.traffic",
    "backend_choice": "engine.backend_choice", "hybrid": "engine.hybrid",
    "repeats": "engine.repeats", "rounding": "engine.rounding", "sizing": "engine.sizing",
    "chunking": "engine.chunking", "run_control": "engine.run_control",
    "run_args": "engine.run_args",
    "grid": "sweep.grid", "config": "sweep.config", "runner": "sweep.runner",
    "store": "sweep.store", "folder": "sweep.folder", "repair": "sweep.repair",
    "progress": "sweep.progress", "interrupt": "sweep.interrupt",
    "family_run": "sweep.family_run", "ci_target": "sweep.ci_target",
    "metrics": "analysis.metrics", "stats": "analysis.stats", "claims": "analysis.claims",
    "columns": "analysis.columns",
    "figures": "report.figures",
    "report_cache": "report.cache", "atlas_page": "report.atlas_page",
    "sensitivity_page": "report.sensitivity_page", "builders_doc": "report.builders_page",
    "docs_pages": "report.docs_pages",
    "reproduce": "studies.reproduce", "reproduce_plan": "studies.reproduce_plan",
    "atlases": "studies.atlas", "sensitivity_design": "studies.designs",
    "cli_repair": "cli.repair", "sensitivity_cli": "cli.sensitivity",
}
# Not listed: ``diffsweep.engine``, ``diffsweep.report`` and ``diffsweep.cli`` are packages now
# whose ``__init__`` gives the 0.2 modules' names; ``diffsweep.sensitivity`` has always been the
# function (the module is ``diffsweep.studies.sensitivity``); ``diffsweep.figures.render`` is
# ``diffsweep.report.render`` (``diffsweep.figures`` is a module now, not a package).

#: the old names a user reaches as ``diffsweep.<name>`` without a warning (public API)
QUIET = {"scenarios"}

_warned: set[str] = set()


def new_name(old: str) -> str | None:
    """``"diffsweep.runner"`` -> ``"diffsweep.sweep.runner"``; None for a path that did not move."""
    if not old.startswith("diffsweep."):
        return None
    new = MOVED.get(old[len("diffsweep."):])
    return None if new is None else "diffsweep." + new


def resolve(old: str):
    """The module ``old`` names (``diffsweep.<old name>``), saying where it went."""
    new = new_name(old)
    short = old[len("diffsweep."):]
    if short not in QUIET and old not in _warned:
        _warned.add(old)
        warnings.warn(f"{old} moved to {new} (the package in layers, "
                      "docs/api.md); import it from there", FutureWarning, stacklevel=3)
    module = importlib.import_module(new)
    # the old package's old submodules too (``diffsweep.pack.layout``), before anyone imports
    # them: importlib would otherwise set each on its parent as an attribute when first loaded,
    # over the parent's own name (``diffsweep.engine.pack.layout`` is a function and a module)
    for key, home in MOVED.items():
        if key.startswith(short + "."):
            sys.modules.setdefault(f"diffsweep.{key}", importlib.import_module(f"diffsweep.{home}"))
    return module


class _Loader(importlib.abc.Loader):
    def __init__(self, old: str):
        self.old = old

    def create_module(self, spec):
        return None  # a placeholder: exec_module puts the real module in its place

    def exec_module(self, module) -> None:
        # importlib returns sys.modules[name] after exec_module: the module's new home
        sys.modules[self.old] = resolve(self.old)

    def get_code(self, fullname):  # ``python -m diffsweep.<old path>``
        new = new_name(fullname)
        spec = importlib.util.find_spec(new)
        return spec.loader.get_code(new)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if new_name(fullname) is None:
            return None
        real = importlib.util.find_spec(new_name(fullname))
        # the new file as origin: ``python -m diffsweep.<old path>`` runs it with its __file__
        return importlib.util.spec_from_loader(fullname, _Loader(fullname),
                                               origin=real.origin if real else None)


def install() -> None:
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
