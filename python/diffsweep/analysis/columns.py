"""columns: what every column of the results tables means, and its unit (docs/columns.md).

One entry per column the engine's tables have (``diffsweep.engine.tables``: ``batch_tables``,
``_traffic_tables``, ``_trace_table``), checked against what the engine produces by
tests/test_docs_pages.py: a column added to a table without an entry here fails it, as does an
entry for a column no table has. ``<colour>`` stands for each of ``COLOURS`` (green, yellow,
red: the drop precedences, most protected first). Every table also carries ``point``, ``seed``
and the grid's columns (``KEYS``, ``GRID_COLUMNS``).

The counters count events at or after the warm-up only (``warmup_s``), as the engine's
outputs do (cuda/batch.h, ``DS_OUTPUT_FIELDS``).
"""
from __future__ import annotations

from diffsweep.core.results import TABLES
from diffsweep.scenario import AQMS, COLOURS, TRAFFIC_KINDS, VARIANTS

#: the columns every table carries first
KEYS = {
    "point": ("", "the grid point (0 .. points - 1; `grid.points`)"),
    "seed": ("", "the replica's seed: (point, seed) is one replica"),
}

#: what the grid adds to every table (not engine columns)
GRID_COLUMNS = (
    "Every table also carries the grid's columns: each axis and zipped parameter (its value at "
    "the point), then the `params` the builder reports (e.g. `kaur_vin`'s `t_off_ms`, "
    "`available_bps`). A grid column named like an engine column (an `n_flows` or `rtp_ms` axis) "
    "appears once when the two agree on every row; otherwise the engine's value keeps the name "
    "and the grid's is kept as `<name>_grid`.")

