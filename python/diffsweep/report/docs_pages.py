"""docs_pages: write (or check) the generated documentation pages, docs/builders.md (every
builder's parameters: ``diffsweep.report.builders_page``) and docs/columns.md (every results table's
columns: ``diffsweep.analysis.columns``) and docs/metric-names.md (every named metric:
``diffsweep.analysis.registry``).

    python -m diffsweep.report.docs_pages [--check] [DOCS_DIR]

DOCS_DIR defaults to the checkout's ``docs/`` (beside ``python/``). ``--check`` writes nothing
and exits 1 naming each page that differs from what the code generates (the test suite runs the
same comparison: tests/test_docs_pages.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

#: page file name -> the function that generates it
PAGES: dict[str, str] = {
    "builders.md": "diffsweep.report.builders_page:builders_markdown",
    "columns.md": "diffsweep.analysis.columns:columns_markdown",
    "metric-names.md": "diffsweep.analysis.registry:metrics_markdown",
}

DEFAULT_DOCS = Path(__file__).resolve().parents[3] / "docs"


def generate(name: str) -> str:
    """The text of the page ``name`` (a key of PAGES) as the code makes it now."""
    import importlib  # noqa: PLC0415

    module, _, fn = PAGES[name].partition(":")
    make: Callable[[], str] = getattr(importlib.import_module(module), fn)
    return make()


def stale(docs: Path) -> list[str]:
    """The pages under ``docs`` that differ from what the code generates (or are missing)."""
    out = []
    for name in PAGES:
        p = docs / name
        if not p.is_file() or p.read_text(encoding="utf-8") != generate(name):
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m diffsweep.report.docs_pages",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("docs", nargs="?", type=Path, default=DEFAULT_DOCS, metavar="DOCS_DIR")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a page differs from what the code generates")
    args = ap.parse_args(argv)
    if not args.docs.is_dir():
        print(f"docs_pages: error: {args.docs}: not a folder (expected the checkout's docs/)",
              file=sys.stderr)
        return 2
    if args.check:
        bad = stale(args.docs)
        for name in bad:
            print(f"{args.docs / name} differs from what the code generates; run "
                  "python -m diffsweep.report.docs_pages", file=sys.stderr)
        return 1 if bad else 0
    for name in PAGES:
        (args.docs / name).write_text(generate(name), encoding="utf-8")
        print(args.docs / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
