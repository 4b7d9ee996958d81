"""One agreement table for the five papers, the standard dumbbell and the standard parking lot:
diffsweep beside ns-2.35, from the recorded CSVs.

    PYTHONPATH=python python benchmarks/ns2/agreement.py [--out docs/ns2-agreement.md]

Reads, per paper, the ns-2.35 results that its folder's run.sh recorded and diffsweep's results
that its diffsweep_*.py recorded (nothing is simulated here; a missing file is named with the
script that writes it), and writes a Markdown file with, per paper, metric and cell: both
means with 95% confidence intervals over seeds (Student t), the relative difference
(diffsweep - ns-2) / |ns-2|, and whether the two intervals overlap; then a summary line per
paper over its primary cells (share within 5%, 10%, 20%, and overlapping). Variant rows (other
TCP settings or orders of events, kept for the gap analysis) are listed after each paper's
table and are not in its summary. The hand-written analysis of the largest gaps is
docs/ns2-gaps.md.

Cells, pairings and unit conversions are in the ``load_*`` functions below, one per paper.
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep.analysis.stats import t_quantile

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
COMMAND = "PYTHONPATH=python python benchmarks/ns2/agreement.py"
THRESHOLDS = (0.05, 0.10, 0.20)



def t975(df: int) -> float:
    return t_quantile(0.975, df) if df >= 1 else math.nan


@dataclass
class Cell:
    """One comparison: the per-seed (per-run) values of both simulators for one metric in one
    cell of one paper's grid."""
    paper: str
    metric: str
    cell: str
    ours: np.ndarray
    ns2: np.ndarray
    primary: bool = True
    note: str = ""

    def stats(self) -> dict:
        mo, ho, no = mean_ci(self.ours)
        mn, hn, nn = mean_ci(self.ns2)
        rel = (mo - mn) / abs(mn) if mn != 0 and not math.isnan(mn) else math.nan
        overlap = (mo - ho <= mn + hn) and (mn - hn <= mo + ho)
        return {"paper": self.paper, "metric": self.metric, "cell": self.cell,
                "primary": self.primary, "n_ours": no, "n_ns2": nn, "ours": mo, "ours_ci": ho,
                "ns2": mn, "ns2_ci": hn, "rel_diff": rel, "overlap": bool(overlap),
                "note": self.note}


def mean_ci(x) -> tuple[float, float, int]:
    """Mean and 95% CI half-width over the values (0 for identical values, NaN for one)."""
    x = np.asarray(x, dtype=float)
    x = x[~np.isnan(x)]
    n = len(x)
    if n == 0:
        return math.nan, math.nan, 0
    if n == 1:
        return float(x[0]), math.nan, 1
    return float(x.mean()), float(t975(n - 1) * x.std(ddof=1) / math.sqrt(n)), n


class Missing(Exception):
    pass


def read(path: Path, writer: str) -> pd.DataFrame:
    if not path.is_file():
        raise Missing(f"{path.name} is missing: run {writer}")
    return pd.read_csv(path)


@dataclass
class Paper:
    key: str
    title: str
    pairing: str
    sources: list[str] = field(default_factory=list)  # the CSVs read, filled by read()
    cells: list[Cell] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)  # extra Markdown after the tables

    def read(self, root: Path, rel: str, writer: str) -> pd.DataFrame:
        """The CSV ``rel`` below the benchmarks/ns2 folder ``root``, noted as a source."""
        self.sources.append(f"benchmarks/ns2/{rel}")
        return read(root / rel, writer)


# ----------------------------------------------------------------------------------------------
# Kaur & Vin: single flow (K2) and 64 flows (K5)

