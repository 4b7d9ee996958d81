"""tables: one engine batch's output arrays as the tables of its finished replicas (replicas,
flows, queues, sources, intervals, transfers, traffic, cwnd_trace, queue_trace; docs/columns.md), and the
empty tables of a call stopped before any replica finished.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.core import qdelay
from diffsweep.core.results import Results
from diffsweep.engine.pack import Packed
from diffsweep.engine.rounding import rtp_run_ms
from diffsweep.scenario import COLOURS, Scenario


def empty_results(backend: str) -> Results:
    """The tables of a call stopped before any of its replicas finished (no rows)."""
    cols = {"replicas": ["replica"], "flows": ["replica", "flow"], "queues": ["replica", "link"],
            "sources": ["replica", "source"], "intervals": ["replica", "flow", "interval"],
            "transfers": ["replica", "traffic"], "traffic": ["replica", "traffic"],
            "cwnd_trace": ["replica", "flow", "t_s", "cwnd_pkts"],
            "queue_trace": QUEUE_TRACE_COLUMNS, "queue_delay": QUEUE_DELAY_COLUMNS}
    return Results(**{k: pd.DataFrame(columns=v) for k, v in cols.items()},
                   meta={"backend": backend, "n_replicas": 0})


def batch_tables(p: Packed, out: dict, scs: list[Scenario], idx: list[int]) -> dict:
    """The tables of the replicas of a batch ``p`` (rows ``idx`` of the call: their ``replica``
    ids) from the engine's output arrays ``out``; ``scs``: their scenarios."""
    a = p.arrays
    R = len(scs)
    slot = p.slot_s
    end = a["end_slot"].astype(float)
    warm = a["warmup_slot"].astype(float)
    measured = (end - warm) * slot
    rep = np.asarray(idx)

    rows_f = [(r, f) for r, sc in enumerate(scs) for f in range(len(sc.flows))]
    fr = np.array([r for r, _ in rows_f], dtype=int)
    ff = np.array([f for _, f in rows_f], dtype=int)
    delivered = out["flow_delivered_bytes"][fr, ff]
    samples = out["flow_rtt_samples"][fr, ff]
    with np.errstate(invalid="ignore", divide="ignore"):
        rtt_mean = out["flow_rtt_sum_slots"][fr, ff] / samples * slot[fr]
        rto_mean = out["flow_rto_sum_slots"][fr, ff] / samples * slot[fr]
    finish = out["flow_finish_slot"][fr, ff].astype(float)
    flows = pd.DataFrame({
        "replica": rep[fr], "flow": ff,
        "variant": [scs[r].flows[f].variant for r, f in rows_f],
        "rtp_ms": [scs[r].flow_rtp_ms(f) for r, f in rows_f],
        # the round trip as it ran, in whole slots (docs/model.md, "Time";
        # diffsweep.engine.rounding)
        "rtp_ms_run": rtp_run_ms(a, slot)[fr, ff],
        "segment_bytes": a["flow_payload_bytes"][fr, ff].astype(np.int64),
        "header_bytes": (a["flow_wire_bytes"][fr, ff]
                         - a["flow_payload_bytes"][fr, ff]).astype(np.int64),
        "max_window_pkts": a["flow_max_window"][fr, ff].astype(np.int64),
        "delivered_bytes": delivered,
        "goodput_bps": delivered * 8.0 / measured[fr],
        "pkts_sent": out["flow_pkts_sent"][fr, ff],
        "retransmits": out["flow_retransmits"][fr, ff],
        "timeouts": out["flow_timeouts"][fr, ff],
        "fast_retransmits": out["flow_fast_retransmits"][fr, ff],
        "drops": out["flow_drops"][fr, ff],
        "rtt_mean_s": rtt_mean, "rto_mean_s": rto_mean,
        "finish_s": np.where(finish >= 0, finish * slot[fr], np.nan),
    })
    # The aggregate (edge conditioner) a flow belongs to: "" for none; a flow conditioned in
    # two domains belongs to the conditioner it meets first.
    member = []
    for sc in scs:
        m: dict[int, tuple[int, str]] = {}
        for mk in sc.markers:
            for i in mk.flows:
                route = sc.flows[i].route
                at = route.index(mk.link) if mk.link in route else len(route)
                if i not in m or at < m[i][0]:
                    m[i] = (at, mk.name)
        member.append({i: name for i, (_, name) in m.items()})
    flows["aggregate"] = [member[r].get(f, "") for r, f in rows_f]
    if any(fl.telnet_interval_s is not None for sc in scs for fl in sc.flows):
        # Telnet-like flows: each segment's delay from its write to its delivery (the engine
        # sums them less the constant delays after the last link and the access delay).
        n_app = out["flow_app_delivered"][fr, ff]
        post_s = np.array([scs[r].after_last_link_ms(scs[r].flows[f]) / 1e3 for r, f in rows_f])
        total_s = out["flow_app_delay_sum_slots"][fr, ff] * slot[fr] + n_app * post_s
        flows["app_segments"] = n_app
        flows["app_delay_sum_s"] = total_s
        with np.errstate(invalid="ignore", divide="ignore"):
            flows["app_delay_mean_s"] = np.where(n_app > 0, total_s / n_app, np.nan)
    # DiffServ colours (green, yellow, red): packets into the network after marking, early
    # (RED) and forced (RED beyond max_th, or the buffer) drops.
    for k, col in enumerate(COLOURS):
        flows[f"pkts_{col}"] = out["flow_colour_pkts"][fr, ff, k]
    for kind in ("early", "forced"):
        for k, col in enumerate(COLOURS):
            flows[f"{kind}_drops_{col}"] = out[f"flow_{kind}_drops"][fr, ff, k]
    # ECN: its packets CE-marked at queues, and the window reductions ECE made (RFC 3168 6.1.2)
    flows["ce_marks"] = out["flow_ce_marks"][fr, ff]
    flows["ecn_reductions"] = out["flow_ecn_reductions"][fr, ff]
    goodput = np.zeros(R)
    np.add.at(goodput, fr, flows["goodput_bps"].to_numpy())
    replicas = pd.DataFrame({
        "replica": rep, "slot_s": slot, "duration_s": end * slot, "warmup_s": warm * slot,
        "measured_s": measured, "n_flows": np.array([sc.n_flows for sc in scs], dtype=np.int64),
        "tcp_goodput_bps": goodput, "delay_rounding_ms": p.delay_rounding_ms,
        "slots_run": out["slots_run"],
    })

    rows_q = [(r, l, c) for r, sc in enumerate(scs) for l, link in enumerate(sc.links)
              for c in range(len(link.classes))]
    qr, ql, qc = (np.array(v, dtype=int) for v in zip(*rows_q))
    msl = measured[qr] / slot[qr]
    queues = pd.DataFrame({
        "replica": rep[qr], "link": ql, "cls_index": qc,
        "cls": [scs[r].links[l].classes[c].name for r, l, c in rows_q],
        "rate_bps": [scs[r].links[l].rate_bps for r, l, c in rows_q],
        "arrivals": out["q_arrivals"][qr, ql, qc], "departures": out["q_departures"][qr, ql, qc],
        "drops": out["q_drops"][qr, ql, qc], "random_drops": out["q_random_drops"][qr, ql, qc],
        "bytes_departed": out["q_bytes_departed"][qr, ql, qc],
        "mean_queue_pkts": out["q_pkt_slots"][qr, ql, qc] / msl,
        "mean_queue_bytes": out["q_byte_slots"][qr, ql, qc] / msl,
        # ns-2's queue monitor's integral: the packets waiting, the one on the wire left out,
        # each from the middle of its arrival slot to its start (engine/queue_side.h:
        # start_phase)
        "mean_waiting_pkts": (out["q_pkt_slots"][qr, ql, qc]
                              + out["q_wait_adj_slots"][qr, ql, qc]) / msl,
        "max_delay_s": out["q_max_delay_slots"][qr, ql, qc] * slot[qr],
        "aqm": [scs[r].links[l].classes[c].aqm for r, l, c in rows_q],
    })
    for k, col in enumerate(COLOURS):
        queues[f"arrivals_{col}"] = out["q_colour_arrivals"][qr, ql, qc, k]
    for kind in ("early", "forced"):
        for k, col in enumerate(COLOURS):
            queues[f"{kind}_drops_{col}"] = out[f"q_{kind}_drops"][qr, ql, qc, k]
    # ECN (model/tcp_ecn.h): CE marks the class made instead of a drop, per colour and in all
    for k, col in enumerate(COLOURS):
        queues[f"marks_{col}"] = out["q_marks"][qr, ql, qc, k]
    queues["marks"] = out["q_marks"][qr, ql, qc].sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        queues["mark_rate"] = np.where(queues["arrivals"] > 0,
                                       queues["marks"] / queues["arrivals"], np.nan)
    # Every packet the class discarded: RED's early drops, its forced drops and the buffer's
    # overflows, which the engine counts as forced drops too (queue_side.h: buffer_drop), so
    # the sum over colours of early + forced holds each discard once. (A full ring of an
    # unlimited class is counted in drops alone, but it flags the replica's overflow: an
    # EngineError, execution.py.) The link's random losses are not the class's: random_drops.
    queues["all_drops"] = (out["q_early_drops"][qr, ql, qc].sum(axis=-1)
                           + out["q_forced_drops"][qr, ql, qc].sum(axis=-1))
    is_red = queues["aqm"].isin(("red", "rio-c", "rio-d", "wred")).to_numpy()
    for k, col in enumerate(COLOURS):  # time average of the RED average governing the colour
        avg = out["q_red_avg_slots"][qr, ql, qc, k] / msl
        queues[f"red_avg_{col}"] = np.where(is_red, avg, np.nan)
    # percentiles of the waits (Scenario.queue_delay_hist; NaN where not recorded)
    kept = (a["qdelay_hist"][qr] != 0) if p.shape.get("qdelay_bins", 0) else np.zeros(len(qr), bool)
    hist = out["q_delay_hist"][qr, ql, qc] if kept.any() else None
    for q, name in ((0.5, "delay_p50_ms"), (0.95, "delay_p95_ms"), (0.99, "delay_p99_ms")):
        v = np.full(len(qr), np.nan)
        if hist is not None:
            top = out["q_max_delay_slots"][qr, ql, qc][kept]
            v[kept] = qdelay.quantiles_slots(hist[kept], q, top) * slot[qr][kept] * 1e3
        queues[name] = v

    rows_s = [(r, s) for r, sc in enumerate(scs) for s in range(len(sc.sources))]
    if rows_s:
        sr, ss = (np.array(v, dtype=int) for v in zip(*rows_s))
        on = out["src_on_slots"][sr, ss] * slot[sr]
        bursts = out["src_bursts"][sr, ss]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_on = np.where(bursts > 0, on / bursts, np.nan)
        sources = pd.DataFrame({
            "replica": rep[sr], "source": ss, "name": [scs[r].sources[s].name for r, s in rows_s],
            "pkts_emitted": out["src_pkts"][sr, ss], "bytes_emitted": out["src_bytes"][sr, ss],
            "on_fraction": on / measured[sr], "bursts": bursts, "mean_on_s": mean_on,
            "delivered_bytes": out["src_delivered_bytes"][sr, ss],
            "throughput_bps": out["src_delivered_bytes"][sr, ss] * 8.0 / measured[sr],
        })
    else:
        sources = pd.DataFrame(columns=["replica", "source", "name", "pkts_emitted",
                                        "bytes_emitted", "on_fraction", "bursts", "mean_on_s",
                                        "delivered_bytes", "throughput_bps"])

    rows_i = []
    for r, sc in enumerate(scs):
        ivs = int(a["interval_slots"][r])
        if ivs <= 0:
            continue
        for k in range(p.shape["max_intervals"]):
            start, stop = k * ivs, (k + 1) * ivs
            if start >= a["warmup_slot"][r] and stop <= a["end_slot"][r]:
                for f in range(len(sc.flows)):
                    rows_i.append((r, f, k, start, ivs))
    if rows_i:
        ir, fi, ki, st, ln = (np.array(v) for v in zip(*rows_i))
        intervals = pd.DataFrame({
            "replica": rep[ir], "flow": fi, "interval": ki, "t_start_s": st * slot[ir],
            "goodput_bps": out["interval_bytes"][ir, fi, ki] * 8.0 / (ln * slot[ir]),
        })
    else:
        intervals = pd.DataFrame(columns=["replica", "flow", "interval", "t_start_s",
                                          "goodput_bps"])
    transfers, traffic = _traffic_tables(out, scs, rep, slot)
    return {"replicas": replicas, "flows": flows, "queues": queues, "sources": sources,
            "intervals": intervals, "transfers": transfers, "traffic": traffic,
            "cwnd_trace": _trace_table(a, out, scs, rep, slot),
            "queue_trace": _queue_trace_table(a, out, scs, rep, slot),
            "queue_delay": _queue_delay_table(p, out, scs, rep)}


