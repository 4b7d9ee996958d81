"""``diffsweep show DIR``: what a results folder holds (sweep, points done and missing, runs and
timings) and a summary of a column with its 95% CIs."""
from __future__ import annotations

from diffsweep.cli.common import _n
from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES

#: ``show --table T`` without --metric summarises T's main column.
TABLE_METRIC = {"flows": "goodput_bps", "queues": "mean_queue_pkts", "sources": "throughput_bps",
                "intervals": "goodput_bps", "transfers": "completion_s", "traffic": "completed",
                "cwnd_trace": "cwnd_pkts"}


def _cmd_show(args) -> int:
    from diffsweep.core import axes as ax  # noqa: PLC0415
    from diffsweep.sweep.folder import (DEFAULT_METRIC, check_measure, describe,  # noqa: PLC0415
                                        dims_of, select, summary_table)

    if args.rows < 1:
        raise ConfigError(f"--rows: {args.rows!r} is not allowed (expected an integer >= 1)")
    from diffsweep.analysis.own_claims import load_claim  # noqa: PLC0415

    claims = [load_claim(ref) for ref in args.claim or []]  # a bad claim before any output
    m, res, f = describe(args.dir)
    for name in args.metric or []:  # an identifier or a grid column measures nothing
        check_measure(res, "--metric", name, args.table, dims_of(m))
    print(f"{args.dir}: sweep {m.get('name')!r} (builder {m.get('builder')}, config hash "
          f"{str(m.get('config_hash'))[:12]})")
    if m.get("sweep_path"):
        print(f"sweep file : {m['sweep_path']}{' (--quick)' if m.get('quick') else ''}")
    print(f"points     : {f['points_done']} of {f['points']} complete; replicas {f['done']} of "
          f"{f['expected']} done, {f['missing']} missing ({_n(f['seeds'], 'seed')} per point)"
          + (f"; {f['extra']} more from other seeds" if f["extra"] else ""))
    print(f"backend    : {m.get('backend')} ({m.get('device')}), {_threads_used(m)}, "
          f"diffsweep {m.get('diffsweep_version')}")
    for i, r in enumerate(f["runs"]):
        state = _state(f["runs"], i, f["locked"])
        wall = f"{r['wall_s']:.1f} s" if isinstance(r["wall_s"], (int, float)) else "?"
        print(f"run {i + 1:<6} : {r['start']} on {r['host']} ({r['backend']}), {wall}, "
              f"{r['replicas_run'] if r['replicas_run'] is not None else '?'} replicas "
              f"computed, {state}")
    for p in f["problems"]:
        print(f"problem    : {p}")
    if not len(res.replicas):
        print("no replicas finished yet")
        return 0
    # one row per point: grouped by every axis of the sweep (an axis named like an engine
    # column is the axis: diffsweep.core.axes), never pooling two points into one interval
    dims = [d for d in dims_of(m) if ax.has(res.replicas, d)]
    table = args.table
    metrics = list(dict.fromkeys(args.metric or [TABLE_METRIC.get(table, DEFAULT_METRIC)]))
    if args.metric is None and table is None and not len(res.flows) and len(res.transfers):
        # short-lived traffic only: its transfers' completion time says more than goodput
        metrics, table = ["completion_s"], "transfers"
    by = dims or ["point"]
    for metric in metrics:
        if metric in by:  # pandas' own error: "cannot insert point, already exists"
            raise ConfigError(f"--metric: {metric!r} is not allowed (expected a measured "
                              f"column, not one the summary groups by: {', '.join(by)})")
    res, fixed = select(res, args.where)
    tables = [summary_table(res, by, metric, table=table) for metric in metrics]
    import pandas as pd  # noqa: PLC0415
    where = "".join(f", {k}={ax.labels([v])[0]}" for k, v in fixed.items())
    for metric, t in zip(metrics, tables):
        for c in by:  # values that are different points print differently (not %g's 0.1 twice)
            t[c] = ax.labels(t[c])
        print(f"\n{metric}{_unit(metric)}: mean over seeds and 95% CI{where}{_range(metric)}")
        with pd.option_context("display.width", 160, "display.max_rows", args.rows,
                               "display.max_columns", 30):
            print(t.to_string(index=False, max_rows=args.rows,
                              float_format=lambda v: f"{v:.5g}"))
    for c in claims:
        _print_verdict(c, res, f)
    return 0


