"""Time-series figures of the trace tables (issue 53): ``trace_figure(res, "queue_trace",
"queue_pkts")`` draws one panel per traced (link, class) (``cwnd_trace``: one per traced
flow), each replica (point, seed) a faint line and the mean over a point's seeds a bold one,
a colour per point. ``diffsweep plot DIR --table queue_trace --x t_s --y queue_pkts`` draws it
(cli/plot.py); the samples of a trace fall at the same times in every replica of a point
(k x interval), so the mean is taken sample by sample.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from diffsweep.core.errors import ConfigError
from diffsweep.core.results import Results
from diffsweep.report.figures import new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the trace tables, each with the columns that name one series' panel
PANELS = {"queue_trace": ("link", "cls"), "cwnd_trace": ("flow",)}
#: the most panels one figure draws (a 64-flow cwnd trace: choose flows with --where)
MAX_PANELS = 16


def trace_figure(res: Results, table: str = "queue_trace", y: str = "queue_pkts") -> Figure:
    """``y`` of ``table`` against ``t_s``: a panel per series, replicas faint, means bold."""
    if table not in PANELS:
        raise ConfigError(f"--table: {table!r} is not allowed (expected one of "
                          f"{', '.join(PANELS)} for a time series)")
    df = getattr(res, table)
    if df.empty:
        raise ConfigError(f"--table: {table!r} is not allowed (expected a table with rows: "
                          f"this run has none; set "
                          f"{'queue_trace_interval_s' if table == 'queue_trace' else 'trace_flows'})")
    if y not in df.columns or y in ("t_s", "point", "seed") or y in PANELS[table]:
        cols = [c for c in df.columns if c not in ("point", "seed", "t_s", *PANELS[table])]
        raise ConfigError(f"--y: {y!r} is not allowed (expected a column of {table}: "
                          f"{', '.join(cols)})")
    keys = list(PANELS[table])
    panels = sorted(set(map(tuple, df[keys].itertuples(index=False, name=None))))
    if len(panels) > MAX_PANELS:
        raise ConfigError(f"--table: {table!r} is not allowed (expected at most {MAX_PANELS} "
                          f"series in one figure, this run has {len(panels)}: keep fewer with "
                          f"--where {keys[0]}=VALUE)")
    fig, axes = new_figure(len(panels), f"{y} over time ({table})", width=4.6, height=3.4)
    points = sorted(df["point"].unique()) if "point" in df.columns else [None]
    colours = [f"C{i % 10}" for i in range(len(points))]
    for ax, key in zip(axes, panels):
        sel = df
        for k, v in zip(keys, key):
            sel = sel[sel[k] == v]
        for p, colour in zip(points, colours):
            part = sel if p is None else sel[sel["point"] == p]
            by = ["seed"] if "seed" in part.columns else ["replica"]
            for _, one in part.groupby(by, sort=True):
                ax.plot(one["t_s"], one[y], color=colour, alpha=0.25, linewidth=0.7)
            mean = part.groupby("t_s", sort=True)[y].mean()
            ax.plot(mean.index, mean.to_numpy(), color=colour, linewidth=2.0,
                    label=f"point {p} mean" if p is not None else "mean")
        ax.set_title(", ".join(f"{k} {v}" for k, v in zip(keys, key)), fontsize=9)
        ax.set_xlabel("t_s")
        ax.set_ylabel(y)
    axes[0].legend(fontsize=7)
    return fig