def _trace_table(a: dict, out: dict, scs: list[Scenario], rep: np.ndarray,
                 slot: np.ndarray) -> pd.DataFrame:
    """One row per traced flow and sample: ``t_s`` (k x trace_interval_s) and ``cwnd_pkts``,
    the window in force at that time (engine/flow_side.h: trace_until)."""
    parts = []
    for r, sc in enumerate(scs):
        n = int(a["trace_samples"][r])
        if n <= 0:
            continue
        t = np.arange(n) * a["trace_interval_slots"][r] * slot[r]
        for j, f in enumerate(sc.trace_flows):
            parts.append(pd.DataFrame({"replica": rep[r], "flow": f, "t_s": t,
                                       "cwnd_pkts": out["trace_cwnd"][r, :n, j].astype(float)}))
    if not parts:
        return pd.DataFrame(columns=["replica", "flow", "t_s", "cwnd_pkts"])
    return pd.concat(parts, ignore_index=True)


QUEUE_TRACE_COLUMNS = ["replica", "link", "cls_index", "cls", "t_s", "queue_pkts", "queue_bytes",
                       "red_avg"]


def _queue_trace_table(a: dict, out: dict, scs: list[Scenario], rep: np.ndarray,
                       slot: np.ndarray) -> pd.DataFrame:
    """One row per traced (link, class) and sample: ``t_s`` (k x queue_trace_interval_s) and
    the queue at the start of slot ceil(t_s / slot_s) (engine/queue_side.h: queue_trace_until)."""
    parts = []
    for r, sc in enumerate(scs):
        n = int(a["qtrace_samples"][r])
        if n <= 0:
            continue
        t = np.arange(n) * a["qtrace_interval_slots"][r] * slot[r]
        links = range(len(sc.links)) if sc.queue_trace_links is None else sc.queue_trace_links
        for j, l in enumerate(links):
            for c, q in enumerate(sc.links[l].classes):
                parts.append(pd.DataFrame({
                    "replica": rep[r], "link": l, "cls_index": c, "cls": q.name, "t_s": t,
                    "queue_pkts": out["qtrace_pkts"][r, :n, j, c].astype(np.int64),
                    "queue_bytes": out["qtrace_bytes"][r, :n, j, c],
                    "red_avg": out["qtrace_red_avg"][r, :n, j, c].astype(float)}))
    if not parts:
        return pd.DataFrame(columns=QUEUE_TRACE_COLUMNS)
    return pd.concat(parts, ignore_index=True)