def _print_verdict(c, res, f: dict) -> None:
    """A claim of one's own rated on the folder's replicas (``show --claim``), with the
    papers' rules and intervals (analysis.own_claims); its own ``sweep`` is not run."""
    v = c.check(res)
    part = (f" (on the {f['done']} of {f['expected']} replicas done)"
            if f["missing"] else "")
    print(f"\nclaim {c.id}: {v.status}{part}: {c.text}")
    print(f"  test: {c.thresholds}")
    for why in (v.reason.split("; ") if v.reason else []):
        print(f"  {why}")


def _unit(metric: str) -> str:
    from diffsweep.analysis.registry import METRICS  # noqa: PLC0415
    m = METRICS.get(metric)
    return f" ({m.unit})" if m is not None and m.unit and m.unit != "fraction" else ""


def _range(metric: str) -> str:
    from diffsweep.analysis.registry import bounds_of  # noqa: PLC0415
    b = bounds_of(metric)
    if b is None or b[0] is None or b[1] is None:
        return ""
    return f" (kept inside [{b[0]:g}, {b[1]:g}])"


def _threads_used(m: dict) -> str:
    """The threads of the folder's last run: the count the engine used, else the one asked for
    (the manifest's 0 means "all OpenMP threads", which used to print as "threads 0")."""
    runs = m.get("runs") or []
    used = ((runs[-1].get("meta") or {}).get("threads") if runs else None)
    asked = m.get("threads")
    if isinstance(used, int) and used > 0:
        return _n(used, "thread")
    if isinstance(asked, int) and asked > 0:
        return _n(asked, "thread")
    return "threads: the default (all OpenMP threads)"


def add_subcommand(sub) -> None:
    """The ``diffsweep show`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("show", help="what a results folder holds: sweep, points done and "
                       "missing, runs and timings, a summary with CIs",
                       description="What a results folder holds, and a summary of --metric: "
                       "mean over seeds and 95% CI for each point, grouped by every axis of "
                       "the sweep (a name is the sweep's axis even where an engine column "
                       "shares it); --where AXIS=VALUE keeps the points with that value.")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--metric", default=None, action="append", metavar="METRIC",
                   help="metric or column to summarise, repeatable: a metric name "
                   "(jain_index, loss_rate, queue_delay_ms, ...: `diffsweep metrics`), an "
                   "expression (sum(flows.drops) / sum(flows.pkts_sent)), module:function "
                   "(@diffsweep.metric) or a column (default tcp_goodput_bps, or the "
                   "--table's own: completion_s of transfers, cwnd_pkts of cwnd_trace, ...; "
                   "completion_s of the transfers table for a sweep of short-lived traffic "
                   "only)")
    s.add_argument("--claim", default=None, action="append", metavar="CLAIM",
                   help="a claim of one's own rated on this folder's replicas with the "
                   "papers' rules and 95%% intervals: a claim file CLAIM.toml or "
                   "module:NAME (diffsweep.claim); repeatable (docs/metrics.md)")
    s.add_argument("--table", default=None, choices=TABLES)
    s.add_argument("--rows", type=int, default=40, metavar="N",
                   help="most summary rows shown (>= 1, default 40)")
    s.add_argument("--where", action="append", default=[], metavar="AXIS=VALUE",
                   help="only the points with this value of an axis (or column); repeatable")
    s.set_defaults(fn=_cmd_show)


def _state(runs: list[dict], i: int, locked: bool) -> str:
    """How run ``i`` (0-based) of a folder ended. A run with no end time is "running or
    killed" only while it may still run: it is the last run and the lock file is there; else
    it was killed (SIGKILL, a crash, a power cut: it wrote no end), and the later run that
    finished its replicas is named (issue 53: a resumed run's killed one stayed "running or
    killed")."""
    r = runs[i]
    if r["interrupted"]:
        state = "interrupted"
    elif r["error"]:
        state = f"failed: {r['error']}"
    elif r["rebuilt"]:
        return "rebuilt from its chunks by diffsweep repair (end unknown)"
    elif r["end"] is not None:
        return "done"
    elif i == len(runs) - 1 and locked:
        return "running or killed"
    else:
        state = "killed (it wrote no end)"
    later = [j for j in range(i + 1, len(runs)) if runs[j]["end"] is not None
             and not runs[j]["interrupted"] and not runs[j]["error"]]
    if later:
        return f"{state}; its replicas were finished by run {later[0] + 1}"
    return state
