"""Layer ``core``: the types and helpers every layer shares.

Owns the errors (``errors``), a run's tables (``results``: :class:`Results`) and the sweep's
axes in them (``axes``), canonical hashing (``identity``), files written whole or not at all
(``atomic``), the installed version (``version``) and the paper registry (``registry``: what a
paper declares; the papers themselves are found on disk, never imported by name).

May import: nothing of diffsweep outside ``core`` (the bottom layer; pyproject.toml's
import-linter contract, run by tests/test_layers.py).
"""
