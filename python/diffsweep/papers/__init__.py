"""Layer ``papers``: the papers diffsweep reproduces, one package each.

A paper's package ``diffsweep.papers.<package>`` holds its scenario builder (``scenario.py``),
per-seed tables, figures, claims (and, where it has them, ``atlas.py``, ``sensitivity.py``) and
reference data under ``data/``; its ``__init__`` defines ``PAPER`` (strings and tuples only).
What a ``PAPER`` declares, and how the registered ones are found, is the registry's
(``diffsweep.core.registry``: its names are re-exported here).

May import: every layer below (studies and down); never another paper (pyproject.toml's
independence contract). ``docs/contributing.md`` ("Add a paper") lists the files.
"""
from __future__ import annotations

# The registry itself lives in the core layer (every layer reads it, none imports a paper by
# name); its names are re-exported here, where the papers and their users have always found them.
from diffsweep.core.registry import (REGISTERED, Family, Paper, builders, get, names,  # noqa: F401
                                     resolve)

__all__ = ["Family", "Paper", "REGISTERED", "names", "get", "builders", "resolve"]
