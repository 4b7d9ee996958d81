"""The outputs of a sensitivity study: ``sensitivity.csv`` (the table), ``design.csv`` (the
design points and their mean metric), the figure (``sensitivity.png``/``.pdf``) and the page
(``sensitivity.md``/``.html``). ``diffsweep.studies.sensitivity`` computes; this module only draws and
writes.

The figure is read at a glance: one horizontal bar per factor (or effect), the most important
on top, with its interval. Sobol': S1 (filled) and ST (hatched) side by side; Morris: mu_star,
sigma as a dot; factorial: the allocation of variation (% of SST, the error's share last) and
the effects q with their intervals.
"""
from __future__ import annotations

import html
import io
from pathlib import Path

import numpy as np

from diffsweep.report.paper_report import _CSS, _Doc

__all__ = ["write_sensitivity", "draw_indices", "table_rows"]


def _g(x, digits: int = 3) -> str:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return str(x)
    if not np.isfinite(x):
        return ""
    return f"{x:.{digits}g}"


def draw_indices(table, meta: dict):
    """The figure of a study's table as a matplotlib Figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    method = meta["method"]
    k = len(meta["factors"])
    how = {"sobol": f"Sobol' indices, n = {meta['n']}",
           "morris": f"Morris screening, {meta['n']} trajectories",
           "factorial": f"2^{k} r factorial" if not meta.get("fraction") else
                        f"2^({k}-{meta['fraction']}) r factorial"}[method]
    title = (f"{meta['metric']}: {how}, {meta['seeds']} seeds"
             + (" (--quick)" if meta.get("quick") else ""))
    if method == "factorial":
        eff = table[~table["term"].isin(["mean"])].copy()
        eff["order"] = eff["variation_pct"].fillna(0)
        eff = eff.sort_values("order", ascending=True, kind="stable")
        n = len(eff)
        fig = Figure(figsize=(9.0, max(2.4, 0.36 * n + 1.4)), layout="constrained")
        FigureCanvasAgg(fig)
        a1, a2 = fig.subplots(1, 2)
        labels = [str(f) for f in eff["factors"]]
        y = np.arange(n)
        colours = ["#8c959f" if t == "error" else "#0969da" for t in eff["term"]]
        a1.barh(y, eff["variation_pct"], color=colours)
        for i, v in enumerate(eff["variation_pct"]):
            a1.text(v, i, f" {v:.1f}%", va="center", fontsize=7)
        a1.set_yticks(y, labels, fontsize=8)
        a1.set_xlabel("allocation of variation, % of SST", fontsize=8)
        a1.set_xlim(0, max(100.0, 0.0) * 1.15)
        e = eff[eff["term"] != "error"]
        ye = np.arange(len(e))
        q = e["effect"].to_numpy(float)
        lo = q - e["ci_low"].to_numpy(float)
        hi = e["ci_high"].to_numpy(float) - q
        cols = ["#1a7f37" if s else "#bf8700" for s in e["significant"]]
        a2.barh(ye, q, color=cols, xerr=np.vstack([lo, hi]), capsize=3,
                error_kw={"elinewidth": 1})
        a2.axvline(0, color="black", linewidth=0.8)
        a2.set_yticks(ye, [str(f) for f in e["factors"]], fontsize=8)
        a2.set_xlabel(f"effect q ({int(meta['level'] * 100)}% interval; green: excludes 0)",
                      fontsize=8)
        fig.suptitle(title, fontsize=10)
        return fig
    t = table.iloc[::-1]
    n = len(t)
    fig = Figure(figsize=(6.4, max(2.4, 0.42 * n + 1.6)), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    y = np.arange(n)
    if method == "sobol":
        h = 0.38
        ax.barh(y + h / 2, t["ST"], h, xerr=t["ST_conf"], capsize=3, color="#0969da",
                label="total ST", error_kw={"elinewidth": 1})
        ax.barh(y - h / 2, t["S1"], h, xerr=t["S1_conf"], capsize=3, color="#54aeff",
                label="first-order S1", error_kw={"elinewidth": 1})
        ax.set_xlabel(f"Sobol' index (share of the metric's variance; "
                      f"{int(meta['level'] * 100)}% bootstrap interval)", fontsize=8)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlim(min(-0.05, float(np.nanmin(t["S1"] - t["S1_conf"])) - 0.03),
                    max(1.05, float(np.nanmax(t["ST"] + t["ST_conf"])) + 0.05))
    else:
        ax.barh(y, t["mu_star"], xerr=t["mu_star_conf"], capsize=3, color="#0969da",
                label="mu* (mean |elementary effect|)", error_kw={"elinewidth": 1})
        ax.plot(t["sigma"], y, "o", color="#cf222e", label="sigma (interactions, "
                "non-linearity)")
        ax.set_xlabel(f"change of the metric over a factor's range ({int(meta['level'] * 100)}"
                      "% bootstrap interval)", fontsize=8)
    ax.set_yticks(y, list(t["factor"]), fontsize=8)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=7,
               frameon=False)
    ax.set_title(title, fontsize=10)
    return fig


def table_rows(table, method: str) -> tuple[list[str], list[list[str]]]:
    """The page's table: header and rows of text."""
    if method == "sobol":
        head = ["factor", "S1", "S1 interval", "ST", "ST interval"]
        rows = [[r["factor"], _g(r["S1"]), f"[{_g(r['S1_low'])}, {_g(r['S1_high'])}]",
                 _g(r["ST"]), f"[{_g(r['ST_low'])}, {_g(r['ST_high'])}]"]
                for _, r in table.iterrows()]
    elif method == "morris":
        head = ["factor", "mu*", "mu* interval", "mu", "sigma"]
        rows = [[r["factor"], _g(r["mu_star"]),
                 f"[{_g(r['mu_star_low'])}, {_g(r['mu_star_high'])}]", _g(r["mu"]),
                 _g(r["sigma"])] for _, r in table.iterrows()]
    else:
        head = ["effect", "term", "q", "interval", "SS", "variation %", "aliases"]
        rows = []
        for _, r in table.iterrows():
            iv = "" if r["term"] == "error" else f"[{_g(r['ci_low'])}, {_g(r['ci_high'])}]"
            rows.append([r["factors"], r["term"], _g(r["effect"]), iv,
                         _g(r["sum_of_squares"]), _g(r["variation_pct"]),
                         r.get("aliases", "") if "=" in str(r.get("aliases", "")) else ""])
    return head, rows


