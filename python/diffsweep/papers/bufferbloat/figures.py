"""The bufferbloat family's figures: ``BD`` (median and 95th-percentile wait per cell, and
utilisation against the 95th-percentile wait, the trade-off) and ``BR`` (Jain's index across
RTTs per congestion control and queue), 95% intervals over seeds."""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from diffsweep.analysis import registry
from diffsweep.analysis.confidence import mean_ci
from diffsweep.core.results import Results
from diffsweep.report.figures import new_figure, yerr

__all__ = ["FIGURES", "per_seed"]

METRICS = ("queue_delay_p50_ms", "queue_delay_p95_ms", "utilization", "jain_index")
COLOURS = {"droptail": "tab:red", "codel": "tab:blue", "pie": "tab:green",
           "fq_codel": "tab:purple"}


def per_seed(res: Results):
    """One row per replica: its grid columns and ``METRICS``."""
    out = res.replicas.copy()
    for m in METRICS:
        out[m] = registry.values(res, m)[m].to_numpy()
    return out


def _cells(d, axes):
    return [a for a in axes if a in d.columns]


def fig_delay(res: Results) -> Figure:
    d = per_seed(res)
    cells = _cells(d, ("buffer_pkts", "n_flows", "rtt_ms"))
    fig, (a0, a1, a2) = new_figure(3, "Bufferbloat: CUBIC over FIFO, CoDel, PIE, FQ-CoDel", width=5.0)
    keys = sorted(d.groupby(cells).groups) if cells else [()]
    labels = ["/".join(f"{v:g}" for v in (k if isinstance(k, tuple) else (k,))) for k in keys]
    x = np.arange(len(keys))
    aqms = [a for a in COLOURS if a in set(d["aqm"])]
    w = 0.8 / max(len(aqms), 1)
    for i, aqm in enumerate(aqms):
        g = d[d["aqm"] == aqm]
        for ax_, m in ((a0, "queue_delay_p50_ms"), (a1, "queue_delay_p95_ms")):
            c = mean_ci(g, cells, m).set_index(cells).reindex(keys).reset_index()
            ax_.bar(x + (i - (len(aqms) - 1) / 2) * w, c["mean"], w, yerr=yerr(c),
                    color=COLOURS[aqm], label=aqm, capsize=2)
        c = mean_ci(g, cells, "queue_delay_p95_ms").merge(
            mean_ci(g, cells, "utilization"), on=cells, suffixes=("_d", "_u"))
        a2.errorbar(c["mean_d"], c["mean_u"],
                    xerr=yerr(c.rename(columns={"mean_d": "mean", "ci_low_d": "ci_low",
                                                "ci_high_d": "ci_high"})),
                    yerr=yerr(c.rename(columns={"mean_u": "mean", "ci_low_u": "ci_low",
                                                "ci_high_u": "ci_high"})),
                    fmt="o", color=COLOURS[aqm], label=aqm, capsize=2)
    for ax_, t in ((a0, "median wait (ms)"), (a1, "95th-percentile wait (ms)")):
        ax_.set_xticks(x, labels, rotation=60, fontsize=7)
        ax_.set_yscale("log")
        ax_.set_ylabel(t)
        ax_.set_xlabel("/".join(cells))
        ax_.legend(fontsize=7)
    a2.set_xscale("log")
    a2.set_xlabel("95th-percentile wait (ms)")
    a2.set_ylabel("utilisation")
    a2.set_title("trade-off (one point a cell)", fontsize=9)
    a2.legend(fontsize=7)
    return fig


def fig_rtt(res: Results) -> Figure:
    d = per_seed(res)
    fig, (a0, a1) = new_figure(2, "RTT fairness, 8 flows at 20..200 ms")
    ccs = sorted(set(d["congestion_control"]))
    aqms = [a for a in COLOURS if a in set(d["aqm"])]
    x = np.arange(len(ccs))
    w = 0.8 / max(len(aqms), 1)
    for i, aqm in enumerate(aqms):
        g = d[d["aqm"] == aqm]
        for ax_, m in ((a0, "jain_index"), (a1, "queue_delay_p50_ms")):
            c = mean_ci(g, ["congestion_control"], m).set_index("congestion_control"
                                                                  ).reindex(ccs).reset_index()
            ax_.bar(x + (i - (len(aqms) - 1) / 2) * w, c["mean"], w, yerr=yerr(c),
                    color=COLOURS[aqm], label=aqm, capsize=2)
    a0.set_ylabel("Jain's index")
    a0.set_ylim(0, 1)
    a1.set_ylabel("median wait (ms)")
    for ax_ in (a0, a1):
        ax_.set_xticks(x, ccs)
        ax_.legend(fontsize=7)
    return fig


FIGURES = {"BD": fig_delay, "BR": fig_rtt}
