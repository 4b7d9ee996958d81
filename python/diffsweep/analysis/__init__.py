"""Layer ``analysis``: tables to numbers.

Owns the metrics on a run's tables (``metrics``, their one namespace: the rows per replica
and grid columns, ``replicas``; Jain's index and the min-max ratio, ``fairness``; normalised
throughput, utilisation, loss and the bottleneck table, ``throughput``; Padhye's model,
``padhye``; Student-t and bounded intervals, ``confidence``), intervals over seeds (``stats``),
the verdict machinery of claims (``claims``: ``Claim``, ``Verdict``, the rules), what every
engine column means (``columns``), metrics as named things (``registry``: one number per
replica with its unit and range, ``@diffsweep.metric``; ``expressions``: the one-line form)
and claims of one's own (``own_claims``: ``diffsweep.claim``, claim files).

May import: ``diffsweep.scenario``, ``diffsweep.core``. It is independent of
``diffsweep.engine``: numbers are computed from tables, whoever made them.
"""
