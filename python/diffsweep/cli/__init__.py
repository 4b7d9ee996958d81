"""Layer ``cli``: the ``diffsweep`` command line, one module per subcommand, thin.

``app`` builds the parser and runs a command (``main(argv)``; ``entry``: the console script); each
subcommand's module (``info``, ``demo``, ``run``, ``reproduce``, ``atlas``, ``builders``,
``sensitivity``, ``show``, ``plot``, ``export``, ``repair``) adds its parser with
``add_subcommand(sub)`` and holds its ``_cmd_*``; ``common``: what they share (the option checks,
the ``--backend`` help, sizes, the Dask client).

May import: every layer.
"""
from __future__ import annotations

from diffsweep.cli.app import entry, main  # noqa: F401 (the console script: diffsweep.cli:entry)