def load_kaur_vin(d: Path) -> Paper:
    p = Paper("kaur-vin", "Kaur & Vin (EF priority and TCP)",
              "K2 (one flow, RTP 8 ms, 20 seeds): ns-2.35 `def` timers, efcorr 0, beside "
              "diffsweep with ns-2.35's Reno defaults (`ns2def`: bugFix_ and limited "
              "transmit on; variant rows: the K2 sweep's plain Reno). U = in-order goodput on "
              "the wire / (0.7 x 40 Mb/s) (CBR, EF) in both. K5 (64 equal-RTP flows, T_on 1 ms, "
              "ns-2 tcpcfg ds, efcorr 1, all start at 0): ns-2.35 `overhead_ 0` beside "
              "diffsweep's default (random order of same-slot arrivals), and ns-2.35 "
              "`overhead_ 0.1 ms` beside diffsweep's flow-index order with 0.1 ms send jitter "
              "(the same mechanism); variants: flow-index order without jitter and with 1 ms. "
              "diffsweep's K5 U (payload / link rate) is converted to ns-2's (wire / capacity "
              "left to TCP): x 576/536, / 0.7 with EF.")
    k2n = p.read(d, "results_ns2_k2_extra.csv", "benchmarks/ns2/run.sh extra")
    k2n = k2n[(k2n["timers"] == "def") & (k2n["efcorr"] == 0)]
    k2d = p.read(d, "results_diffsweep_k2.csv", "benchmarks/ns2/diffsweep_k2.py")
    tons = sorted(k2n.loc[k2n["network"] == "ef", "ton_ms"].unique())
    loss_rows = []
    for cfg, primary in (("ns2def", True), ("plain", False)):
        ours = k2d[k2d["tcpcfg"] == cfg]
        oc = ours[ours["network"] == "cbr"].set_index("seed")["U"]
        nc = k2n[k2n["network"] == "cbr"].set_index("seed")["U_good"]
        tag = "" if primary else " [plain Reno]"
        for metric, col_o, col_n in (("U", "U", "U_good"), ("timeouts/run", "timeouts", "timeouts")):
            p.cells.append(Cell(p.key, f"K2 {metric}", "CBR" + tag,
                                ours.loc[ours["network"] == "cbr", col_o].to_numpy(),
                                k2n.loc[k2n["network"] == "cbr", col_n].to_numpy(), primary))
        for ton in tons:
            eo = ours[(ours["network"] == "ef") & np.isclose(ours["ton_ms"], ton)]
            en = k2n[(k2n["network"] == "ef") & np.isclose(k2n["ton_ms"], ton)]
            for metric, col_o, col_n in (("U", "U", "U_good"),
                                         ("timeouts/run", "timeouts", "timeouts")):
                p.cells.append(Cell(p.key, f"K2 {metric}", f"EF T_on {ton:g} ms" + tag,
                                    eo[col_o].to_numpy(), en[col_n].to_numpy(), primary))
            lo = (eo["seed"].map(oc) - eo["U"].to_numpy()).to_numpy()
            ln = (en["seed"].map(nc) - en["U_good"].to_numpy()).to_numpy()
            loss_rows.append((cfg, ton, mean_ci(lo), mean_ci(ln)))
    p.extra += ["", "Derived: the loss U_CBR - U_EF (seed-paired; Kaur & Vin's Fig. 2a). Not in "
                "the summary: a difference of two U near 1, so its relative difference is "
                "not meaningful; the absolute difference is shown.", "",
                "| diffsweep TCP | T_on ms | diffsweep loss | ns-2.35 loss | diffsweep - ns-2 | "
                "overlap |", "|---|---|---|---|---|---|"]
    for cfg, ton, (mo, ho, _), (mn, hn, _) in loss_rows:
        ov = "yes" if (mo - ho <= mn + hn and mn - hn <= mo + ho) else "**no**"
        p.extra.append(f"| {cfg} | {ton:g} | {mo:+.4f} ± {ho:.4f} | {mn:+.4f} ± {hn:.4f} | "
                       f"{mo - mn:+.4f} | {ov} |")

    k5n = p.read(d, "results_ns2_k5.csv", "benchmarks/ns2/run_k5.sh")
    k5n = k5n[(k5n["tcpcfg"] == "ds") & (k5n["efcorr"] == 1) & (k5n["start_s"] == 0)
              & (k5n["n_flows"] == 64) & np.isclose(k5n["ton_ms"], 1.0)]
    k5d = p.read(d, "results_diffsweep_k5.csv", "benchmarks/ns2/diffsweep_k5.py")
    _k5_cells(p, k5d, k5n, [("random", 0.0, 0.0, True), ("index", 1e-4, 1e-4, True),
                            ("index", 0.0, 0.0, False), ("index", 1e-3, 1e-4, False)])
    return p


def _k5_cells(p: Paper, k5d, k5n, pairs) -> None:
    """The 64-flow cells (M, Jain, U) of each network and (diffsweep order, send jitter,
    ns-2 overhead_, primary) pair; diffsweep's U converted to ns-2's (x 576/536, / 0.7 with
    EF)."""
    k5d = k5d.assign(U_wire=k5d["U"] * 576 / 536 / np.where(k5d["network"] == "TCP+EF", 0.7, 1.0))
    for net_d, net_n in (("TCP-only", "none"), ("TCP+EF", "ef")):
        for tie, jit, ovh, primary in pairs:
            o = k5d[(k5d["network"] == net_d) & (k5d["tie_break"] == tie)
                    & np.isclose(k5d["send_jitter_s"], jit)]
            n = k5n[(k5n["network"] == net_n) & np.isclose(k5n["overhead_s"], ovh)]
            label = (f"{net_d}, diffsweep {tie} order"
                     + (f" + {jit * 1e3:g} ms jitter" if jit else "")
                     + f" / ns-2 overhead_ {ovh * 1e3:g} ms")
            for metric, co, cn in (("M", "M", "M"), ("Jain", "jain", "jain"), ("U", "U_wire", "U")):
                p.cells.append(Cell(p.key, f"K5 {metric}", label, o[co].to_numpy(),
                                    n[cn].to_numpy(), primary))


