"""The atlas's outputs: ``verdicts.csv``, the map (``atlas.png``/``.pdf``) and the page
(``atlas.md``/``atlas.html``). ``diffsweep.studies.atlas`` computes; this module only draws and writes.

The map puts every cell at its place in the grid (values as categories, in the order given:
log-spaced values stay evenly spaced), coloured by its status; the paper's own point is
outlined in black. One axis: a strip; two: a heatmap (first axis across, second up); three:
one heatmap per value of the third axis, side by side.
"""
from __future__ import annotations

import html
import io
from pathlib import Path

from diffsweep.report.paper_report import _COLOR, _CSS, _Doc

__all__ = ["write_atlas", "draw_map", "STATUS_COLOURS"]

#: the report's colours, with undecided in a light grey
STATUS_COLOURS = {**_COLOR, "undecided": "#d0d7de"}
_SHORT = {"holds": "holds", "partly holds": "partly", "does not hold": "not",
          "undecided": "?", "not measured": "n/m"}


def _label(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _labeller(axes: dict):
    """label(axis, value): ``%g``, with more digits for all of an axis's values where two
    cells would print alike (``diffsweep.core.axes.labels``: %g printed 0.1 and 0.1000001 as 0.1)."""
    from diffsweep.core.axes import key, labels  # noqa: PLC0415

    known = {a: dict(zip(map(key, vals), labels(vals))) for a, vals in axes.items()}

    def label(a, v) -> str:
        return known.get(a, {}).get(key(v)) or _label(v)
    return label


def draw_map(table, axes: dict, title: str):
    """The map of an atlas table (``diffsweep.studies.atlas``'s ``table``) as a matplotlib Figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415
    from matplotlib.patches import Patch, Rectangle  # noqa: PLC0415

    names = list(axes)
    xs = axes[names[0]]
    ys = axes[names[1]] if len(names) > 1 else [None]
    panels = axes[names[2]] if len(names) > 2 else [None]
    w = max(4.6 if len(panels) == 1 else 3.2, 0.62 * len(xs) + 1.8)
    h = max(2.2, 0.5 * len(ys) + 1.9)
    fig = Figure(figsize=(w * len(panels), h + 0.6), layout="constrained")
    FigureCanvasAgg(fig)
    axs = fig.subplots(1, len(panels), squeeze=False)[0]
    fig.suptitle(title, fontsize=10)
    at = {tuple(r[a] for a in names): r for _, r in table.iterrows()}  # a cell by its values
    label = _labeller(axes)
    for ax, zv in zip(axs, panels):
        for i, xv in enumerate(xs):
            for j, yv in enumerate(ys):
                row = at[tuple(v for v in (xv, yv, zv)[:len(names)])]
                st = row["status"]
                ax.add_patch(Rectangle((i - 0.5, j - 0.5), 1, 1, facecolor=STATUS_COLOURS[st],
                                       edgecolor="white", linewidth=1.5,
                                       hatch="//" if st == "undecided" else None))
                if bool(row["paper_point"]):
                    ax.add_patch(Rectangle((i - 0.44, j - 0.44), 0.88, 0.88, fill=False,
                                           edgecolor="black", linewidth=2.2))
                dark = st in ("holds", "does not hold", "not measured", "partly holds")
                ax.text(i, j, f"{_SHORT[st]}\nn={int(row['seeds'])}", ha="center",
                        va="center", fontsize=7, color="white" if dark else "black")
        ax.set_xlim(-0.5, len(xs) - 0.5)
        ax.set_ylim(-0.5, len(ys) - 0.5)
        ax.set_xticks(range(len(xs)), [label(names[0], v) for v in xs], fontsize=8)
        ax.set_xlabel(names[0], fontsize=9)
        if ys[0] is None:
            ax.set_yticks([])
        else:
            ax.set_yticks(range(len(ys)), [label(names[1], v) for v in ys], fontsize=8)
            ax.set_ylabel(names[1], fontsize=9)
        if zv is not None:
            ax.set_title(f"{names[2]} = {label(names[2], zv)}", fontsize=9)
        ax.set_aspect("equal")
    handles = [Patch(facecolor=STATUS_COLOURS[s], label=s,
                     hatch="//" if s == "undecided" else None)
               for s in ("holds", "partly holds", "does not hold", "undecided", "not measured")
               if (table["status"] == s).any()]
    handles.append(Patch(facecolor="white", edgecolor="black", linewidth=2,
                         label="the paper's set-up"))
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=7,
               frameon=False, title="n: seeds per point", title_fontsize=7)
    return fig


def write_atlas(plan, table, out: Path, meta: dict) -> dict:
    """Write the atlas's files into ``out``; returns their paths by kind."""
    from diffsweep.report.figures import save  # noqa: PLC0415
    from diffsweep.sweep.store import atomic_write_files  # noqa: PLC0415

    claim = plan.claim
    title = (f"{plan.paper.name} {claim.id} over " + " x ".join(plan.axes)
             + (" (--quick)" if meta.get("quick") else ""))
    fig = draw_map(table, plan.axes, title)
    png, pdf = save(fig, out / "atlas")
    buf = io.StringIO()
    table.to_csv(buf, index=False)
    csv = out / "verdicts.csv"

    doc = _Doc(out)
    doc.md += [f"# Atlas: {plan.paper.title}, {claim.id}", ""]
    doc.html.append(f"<h1>Atlas: {_esc(plan.paper.title)}, {_esc(claim.id)}</h1>")
    doc.quote(f"{claim.id} ({claim.figure}): {claim.text}")
    counts = table["status"].value_counts().to_dict()
    doc.p(f"{len(table)} cells over " + " x ".join(f"{a} ({len(v)} value{'s' * (len(v) > 1)})"
                                                    for a, v in plan.axes.items())
          + ": " + ", ".join(f"{counts[s]} {s}" for s in
                             ("holds", "partly holds", "does not hold", "undecided",
                              "not measured") if s in counts) + ".")
    doc.image(png, "atlas map")
    doc.image(pdf, "atlas map")
    doc.h(2, "How each cell is rated")
    where = []
    # (the paper's values too: one printed like a cell's but not equal to it would mislead)
    label = _labeller({a: [*v, *plan.paper_values[a][0]] for a, v in plan.axes.items()})
    for a in plan.axes:
        vals, how = plan.paper_values[a]
        shown = ", ".join(label(a, v) for v in vals) or "none"
        where.append(f"{a}: {getattr(plan, 'origin', 'the paper')}'s set-up has {shown} ("
                     + {"fixed": "fixed in its sweep files",
                        "axis": "a grid axis of its sweep files: each cell pins it to one value",
                        "default": "the builder's default"}[how] + ")")
    doc.ul(where)
    doc.p(f"Each cell runs the sweep files {', '.join(plan.sweeps)} (families "
          f"{', '.join(plan.families)}) with the cell's values put in"
          + (", with their [quick] sections" if meta.get("quick") else "")
          + f", and rates {claim.id} with "
          + ("the paper's own check" if getattr(plan, "origin", "the paper") == "the paper"
             else "the claim's own check")
          + " and the reports' 95% intervals "
          f"over seeds. Test: {claim.thresholds}")
    doc.p("A cell is undecided when the verdict on the intervals differs from the verdict on "
          "the point estimates (every interval shrunk to its mean): its intervals are too wide "
          f"to decide. Such a cell got more seeds, in rounds, up to {meta['max_seeds']} per "
          f"point (first round {meta['first_seeds']}); {meta['rounds']} round(s) ran. A "
          "'partly holds' that is not undecided comes from sub-results that disagree.")
    doc.h(2, "Cells")
    axes = list(plan.axes)
    doc.table(["cell", *axes, "status", "seeds", "paper's point", "reason"],
              [[int(r["cell"]), *(label(a, r[a]) for a in axes), r["status"], int(r["seeds"]),
                "yes" if r["paper_point"] else "", r["reason"]] for _, r in table.iterrows()],
              status_col=1 + len(axes))
    doc.p(f"Run: {meta['wall_s']:.1f} s in all ({meta['compute_s']:.1f} s running and storing "
          f"the cells), backend {meta['backend']}. Every cell's results are in cells/<cell>/"
          f"<sweep>/ (diffsweep.load); verdicts.csv has one row per cell.")
    md = out / "atlas.md"
    html_path = out / "atlas.html"
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>Atlas: {_esc(plan.paper.name)} {_esc(claim.id)}</title>"
            f"<style>{_CSS}</style></head><body>\n" + "\n".join(doc.html) + "\n</body></html>\n")
    atomic_write_files({csv: buf.getvalue().encode("utf-8"),
                        md: ("\n".join(doc.md).rstrip() + "\n").encode("utf-8"),
                        html_path: page.encode("utf-8")})
    return {"csv": csv, "png": png, "pdf": pdf, "md": md, "html": html_path}


def _esc(s) -> str:
    return html.escape(str(s))
