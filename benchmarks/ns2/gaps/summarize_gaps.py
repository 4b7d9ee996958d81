"""Tables of the gap checks (docs/ns2-gaps.md reads them): writes summary_gaps.md here from

  results_gap_delay_growth_matta_guo.csv, results_gap_delay_growth_rossi.csv  (gap_delay_growth.sh)
  results_gap_slot_lee_jeong.csv, results_gap_slot_rossi.csv, results_gap_slot_habib.csv  (gap_slot.py)

beside the recorded comparisons of ../matta_guo, ../rossi, ../lee_jeong and ../habib. Means and
95% CIs over seeds as ../agreement.py computes them.

    PYTHONPATH=python python benchmarks/ns2/gaps/summarize_gaps.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from agreement import fmt, mean_ci  # noqa: E402


def mc(x) -> str:
    m, h, _ = mean_ci(x)
    return fmt(m, h)


def rel(a, b) -> str:
    a, b = np.nanmean(np.asarray(a, float)), np.nanmean(np.asarray(b, float))
    return f"{(a - b) / abs(b):+.1%}" if b else "-"


def matta_guo() -> list[str]:
    d = HERE.parent / "matta_guo"
    keys = ["mode", "n", "k", "buffer_ratio", "seed", "cls"]

    def per_run(df):
        return df.groupby(keys).agg(jain=("jain_index", "mean"),
                                    goodput=("goodput_mbps", "mean")).reset_index()
    ds = per_run(pd.read_csv(d / "results_ns2_matta_guo.csv"))
    ng = per_run(pd.read_csv(HERE / "results_gap_delay_growth_matta_guo.csv"))
    ours = per_run(pd.read_csv(d / "results_diffsweep_matta_guo.csv"))
    out = ["## Matta & Guo: ns-2.35 with and without delay_growth_", "",
           "Goodput per class (Mb/s) and short-flow Jain, 5 seeds, 200 s. `ds`: the recorded "
           "runs (delay_growth_ 1, ns-2.35's default); `dsng`: delay_growth_ false. diff: "
           "diffsweep against each.", "",
           "| mode | N | k | class | ns-2 ds | ns-2 dsng | diffsweep | diff vs ds | diff vs dsng |"
           " short Jain ds / dsng / diffsweep |", "|---|---|---|---|---|---|---|---|---|---|"]
    for (mode, n, k), _ in ng.groupby(["mode", "n", "k"]):
        mo = "isolation" if mode == "pipes" else "share"
        for cls in ("short", "long"):
            sel = lambda df, m: df[(df["mode"] == m) & (df["n"] == n) & np.isclose(df["k"], k)
                                   & np.isclose(df["buffer_ratio"], 1) & (df["cls"] == cls)]
            a, b, c = sel(ds, mode), sel(ng, mode), sel(ours, mo)
            j = ""
            if cls == "short":
                j = " / ".join(f"{x['jain'].mean():.3f}" for x in (a, b, c))
            out.append(f"| {mode} | {n} | {k:g} | {cls} | {mc(a['goodput'])} | {mc(b['goodput'])} | "
                       f"{mc(c['goodput'])} | {rel(c['goodput'], a['goodput'])} | "
                       f"{rel(c['goodput'], b['goodput'])} | {j} |")
    return out


def rossi() -> list[str]:
    n = pd.read_csv(HERE.parent / "rossi" / "results_ns2_rossi_transfers.csv")
    n = pd.concat([n, pd.read_csv(HERE / "results_gap_delay_growth_rossi.csv")], ignore_index=True)
    n = n.assign(ct=n["ct_rcv_sum"] / n["n_completed"],
                 drop=100 * n["drops_data"] / n["pkts_sent"],
                 to=n["timeouts"] / n["n_completed"])
    o = pd.read_csv(HERE.parent / "rossi" / "results_diffsweep_rossi.csv")
    o = o.assign(ct=o["ct_sum"] / o["n_completed"], drop=100 * o["drops"] / o["pkts_sent"])
    sl = pd.read_csv(HERE / "results_gap_slot_rossi.csv")
    out = ["", "## Rossi et al.: ns-2.35 with and without the SYN and delay_growth_; diffsweep with "
           "a finer slot", "",
           "Per run: mean completion time (s) and drop % (data drops / packets sent); mean ± 95% "
           "CI over 5 seeds. ns-2.35: `syn` (defaults), `nosyn` (syn_ 0: the recorded "
           "comparison), `nosyn_ng` (syn_ 0, delay_growth_ 0). diffsweep: the recorded runs (slot "
           "800 us) and, at rho 0.8, with a 200-us slot (gap_slot.py).", "",
           "| point | cloud | pi | measure | ns-2 syn | ns-2 nosyn | ns-2 nosyn_ng | diffsweep | "
           "diffsweep 200-us slot | diffsweep vs nosyn | vs nosyn_ng |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (rho, alpha), _ in o.groupby(["rho", "alpha_af"]):
        for cloud in ("AF", "BE"):
            for size in (1, 10, 90):
                f = lambda df: df[np.isclose(df["rho"], rho) & np.isclose(df["alpha_af"], alpha)
                                  & (df["cloud"] == cloud) & (df["size_pkts"] == size)]
                g = f(n)
                cols = [g[g["syncfg"] == s] for s in ("syn", "nosyn", "nosyn_ng")]
                oo = f(o)
                s2 = sl[(sl["cloud"] == cloud) & (sl["size_pkts"] == size) & (sl["slot_us"] < 800)]
                for meas, cn, cs in (("completion s", "ct", "ct_mean"), ("drop %", "drop", "drop_pct")):
                    fine = mc(s2[cs]) if np.isclose(rho, 0.8) and len(s2) else "-"
                    out.append(f"| rho {rho:g}, alpha {alpha:g} | {cloud} | {size} | {meas} | "
                               + " | ".join(mc(c[cn]) for c in cols) + f" | {mc(oo[cn])} | {fine} | "
                               f"{rel(oo[cn], cols[1][cn])} | {rel(oo[cn], cols[2][cn])} |")
    return out


def slot_checks() -> list[str]:
    out = ["", "## Finer slots (gap_slot.py)", ""]
    lj = pd.read_csv(HERE / "results_gap_slot_lee_jeong.csv")
    n = pd.read_csv(HERE.parent / "lee_jeong" / "results_ns2_lee_jeong_runs.csv")
    n = n[(n["tcpcfg"] == "ns") & (n["variant"] == "noudp") & np.isclose(n["cir_mbps"], 7)]
    nc = pd.read_csv(HERE.parent / "lee_jeong" / "results_ns2_lee_jeong.csv")
    nc = nc[(nc["tcpcfg"] == "ns") & (nc["variant"] == "noudp") & np.isclose(nc["cir_mbps"], 7)]
    out += ["Lee & Jeong, CIR 7 Mb/s, no UDP, 10 seeds: Jain over S1..S7 and the rates of S1 "
            "(206 ms round trip) and S7 (10 ms), Mb/s of 1000-B packets.", "",
            "| bucket | run | Jain | S1 | S4 | S5 | S6 | S7 |", "|---|---|---|---|---|---|---|---|"]
    for b in (70, 35):
        g = n[n["cbs_pkts"] == b]
        c = nc[nc["cbs_pkts"] == b]
        rate = lambda s: c[c["conn"] == s]["goodput_bps"] / 1e6
        out.append(f"| {b} | ns-2.35 | {mc(g['jain_agg'])} | {mc(rate('S1'))} | {mc(rate('S4'))} | "
                   f"{mc(rate('S5'))} | {mc(rate('S6'))} | {mc(rate('S7'))} |")
        for slot, h in lj[lj["bucket_pkts"] == b].groupby("slot_us", sort=False):
            out.append(f"| {b} | diffsweep, slot {slot:g} us | {mc(h['jain'])} | {mc(h['tcp1_mbps'])} | "
                       f"{mc(h['tcp4_mbps'])} | {mc(h['tcp5_mbps'])} | {mc(h['tcp6_mbps'])} | "
                       f"{mc(h['tcp7_mbps'])} |")
    hb = pd.read_csv(HERE / "results_gap_slot_habib.csv")
    hn = pd.read_csv(HERE.parent / "habib" / "results_ns2_habib.csv")
    hn = hn[hn["cond"] == "tsw3cm"]
    out += ["", "Habib et al., standard conditioner, 10 seeds: F1 timeouts per run (80 s), F1 "
            "drop ratio, F1 goodput (Mb/s).", "",
            "| F2 RTT ms | run | F1 timeouts | F1 drop ratio | F1 goodput |", "|---|---|---|---|---|"]
    for rtt in (20.0, 100.0):
        g = hn[np.isclose(hn["f2_rtt_ms"], rtt)]
        out.append(f"| {rtt:g} | ns-2.35 | {mc(g['f1_timeouts'])} | {mc(g['f1_drop_ratio'])} | "
                   f"{mc(g['f1_mbps'])} |")
        for slot, h in hb[np.isclose(hb["f2_rtt_ms"], rtt)].groupby("slot_us", sort=False):
            out.append(f"| {rtt:g} | diffsweep, slot {slot:.1f} us | {mc(h['f1_timeouts'])} | "
                       f"{mc(h['f1_drop_ratio'])} | {mc(h['f1_mbps'])} |")
    return out


def main() -> None:
    lines = ["# Gap checks (generated by summarize_gaps.py)", ""] + matta_guo() + rossi() + slot_checks()
    (HERE / "summary_gaps.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
