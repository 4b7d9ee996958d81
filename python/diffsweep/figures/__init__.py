"""Figure functions, one per figure family; each takes a ``diffsweep.Results`` and returns a
``matplotlib.figure.Figure`` (built without pyplot, so no GUI backend is touched).

``diffsweep.figures.kaur_vin``: Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP
Throughput and Fairness" (families K2..K10 and Kf of ``shared/FIGURES.md``).
"""
from . import kaur_vin
from .kaur_vin import FIGURES as KAUR_VIN_FIGURES, combine, network_label, save

__all__ = ["kaur_vin", "KAUR_VIN_FIGURES", "combine", "network_label", "save"]