QUEUE_DELAY_COLUMNS = ["replica", "link", "cls_index", "cls", "bin", "wait_lo_ms", "wait_hi_ms",
                       "pkts"]


def _queue_delay_table(p: Packed, out: dict, scs: list[Scenario],
                       rep: np.ndarray) -> pd.DataFrame:
    """One row per (link, class, non-empty bin) of a replica with ``queue_delay_hist``: the
    departures whose wait fell in [wait_lo_ms, wait_hi_ms) (core/qdelay.py)."""
    if not p.shape.get("qdelay_bins", 0):
        return pd.DataFrame(columns=QUEUE_DELAY_COLUMNS)
    lo, hi = qdelay.bin_edges()
    parts = []
    for r, sc in enumerate(scs):
        if not p.arrays["qdelay_hist"][r]:
            continue
        ms = p.slot_s[r] * 1e3
        for l, link in enumerate(sc.links):
            for c, q in enumerate(link.classes):
                h = out["q_delay_hist"][r, l, c]
                b = np.flatnonzero(h)
                parts.append(pd.DataFrame({
                    "replica": rep[r], "link": l, "cls_index": c, "cls": q.name, "bin": b,
                    "wait_lo_ms": lo[b] * ms, "wait_hi_ms": hi[b] * ms, "pkts": h[b]}))
    if not parts:
        return pd.DataFrame(columns=QUEUE_DELAY_COLUMNS)
    return pd.concat(parts, ignore_index=True)


