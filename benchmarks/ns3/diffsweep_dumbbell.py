"""diffsweep's standard builder ``dumbbell`` on the cells of run.sh, for the models diffsweep
has today, with the settings dumbbell.cc gives ns-3.44: writes results_diffsweep_dumbbell.csv
(one row per run, the columns of results_ns3_dumbbell.csv).

Run from the repository root:
    PYTHONPATH=python .venv/bin/python benchmarks/ns3/diffsweep_dumbbell.py

Models (run.sh's labels): ``newreno/fifo`` and ``newreno/red`` are ns-3's TcpNewReno with SACK
over FIFO and RED, here ``tcp="sack"`` (ns-2.35's Sack1: NewReno's window with SACK recovery)
over ``aqm="droptail"`` and ``aqm="red"`` (the builder's RED: ns-2.35's automatic thresholds
and q_weight in bytes mode, which run.sh passes to ns-3's RedQueueDisc and which this script
checks the builder still gives); ``newreno-nosack/fifo`` is ``tcp="newreno"``, and
``newreno/fifo-w20`` the first with a 20-packet window (``max_window_pkts=20``);
``newreno/codel`` is ``aqm="codel"`` (ns-3's defaults: target 5 ms, interval 100 ms),
``newreno/pie`` is ``aqm="pie"`` (ns-3's PieQueueDisc defaults: QueueDelayReference 15 ms,
Tupdate 15 ms, MaxBurstAllowance 150 ms, A 0.125, B 1.25), and ``cubic/fifo``,
``cubic/codel``, ``cubic/pie``, ``cubic+newreno/fifo`` are ``congestion_control="cubic"``
(ns-3.44's TcpCubic defaults) over SACK recovery, the mix alternating flow by flow as
dumbbell.cc does (``tcps[i % 2]``); ``newreno/fq_codel`` and ``cubic/fq_codel`` are
``aqm="fq_codel"`` (ns-3's FqCoDelQueueDisc defaults: Flows 1024, Quantum the device MTU
1500, DropBatchSize 64, the CoDel times above; MaxSize the buffer over all flow queues).
The bottleneck has ns-3's one-packet device queue (``device_queue_pkts=1``:
docs/model.md, "Device queue"), so that its limit, RED's average and CoDel's and PIE's
sojourns count the queue disc alone, as ns-3's. Every replica keeps its queueing-delay
histogram (``queue_delay_hist=True``): ``p95_sojourn_ms`` is ``queues.delay_p95_ms``,
``mean_sojourn_ms`` the histogram's mean with each bin at its middle; with the device queue
both sides' sojourn runs from the queue's enqueue to its dequeue into the device queue (the
engine's to a slot). The slot is the engine's default, one packet time at the fastest rate,
the access links' 100 Mb/s (0.0832 ms; until 2026-12-02 this script set it as ``slot_s``,
when the default was the bottleneck's packet time, 0.832 ms), and each flow's reverse
delay carries the transmission times ns-3 adds on links the engine does not model as links
(``UNMODELLED_TX_MS``, 0.124 ms). The SACK senders' NewReno halves the flight at a fast retransmit, as
ns-3.44's TcpNewReno over TcpSocketBase does (``ssthresh_from="flight"``, docs/model.md "SACK";
ns-2's half window otherwise). Every sender restarts its retransmission timer as ns-3.44's
TcpSocketBase does, on new ACKs only and not at the fast retransmit (``rto_restart="new_ack"``,
docs/model.md "SACK"; ns-2's restart at the fast retransmit otherwise): all of ns-3's TCPs here
(TcpNewReno, TcpCubic, TcpDctcp, SACK on or off) run over TcpSocketBase.
"""
from __future__ import annotations

import dataclasses
import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep import simulate
from diffsweep.scenario.dumbbell import dumbbell

HERE = Path(__file__).resolve().parent
#: run.sh's label -> the builder's tcp, aqm and any other parameter the model sets
MODELS = {"newreno/fifo": ("sack", "droptail", {}), "newreno/red": ("sack", "red", {}),
          "newreno-nosack/fifo": ("newreno", "droptail", {}),
          "newreno/fifo-w20": ("sack", "droptail", {"max_window_pkts": 20}),
          "newreno/codel": ("sack", "codel", {}),
          "newreno/pie": ("sack", "pie", {}),
          "cubic/fifo": ("sack", "droptail", {"congestion_control": "cubic"}),
          "cubic/codel": ("sack", "codel", {"congestion_control": "cubic"}),
          "cubic/pie": ("sack", "pie", {"congestion_control": "cubic"}),
          "newreno/fq_codel": ("sack", "fq_codel", {}),
          "cubic/fq_codel": ("sack", "fq_codel", {"congestion_control": "cubic"}),
          "newreno/fq_codel-ecn": ("sack", "fq_codel", {"ecn": True}),
          "cubic/fq_codel-ecn": ("sack", "fq_codel", {"congestion_control": "cubic", "ecn": True}),
          "cubic+newreno/fifo": ("sack", "droptail", {"congestion_control": "mix"}),
          # ECN (RFC 3168, model/tcp_ecn.h): the flows ECT, the queue marking (UseEcn)
          "newreno/red-ecn": ("sack", "red", {"ecn": True}),
          "newreno/codel-ecn": ("sack", "codel", {"ecn": True}),
          "newreno/pie-ecn": ("sack", "pie", {"ecn": True}),
          "cubic/codel-ecn": ("sack", "codel", {"congestion_control": "cubic", "ecn": True}),
          "cubic/pie-ecn": ("sack", "pie", {"congestion_control": "cubic", "ecn": True}),
          # DCTCP over step marking at K = 10 packets (run.sh --step_k_pkts=10)
          "dctcp/step": ("sack", "step", {"congestion_control": "dctcp", "step_k_pkts": 10})}
