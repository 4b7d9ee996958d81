"""Rossi, Casetti & Mellia's per-seed numbers ``diffsweep sensitivity`` may measure
(``--metric rossi:<name>``; issue 46): one cloud's row of ``tables.per_cloud``."""
from diffsweep.studies.sensitivity import PaperMetric

METRICS = {
    "af_completion_s": PaperMetric(
        "mean completion time of the AF cloud's transfers, s (Figs. 2, 5, 8)",
        "diffsweep.papers.rossi.tables:per_cloud", "completion_s", rows=(("cloud", "AF"),)),
    "be_completion_s": PaperMetric(
        "mean completion time of the BE cloud's transfers, s",
        "diffsweep.papers.rossi.tables:per_cloud", "completion_s", rows=(("cloud", "BE"),)),
    "af_drop_pct": PaperMetric(
        "drop percentage of the AF cloud's packets (Figs. 3, 6, 9)",
        "diffsweep.papers.rossi.tables:per_cloud", "drop_pct", rows=(("cloud", "AF"),)),
}
