"""Layer ``cli``: the ``diffsweep`` command line, one module per subcommand, thin.

``app`` builds the parser and runs a command (``main(argv)``; ``entry``: the console script); each
subcommand's module adds its parser and holds its ``_cmd_*``.

May import: every layer.
"""
from __future__ import annotations

from diffsweep.cli.app import entry, main  # noqa: F401 (the console script: diffsweep.cli:entry)
