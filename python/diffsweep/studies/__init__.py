"""Layer ``studies``: what a user asks of many runs.

Owns the reproduction of a paper (``reproduce``, ``reproduce_plan``: ``--dry-run``), the atlas
of a claim over a plane of parameters (``atlas``) and sensitivity analyses (``sensitivity``;
their designs and estimators: ``designs``).

May import: ``diffsweep.report`` and every layer below it. Papers are reached through the
registry (``diffsweep.core.registry``), never by name: ``diffsweep.papers`` sits above.
"""
