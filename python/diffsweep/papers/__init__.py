"""The papers diffsweep reproduces, and their registry.

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

# The registry itself lives in the core layer (every layer reads it, none imports a paper by
# name); its names are re-exported here, where the papers and their users have always found them.
from diffsweep.core.registry import (REGISTERED, Family, Paper, builders, get, names,  # noqa: F401
                                     resolve)

__all__ = ["Family", "Paper", "REGISTERED", "names", "get", "builders", "resolve"]