def load_kaur_vin_sack(d: Path) -> Paper:
    p = Paper("kaur-vin-sack", "Kaur & Vin under TCP SACK (ns-2.35 Agent/TCP/Sack1)",
              "Issue 44: run_sack.sh runs kaur_k2.tcl and kaur_k5.tcl with Agent/TCP/Sack1 "
              "senders and Agent/TCPSink/Sack1 sinks (maxSackBlocks_ 3), beside diffsweep's "
              "`tcp = \"sack\"` (diffsweep_sack.py), 10 seeds. K2 (one flow, RTP 8 ms): ns-2.35 "
              "`def` timers and defaults (bugFix_ 1, singledup_ 1), efcorr 0, beside diffsweep "
              "with `reno_bugfix` and limited transmit on; U = in-order goodput on the wire / "
              "(0.7 x 40 Mb/s). K5 (64 equal-RTP flows, T_on 1 ms, tcpcfg ds, efcorr 1): ns-2.35 "
              "`overhead_ 0` beside diffsweep's random order of same-slot arrivals, `overhead_ "
              "0.1 ms` beside flow-index order with 0.1 ms send jitter; diffsweep's U converted "
              "to ns-2's as for Reno (x 576/536, / 0.7 with EF).")
    k2n = p.read(d, "results_ns2_k2_sack.csv", "benchmarks/ns2/run_sack.sh")
    k2d = p.read(d, "results_diffsweep_k2_sack.csv", "benchmarks/ns2/diffsweep_sack.py")
    for (net, ton), en in k2n.groupby(["network", "ton_ms"], sort=True):
        eo = k2d[(k2d["network"] == net) & np.isclose(k2d["ton_ms"], ton)]
        label = "CBR" if net == "cbr" else f"EF T_on {ton:g} ms"
        for metric, col_o, col_n in (("U", "U", "U_good"), ("timeouts/run", "timeouts", "timeouts")):
            p.cells.append(Cell(p.key, f"K2 {metric}", label, eo[col_o].to_numpy(),
                                en[col_n].to_numpy()))
    k5n = p.read(d, "results_ns2_k5_sack.csv", "benchmarks/ns2/run_sack.sh")
    k5d = p.read(d, "results_diffsweep_k5_sack.csv", "benchmarks/ns2/diffsweep_sack.py")
    _k5_cells(p, k5d, k5n, [("random", 0.0, 0.0, True), ("index", 1e-4, 1e-4, True)])
    return p


# ----------------------------------------------------------------------------------------------
# Habib et al.: topology 2(a)

def load_habib(d: Path) -> Paper:
    p = Paper("habib", "Habib, Bhargava & Fahmy (RTT-RTO aware conditioner), topology 2(a)",
              "Standard conditioner (TSW3CM) and none, F2 RTT 20-200 ms, 10 seeds, payload "
              "goodput over 20-100 s (as compare_habib.md).")
    n = p.read(d, "habib/results_ns2_habib.csv", "benchmarks/ns2/habib/run.sh")
    o = p.read(d, "habib/results_diffsweep_habib.csv",
             "benchmarks/ns2/habib/diffsweep_habib.py")
    metrics = [("F1 goodput Mb/s", "f1_mbps"), ("F2 goodput Mb/s", "f2_mbps"),
               ("total goodput Mb/s", "total_mbps"), ("F2 drop ratio", "f2_drop_ratio"),
               ("F1 timeouts/run", "f1_timeouts")]
    for (cond, rtt), g in n.groupby(["cond", "f2_rtt_ms"], sort=False):
        go = o[(o["cond"] == cond) & np.isclose(o["f2_rtt_ms"], rtt)]
        for metric, col in metrics:
            p.cells.append(Cell(p.key, metric, f"{cond}, F2 RTT {rtt:g} ms",
                                go[col].to_numpy(), g[col].to_numpy()))
    return p


# ----------------------------------------------------------------------------------------------
# Lee & Jeong: Method 1 (shared token bucket, RIO-C)

