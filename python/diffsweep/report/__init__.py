"""Layer ``report``: pictures and pages.

Owns figure files (``figures``: ``save``, ``combine``; ``render``: drawing in parallel), a
paper's reproduction report (``paper_report``: report.md, report.html, verdicts.json; ``cache``:
whether a report on disk is current), the atlas and sensitivity pages (``atlas_page``,
``sensitivity_page``) and the generated docs pages (``builders_page``, ``docs_pages``).

May import: ``diffsweep.sweep``, ``diffsweep.analysis``, ``diffsweep.engine``,
``diffsweep.scenario``, ``diffsweep.core``.

``diffsweep.report.write_report`` (and every other name of the 0.2 module
``diffsweep.report``) is ``paper_report``'s.
"""
from __future__ import annotations

from diffsweep.report.paper_report import write_report  # noqa: F401


def __getattr__(name: str):
    # any other name of the 0.2 module ``diffsweep.report`` (now ``diffsweep.report.paper_report``)
    from diffsweep.report import paper_report  # noqa: PLC0415
    try:
        return getattr(paper_report, name)
    except AttributeError:
        raise AttributeError(f"module 'diffsweep.report' has no attribute {name!r}") from None
