"""Kaur & Vin's per-seed numbers ``diffsweep sensitivity`` may measure (``--metric
kaur-vin:<name>``; issue 46), read from the paper's own tables (``tables``). Every one needs
the EF kind as a column (``ef``: an axis of the base sweep file or ``--set ef=...``); the loss
U_CBR - U_EF pairs the CBR and on-off networks of a design point, so it needs ``ef`` = cbr,
onoff as an inner axis."""
from diffsweep.studies.sensitivity import PaperMetric

METRICS = {
    "loss": PaperMetric(
        "loss in TCP throughput U_CBR - U_EF (sec. 2.3(1); Fig. 2a, 3, 4a): utilisation with "
        "CBR EF minus with on-off EF, same seed", "diffsweep.papers.kaur_vin.tables:loss_per_seed",
        "loss", axis=("ef", ("cbr", "onoff"))),
    "min_max_ratio": PaperMetric(
        "min-max ratio M of the TCP flows' goodputs (sec. 2.3(2); Fig. 5, 7)",
        "diffsweep.papers.kaur_vin.tables:fairness_per_seed", "min_max_ratio", axis=("ef", ())),
    "jain_index": PaperMetric(
        "Jain's fairness index F of the TCP flows' goodputs (sec. 2.3(2))",
        "diffsweep.papers.kaur_vin.tables:fairness_per_seed", "jain_index", axis=("ef", ())),
    "timeouts_per_flow": PaperMetric(
        "retransmission timeouts per TCP flow (Fig. 2b, 4b)",
        "diffsweep.papers.kaur_vin.tables:timeouts_per_seed", "timeouts_per_flow",
        axis=("ef", ())),
}