#: table -> (what one row is, {column: (unit, meaning)}); ``<colour>`` expands to COLOURS
COLUMNS: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {
    "replicas": ("one row per replica (point, seed)", {
        "slot_s": ("s", "the engine's time slot: every delay and time is counted in slots"),
        "duration_s": ("s", "the run's length on the slot clock (the scenario's duration_s in "
                            "whole slots)"),
        "warmup_s": ("s", "the warm-up on the slot clock; no counter counts before it"),
        "measured_s": ("s", "duration_s - warmup_s: the time the counters and rates cover"),
        "n_flows": ("count", "TCP flows of the scenario (`Scenario.flows`; a traffic "
                             "generator's transfers are not counted)"),
        "tcp_goodput_bps": ("b/s", "payload bytes delivered in order to the receivers after the "
                                   "warm-up, all flows, x 8 / measured_s"),
        "delay_rounding_ms": ("ms", "the largest |rounded - asked| round-trip delay over the "
                                    "flows: delays run in whole slots"),
        "slots_run": ("slots", "slots the engine ran (equal to duration_s / slot_s when the "
                               "replica finished)"),
    }),
    "flows": ("one row per (replica, TCP flow)", {
        "flow": ("", "the flow's index in `Scenario.flows`"),
        "variant": ("", "TCP variant: " + ", ".join(VARIANTS)),
        "rtp_ms": ("ms", "round-trip propagation latency: access + links + egress + reverse "
                         "delays (no queueing), as asked"),
        "rtp_ms_run": ("ms", "the round trip as it runs: every delay rounded to whole slots "
                             "(its ACK loop, at least one slot, plus the whole-slot delays of "
                             "the links before its last; docs/model.md, Time)"),
        "segment_bytes": ("bytes", "payload per data packet"),
        "header_bytes": ("bytes", "TCP/IP header per packet (on the wire: segment + header)"),
        "max_window_pkts": ("packets", "the window cap (receiver window)"),
        "delivered_bytes": ("bytes", "payload delivered in order to the receiver"),
        "goodput_bps": ("b/s", "delivered_bytes x 8 / measured_s"),
        "pkts_sent": ("packets", "data packets the sender sent, retransmissions included"),
        "retransmits": ("packets", "of pkts_sent, retransmissions"),
        "timeouts": ("count", "retransmission timeouts"),
        "fast_retransmits": ("count", "fast retransmits (three duplicate ACKs)"),
        "drops": ("packets", "every loss of the flow's packets: buffer overflows, RED/RIO "
                             "early and forced drops, random and injected losses, drops at its "
                             "access link (unlike queues.drops)"),
        "rtt_mean_s": ("s", "mean of the sender's RTT samples (NaN without a sample)"),
        "rto_mean_s": ("s", "mean retransmission timeout at those samples, before backoff"),
        "finish_s": ("s", "when a finite transfer (`size_pkts`) was complete; NaN if not "
                          "finished or backlogged"),
        "aggregate": ("", "the name of the Marker (edge conditioner) metering the flow; \"\" "
                          "for none (the first one it meets when two do)"),
        "pkts_<colour>": ("packets", "packets of the flow entering the network with that colour, "
                                     "after its marker, retransmissions included"),
        "early_drops_<colour>": ("packets", "RED/RIO/WRED probabilistic (early) drops of the "
                                            "flow's packets of that colour, CoDel's drops "
                                            "at dequeue and PIE's early drops at arrival"),
        "forced_drops_<colour>": ("packets", "forced drops of that colour: the RED average "
                                             "beyond max_th (2 max_th if gentle), or the buffer "
                                             "full"),
        "ce_marks": ("packets", "the flow's packets CE-marked at a queue instead of dropped "
                                "(ECN, RFC 3168; the queues' marks_<colour>)"),
        "ecn_reductions": ("", "window reductions an ECN-Echo made (RFC 3168 6.1.2: at most "
                               "one per window of data, no retransmission)"),
        "app_segments": ("count", "telnet-like flows (tables of calls with any): segments "
                                  "delivered"),
        "app_delay_sum_s": ("s", "telnet-like flows: the sum over segments of the delay from "
                                 "the application's write to the delivery at the receiver"),
        "app_delay_mean_s": ("s", "app_delay_sum_s / app_segments (NaN without a segment)"),
    }),
    "queues": ("one row per (replica, link, class)", {
        "link": ("", "the link's index in `Scenario.links`"),
        "cls_index": ("", "the class's index in the link's `classes`"),
        "cls": ("", "the class's name"),
        "rate_bps": ("b/s", "the link's rate"),
        "arrivals": ("packets", "packets that arrived at the class"),
        "departures": ("packets", "packets the link sent from the class"),
        "drops": ("packets", "buffer overflows only (drop-tail, or the class's ring full): not "
                             "RED's early drops, which are early_drops_<colour>, nor its drops "
                             "of an average beyond max_th, nor random losses (random_drops); "
                             "every discard is all_drops"),
        "all_drops": ("packets", "every packet the class discarded: buffer overflows + RED/RIO/"
                                 "WRED early drops + CoDel's drops at dequeue + PIE's early "
                                 "drops + RED's forced "
                                 "drops of an average beyond "
                                 "max_th (the sum over colours of early_drops_<colour> and "
                                 "forced_drops_<colour>, which hold the overflows); not the "
                                 "link's random losses (random_drops)"),
        "random_drops": ("packets", "losses of the link's Bernoulli loss element and injected "
                                    "drops (`drop_seqs`)"),
        "bytes_departed": ("bytes", "bytes the link sent from the class (whole packets, headers "
                                    "included)"),
        "mean_queue_pkts": ("packets", "time average of the queue length at each slot's end "
                                       "(the packet on the wire counted: mean_waiting_pkts "
                                       "leaves it out)"),
        "mean_queue_bytes": ("bytes", "time average of the queue length"),
        "mean_waiting_pkts": ("packets", "time average of the packets waiting, the one on the "
                                         "wire left out (what ns-2's queue monitor integrates): "
                                         "each from the middle of its arrival slot to the start "
                                         "of its transmission (docs/model.md, Links)"),
        "max_delay_s": ("s", "longest wait of a packet in the queue"),
        "delay_p50_ms": ("ms", "median wait of the packets the link sent from the class "
                               "(departure slot - arrival slot, as max_delay_s), from the "
                               "queueing-delay histogram: `queue_delay_hist` (NaN without)"),
        "delay_p95_ms": ("ms", "95th percentile of those waits (as delay_p50_ms)"),
        "delay_p99_ms": ("ms", "99th percentile of those waits (as delay_p50_ms)"),
        "aqm": ("", "the class's queue discipline: " + ", ".join(AQMS)),
        "arrivals_<colour>": ("packets", "arrivals of that colour (after marking)"),
        "marks_<colour>": ("packets", "ECN CE marks of that colour: ECT packets the class "
                                      "marked where it would have dropped them early (RED/RIO/"
                                      "WRED, CoDel, PIE with ecn; RED's forced drops too with "
                                      "red_hard_drop False)"),
        "marks": ("packets", "the sum of marks_<colour>"),
        "mark_rate": ("", "marks / arrivals (NaN without arrivals)"),
        "early_drops_<colour>": ("packets", "RED/RIO/WRED probabilistic (early) drops of that "
                                            "colour; for a CoDel class, its drops at dequeue "
                                            "(RFC 8289's control law); for a PIE class, its "
                                            "early drops at arrival (RFC 8033); for an "
                                            "FQ-CoDel class, its flow queues' CoDel drops at "
                                            "dequeue (RFC 8290)"),
        "forced_drops_<colour>": ("packets", "forced drops of that colour: the average beyond "
                                             "max_th (2 max_th if gentle), or the buffer full "
                                             "(those are in drops too; for an FQ-CoDel class "
                                             "the packets FqCoDelDrop takes from the fattest "
                                             "flow queue's head, not the arrival)"),
        "red_avg_<colour>": ("packets", "time average of the RED average queue that governs "
                                        "the colour (bytes with the queue in bytes: "
                                        "`red_queue_in_bytes`); NaN for drop-tail, CoDel, "
                                        "PIE and FQ-CoDel"),
    }),
    "sources": ("one row per (replica, on-off/CBR source)", {
        "source": ("", "the source's index in `Scenario.sources`"),
        "name": ("", "the source's name"),
        "pkts_emitted": ("packets", "packets the source emitted"),
        "bytes_emitted": ("bytes", "bytes the source emitted"),
        "on_fraction": ("fraction (0..1)", "time on / measured_s"),
        "bursts": ("count", "on periods started"),
        "mean_on_s": ("s", "mean on period (NaN without a burst)"),
        "delivered_bytes": ("bytes", "bytes that left the last link of the source's route"),
        "throughput_bps": ("b/s", "delivered_bytes x 8 / measured_s"),
    }),
    "intervals": ("one row per (replica, flow, interval) when `interval_s` is set", {
        "flow": ("", "the flow's index"),
        "interval": ("", "the interval's index k: it covers [k, k + 1) x interval_s"),
        "t_start_s": ("s", "the interval's start"),
        "goodput_bps": ("b/s", "payload delivered in order in the interval x 8 / its length"),
    }),
    "transfers": ("one row per transfer of a `Traffic` generator (started before the end)", {
        "traffic": ("", "the generator's name"),
        "slot": ("", "the transfer's slot in the generator's pool (for kind sessions: the "
                     "session)"),
        "cls": ("", "the class its packets join"),
        "size_pkts": ("packets", "the transfer's size"),
        "start_s": ("s", "arrival: the connection opens at the sender"),
        "end_s": ("s", "the receiver has every packet; NaN if still running at the end"),
        "completion_s": ("s", "end_s - start_s"),
        "first_s": ("s", "its first packet reached the receiver; NaN if none yet"),
        "pkts_sent": ("packets", "packets sent (after the warm-up), retransmissions included"),
        "retransmits": ("packets", "of pkts_sent, retransmissions"),
        "timeouts": ("count", "retransmission timeouts"),
        "drops": ("packets", "losses of its packets: buffer overflows, RED/RIO early and forced "
                             "drops, random losses"),
        "early_drops": ("packets", "of drops, RED/RIO probabilistic (early) drops, CoDel's "
                                   "drops at dequeue and PIE's early drops"),
        "pkts_red": ("packets", "its packets that left their marker red"),
    }),
    "traffic": ("one row per (replica, traffic generator)", {
        "traffic": ("", "the generator's name"),
        "cls": ("", "the class its packets join"),
        "kind": ("", "the generator's kind: " + ", ".join(TRAFFIC_KINDS)),
        "pool": ("count", "transfers that can be alive at once"),
        "started": ("count", "transfers started"),
        "completed": ("count", "transfers whose last packet was received"),
        "unfinished": ("count", "started - completed"),
        "refused": ("count", "arrivals that found the pool full: not started"),
        "records_lost": ("count", "transfers beyond `max_records`: counted, not in transfers"),
        "peak_active": ("count", "most transfers alive at once"),
    }),
    "cwnd_trace": ("one row per (replica, traced flow, sample) when `trace_flows` is set", {
        "flow": ("", "the traced flow's index"),
        "t_s": ("s", "the sample's time: 0, trace_interval_s, 2 trace_interval_s, ..."),
        "cwnd_pkts": ("packets", "the congestion window in force then"),
    }),
    "queue_trace": ("one row per (replica, traced link, class, sample) when "
                    "`queue_trace_interval_s` is set (64 bytes of engine state per traced link "
                    "and sample; with the cwnd trace's 4 per flow and sample at most "
                    "`MAX_TRACE_BYTES` = 1,600,000 per replica)", {
        "link": ("", "the traced link's index (`queue_trace_links`; all links when None)"),
        "cls_index": ("", "the class's position on the link"),
        "cls": ("", "the class's name"),
        "t_s": ("s", "the sample's time: 0, queue_trace_interval_s, 2 queue_trace_interval_s, "
                "...; the queue at the start of the slot that begins at or after it"),
        "queue_pkts": ("packets", "packets queued then"),
        "queue_bytes": ("bytes", "bytes queued then (on the wire)"),
        "red_avg": ("packets", "the RED average that governs red (OUT) packets then (RED/WRED's "
                    "one average, RIO-C's whole-queue one, RIO-D's red one; bytes when the "
                    "class's `red_bytes`); NaN for a drop-tail, CoDel or PIE "
                    "class"),
    }),
    "queue_delay": ("one row per (replica, link, class, non-empty bin) when `queue_delay_hist` "
                    "is set: the histogram of the waits of the packets each class sent in the "
                    "measured window (209 bins of 8 bytes per link class in the replica's "
                    "state: 6.7 KB a one-link replica; docs/model.md, \"Queueing-delay "
                    "percentiles\")", {
        "link": ("", "the link's index"),
        "cls_index": ("", "the class's position on the link"),
        "cls": ("", "the class's name"),
        "bin": ("", "the bin: 0..63 one slot each (the wait in slots), then 8 per octave up "
                    "to 2^24 slots, 208 for longer (core/qdelay.py)"),
        "wait_lo_ms": ("ms", "the bin's shortest wait (departure slot - arrival slot, whole "
                             "slots, in ms)"),
        "wait_hi_ms": ("ms", "the bin's end (exclusive; inf for the last)"),
        "pkts": ("packets", "departures whose wait fell in the bin"),
    }),
}


