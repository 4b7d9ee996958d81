"""Habib et al.'s per-seed numbers ``diffsweep sensitivity`` may measure (``--metric
habib:<name>``; issue 46), from ``tables.totals`` (topology 2(a): aggregates F1 and F2)."""
from diffsweep.studies.sensitivity import PaperMetric

METRICS = {
    "f1_f2_goodput_ratio": PaperMetric(
        "goodput of aggregate F1 (RTT 20 ms) over F2's (Figs. 3-4: 1 is the fair share)",
        "diffsweep.papers.habib.tables:totals", "f1_mbps", ratio="f2_mbps",
        builders=("habib_2a",)),
    "f1_minus_f2_mbps": PaperMetric(
        "goodput of F1 minus F2's, Mb/s", "diffsweep.papers.habib.tables:totals", "f1_minus_f2",
        builders=("habib_2a",)),
}
