"""``diffsweep metrics``: every metric a command can take by name (``show --metric``,
``plot --y``, ``export --metric``, ``sensitivity --metric``, ``run --target-metric``), with its
unit, range and meaning; ``--module M``: with the ``@diffsweep.metric``s of the user's module
``M``; ``--markdown``: docs/metric-names.md. The list comes from
``diffsweep.analysis.registry``."""
from __future__ import annotations

from diffsweep.analysis import registry


def _cmd_metrics(args) -> int:
    if args.markdown:
        print(registry.metrics_markdown(), end="")
        return 0
    for module in args.module:
        registry.import_module(module)
    rows = registry.listing()
    width = max(len(m.name) for m in rows)
    source = None
    for m in rows:
        if m.source != source:
            source = m.source
            print({"engine": "the engine's per-replica columns (the replicas table):",
                   "built-in": "\nderived from the tables (diffsweep.analysis.registry):",
                   "user": "\nyour own (@diffsweep.metric):"}.get(source, f"\n{source}:"))
        rng = registry._range(m.bounds)
        unit = f"[{m.unit}] " if m.unit else ""
        print(f"  {m.name:<{width}}  {unit}{'' if rng == '-' else 'in ' + rng + ' '}"
              f"{m.what}")
    print("\nor an expression: AGG(TABLE.COLUMN), TABLE.COLUMN:AGG, rows chosen with "
          "[COLUMN == VALUE], numbers, the names above and + - * /; AGG one of "
          + ", ".join(registry.ex.AGGREGATES)
          + "\n(e.g. 'sum(flows.drops) / sum(flows.pkts_sent)'); or module:function for a "
          "@diffsweep.metric of your own")
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep metrics`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("metrics", help="the metrics a command can take by name: unit, range, "
                       "meaning",
                       description="Every metric show --metric, plot --y, export --metric, "
                       "sensitivity --metric and run --target-metric take by name: one number "
                       "per replica, with its unit and range (a bounded metric's intervals "
                       "stay inside it), and the expression form for one's own "
                       "(docs/metric-names.md).")
    s.add_argument("--module", action="append", default=[], metavar="MODULE",
                   help="import MODULE first and list its @diffsweep.metric metrics too "
                   "(repeatable)")
    s.add_argument("--markdown", action="store_true",
                   help="print docs/metric-names.md as generated")
    s.set_defaults(fn=_cmd_metrics)
