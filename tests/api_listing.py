"""The public face of diffsweep as data: every name of ``diffsweep.__all__`` (its kind and
signature), the builders of ``diffsweep.scenarios`` and every CLI subcommand with its options.
tests/test_layers.py compares it with tests/data/public_api.json, recorded from diffsweep 0.2
before the package was put in layers (issue 50), so that moving modules changes nothing a user
sees. Run as a script to print it (``python tests/api_listing.py``).
"""
from __future__ import annotations

import argparse
import inspect
import json
import re


def _actions(parser: argparse.ArgumentParser) -> list[str]:
    out = []
    for a in parser._actions:
        if isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        name = "/".join(a.option_strings) or a.dest
        bits = [type(a).__name__, f"dest={a.dest}", f"nargs={a.nargs!r}",
                f"default={a.default!r}", f"required={a.required}"]
        if a.choices is not None:
            bits.append(f"choices={sorted(map(str, a.choices))}")
        if a.metavar is not None:
            bits.append(f"metavar={a.metavar!r}")
        out.append(f"{name}: " + ", ".join(bits))
    return sorted(out)


def cli_listing() -> dict:
    """Every subcommand of ``diffsweep`` with its options (read from the parser it builds)."""
    import importlib  # noqa: PLC0415

    cli = importlib.import_module("diffsweep.cli")  # its main(argv), then and now

    original = argparse.ArgumentParser.parse_args

    seen = []

    def capture(self, args=None, namespace=None):
        if self.prog == "diffsweep":
            seen.append(self)
            raise SystemExit(0)  # the parser is built: run nothing
        return original(self, args, namespace)

    argparse.ArgumentParser.parse_args = capture
    try:
        cli.main(["info"])
    except SystemExit:
        pass
    finally:
        argparse.ArgumentParser.parse_args = original
    parser = seen[0]
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = {"": _actions(parser)}
    for name, p in sub.choices.items():
        out[name] = _actions(p)
    return out


def api_listing() -> dict:
    import diffsweep as ds  # noqa: PLC0415

    out = {}
    for name in sorted(ds.__all__):
        obj = getattr(ds, name)
        if inspect.ismodule(obj):
            out[name] = "module: " + ", ".join(sorted(dir(obj)))
        else:
            try:
                sig = str(inspect.signature(obj))
            except (TypeError, ValueError):
                sig = "?"
            sig = re.sub(r" at 0x[0-9a-f]+", "", sig)  # a sentinel default's address
            out[name] = f"{'class' if inspect.isclass(obj) else 'function'}{sig}"
    return out


def listing() -> dict:
    return {"api": api_listing(), "cli": cli_listing()}


if __name__ == "__main__":
    print(json.dumps(listing(), indent=1, sort_keys=True))
