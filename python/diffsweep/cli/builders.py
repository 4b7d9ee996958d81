"""``diffsweep builders [NAME]``: the builders a sweep file may name, or one builder's parameters
with their units, defaults and allowed values; ``--markdown``: docs/builders.md. The text and the
page come from ``diffsweep.report.builders_page``."""
from __future__ import annotations

from diffsweep.core.errors import ConfigError
from diffsweep.report.builders_page import builder_text, builders_markdown, list_text


def _cmd_builders(args) -> int:
    if args.markdown:
        if args.name is not None:
            raise ConfigError(f"--markdown: not allowed with NAME ({args.name!r}): it prints the "
                              "page of every built-in builder, docs/builders.md")
        print(builders_markdown(), end="")
        return 0
    print(builder_text(args.name) if args.name else list_text())
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep builders [NAME]`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("builders", help="the builders a sweep file may name; with NAME, its "
                       "parameters with units, defaults and allowed values",
                       description="Without NAME: every registered builder (built-in and "
                       "registered). With NAME (a registered name, or \"package.module:function"
                       "\" for a builder of your own): its parameters, their units, defaults "
                       "and allowed values, read from the builder itself (docs/builders.md).")
    s.add_argument("name", nargs="?", default=None, metavar="NAME")
    s.add_argument("--markdown", action="store_true",
                   help="print docs/builders.md (every built-in builder) as generated")
    s.set_defaults(fn=_cmd_builders)