def load_lee_jeong(d: Path) -> Paper:
    p = Paper("lee-jeong", "Lee & Jeong (Balancing Marker), Method 1",
              "The four (CIR, bucket) cells without and with UDP, 10 seeds, 60 s measured whole; "
              "ns-2.35 Reno defaults (tcpcfg ns) beside diffsweep's default random order of "
              "same-slot arrivals (variant rows: diffsweep in flow-index order; ns-2.35 with "
              "every TCP send delayed U(0, 10 us), tcpcfg nsov, which puts the simultaneous "
              "arrivals at the edge in a random order too: ns2-gaps.md, section 3).")
    ns2 = p.read(d, "lee_jeong/results_ns2_lee_jeong_runs.csv", "benchmarks/ns2/lee_jeong/run.sh")
    o = p.read(d, "lee_jeong/results_diffsweep_lee_jeong.csv",
             "benchmarks/ns2/lee_jeong/diffsweep_lee_jeong.py")
    metrics = [("Jain S1..S7", "jain", "jain_agg"), ("total S1..S7 Mb/s", "total_mbps", "agg_total_mbps"),
               ("best effort Mb/s", "be_mbps", "be_total_mbps"), ("UDP Mb/s", "udp_mbps", "udp_total_mbps")]
    for tie, cfg, tag in (("random", "ns", ""), ("index", "ns", " [index order]"),
                          ("random", "nsov", " [ns-2 overhead_ 10 us]")):
        n, primary = ns2[ns2["tcpcfg"] == cfg], not tag
        for cir, bucket in ((7.0, 70), (7.0, 35), (3.5, 70), (3.5, 35)):
            for udp in (False, True):
                g = n[np.isclose(n["cir_mbps"], cir) & (n["cbs_pkts"] == bucket)
                      & (n["variant"] == ("udp" if udp else "noudp"))]
                go = o[(o["tie_break"] == tie) & np.isclose(o["cir_mbps"], cir)
                       & (o["bucket_pkts"] == bucket) & (o["udp"].astype(str) == str(udp))]
                for metric, co, cn in metrics:
                    if co == "udp_mbps" and not udp:
                        continue
                    label = f"({cir:g} Mb/s, {bucket}), {'UDP' if udp else 'no UDP'}{tag}"
                    p.cells.append(Cell(p.key, metric, label, go[co].to_numpy(),
                                        g[cn].to_numpy(), primary))
    return p


def load_lee_jeong_sack(d: Path) -> Paper:
    p = Paper("lee-jeong-sack", "Lee & Jeong under TCP SACK (ns-2.35 Agent/TCP/Sack1), one cell",
              "Issue 44, a second paper's cell under SACK: lee_jeong/run_sack.sh runs "
              "lee_jeong_m1.tcl with LJ_TCP=sack (Agent/TCP/Sack1 senders and "
              "Agent/TCPSink/Sack1 sinks, maxSackBlocks_ 3, for all 17 TCP connections) in the "
              "cell (7 Mb/s, 70) without UDP, tcpcfg ns (bugFix_ 1, singledup_ 1), 10 seeds, "
              "60 s measured whole, beside the builder with `tcp = \"sack\"` and its default "
              "random order of same-slot arrivals (diffsweep_lee_jeong.py --sack). Variant "
              "rows [ns-2 overhead_ 10 us]: ns-2.35 with tcpcfg nsov, every send delayed U(0, "
              "10 us), which puts simultaneous arrivals at the edge in a random order too, as "
              "for Reno (ns2-gaps.md, section 3).")
    n = p.read(d, "lee_jeong/results_ns2_lee_jeong_sack_runs.csv",
               "benchmarks/ns2/lee_jeong/run_sack.sh")
    o = p.read(d, "lee_jeong/results_diffsweep_lee_jeong_sack.csv",
               "benchmarks/ns2/lee_jeong/diffsweep_lee_jeong.py --sack")
    for (cfg, cir, bucket, variant), g in n.groupby(["tcpcfg", "cir_mbps", "cbs_pkts", "variant"],
                                                    sort=True):
        udp, primary = variant == "udp", cfg == "ns"
        tag = {"ns": "", "nsov": " [ns-2 overhead_ 10 us]"}.get(cfg, f" [ns-2 tcpcfg {cfg}]")
        go = o[np.isclose(o["cir_mbps"], cir) & (o["bucket_pkts"] == bucket)
               & (o["udp"].astype(str) == str(udp))]
        for metric, co, cn in (("Jain S1..S7", "jain", "jain_agg"),
                               ("total S1..S7 Mb/s", "total_mbps", "agg_total_mbps"),
                               ("best effort Mb/s", "be_mbps", "be_total_mbps")):
            p.cells.append(Cell(p.key, metric,
                                f"({cir:g} Mb/s, {bucket}), {'UDP' if udp else 'no UDP'}{tag}",
                                go[co].to_numpy(), g[cn].to_numpy(), primary))
    return p


# ----------------------------------------------------------------------------------------------
# Rossi et al.: HTTP only