def expanded(table: str) -> dict[str, tuple[str, str]]:
    """The columns of ``table`` with ``<colour>`` expanded (green, yellow, red), in order."""
    out: dict[str, tuple[str, str]] = {}
    for name, (unit, meaning) in COLUMNS[table][1].items():
        if "<colour>" in name:
            for c in COLOURS:
                out[name.replace("<colour>", c)] = (unit, meaning)
        else:
            out[name] = (unit, meaning)
    return out


def describe(table: str, column: str) -> tuple[str, str] | None:
    """(unit, meaning) of an engine column of ``table`` (or of ``point``/``seed``); None if
    the column has no entry."""
    if column in KEYS:
        return KEYS[column]
    return expanded(table).get(column)


PAGE_INTRO = """\
# Columns of the results tables

Generated from `diffsweep.analysis.columns` by `python -m diffsweep.report.docs_pages`; do not edit by hand:
`tests/test_docs_pages.py` fails while this page differs from what the code generates, and
when the engine's tables have a column without an entry there (or an entry no table has).

A run's `Results` (`diffsweep.load(DIR)`, `diffsweep run`, `diffsweep export`) holds these
tables. Counters count only events at or after the warm-up (`warmup_s`); rates divide by
`measured_s`. `<colour>` is each of green, yellow and red (the drop precedences, most
protected first; without markers every packet is green). A table a run has no rows for (no
sources, no `interval_s`, no traffic generators, no `trace_flows`, no
`queue_trace_interval_s`, no `queue_delay_hist`) is empty.

Which counter holds what: `flows.drops` counts every loss of a flow's packets (RED's early
drops included); `queues.drops` counts buffer overflows only; RED/RIO's early drops, and
CoDel's drops at dequeue and PIE's early drops, are in `queues.early_drops_<colour>` (and
`flows.early_drops_<colour>`), RED's forced drops and the buffer's in `forced_drops_<colour>`;
`queues.all_drops` sums them.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def columns_markdown() -> str:
    """docs/columns.md."""
    parts = [PAGE_INTRO, "\n## Every table\n\n" + GRID_COLUMNS + "\n\n"
             "| column | unit | meaning |\n|---|---|---|\n"]
    parts += [f"| `{c}` | {u or '-'} | {_cell(m)} |\n" for c, (u, m) in KEYS.items()]
    for table in TABLES:
        rows, cols = COLUMNS[table]
        parts.append(f"\n## {table}\n\n{rows[0].upper() + rows[1:]}.\n\n"
                     "| column | unit | meaning |\n|---|---|---|\n")
        parts += [f"| `{c}` | {u or '-'} | {_cell(m)} |\n" for c, (u, m) in cols.items()]
    return "".join(parts)