TRANSFER_COLUMNS = ["replica", "traffic", "slot", "cls", "size_pkts", "start_s", "end_s",
                    "completion_s", "first_s",
                    "pkts_sent", "retransmits", "timeouts", "drops", "early_drops", "pkts_red"]
TRAFFIC_COLUMNS = ["replica", "traffic", "cls", "kind", "pool", "started", "completed",
                   "unfinished", "refused", "records_lost", "peak_active"]


def _traffic_tables(out: dict, scs: list[Scenario], rep: np.ndarray, slot: np.ndarray):
    """The transfer records (one row per transfer, started before the end) and the per-generator
    counts. ``start_s`` is the arrival (the connection opens at the sender); ``end_s`` is when
    the receiver has every packet: the engine's slot of the last departure from the last link,
    plus the constant delays after it (last link, egress) and the access delay, which the
    engine folds into the sender's clock (docs/model.md, "Delays"); NaN if still running."""
    rows_g = [(r, g) for r, sc in enumerate(scs) for g in range(len(sc.traffic))]
    if not rows_g:
        return pd.DataFrame(columns=TRANSFER_COLUMNS), pd.DataFrame(columns=TRAFFIC_COLUMNS)
    gr, gg = (np.array(v, dtype=int) for v in zip(*rows_g))
    started, completed = out["gen_started"][gr, gg], out["gen_completed"][gr, gg]
    traffic = pd.DataFrame({
        "replica": rep[gr], "traffic": [scs[r].traffic[g].name for r, g in rows_g],
        "cls": [scs[r].traffic[g].flow.cls for r, g in rows_g],
        "kind": [scs[r].traffic[g].kind for r, g in rows_g],
        "pool": [scs[r].traffic[g].pool for r, g in rows_g],
        "started": started, "completed": completed, "unfinished": started - completed,
        "refused": out["gen_refused"][gr, gg], "records_lost": out["gen_records_lost"][gr, gg],
        "peak_active": out["gen_peak_active"][gr, gg],
    })
    n = out["n_records"].astype(np.int64)
    tr_r = np.repeat(np.arange(len(scs)), n)
    tr_k = np.concatenate([np.arange(k) for k in n]) if len(n) else np.zeros(0, dtype=int)
    g = out["tr_gen"][tr_r, tr_k].astype(int)
    # delays after the last link of each generator's route, per replica: seconds
    after = {(r, j): sc.after_last_link_ms(t.flow) / 1e3
             for r, sc in enumerate(scs) for j, t in enumerate(sc.traffic)}
    post = np.array([after[(r, j)] for r, j in zip(tr_r, g)], dtype=float)
    start = out["tr_start_slot"][tr_r, tr_k] * slot[tr_r]
    end_slot = out["tr_end_slot"][tr_r, tr_k]
    end = np.where(end_slot >= 0, end_slot * slot[tr_r] + post, np.nan)
    first_slot = out["tr_first_slot"][tr_r, tr_k]
    first = np.where(first_slot >= 0, first_slot * slot[tr_r] + post, np.nan)
    transfers = pd.DataFrame({
        "replica": rep[tr_r], "traffic": [scs[r].traffic[j].name for r, j in zip(tr_r, g)],
        "slot": out["tr_slot"][tr_r, tr_k].astype(np.int64),
        "cls": [scs[r].traffic[j].flow.cls for r, j in zip(tr_r, g)],
        "size_pkts": out["tr_size_pkts"][tr_r, tr_k].astype(np.int64),
        "start_s": start, "end_s": end, "completion_s": end - start, "first_s": first,
        **{c: out[f"tr_{c}"][tr_r, tr_k].astype(np.int64)
           for c in ("pkts_sent", "retransmits", "timeouts", "drops", "early_drops", "pkts_red")},
    })
    return transfers, traffic