_HOW = {
    "sobol": "S1 is the share of the metric's variance that a factor explains alone; ST the "
             "share it takes part in, alone or with others (ST - S1: through interactions). "
             "A factor with ST near 0 can be fixed anywhere in its range. Indices sum to 1 "
             "(S1) when the metric is additive in the factors.",
    "morris": "mu* is the mean size of a factor's elementary effects (the change of the metric "
              "when the factor alone moves by a step of its range, scaled to the whole range), "
              "a screening measure: a factor with mu* near 0 barely moves the metric. A sigma "
              "near or above mu* says the effect depends on where the other factors are "
              "(interactions) or is not linear.",
    "factorial": "Each effect q is half the change of the metric between the factor's two "
                 "ends, averaged over the other factors (an interaction AxB: how much A's "
                 "effect changes with B). The allocation of variation is each effect's share "
                 "of the total variation SST = sum of 2^k r q^2 + SSE (Jain ch. 18); the "
                 "error's share is the part the replications (seeds) vary by themselves. An "
                 "effect whose interval includes 0 is not significant at this confidence.",
}


def write_sensitivity(table, design, out: Path, meta: dict) -> dict:
    """Write the study's files into ``out``; returns their paths by kind."""
    from diffsweep.report.figures import save  # noqa: PLC0415
    from diffsweep.sweep.store import atomic_write_files  # noqa: PLC0415

    method = meta["method"]
    fig = draw_indices(table, meta)
    png, pdf = save(fig, out / "sensitivity")
    buf, dbuf = io.StringIO(), io.StringIO()
    table.to_csv(buf, index=False)
    design.to_csv(dbuf, index=False)
    csv, dcsv = out / "sensitivity.csv", out / "design.csv"

    doc = _Doc(out)
    title = f"Sensitivity: {meta['metric']} over {', '.join(meta['factors'])}"
    doc.md += [f"# {title}", ""]
    doc.html.append(f"<h1>{html.escape(title)}</h1>")
    doc.p(f"Metric: {meta['metric']}, {meta['metric_what']}. Base: {meta['base']}"
          + (" (with its [quick] section)" if meta.get("quick") else "") + ".")
    doc.ul([f"{f}: {meta['factor_specs'][f]}" for f in meta["factors"]])
    what = {"sobol": f"Sobol' indices (Saltelli sampling, n = {meta['n']} base samples)",
            "morris": f"Morris screening ({meta['n']} trajectories, 4 levels)",
            "factorial": (f"2^{len(meta['factors'])} r factorial design" if not meta["fraction"]
                          else f"2^({len(meta['factors'])}-{meta['fraction']}) fractional "
                               "factorial design") + f" with r = {meta['seeds']} replications"}
    doc.p(f"Method: {what[method]}; {meta['design_points']} design points x "
          f"{meta['inner_points']} inner point(s) x {meta['seeds']} seeds = "
          f"{meta['replicas']:,} replicas, the same seeds at every design point. "
          + _HOW[method])
    doc.image(png, "sensitivity indices")
    doc.image(pdf, "sensitivity indices")
    head, rows = table_rows(table, method)
    doc.table(head, rows)
    rel = meta.get("reliability") or {}
    if rel.get("notes"):
        doc.p("Reliability: these estimates are not yet to be read as the metric's "
              "sensitivities:")
        doc.ul(rel["notes"])
    elif rel.get("checked"):
        doc.p(f"Reliability: {rel['checked']}.")
    if meta.get("target_ci") is not None:
        doc.p(f"Adaptive seeds: target_ci {meta['target_ci']:g}"
              + (" (index units)" if method == "sobol" else
                 f" x the largest {'mu*' if method == 'morris' else '|effect|'} "
                 f"({_g(meta['scale'])})")
              + f"; {meta['rounds']} round(s), widest half-width {_g(meta['widest_half_width'])}"
              + ("" if meta["target_met"] else
                 f": still above the target at max_seeds = {meta['max_seeds']}") + ".")
    if meta.get("inner_axes"):
        doc.p("Inner axes (every design point runs them all; the metric reduces them): "
              + "; ".join(f"{k} = {v}" for k, v in meta["inner_axes"].items()) + ".")
    if meta.get("fixed"):
        doc.p("Fixed: " + ", ".join(f"{k} = {v}" for k, v in meta["fixed"].items()) + ".")
    doc.p(f"Run: {meta['wall_s']:.1f} s in all ({meta['compute_s']:.1f} s running and reading "
          f"the replicas), backend {meta['backend']}. Files: sensitivity.csv (this table), "
          "design.csv (each design point's mean metric)"
          + (", runs/ (every replica: diffsweep.load)." if meta.get("inner_axes") is not None
             else "."))
    md, html_path = out / "sensitivity.md", out / "sensitivity.html"
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(doc.html) + "\n</body></html>\n")
    atomic_write_files({csv: buf.getvalue().encode("utf-8"),
                        dcsv: dbuf.getvalue().encode("utf-8"),
                        md: ("\n".join(doc.md).rstrip() + "\n").encode("utf-8"),
                        html_path: page.encode("utf-8")})
    return {"csv": csv, "design": dcsv, "png": png, "pdf": pdf, "md": md, "html": html_path}
