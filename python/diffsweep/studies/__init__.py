"""Layer ``studies``: what a user asks of many runs.

Owns the reproduction of a paper (``reproduce``: its options and steps; ``reproduce_folder``:
the sweep files it reads and the folder it writes; ``family_call``: many sweeps' replicas in one
engine call, also the atlas's; ``reproduce_report``: the figures, claims and report after it;
``reproduce_plan``: ``--dry-run``), the atlas of a claim over a plane of parameters (``atlas``)
and sensitivity analyses (``sensitivity``: a study's checks, rounds and files;
``sensitivity_metric``: what it measures; ``sensitivity_plan``: its base, factors, design and
sweep; ``designs``: the designs and estimators).

May import: ``diffsweep.report`` and every layer below it. Papers are reached through the
registry (``diffsweep.core.registry``), never by name: ``diffsweep.papers`` sits above.
"""
