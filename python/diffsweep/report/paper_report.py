"""The reproduction report of a paper: Markdown, self-contained HTML and verdicts.json.

``write_report(paper, results_by_family, out_dir, ...)`` renders any registered
:class:`diffsweep.papers.Paper`: the summary table of its claims' verdicts, the set-up, the
assumptions, the conclusions and, per figure family, the figures and each claim with its
measured numbers (95% confidence intervals over seeds), verdict, reason and test. The claims
and verdict rules are in :mod:`diffsweep.analysis.claims` and the paper's ``claims`` module.
"""
from __future__ import annotations

import base64
import datetime as _dt
import html
import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

import numpy as np

from diffsweep.analysis.claims import HOLDS, NM, NOT, PARTLY, STATUSES, Claim, Verdict, evaluate_all
from diffsweep.core.results import Results

if TYPE_CHECKING:
    from diffsweep.core.registry import Paper

__all__ = ["write_report", "engine_use", "replica_slots"]

INTERVALS = (
    "Error bars and intervals are 95% Student-t confidence intervals over seeds, except for "
    "bounded quantities (the min-max ratio M and shares of flows, which lie in [0, 1]): their "
    "interval is computed on the logit scale and mapped back (diffsweep.analysis.metrics.bounded_ci), "
    "so that it stays inside the bounds. Every verdict is rated on the interval, not on the "
    "mean alone.")


def quick_note(results_by_family: Mapping[str, Results]) -> str:
    """The summary's warning for a --quick report: how many seeds the verdicts rest on."""
    seeds = sorted({int(r.replicas["seed"].nunique()) for r in results_by_family.values()
                    if r is not None and "seed" in r.replicas.columns})
    n = " or ".join(str(k) for k in seeds) if seeds else "a few"
    return (f"This is a --quick run: its verdicts rest on {n} seeds per point, shorter runs "
            "and fewer grid points than the full run. With so few seeds the intervals are "
            "wide, and the verdicts may differ from those of the full run (diffsweep reproduce "
            "without --quick).")


_COLOR = {HOLDS: "#1a7f37", PARTLY: "#9a6700", NOT: "#cf222e", NM: "#57606a"}


def _fmt_num(x) -> str:
    if isinstance(x, bool) or x is None:
        return str(x)
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        if not math.isfinite(x):
            return "n/a"
        return f"{x:.4g}"
    return str(x)


def _is_ci(v) -> bool:
    return isinstance(v, dict) and "mean" in v and "ci95" in v


def _fmt_ci(v: dict) -> str:
    lo, hi = v["ci95"]
    ci = "n/a" if lo is None or hi is None else f"{_fmt_num(lo)} .. {_fmt_num(hi)}"
    return f"{_fmt_num(v['mean'])} (95% CI {ci}, n = {v.get('n', '?')})"


def _num_lines(nums, depth: int = 0) -> list[tuple[int, str, str | None]]:
    """Flatten ``numbers`` to (depth, key, formatted value or None for a heading)."""
    out = []
    for k, v in nums.items():
        if _is_ci(v):
            out.append((depth, str(k), _fmt_ci(v)))
        elif isinstance(v, dict):
            if not v:
                continue
            out.append((depth, str(k), None))
            out.extend(_num_lines(v, depth + 1))
        elif isinstance(v, (list, tuple)):
            if not v:
                continue
            out.append((depth, str(k), ", ".join(_fmt_num(x) for x in v)))
        else:
            out.append((depth, str(k), _fmt_num(v)))
    return out


def _jsonable(obj):
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(float(obj)) else None
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


