"""Layer ``analysis``: tables to numbers.

Owns the metrics on a run's tables (``metrics``, their one namespace: the rows per replica
and grid columns, ``replicas``; Jain's index and the min-max ratio, ``fairness``; normalised
throughput, utilisation, loss and the bottleneck table, ``throughput``; Padhye's model,
``padhye``; Student-t and bounded intervals, ``confidence``), intervals over seeds (``stats``),
the verdict machinery of claims (``claims``: ``Claim``, ``Verdict``, the rules) and what every
engine column means (``columns``).

May import: ``diffsweep.scenario``, ``diffsweep.core``. It is independent of
``diffsweep.engine``: numbers are computed from tables, whoever made them.
"""
