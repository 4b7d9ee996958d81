"""Byte-identity of a reproduction's host side before and after a change (issue 22).

    python benchmarks/host/host_identity.py tables PAPER DIR OUT.json   # hash every per-seed table
    python benchmarks/host/host_identity.py compare BEFORE AFTER [--pdf-points PT]  # two folders
    python benchmarks/host/host_identity.py compare-tables A.json B.json

``tables`` reads every sweep of PAPER's families from the reproduction folder DIR (its stores,
nothing computed), combines each family's sweeps as ``reproduce`` does, and calls every public
function of the paper's ``tables`` module that takes a Results alone on every family: the
sha256 of each table's columns, dtypes and values (``pandas.util.hash_pandas_object``, exact
bits) goes to OUT.json (an exception is recorded by its type). Run it with the code before and
after, then ``compare-tables``.

``compare`` sets the report.md, report.html and verdicts.json and every figure PNG of two
folders side by side: verdicts.json and the PNGs must be byte-identical, the reports
identical once the parts allowed to differ are masked: the "Generated" minute, the timing
values, and the families' engine columns with the paragraph under them (issue 22 changed that
column; its other columns are compared). PDFs are compared without their CreationDate.
Prints every difference; exit status 1 if any.

``--pdf-points PT``: a PDF that is not byte-identical passes when it draws the same thing
within PT points: its streams (page content, fonts' glyph procedures, markers), inflated,
hold the same operators, names and strings in the same order, and every number is within PT
of the other's (the PDF's unit is the point). Since the PDF keeps the layout solved for the
PNG (``figures.save``), the axes of a PDF sit up to ~1 pt from where the PDF's own layout put
them; the same ticks, texts, markers and data are drawn.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import re
import sys
from pathlib import Path


def _table_hash(df) -> str:
    import pandas as pd  # noqa: PLC0415

    h = hashlib.sha256()
    h.update(json.dumps([[str(c), str(t)] for c, t in df.dtypes.items()]).encode())
    df = df.copy()
    for c in df.columns[df.dtypes == object]:  # lists and arrays in cells: their exact repr
        df[c] = [repr(v.tolist()) if hasattr(v, "tolist") else repr(v) for v in df[c]]
    h.update(pd.util.hash_pandas_object(df, index=True).to_numpy().tobytes())
    return h.hexdigest()


def tables(paper: str, folder: str, out: str) -> None:
    import importlib  # noqa: PLC0415

    from diffsweep import papers  # noqa: PLC0415
    from diffsweep.report.figures import combine  # noqa: PLC0415
    from diffsweep.sweep.store import load  # noqa: PLC0415

    spec = papers.get(paper)
    mod = importlib.import_module(f"diffsweep.papers.{spec.package}.tables")
    fns = {}
    for name, fn in vars(mod).items():
        if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != mod.__name__:
            continue
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.default is inspect.Parameter.empty]
        if len(params) == 1 and params[0].name.startswith("res"):
            fns[name] = fn
    runs = {}
    result = {}
    for fam in spec.families:
        for s in fam.sweeps:
            if s not in runs:
                runs[s] = load(Path(folder) / s)
        parts = [runs[s] for s in fam.sweeps]
        res = parts[0] if len(parts) == 1 else combine(parts, labels=list(fam.sweeps))
        for name, fn in sorted(fns.items()):
            try:
                v = fn(res)
            except Exception as e:  # noqa: BLE001 - a table a family cannot give
                result[f"{fam.id}:{name}"] = f"error {type(e).__name__}"
                continue
            vs = v if isinstance(v, tuple) else (v,)
            result[f"{fam.id}:{name}"] = [_table_hash(x) if hasattr(x, "dtypes") else repr(x)
                                          for x in vs]
    Path(out).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"{len(result)} tables of {len(fns)} functions x {len(spec.families)} families -> {out}")


_MD_MASKS = [(re.compile(r"^Generated \d{4}-\d\d-\d\d \d\d:\d\d"), "Generated <date>"),
             (re.compile(r"^\| ((?:sweep|figure|family engine call|total)[^|]*) \| [0-9.]+ s \|$"),
              r"| \1 | <s> |")]
_HTML_MASKS = [(re.compile(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d"), "Generated <date>"),
               (re.compile(r"<tr><td>((?:sweep|figure|family engine call|total)[^<]*)</td>"
                           r"<td>[0-9.]+ s</td></tr>"), r"<tr><td>\1</td><td><s></td></tr>"),
               (re.compile(r"<p>The replicas (?:were computed|of the sweeps)[^<]*</p>\n?"), ""),
               (re.compile(r"<p>No engine call is recorded[^<]*</p>\n?"), "")]


def _families_md(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """The report.md without its families table and the paragraph under it; the table's rows
    cut to their first 7 columns (family .. device)."""
    out, rows, i = [], [], 0
    while i < len(lines):
        if lines[i].startswith("| family | points |"):
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i].strip("|").split(" | ")[:7])
                i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("The replicas")
                                      or lines[i].startswith("No engine call")):
                i += 1
            continue
        out.append(lines[i])
        i += 1
    return out, rows


def _mask(text: str, masks) -> str:
    for rx, sub in masks:
        text = rx.sub(sub, text)
    return text


def _html_families(text: str) -> tuple[str, list]:
    rows = []

    def cut(m):
        for tr in re.findall(r"<tr>(.*?)</tr>", m.group(0))[1:]:
            rows.append(re.findall(r"<td>(.*?)</td>", tr)[:7])
        return ""
    return re.sub(r"<table><tr><th>family</th><th>points</th>.*?</table>", cut, text,
                  flags=re.S), rows


_PDF_TOKEN = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>{}%]+|"
                        rb"[-+]?(?:\d+\.?\d*|\.\d+)|[^\s\[\]()<>{}/%]+|[\[\]{}]|<<|>>")
_PDF_NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)")


def _pdf_streams(data: bytes) -> list[bytes]:
    """Every stream of a PDF, inflated where it is FlateDecode'd (matplotlib's are)."""
    import zlib  # noqa: PLC0415

    out = []
    for m in re.finditer(rb"<<(.*?)>>\s*stream\r?\n", data, re.S):
        start = m.end()
        end = data.index(b"endstream", start)
        body = data[start:end]
        if b"/FlateDecode" in m.group(1):
            body = zlib.decompressobj().decompress(body)
        out.append(body)
    return out


def pdf_drawing_diff(a: bytes, b: bytes, points: float) -> tuple[str | None, float]:
    """(None, the largest difference of two numbers) when the PDFs ``a`` and ``b`` draw the
    same thing within ``points`` (see the module docstring), else (what differs first, ...)."""
    sa, sb = _pdf_streams(a), _pdf_streams(b)
    if len(sa) != len(sb):
        return f"{len(sa)} vs {len(sb)} streams", float("inf")
    worst = 0.0
    for i, (x, y) in enumerate(zip(sa, sb)):
        if x == y:
            continue
        tx, ty = _PDF_TOKEN.findall(x), _PDF_TOKEN.findall(y)
        if len(tx) != len(ty):
            return f"stream {i}: {len(tx)} vs {len(ty)} tokens", float("inf")
        for u, v in zip(tx, ty):
            if u == v:
                continue
            if not (_PDF_NUMBER.fullmatch(u) and _PDF_NUMBER.fullmatch(v)):
                return f"stream {i}: {u[:40]!r} vs {v[:40]!r}", float("inf")
            worst = max(worst, abs(float(u) - float(v)))
            if worst > points:
                return (f"stream {i}: {u.decode()} vs {v.decode()} (more than {points:g} "
                        "apart)", worst)
    return None, worst


def compare(before: str, after: str, pdf_points: float = 0.0) -> int:
    a, b = Path(before), Path(after)
    bad, near = [], []
    if (a / "verdicts.json").read_bytes() != (b / "verdicts.json").read_bytes():
        bad.append("verdicts.json differs")
    ma, ra = _families_md([_mask(x, _MD_MASKS) for x in
                           (a / "report.md").read_text().split("\n")])
    mb, rb = _families_md([_mask(x, _MD_MASKS) for x in
                           (b / "report.md").read_text().split("\n")])
    if ma != mb:
        import difflib  # noqa: PLC0415
        bad.append("report.md differs:\n" + "\n".join(list(difflib.unified_diff(
            ma, mb, "before", "after", lineterm="", n=0))[:40]))
    if ra != rb:
        bad.append(f"report.md families table differs: {ra} vs {rb}")
    ha, hra = _html_families(_mask((a / "report.html").read_text(), _HTML_MASKS))
    hb, hrb = _html_families(_mask((b / "report.html").read_text(), _HTML_MASKS))
    if ha != hb:
        bad.append("report.html differs")
    if hra != hrb:
        bad.append("report.html families table differs")
    figs_a = sorted(p.name for p in (a / "figures").iterdir())
    figs_b = sorted(p.name for p in (b / "figures").iterdir())
    if figs_a != figs_b:
        bad.append(f"figure files differ: {sorted(set(figs_a) ^ set(figs_b))}")
    for name in sorted(set(figs_a) & set(figs_b)):
        x, y = (a / "figures" / name).read_bytes(), (b / "figures" / name).read_bytes()
        if name.endswith(".pdf"):
            x, y = (re.sub(rb"/CreationDate \([^)]*\)", b"", v) for v in (x, y))
            if x != y and pdf_points > 0:
                why, worst = pdf_drawing_diff(x, y, pdf_points)
                if why is None:
                    near.append(worst)
                    continue
                bad.append(f"figures/{name} draws something else: {why}")
                continue
        if x != y:
            bad.append(f"figures/{name} differs")
    for line in bad:
        print(f"{before} vs {after}: {line}")
    if not bad:
        print(f"{before} vs {after}: identical (verdicts.json, {len(figs_a)} figure files; "
              "report.md and report.html but for the date, timings and engine column)"
              + (f"; of the PDFs, {len(near)} draw the same within {pdf_points:g} pt (numbers "
                 f"at most {max(near):.2f} apart), the others are identical" if near else ""))
    return 1 if bad else 0


def compare_tables(x: str, y: str) -> int:
    a, b = json.loads(Path(x).read_text()), json.loads(Path(y).read_text())
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    for k in diff:
        print(f"table {k} differs: {a.get(k)} vs {b.get(k)}")
    print(f"{x} vs {y}: {len(a)} tables, {len(diff)} differ")
    return 1 if diff else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["tables"] and len(argv) == 4:
        tables(*argv[1:])
        return 0
    if argv[:1] == ["compare"] and len(argv) == 3:
        return compare(*argv[1:])
    if argv[:1] == ["compare"] and len(argv) == 5 and argv[3] == "--pdf-points":
        return compare(argv[1], argv[2], float(argv[4]))
    if argv[:1] == ["compare-tables"] and len(argv) == 3:
        return compare_tables(*argv[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