#: ns-3's names in the CSV's tcp and aqm columns, as dumbbell.cc writes them
NS3_NAMES = {"newreno/fifo": ("TcpNewReno", "FifoQueueDisc"),
             "newreno/red": ("TcpNewReno", "RedQueueDisc"),
             "newreno-nosack/fifo": ("TcpNewReno", "FifoQueueDisc"),
             "newreno/fifo-w20": ("TcpNewReno", "FifoQueueDisc"),
             "newreno/codel": ("TcpNewReno", "CoDelQueueDisc"),
             "newreno/pie": ("TcpNewReno", "PieQueueDisc"),
             "cubic/fifo": ("TcpCubic", "FifoQueueDisc"),
             "cubic/codel": ("TcpCubic", "CoDelQueueDisc"),
             "cubic/pie": ("TcpCubic", "PieQueueDisc"),
             "newreno/fq_codel": ("TcpNewReno", "FqCoDelQueueDisc"),
             "cubic/fq_codel": ("TcpCubic", "FqCoDelQueueDisc"),
             "newreno/fq_codel-ecn": ("TcpNewReno", "FqCoDelQueueDisc"),
             "cubic/fq_codel-ecn": ("TcpCubic", "FqCoDelQueueDisc"),
             "cubic+newreno/fifo": ("TcpCubic+TcpNewReno", "FifoQueueDisc"),
             "newreno/red-ecn": ("TcpNewReno", "RedQueueDisc"),
             "newreno/codel-ecn": ("TcpNewReno", "CoDelQueueDisc"),
             "newreno/pie-ecn": ("TcpNewReno", "PieQueueDisc"),
             "cubic/codel-ecn": ("TcpCubic", "CoDelQueueDisc"),
             "cubic/pie-ecn": ("TcpCubic", "PieQueueDisc"),
             "dctcp/step": ("TcpDctcp", "RedQueueDisc")}
CELLS = ((1, "40"), (8, "40"), (32, "40"), (8, "100"), (8, "20-100"), (32, "20-100"))  # run.sh
SEEDS = range(1, 6)
DUR, WARM = 35.0, 5.0
RATE_BPS = 10e6
#: the transmission times ns-3 adds to a round trip on links the engine does not model as
#: links: the egress link's (a 1042-B data packet at 100 Mb/s) and the ACK's on the three links
#: back (42 B at 100, 10 and 100 Mb/s), added to each flow's reverse delay (uncongested: a
#: constant delay)
UNMODELLED_TX_MS = (1042 * 8 / 100e6 + 2 * 42 * 8 / 100e6 + 42 * 8 / RATE_BPS) * 1e3
BUFFER_PKTS = 100
#: run.sh's COMMON, in the builder's names
COMMON = dict(bottleneck_bps=RATE_BPS, bottleneck_delay_ms=10.0, access_bps=100e6,
              buffer_pkts=BUFFER_PKTS, access_buffer_pkts=100, segment_bytes=1000,
              header_bytes=40, init_window_pkts=10, delayed_ack=False, max_window_pkts=1000,
              min_rto_s=0.2, tcp_tick_s=0.01, duration_s=DUR, warmup_s=WARM,
              # ns-3's bottleneck device: TxQueue MaxSize 1p (dumbbell.cc) under the queue disc
              device_queue_pkts=1)
#: run.sh's RED arguments (--red_min_th 3125 B, --red_max_th 9375 B, --red_qw 0.000399920),
#: in the builder's mean-size packets of 500 B
RUN_SH_RED = {"red_min_th": 6.25, "red_max_th": 18.75, "red_w_q_used": 0.000399920}


def rtt_kw(rtt: str) -> dict:
    if "-" in rtt:
        lo, hi = (float(x) for x in rtt.split("-"))
        return {"rtt_min_ms": lo, "rtt_max_ms": hi}
    return {"rtt_ms": float(rtt)}


