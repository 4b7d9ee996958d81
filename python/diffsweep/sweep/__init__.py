"""Layer ``sweep``: grids and runs into results folders.

Owns the grid of points x seeds (``grid``), TOML sweep files (``config``: ``SweepConfig`` and
loading; ``parse``: the checks of a sweep document's values and sections), a run's steps
(``runner``: plan and check, ``run_plan``; open the folder, ``run_folder``; compute,
``session``; answer, ``answer``; several grids in one engine call: ``family_run``; seeds added
until an interval is narrow enough: ``ci_target``), the results folder (``store``: the Store,
chunks written, checked and loaded; ``records``: its manifest and chunk records read without
one; ``lock``; ``repair``; ``folder``: what ``show``, ``plot`` and ``export`` read of one),
progress bars (``progress``) and interrupts (``interrupt``).

May import: ``diffsweep.analysis``, ``diffsweep.engine``, ``diffsweep.scenario``,
``diffsweep.core``.
"""
