"""The paper registry: what a paper declares (:class:`Paper`, :class:`Family`) and where the
registered ones are (layer ``core``: every layer may read it; it imports no paper by name).

Each paper is a package ``diffsweep.papers.<package>`` whose ``__init__`` defines ``PAPER``, a
:class:`Paper`: its figure families (the sweep files under ``sweeps/<package>/`` each one
reads), the assumptions the report lists, the sweep-file builders it brings, and where its
claims and figure functions are. ``__init__`` stays light (strings and tuples only); the
claims, figures and builder modules are imported when first used. The package also holds
the paper's scenario builder (``scenario.py``), its per-seed tables, figures and claims, and
reference data under ``data/`` (package data, read with :meth:`Paper.data_file`).

``REGISTERED`` lists the packages (found, not typed: every sub-package is a paper);
``names()``, ``get(name)`` and ``builders()`` read them. The CLI's ``diffsweep reproduce``
choices, :func:`diffsweep.studies.reproduce.reproduce` and the builder registry of sweep files
(``diffsweep.sweep.config.BUILDERS``) all come from here: a paper appears in ``diffsweep reproduce
--help`` by having its package with a ``PAPER``. ``docs/design.md`` ("How to add
a paper") walks through the files.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from diffsweep.core.errors import ConfigError

__all__ = ["Family", "Paper", "REGISTERED", "names", "get", "builders", "resolve"]

#: Where the paper packages are: ``diffsweep/papers/`` (read from the file system, so that this
#: module, below every layer, imports no paper).
PAPERS_DIR = Path(__file__).resolve().parents[1] / "papers"

#: The paper packages: every sub-package of diffsweep.papers (a paper registers by existing,
#: with a ``PAPER`` in its ``__init__``), in name order.
REGISTERED = tuple(sorted(m.name for m in pkgutil.iter_modules([str(PAPERS_DIR)]) if m.ispkg))


def resolve(target: str | Callable) -> Any:
    """``"module:attribute"`` imported (or a callable returned as is)."""
    if callable(target):
        return target
    module, _, attr = str(target).partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else []:
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Family:
    """A figure family: ``id`` (the claims' family, e.g. "K2"), ``figure`` (what ``--figure``
    selects, e.g. "2"), ``sweeps`` (the sweep files it reads, combined in this order) and
    ``title`` (the report's section heading).

    ``make``: None for a family whose figure is the paper's ``figures[id](results)``; else
    ``"module:function"`` called as ``make(runs, figures_dir, paper)`` with every run of the
    reproduction (sweep name -> Results), which returns (figure paths, a note for the report):
    for families that compare several runs rather than show one (model variants, say). Such a
    family has no claims of its own. A hook that does much may carry ``parts``, a function of
    the same arguments returning (tasks, join): ``reproduce`` runs the tasks (callables of no
    arguments, as many whatever the data: the runs may not be stored yet when they are made)
    in parallel and ``join(their answers, in order)`` gives the hook's (paths, note).
    ``full_only``: see the field."""

    id: str
    figure: str
    sweeps: tuple[str, ...]
    title: str = ""
    make: str | None = None
    #: a family that answers a question beyond the paper's figures (its future work, say):
    #: run by the full reproduction, and by ``--quick`` only when ``--figure`` names it, so
    #: that the quick reproduction keeps its time
    full_only: bool = False


@dataclass(frozen=True)
class Paper:
    """What ``diffsweep reproduce`` and the report need to know about one paper.

    name: the CLI name (e.g. "smith-jones"); package: the Python package and sweep folder
    (e.g. "smith_jones": ``diffsweep.papers.smith_jones``, ``sweeps/smith_jones/``, figure
    files ``smith_jones_fig2.png``); title: the paper's title line of the report; setup: the common
    set-up as the paper gives it; families; assumptions: every value the paper does not give
    (the report's "Assumptions" section); builders: sweep-file builder name -> "module:function";
    claims: "module:function" returning the list of :class:`diffsweep.analysis.claims.Claim`; figures:
    "module:attribute", a mapping family id -> figure function (``Results -> Figure``);
    run_note: what the paper gives of the run length, warm-up and runs (the report adds it to
    the run settings actually used); maps: the claims ``diffsweep.studies.atlas`` may map; metrics:
    the numbers ``diffsweep.studies.sensitivity`` may measure."""

    name: str
    package: str
    title: str
    setup: str
    families: tuple[Family, ...]
    assumptions: tuple[str, ...]
    builders: Mapping[str, str]
    claims: str
    figures: str
    notes: Mapping[str, str] = field(default_factory=dict)
    run_note: str = ""
    #: "module:attribute": the claims ``diffsweep.studies.atlas`` may map and over which parameters
    #: (a tuple of :class:`diffsweep.studies.atlas.Mappable`); "" when none
    maps: str = ""
    #: "module:attribute": the paper's per-seed numbers ``diffsweep sensitivity`` may measure
    #: as ``--metric <paper>:<name>`` (a mapping name -> :class:`diffsweep.studies.sensitivity.
    #: PaperMetric`); "" when none
    metrics: str = ""

    def claim_list(self) -> list:
        return resolve(self.claims)()

    def map_list(self) -> list:
        """The claims ``diffsweep.studies.atlas`` may map (``diffsweep.studies.atlas.Mappable``)."""
        return list(resolve(self.maps)) if self.maps else []

    def metric_map(self) -> Mapping:
        """The numbers ``diffsweep.studies.sensitivity`` may measure (name -> ``PaperMetric``)."""
        return dict(resolve(self.metrics)) if self.metrics else {}

    def figure_functions(self) -> Mapping[str, Callable]:
        return resolve(self.figures)

    def family(self, family_id: str) -> Family | None:
        return next((f for f in self.families if f.id == family_id), None)

    def figure_choices(self) -> list[str]:
        """The values ``--figure`` accepts, in family order."""
        return [f.figure for f in self.families]

    def data_file(self, name: str) -> Path:
        """A file of the paper's package data (``diffsweep/papers/<package>/data/<name>``)."""
        return Path(importlib.import_module(f"diffsweep.papers.{self.package}").__file__
                    ).parent / "data" / name


@lru_cache(maxsize=None)
def _papers() -> dict[str, Paper]:
    out = {}
    for package in REGISTERED:
        paper = importlib.import_module(f"diffsweep.papers.{package}").PAPER
        out[paper.name] = paper
    return out


def names() -> list[str]:
    """The registered papers' CLI names."""
    return list(_papers())


def get(name: str) -> Paper:
    """The registered paper ``name`` (ConfigError naming the allowed ones otherwise)."""
    papers = _papers()
    if name not in papers:
        raise ConfigError(f"paper: {name!r} is not allowed (expected one of {', '.join(papers)})")
    return papers[name]


def builders() -> dict[str, str]:
    """Every registered paper's sweep-file builders: name -> "module:function"."""
    out: dict[str, str] = {}
    for paper in _papers().values():
        out.update(paper.builders)
    return out