def load_rossi(d: Path) -> Paper:
    p = Paper("rossi", "Rossi, Casetti & Mellia (web traffic over DiffServ), HTTP only",
              "(rho, alpha_AF) = (0.5, 0.5), (0.8, 0.5), (0.85, 0.8), 5 seeds, arrivals until "
              "200 s, halt at 300 s; size classes pi = 1, 10, 90 packets. Per run: mean "
              "completion time of its completed transfers, drop % = drops / packets "
              "sent; then mean and CI over the runs (compare_rossi.md pools the transfers "
              "instead); drops and packets sent count the SYNs. Primary rows: the builder as "
              "it is (`syn` and `delay_growth` on) beside ns-2.35's defaults (`syn_ 1`, "
              "`delay_growth_ 1`); variant rows [no SYN]: diffsweep with `syn` off and "
              "`delay_growth` on beside ns-2.35's `syn_ 0` runs.")
    n = p.read(d, "rossi/results_ns2_rossi_transfers.csv", "benchmarks/ns2/rossi/run.sh")
    o = p.read(d, "rossi/results_diffsweep_rossi.csv", "benchmarks/ns2/rossi/diffsweep_rossi.py")
    n = n.assign(ct=n["ct_rcv_sum"] / n["n_completed"], drop_pct=100 * n["drops"] / n["pkts_sent"])
    o = o.assign(ct=o["ct_sum"] / o["n_completed"], drop_pct=100 * o["drops"] / o["pkts_sent"])
    for syncfg, primary in (("syn", True), ("nosyn", False)):
        oc = o[o["tcpcfg"] == syncfg]
        for (rho, alpha), _ in oc.groupby(["rho", "alpha_af"], sort=True):
            for cloud in ("AF", "BE"):
                for size in (1, 10, 90):
                    sel = lambda df: df[np.isclose(df["rho"], rho) & np.isclose(df["alpha_af"], alpha)
                                        & (df["cloud"] == cloud) & (df["size_pkts"] == size)]
                    go, gn = sel(oc), sel(n[n["syncfg"] == syncfg])
                    label = (f"rho {rho:g}, alpha_AF {alpha:g}, {cloud}, pi {size}"
                             + ("" if primary else " [no SYN]"))
                    p.cells.append(Cell(p.key, "completion time s", label, go["ct"].to_numpy(),
                                        gn["ct"].to_numpy(), primary))
                    p.cells.append(Cell(p.key, "drop %", label, go["drop_pct"].to_numpy(),
                                        gn["drop_pct"].to_numpy(), primary))
    return p


# ----------------------------------------------------------------------------------------------
# Matta & Guo: the dumbbell of Figs. 3-5

def load_matta_guo(d: Path) -> Paper:
    p = Paper("matta-guo", "Matta & Guo (isolating short and long flows), Figs. 3-5",
              "N = 30 (Fig. 3) and 60 (Fig. 4) at k = 1, 2, 4, 8; Fig. 5 at N = 30, k = 4, "
              "k_b/k_c = 0.2, 0.5, 2, 3; 5 seeds, 200 s, Jain and goodput per class as means "
              "over the 20-s intervals 2..10 (both sides measured with "
              "diffsweep.papers.matta_guo.tables). diffsweep's isolation (two pipes, CBQ "
              "without lending) beside ns-2.35's two separate bottleneck links (the same "
              "model; primary) and beside ns-2.35's CBQ with two bounded classes (variant "
              "rows); sharing beside sharing. ns-2.35 runs `syn_ false` with its default "
              "`delay_growth_ 1`; diffsweep's primary rows turn `TcpFlow.delay_growth` on to "
              "match (tcpcfg `delay_growth`), the variant rows marked [no delay_growth] are the "
              "builder as it is (docs/ns2-gaps.md, section 1). Variant rows [ns-2 overhead_ "
              "10 us]: ns-2.35 with every TCP send delayed U(0, 10 us) (tcpcfg `dsov`), which "
              "puts packets reaching a queue at the same instant in a random order, as "
              "diffsweep does (docs/ns2-gaps.md, sections 1 and 3).")
    n = p.read(d, "matta_guo/results_ns2_matta_guo.csv", "benchmarks/ns2/matta_guo/run.sh")
    o = p.read(d, "matta_guo/results_diffsweep_matta_guo.csv",
             "benchmarks/ns2/matta_guo/diffsweep_matta_guo.py")
    keys = ["mode", "n", "k", "buffer_ratio", "seed", "cls"]
    rn_all = (n.groupby(keys + ["tcpcfg"]).agg(jain=("jain_index", "mean"),
                                               goodput=("goodput_mbps", "mean")).reset_index())
    ro_all = (o.groupby(keys + ["tcpcfg"]).agg(jain=("jain_index", "mean"),
                                               goodput=("goodput_mbps", "mean")).reset_index())
    for mode_n, cfg_n, mode_o, cfg, primary in (
            ("pipes", "ds", "isolation", "delay_growth", True),
            ("share", "ds", "share", "delay_growth", True),
            ("iso", "ds", "isolation", "delay_growth", False),
            ("pipes", "ds", "isolation", "diffsweep", False),
            ("share", "ds", "share", "diffsweep", False),
            ("pipes", "dsov", "isolation", "delay_growth", False),
            ("share", "dsov", "share", "delay_growth", False)):
        ro = ro_all[ro_all["tcpcfg"] == cfg]
        rn = rn_all[rn_all["tcpcfg"] == cfg_n]
        what = {"pipes": "isolation", "share": "sharing", "iso": "isolation [ns-2 CBQ]"}[mode_n]
        if cfg == "diffsweep":
            what += " [no delay_growth]"
        if cfg_n == "dsov":
            what += " [ns-2 overhead_ 10 us]"
        for (nn, k, ratio), _ in rn[rn["mode"] == mode_n].groupby(["n", "k", "buffer_ratio"]):
            fig = "5" if ratio != 1 else ("4" if nn == 60 else "3")
            for cls in ("short", "long"):
                sel = lambda df, m: df[(df["mode"] == m) & (df["n"] == nn) & np.isclose(df["k"], k)
                                       & np.isclose(df["buffer_ratio"], ratio) & (df["cls"] == cls)]
                gn, go = sel(rn, mode_n), sel(ro, mode_o)
                label = f"Fig. {fig}: N {nn}, k {k:g}, k_b/k_c {ratio:g}, {what}"
                p.cells.append(Cell(p.key, f"{cls} Jain", label, go["jain"].to_numpy(),
                                    gn["jain"].to_numpy(), primary))
                p.cells.append(Cell(p.key, f"{cls} goodput Mb/s", label,
                                    go["goodput"].to_numpy(), gn["goodput"].to_numpy(), primary))
    return p


