"""Layer ``analysis``: tables to numbers.

Owns the metrics on a run's tables (``metrics``: Jain's index, normalised throughput, Padhye's
model, the bottleneck table, ...), intervals over seeds (``stats``), the verdict machinery of
claims (``claims``: ``Claim``, ``Verdict``, the rules) and what every engine column means
(``columns``).

May import: ``diffsweep.scenario``, ``diffsweep.core``. It is independent of
``diffsweep.engine``: numbers are computed from tables, whoever made them.
"""