def scenarios():
    scs, keys = [], []
    for model, (tcp, aqm, extra) in MODELS.items():
        for n, rtt in CELLS:
            for seed in SEEDS:
                # ns-3's TcpSocketBase restarts the timer on new ACKs only (every model here)
                kw = {**COMMON, **extra, "rto_restart": "new_ack"}
                if tcp == "sack":  # ns-3's SACK senders halve the flight at a fast retransmit
                    kw["ssthresh_from"] = "flight"
                if kw.get("congestion_control") == "mix":  # dumbbell.cc: tcps[i % 2]
                    kw["congestion_control"] = [("cubic", "newreno")[i % 2] for i in range(n)]
                sc = dumbbell(tcp=tcp, aqm=aqm, n_flows=n, seed=seed, queue_delay_hist=True,
                              **rtt_kw(rtt), **kw)
                if aqm == "red":
                    for k, v in RUN_SH_RED.items():
                        if not math.isclose(sc.params[k], v, rel_tol=1e-6):
                            raise SystemExit(f"the builder's RED {k} is {sc.params[k]}, run.sh "
                                             f"gives ns-3 {v}: update run.sh's RED")
                sc = dataclasses.replace(sc, flows=tuple(
                    dataclasses.replace(f, reverse_delay_ms=f.reverse_delay_ms + UNMODELLED_TX_MS)
                    for f in sc.flows))
                scs.append(sc)
                keys.append((model, n, rtt, seed))
    return scs, keys


def run() -> tuple[pd.DataFrame, float]:
    scs, keys = scenarios()
    t0 = time.time()
    res = simulate(scs, [k[3] for k in keys], backend="cpu")
    wall = time.time() - t0
    fl = res.flows
    q = res.queues[res.queues["link"] == 0].set_index("replica")
    rep = res.replicas.set_index("replica")
    h = res.queue_delay
    h = h[h["link"] == 0]
    mid = (h["wait_lo_ms"] + h["wait_hi_ms"]) / 2 * h["pkts"]
    sojourn_n = h.groupby("replica")["pkts"].sum()
    sojourn_mean = mid.groupby(h["replica"]).sum() / sojourn_n
    rows = []
    for r, (model, n, rtt, seed) in enumerate(keys):
        f = fl[fl["replica"] == r]
        measured = rep.loc[r, "measured_s"]
        mbps = f["goodput_bps"].to_numpy() / 1e6
        busy = q.loc[r, "bytes_departed"] * 8 / RATE_BPS / measured
        arrivals, drops = int(q.loc[r, "arrivals"]), int(q.loc[r, "all_drops"])
        marks = int(q.loc[r, "marks"])
        tcp, aqm = NS3_NAMES[model]
        rows.append({
            "model": model, "tcp": tcp, "aqm": aqm, "ecn": int("ecn" in model or model == "dctcp/step"), "n_flows": n, "rtt_ms": rtt,
            "seed": seed, "bottleneck_mbps": RATE_BPS / 1e6, "buffer_pkts": BUFFER_PKTS,
            "dur_s": DUR, "warm_s": WARM, "total_mbps": mbps.sum(),
            "flow_mbps": ";".join(f"{x:.6g}" for x in mbps),
            "jain": mbps.sum() ** 2 / (n * (mbps ** 2).sum()) if mbps.any() else np.nan,
            "min_max": mbps.min() / mbps.max() if mbps.max() > 0 else np.nan,
            "sent_pkts": int(f["pkts_sent"].sum()), "rexmit_pkts": int(f["retransmits"].sum()),
            "timeouts": int(f["timeouts"].sum()), "bneck_arrivals": arrivals,
            "bneck_drops": drops, "bneck_marks": marks,  # CE marks (queues.marks)
            "drop_pct": 100 * drops / arrivals if arrivals else np.nan,
            "mark_pct": 100 * marks / arrivals if arrivals else np.nan,
            # the packets waiting, the one on the wire left out (queues.mean_waiting_pkts:
            # ns-2's queue-monitor integral); ns-3's count is its disc's plus its device
            # queue's (dumbbell.cc)
            "mean_waiting_pkts": q.loc[r, "mean_waiting_pkts"],
            # the engine has no queue disc / device queue split
            "mean_disc_pkts": np.nan, "mean_sojourn_ms": sojourn_mean[r],
            "p95_sojourn_ms": q.loc[r, "delay_p95_ms"], "sojourn_samples": sojourn_n[r],
            "bneck_util": busy,
            # the batch's wall time shared over its replicas (one simulate call, CPU backend)
            "wall_s": wall / len(keys)})
    return pd.DataFrame(rows), wall


def main() -> int:
    ours, wall = run()
    out = HERE / "results_diffsweep_dumbbell.csv"
    ours.to_csv(out, index=False, float_format="%.6g")
    print(f"{len(ours)} replicas in {wall:.1f} s on the CPU backend -> {out.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