# ----------------------------------------------------------------------------------------------
# The standard dumbbell (builder ``dumbbell``; not a paper): ns-2.35's defaults on both sides

def load_dumbbell(d: Path) -> Paper:
    p = Paper("dumbbell", "The standard dumbbell (builder `dumbbell`, ns-2.35's defaults)",
              "NewReno flows over a 10 Mb/s, 10 ms bottleneck, DropTail and RED with ns-2.35's "
              "defaults (window 20, 1000-B segments, 50-packet queues, RED's automatic "
              "thresholds and q_weight, byte mode), 1, 8 and 32 flows at a 40-ms round trip "
              "and 8 flows spread over 20..100 ms; 10 seeds, 60 s measured from 10 s "
              "(benchmarks/ns2/dumbbell/README.md). The builder is called with its defaults. "
              "One-flow cells compare goodput only (no loss and no queue in either); the mean "
              "waiting queue is diffsweep's queues.mean_waiting_pkts. Variant rows [send jitter "
              "/ overhead_ 1 ms]: the DropTail cells with every TCP send delayed U(0, 1 ms), "
              "about a packet time, on both sides (diffsweep's `send_jitter_s`, ns-2's "
              "`overhead_`), which breaks ns-2's deterministic phase effects (README.md "
              "there: with 8 flows over 20..100 ms ns-2.35 as run never drops the second "
              "flow's packets).")
    n = p.read(d, "dumbbell/results_ns2_dumbbell.csv", "benchmarks/ns2/dumbbell/run.sh")
    o = p.read(d, "dumbbell/results_diffsweep_dumbbell.csv",
               "benchmarks/ns2/dumbbell/diffsweep_dumbbell.py")
    n["rtt_ms"], o["rtt_ms"] = n["rtt_ms"].astype(str), o["rtt_ms"].astype(str)
    metrics = [("total goodput Mb/s", "total_mbps"), ("Jain", "jain"), ("loss %", "loss_pct"),
               ("mean waiting queue pkts", "mean_waiting_pkts")]
    for overhead, tag in ((0.0, ""), (1e-3, " [send jitter / overhead_ 1 ms]")):
        nn = n[np.isclose(n["overhead_s"], overhead)]
        oo = o[np.isclose(o["overhead_s"], overhead)]
        for (aqm, nf, rtt), g in nn.groupby(["aqm", "n_flows", "rtt_ms"], sort=False):
            go = oo[(oo["aqm"] == aqm) & (oo["n_flows"] == nf) & (oo["rtt_ms"] == rtt)]
            label = f"{aqm}, {nf} flow{'s' if nf > 1 else ''}, RTT {rtt} ms{tag}"
            for metric, col in metrics[:1] if nf == 1 else metrics:
                p.cells.append(Cell(p.key, metric, label, go[col].to_numpy(), g[col].to_numpy(),
                                    primary=not tag))
    return p


# ----------------------------------------------------------------------------------------------
# The standard parking lot (builder ``parking_lot``; not a paper): ns-2.35's defaults on both
# sides

