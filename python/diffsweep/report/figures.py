"""What the papers' figure modules share: ``save`` (PNG and PDF) and ``combine`` (the Results of
several runs as one). The figure functions themselves live with their paper, in
``diffsweep.papers.<paper>.figures`` (e.g. ``diffsweep.papers.kaur_vin.figures.fig2``), and the
registry ``diffsweep.papers`` says which figure draws which family.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from diffsweep.core.results import TABLES, Results

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["combine", "save", "shared_combine"]


def new_figure(ncols: int, title: str, width: float = 5.4,
               height: float = 4.2) -> tuple[Figure, list]:
    """A figure of ``ncols`` panels side by side on the Agg canvas (no GUI backend, no pyplot
    state), with ``title`` above them: the papers' figures start here. (matplotlib is imported
    here, not with this module: ``combine``, which the claims use, does not need it, and a
    reproduction's figure workers, forked before it is imported, import it beside the process
    that stores the sweeps.)"""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    fig = Figure(figsize=(width * ncols, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    fig.suptitle(title, fontsize=11)
    return fig, list(axes)


def yerr(c: pd.DataFrame) -> np.ndarray:
    """Error-bar extents (2 x n) of a ``metrics.mean_ci`` table (``mean``, ``ci_low``,
    ``ci_high``): NaN bounds draw no bar."""
    m = c["mean"].to_numpy(dtype=float)
    lo = np.nan_to_num(m - c["ci_low"].to_numpy(dtype=float), nan=0.0)
    hi = np.nan_to_num(c["ci_high"].to_numpy(dtype=float) - m, nan=0.0)
    return np.vstack([np.maximum(lo, 0), np.maximum(hi, 0)])


#: combine's answers while ``shared_combine`` is active: (ids of the parts, labels, label_col)
#: -> (the parts, kept so that their ids stay theirs, and the Results)
_SHARED: dict | None = None


@contextmanager
def shared_combine():
    """Within this block, ``combine`` of the same Results objects with the same labels returns
    the same Results object, so that the per-seed tables of data read by several families
    (e.g. four families drawn from the same two sweeps) are computed once
    (``diffsweep.core.results.per_results``). Nothing may change the tables of a Results it hands
    out (none of diffsweep's readers does)."""
    global _SHARED
    outer, _SHARED = _SHARED, ({} if _SHARED is None else _SHARED)
    try:
        yield
    finally:
        _SHARED = outer


def combine(parts: list[Results], labels: list | None = None, label_col: str = "part") -> Results:
    """Stack the Results of several runs (e.g. the equal- and unequal-RTP grids of one family),
    renumbering ``point`` so that (point, seed) stays unique; ``labels`` (one per part) go in a
    column ``label_col`` of every table. Within ``shared_combine`` the same parts and labels
    give the same object."""
    if _SHARED is not None and parts:
        key = (tuple(id(p) for p in parts), None if labels is None else tuple(labels), label_col)
        if key not in _SHARED:
            _SHARED[key] = (list(parts), _combine(parts, labels, label_col))
        return _SHARED[key][1]
    return _combine(parts, labels, label_col)


def _combine(parts: list[Results], labels: list | None, label_col: str) -> Results:
    if not parts:
        raise ValueError("combine: needs at least one Results")
    if labels is not None and len(labels) != len(parts):
        raise ValueError(f"labels: {len(labels)} labels for {len(parts)} parts")
    out, offset = [], 0
    for i, r in enumerate(parts):
        tabs = {}
        top = -1
        for name in TABLES:
            df = getattr(r, name)
            df = df.copy() if df is not None else pd.DataFrame()
            if "point" in df.columns and len(df):
                top = max(top, int(df["point"].max()))
                df["point"] = df["point"].astype("int64") + offset
            if labels is not None and len(df.columns):
                df[label_col] = labels[i]
            tabs[name] = df
        out.append(Results(**tabs, meta=dict(r.meta)))
        offset += top + 1
    metas = [dict(p.meta or {}) for p in parts]
    meta = {"parts": metas}
    for k in ("version", "backend", "device"):
        vals = sorted({str(m[k]) for m in metas if m.get(k) is not None})
        if vals:
            meta[k] = ", ".join(vals)
    walls = [m["wall_s"] for m in metas if isinstance(m.get("wall_s"), (int, float))]
    if walls:
        meta["wall_s"] = float(sum(walls))
    return Results.concat(out, meta=meta)


#: the PNG's resolution (the PDF is vector)
PNG_DPI = 120


def save(fig: Figure, path_stem) -> tuple[Path, Path]:
    """Write ``path_stem.png`` (dpi 120) and ``path_stem.pdf``; returns both paths. The layout
    engine (constrained layout) solves the layout once, at the PNG's dpi, and both are drawn
    with it (the figure has no layout engine while they are, its own again afterwards): the
    PNG is the file savefig would write; the PDF draws the same as with its own solution, the
    axes within ~2.5 pt.

    Both are drawn in memory and renamed into place together (``store.atomic_write_files``):
    a full disk used to leave a truncated PDF (and matplotlib's "'Stream' object has no
    attribute 'pos'"); now it leaves the previous files and raises a ``StoreError`` naming
    the file."""
    import io  # noqa: PLC0415

    from diffsweep.core.errors import store_error  # noqa: PLC0415
    from diffsweep.sweep.store import atomic_write_files  # noqa: PLC0415

    stem = Path(path_stem)
    if stem.suffix.lower() in (".png", ".pdf"):
        stem = stem.with_suffix("")
    png, pdf = stem.with_name(stem.name + ".png"), stem.with_name(stem.name + ".pdf")
    data = {}
    engine = fig.get_layout_engine()
    if engine is not None:
        # (savefig with a layout engine draws the figure once without output to solve it,
        # and the PDF solved it again with its own font metrics: ~40% of its time)
        dpi = fig.dpi
        fig.dpi = PNG_DPI
        try:
            engine.execute(fig)
        finally:
            fig.dpi = dpi
    fig.set_layout_engine(None)
    try:
        for path, kw in ((png, {"format": "png", "dpi": PNG_DPI}), (pdf, {"format": "pdf"})):
            buf = io.BytesIO()
            fig.savefig(buf, **kw)
            data[path] = buf.getvalue()
    finally:
        fig.set_layout_engine(engine)
    try:
        stem.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_files(data)
    except OSError as e:
        raise store_error(e, png, "write the figure") from None
    return png, pdf