class _Doc:
    """Builds the markdown and the HTML of the report side by side."""

    def __init__(self, out_dir: Path):
        self.md: list[str] = []
        self.html: list[str] = []
        self.out_dir = out_dir

    def h(self, level: int, text: str, anchor: str | None = None) -> None:
        self.md += ["", "#" * level + " " + text, ""]
        a = f' id="{html.escape(anchor)}"' if anchor else ""
        self.html.append(f"<h{level}{a}>{html.escape(text)}</h{level}>")

    def p(self, text: str) -> None:
        self.md += [text, ""]
        self.html.append(f"<p>{html.escape(text)}</p>")

    def pre(self, text: str) -> None:
        self.md += ["```", text.rstrip(), "```", ""]
        self.html.append(f"<pre>{html.escape(text.rstrip())}</pre>")

    def quote(self, text: str) -> None:
        self.md += ["> " + text, ""]
        self.html.append(f"<blockquote>{html.escape(text)}</blockquote>")

    def ul(self, items: list[str]) -> None:
        self.md += [f"- {i}" for i in items] + [""]
        self.html.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>")

    def table(self, header: list[str], rows: list[list[str]], status_col: int | None = None) -> None:
        esc = lambda s: str(s).replace("|", "\\|").replace("\n", " ")
        self.md.append("| " + " | ".join(esc(h) for h in header) + " |")
        self.md.append("|" + "---|" * len(header))
        for r in rows:
            self.md.append("| " + " | ".join(esc(c) for c in r) + " |")
        self.md.append("")
        hh = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
        body = []
        for r in rows:
            cells = []
            for j, c in enumerate(r):
                style = (f' style="color:{_COLOR.get(str(c), "inherit")};font-weight:bold"'
                         if status_col == j else "")
                cells.append(f"<td{style}>{html.escape(str(c))}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        self.html.append(f"<table><tr>{hh}</tr>{''.join(body)}</table>")

    def image(self, path: Path, alt: str) -> None:
        path = Path(path)
        rel = os.path.relpath(path.resolve(), self.out_dir.resolve())
        if path.suffix.lower() == ".png":
            self.md += [f"![{alt}]({Path(rel).as_posix()})", ""]
            try:
                data = base64.b64encode(path.read_bytes()).decode("ascii")
                self.html.append(f'<p><img alt="{html.escape(alt)}" '
                                 f'src="data:image/png;base64,{data}"></p>')
            except OSError as e:
                self.html.append(f"<p><em>image {html.escape(str(path))} unreadable: "
                                 f"{html.escape(str(e))}</em></p>")
        else:
            self.md += [f"[{alt} ({path.suffix.lstrip('.')})]({Path(rel).as_posix()})", ""]
            self.html.append(f'<p><a href="{html.escape(Path(rel).as_posix())}">'
                             f"{html.escape(alt)} ({html.escape(path.suffix.lstrip('.'))})</a></p>")

    def verdict(self, claim: Claim, v: Verdict) -> None:
        self.md += [f"**Verdict: {v.status}** — {v.reason}", ""]
        self.html.append(f'<p class="verdict"><span class="status" style="background:'
                         f'{_COLOR[v.status]}">{html.escape(v.status)}</span> '
                         f"{html.escape(v.reason)}</p>")
        lines = _num_lines(v.numbers)
        if lines:
            self.md.append("Measured:")
            self.md.append("")
            for d, k, val in lines:
                self.md.append("  " * d + f"- {k}" + (f": {val}" if val is not None else ""))
            self.md.append("")
            # nested HTML list
            out, depth = ["<ul>"], 0
            for d, k, val in lines:
                while depth < d:
                    out.append("<ul>")
                    depth += 1
                while depth > d:
                    out.append("</ul>")
                    depth -= 1
                out.append(f"<li><b>{html.escape(k)}</b>"
                           + (f": {html.escape(val)}" if val is not None else "") + "</li>")
            out += ["</ul>"] * (depth + 1)
            self.html.append('<details><summary>Measured numbers</summary>' + "".join(out)
                             + "</details>")
        if claim.thresholds:
            self.md += [f"*Test:* {claim.thresholds}", ""]
            self.html.append(f'<p class="test"><em>Test:</em> {html.escape(claim.thresholds)}</p>')


def replica_slots(replicas) -> float:
    """The slots the engine simulated for these replicas: the sum of their duration over their
    slot (``duration_s / slot_s``, rounded); NaN without those columns."""
    if not {"duration_s", "slot_s"} <= set(getattr(replicas, "columns", ())):
        return float("nan")
    return float(np.rint(replicas["duration_s"].to_numpy(float)
                         / replicas["slot_s"].to_numpy(float)).sum())


def engine_use(results_by_family: Mapping[str, Results], runs: Mapping | None = None,
               sweeps: Mapping | None = None) -> dict:
    """What the report's set-up says about the engine: ``calls``, the seconds of each engine
    call that computed the results (``meta["engine_calls"]`` of the stored sweeps, each call
    once), and ``share``: family id -> its replica-slots over those of all the results (each
    sweep counted once). ``runs`` (sweep name -> Results) and ``sweeps`` (family id -> its sweep
    names) give the sweeps; default: each family's Results is one (the same object under
    several families counted once in the total)."""
    if runs is None:
        runs = {fid: r for fid, r in results_by_family.items() if r is not None}
        sweeps = {fid: (fid,) for fid in runs}
    calls: dict[tuple, float] = {}
    for r in runs.values():
        meta = getattr(r, "meta", {}) or {}
        for c in [c for m in [meta, *(meta.get("parts") or [])]  # (combine keeps its parts')
                  for c in (m.get("engine_calls") or [])]:
            try:
                calls[(c.get("host"), c.get("pid"), c.get("wall_s"), c.get("n_replicas"))] = \
                    float(c["wall_s"])
            except (KeyError, TypeError, ValueError):
                continue
    slots = {name: replica_slots(r.replicas) for name, r in runs.items()}
    total = sum({id(r): slots[name] for name, r in runs.items()}.values())  # each object once
    share = {fid: (sum(slots[s] for s in sweeps[fid] if s in slots) / total
                   if total > 0 else float("nan"))
             for fid, r in results_by_family.items() if r is not None and fid in sweeps}
    return {"calls": list(calls.values()), "share": share}


def engine_note(calls: list) -> str:
    """The paragraph under the families' table: the engine calls and what a share means."""
    what = ("A family's share is its replicas' simulated slots (duration / slot) over those of "
            "all the results here (a sweep that several families read counts in each), and its "
            "engine seconds that share of the calls' time.")
    if not calls:
        return "No engine call is recorded with these results. " + what
    if len(calls) == 1:
        return f"The replicas were computed in one engine call of {calls[0]:.1f} s. " + what
    return (f"The replicas were computed in {len(calls)} engine calls, {sum(calls):.1f} s in "
            "all. " + what)


_CSS = """body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;line-height:1.45;color:#1f2328}img{max-width:100%;border:1px solid #d0d7de}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #d0d7de;padding:3px 8px;
text-align:left;vertical-align:top}th{background:#f6f8fa}blockquote{border-left:4px solid #d0d7de;
margin:0.5em 0;padding:0.2em 1em;color:#424a53}.status{color:white;padding:1px 8px;
border-radius:10px;font-weight:bold}pre{background:#f6f8fa;padding:0.8em;white-space:pre-wrap;overflow-wrap:anywhere}
.test{font-size:0.85em;color:#57606a}details{margin:0.3em 0 0.8em 0}"""


def write_report(paper: Paper, results_by_family: Mapping[str, Results], out_dir,
                 figures: Mapping[str, list] | None = None, assumptions: list[str] | None = None,
                 setup: str = "", timings: Mapping | None = None,
                 notes: Mapping[str, str] | None = None, quick: bool = False,
                 not_run: Mapping[str, str] | None = None, verdicts: Mapping | None = None,
                 engine: Mapping | None = None) -> tuple[Path, Path]:
    """Write ``out_dir/report.md``, ``out_dir/report.html`` (self-contained: PNG figures inline
    as base64) and ``out_dir/verdicts.json`` for ``paper`` (a :class:`diffsweep.papers.Paper`:
    its title, claims and families).

    ``results_by_family``: family id -> Results; ``figures``: family id -> image paths (PNG
    shown; other files linked); ``assumptions``: every value the paper does not give;
    ``setup``: free text (build, machine, sweep files); ``timings``: name -> seconds (or any
    value); ``notes``: family id -> a paragraph under its heading; ``quick``: the results come
    from a ``--quick`` run (the summary says how many seeds, and that the full run may differ);
    ``not_run``: family id -> why it was not run (its claims are "not measured", see
    ``diffsweep.analysis.claims.evaluate_all``); ``verdicts``: the verdicts already computed
    (``evaluate_all(results_by_family, paper.claim_list(), not_run)``; default: computed here); ``engine``: the
    engine calls behind the results (``engine_use``: ``calls``, the seconds of each, and
    ``share``, family id -> its share of their replica-slots; default: the shares of the
    families given, without seconds).  Sections: summary, set-up,
    assumptions, the conclusions, then per figure family (in the paper's order) its images,
    and per claim the paper's text, the measured numbers with 95% CIs, the verdict and the
    reason.  The three files are renamed into place together once all are written (a full
    disk leaves the previous report; ``StoreError``).  Returns (report.md, report.html)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    figures = dict(figures or {})
    claims = paper.claim_list()
    not_run = dict(not_run or {})
    if verdicts is None:
        verdicts = evaluate_all(results_by_family, claims, not_run)
    titles = {f.id: f.title for f in paper.families}
    doc = _Doc(out_dir)

    doc.h(1, f"{paper.title}: reproduction report")
    ver = None  # the package has no __version__ (the stamp has always printed none)
    stamp = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    doc.p(f"Generated {stamp} by diffsweep{' ' + ver if ver else ''}. Every verdict below is "
          f"computed from the simulation tables by the checks in diffsweep.papers.{paper.package}"
          ".claims; the test of "
          "each claim and its thresholds are printed under it. " + INTERVALS)

    doc.h(2, "Summary", "summary")
    if quick:
        doc.p(quick_note(results_by_family))
    counts = {s: sum(1 for v in verdicts.values() if v.status == s) for s in STATUSES}
    doc.p(", ".join(f"{counts[s]} {s}" for s in STATUSES))
    doc.table(["claim", "figure", "status", "claim text"],
              [[c.id, c.figure, verdicts[c.id].status, c.text] for c in claims], status_col=2)

    doc.h(2, "Set-up", "setup")
    if setup:
        doc.pre(setup)
    rows = []
    engine = dict(engine) if engine is not None else engine_use(results_by_family)
    calls = list(engine.get("calls") or [])
    for fam_id, r in results_by_family.items():
        if r is None:
            continue
        meta = getattr(r, "meta", {}) or {}
        reps = len(r.replicas)
        seeds = r.replicas["seed"].nunique() if "seed" in r.replicas.columns else "?"
        points = r.replicas["point"].nunique() if "point" in r.replicas.columns else "?"
        share = engine.get("share", {}).get(fam_id)
        ok = share is not None and math.isfinite(share)
        rows.append([fam_id, points, seeds, reps, len(r.flows), meta.get("backend") or "",
                     meta.get("device") or "", f"{100 * share:.1f} %" if ok else "",
                     f"{share * sum(calls):.1f}" if ok and calls else ""])
    if rows:
        doc.table(["family", "points", "seeds", "replicas", "flow rows", "backend", "device",
                   "share of replica-slots", "engine s (share)"], rows)
        doc.p(engine_note(calls))
    if timings:
        doc.table(["timing", "value"],
                  [[k, (f"{float(v):.1f} s" if isinstance(v, (int, float, np.floating)) else str(v))]
                   for k, v in timings.items()])

    doc.h(2, "Assumptions (values the paper does not give)", "assumptions")
    if assumptions:
        doc.ul([str(a) for a in assumptions])
    else:
        doc.p("None listed.")

    doc.h(2, "Conclusions", "conclusions")
    for c in claims:
        if not c.is_conclusion:
            continue
        doc.h(3, f"{c.id}: {c.figure}", c.id)
        doc.quote(c.text)
        fams = []
        for d in c.depends:
            fam = next((x.family for x in claims if x.id == d), None)
            if fam and fam not in fams:
                fams.append(fam)
        for fam in fams:
            for p in figures.get(fam, []):
                if Path(p).suffix.lower() == ".png":
                    doc.image(Path(p), f"{fam} {Path(p).stem}")
        doc.p("Derived from: " + ", ".join(f"{d} ({verdicts[d].status})" for d in c.depends))
        doc.verdict(c, verdicts[c.id])

    doc.h(2, "Figures and claims", "figures")
    order = [f.id for f in paper.families]
    fams = order + [f for f in figures if f not in order]
    for fam_id in fams:
        fam_claims = [c for c in claims if c.family == fam_id]
        imgs = figures.get(fam_id, [])
        if not fam_claims and not imgs:
            continue
        doc.h(3, f"{fam_id}: {titles.get(fam_id, '')}".rstrip(": "), fam_id)
        if notes and fam_id in notes:
            doc.p(notes[fam_id])
        res, key = fam_claims[0].lookup(fam_id, results_by_family) if fam_claims else (None, None)
        if fam_id in not_run:
            doc.p(f"{not_run[fam_id][0].upper()}{not_run[fam_id][1:]}: its claims are not "
                  "measured.")
        elif fam_claims and res is None:
            doc.p(f"No results for {fam_id}: its claims are not measured.")
        elif key and key != fam_id:
            doc.p(f"Data: {key}.")
        png = [Path(p) for p in imgs if Path(p).suffix.lower() == ".png"]
        other = [Path(p) for p in imgs if Path(p).suffix.lower() != ".png"]
        for p in png + other:
            doc.image(p, f"{fam_id} {p.stem}")
        if not imgs:
            doc.p("(no figure)")
        for c in fam_claims:
            doc.h(4, f"{c.id} ({c.figure})", c.id)
            doc.quote(c.text)
            doc.verdict(c, verdicts[c.id])

    md_path, html_path = out_dir / "report.md", out_dir / "report.html"
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(paper.title)}: reproduction report</title>"
            f"<style>{_CSS}</style></head><body>\n" + "\n".join(doc.html) + "\n</body></html>\n")
    verdicts_json = json.dumps(
        {cid: {"status": v.status, "reason": v.reason, "numbers": _jsonable(v.numbers)}
         for cid, v in verdicts.items()}, indent=1, allow_nan=False) + "\n"
    files = {md_path: ("\n".join(doc.md).lstrip() + "\n").encode("utf-8"),
             html_path: page.encode("utf-8"),
             out_dir / "verdicts.json": verdicts_json.encode("utf-8")}
    from diffsweep.core.errors import store_error  # noqa: PLC0415
    from diffsweep.sweep.store import atomic_write_files  # noqa: PLC0415
    try:
        atomic_write_files(files)
    except OSError as e:
        raise store_error(e, md_path, "write the report") from None
    return md_path, html_path