def load_parking_lot(d: Path) -> Paper:
    p = Paper("parking-lot", "The standard parking lot (builder `parking_lot`, ns-2.35's "
              "defaults)",
              "K = 2 and 3 bottlenecks of 10 Mb/s, 10 ms in a chain, DropTail and RED with "
              "ns-2.35's defaults on every link (the dumbbell's), 8 long NewReno flows over "
              "every link and 8 (K = 2, 3) or 4 (K = 3) cross flows on each, 20-ms access "
              "links; 10 seeds, 60 s measured from 10 s (benchmarks/ns2/parking_lot/README.md). "
              "The builder is called with its defaults but the links' delays: in the primary "
              "cells each link's is drawn per seed, 10 ms + U(0, one packet time), the same on "
              "both sides, so that ns-2.35's intervals average over the links' relative phase "
              "(Floyd & Jacobson 1992) instead of reporting one. Per cell: the mean goodput of "
              "a long and of a cross flow, Jain's index over all flows, loss % over all links, "
              "and per link its utilisation, drop % (drops / arrivals) and mean waiting queue "
              "(diffsweep's queues.mean_waiting_pkts). Variant rows: every cell with every "
              "link at 10 ms [fixed phase, links 10 ms]; the DropTail cells at 10 ms with every "
              "TCP send delayed U(0, 1 ms) on both sides [send jitter / overhead_ 1 ms]; and "
              "the phase check [links 10.2 / 10.4 / 10.6 ms]: every link's delay moved by a "
              "fraction of a packet time, which moves ns-2.35's long-flow goodput by about 3x "
              "and diffsweep's by about 5x at its default slot, one packet time at the "
              "access links' 100 Mb/s (under 3% at the links' packet time, the slot before "
              "2026-12-02; README.md there).")
    n = p.read(d, "parking_lot/results_ns2_parking_lot.csv", "benchmarks/ns2/parking_lot/run.sh")
    o = p.read(d, "parking_lot/results_diffsweep_parking_lot.csv",
               "benchmarks/ns2/parking_lot/diffsweep_parking_lot.py")
    keys = ["aqm", "n_links", "n_long", "n_cross"]

    def delay_kind(col: pd.Series) -> pd.Series:  # -1: a delay per link and seed, else the one
        col = col.astype(str)
        return col.map(lambda v: -1.0 if "/" in v else float(v))

    n["delays"], o["delays"] = delay_kind(n["link_ms"]), delay_kind(o["link_ms"])
    for (ovh, link_ms), nn in n.groupby(["overhead_s", "delays"], sort=True):
        primary = ovh == 0 and link_ms < 0
        tag = ("" if ovh == 0 else " [send jitter / overhead_ 1 ms]") + (
            "" if link_ms < 0 or ovh > 0 else " [fixed phase, links 10 ms]" if link_ms == 10.0
            else f" [links {link_ms:g} ms]")
        oo = o[np.isclose(o["overhead_s"], ovh) & np.isclose(o["delays"], link_ms)]
        for (aqm, k, nl, nc), g in nn.groupby(keys, sort=False):
            go = oo[(oo["aqm"] == aqm) & (oo["n_links"] == k) & (oo["n_long"] == nl)
                    & (oo["n_cross"] == nc)]
            label = f"{aqm}, K {k}, {nl} long + {nc} cross per link{tag}"
            metrics = [("long-flow goodput Mb/s", "long_mbps"),
                       ("cross-flow goodput Mb/s", "cross_mbps"), ("Jain", "jain"),
                       ("loss %", "loss_pct")]
            for j in range(k):
                metrics += [(f"link {j} utilisation", f"util_{j}"),
                            (f"link {j} drop %", f"drop_pct_{j}"),
                            (f"link {j} mean waiting queue pkts", f"mean_waiting_pkts_{j}")]
            for metric, col in metrics:
                p.cells.append(Cell(p.key, metric, label, go[col].to_numpy(), g[col].to_numpy(),
                                    primary))
    return p


LOADERS = [load_kaur_vin, load_kaur_vin_sack, load_habib, load_lee_jeong, load_lee_jeong_sack,
           load_rossi, load_matta_guo, load_dumbbell, load_parking_lot]


# ----------------------------------------------------------------------------------------------
# Output

def fmt(x: float, h: float) -> str:
    if math.isnan(x):
        return "-"
    a = max(abs(x), 1e-12)
    digits = 4 if a < 1 else (3 if a < 10 else (2 if a < 100 else 1))
    hs = "n/a" if math.isnan(h) else f"{h:.{digits}f}"
    return f"{x:.{digits}f} ± {hs}"


def rel_str(r: float) -> str:
    return "-" if math.isnan(r) else f"{r:+.1%}"


def summary(df: pd.DataFrame) -> dict:
    prim = df[df["primary"]]
    n = len(prim)
    a = prim["rel_diff"].abs()
    out = {"cells": n, "overlap": int(prim["overlap"].sum())}
    for t in THRESHOLDS:
        out[t] = int((a <= t).sum())  # NaN (ns-2 mean 0) counts as outside
    # issue 24's bar: a cell agrees when within 10% or when the two intervals overlap
    out["agree"] = int(((a <= 0.10) | prim["overlap"].astype(bool)).sum())
    return out


def summary_line(title: str, s: dict) -> str:
    n = s["cells"]
    pct = lambda k: f"{s[k]}/{n} ({s[k] / n:.0%})" if n else "0/0"
    return (f"**{title}**: {n} primary cells; within 5%: {pct(0.05)}; within 10%: {pct(0.10)}; "
            f"within 20%: {pct(0.20)}; 95% intervals overlap: {pct('overlap')}; within 10% or "
            f"overlapping: {pct('agree')}.")


def table(df: pd.DataFrame) -> list[str]:
    lines = ["| metric | cell | n (diffsweep / ns-2) | diffsweep | ns-2.35 | rel. diff | overlap |",
             "|---|---|---|---|---|---|---|"]
    for r in df.itertuples():
        rd = rel_str(r.rel_diff)
        if not math.isnan(r.rel_diff) and abs(r.rel_diff) > 0.10:
            rd = f"**{rd}**"
        lines.append(f"| {r.metric} | {r.cell} | {r.n_ours} / {r.n_ns2} | {fmt(r.ours, r.ours_ci)} | "
                     f"{fmt(r.ns2, r.ns2_ci)} | {rd} | {'yes' if r.overlap else '**no**'} |")
    return lines


def build(root: Path = HERE) -> tuple[list[Paper], pd.DataFrame, list[str]]:
    papers, missing = [], []
    for load in LOADERS:
        try:
            papers.append(load(root))
        except Missing as e:
            missing.append(str(e))
    rows = [c.stats() for p in papers for c in p.cells]
    cols = ["paper", "metric", "cell", "primary", "n_ours", "n_ns2", "ours", "ours_ci", "ns2",
            "ns2_ci", "rel_diff", "overlap", "note"]
    return papers, pd.DataFrame(rows, columns=cols), missing


def render(papers: list[Paper], df: pd.DataFrame, missing: list[str]) -> str:
    out = ["# diffsweep beside ns-2.35: one agreement table for the five papers, the "
           "standard dumbbell and the standard parking lot", "",
           f"Generated by `{COMMAND}` from the recorded CSVs (nothing is simulated by it); do not "
           "edit by hand. Per paper, metric and cell: diffsweep's and ns-2.35's means with 95% "
           "confidence intervals over seeds (Student t; `n/a` for a single run), the relative "
           "difference (diffsweep - ns-2) / |ns-2| (**bold** over 10%), and whether the two "
           "intervals overlap. The summary lines count each paper's primary cells (a cell "
           "whose ns-2 mean is 0 has no relative difference and counts as outside every "
           "band); variant rows follow each table. The mechanisms behind the largest gaps: "
           "[ns2-gaps.md](ns2-gaps.md).", "", "## Summary", ""]
    for p in papers:
        out.append("- " + summary_line(p.title, summary(df[df["paper"] == p.key])))
    for m in missing:
        out.append(f"- not compared: {m}")
    for p in papers:
        d = df[df["paper"] == p.key]
        out += ["", f"## {p.title}", "", "Sources: " + ", ".join(f"`{s}`" for s in p.sources) + ".",
                "", p.pairing, "", summary_line("Summary", summary(d)), ""]
        out += table(d[d["primary"]])
        if (~d["primary"]).any():
            out += ["", "Variant rows (not in the summary):", ""] + table(d[~d["primary"]])
        out += p.extra
    prim = df[df["primary"].astype(bool) & df["rel_diff"].notna()]
    top = prim.iloc[0:0]
    if len(prim):
        prim = prim.assign(abs=prim["rel_diff"].astype(float).abs())
        top = prim[~prim["overlap"].astype(bool)].sort_values("abs", ascending=False).head(15)
    out += ["", "## Largest gaps", "",
            "Primary cells whose intervals do not overlap, by |relative difference| (the first "
            "15):", ""]
    out += ["| paper | metric | cell | diffsweep | ns-2.35 | rel. diff |", "|---|---|---|---|---|---|"]
    for r in top.itertuples():
        out.append(f"| {r.paper} | {r.metric} | {r.cell} | {fmt(r.ours, r.ours_ci)} | "
                   f"{fmt(r.ns2, r.ns2_ci)} | {rel_str(r.rel_diff)} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "ns2-agreement.md"))
    ap.add_argument("--root", default=str(HERE), help="the benchmarks/ns2 folder to read")
    ap.add_argument("--csv", default=None, help="also write every cell's numbers to this CSV")
    a = ap.parse_args(argv)
    papers, df, missing = build(Path(a.root))
    Path(a.out).write_text(render(papers, df, missing))
    if a.csv:
        df.to_csv(a.csv, index=False, float_format="%.6g")
    for p in papers:
        print(summary_line(p.title, summary(df[df["paper"] == p.key])))
    for m in missing:
        print("not compared:", m, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
