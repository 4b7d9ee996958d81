"""Matta & Guo, one run each side (N = 30, k = 4, k_b/k_c = 1, seed 1, 200 s): how long the
connections last and how long a session waits between them, ns-2.35 (../matta_guo/matta_guo.tcl,
tcpcfg ds and dsng) beside diffsweep (builder matta_guo). Prints the table kept in
mg_timing.txt (docs/ns2-gaps.md).

    PYTHONPATH=python python benchmarks/ns2/gaps/mg_timing.py
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.papers.matta_guo.scenario import matta_guo

HERE = Path(__file__).resolve().parent
TCL = HERE.parent / "matta_guo" / "matta_guo.tcl"


def line(df: pd.DataFrame, label: str) -> list[str]:
    out = []
    df = df.sort_values(["cls", "session", "start_s"])
    for cls in ("short", "long"):
        d = df[df["cls"] == cls]
        dur = d["end_s"] - d["start_s"]
        gap = (d.groupby("session")["start_s"].shift(-1) - d["end_s"]).dropna()
        out.append(f"| {label} | {cls} | {len(d)} | {dur.mean():.4f} | {dur.median():.4f} | "
                   f"{dur.min():.4f} | {gap.mean():.4f} | {(d['retransmits'] > 0).mean():.3f} | "
                   f"{d['timeouts'].mean():.3f} |")
    return out


def main() -> None:
    rows = ["| run | class | connections completed | duration mean s | median | min | gap to the "
            "session's next start, mean s | share with a retransmission | timeouts per "
            "connection |", "|---|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as d:
        for mode in ("pipes", "share"):
            for cfg in ("ds", "dsng"):
                pre = Path(d) / f"{mode}_{cfg}"
                subprocess.run(["ns", str(TCL), mode, "30", "4", "1", "1", "200", cfg, str(pre)],
                               check=True, capture_output=True)
                hdr = pre.with_suffix(".hdr").read_text().splitlines()[0].split(",")
                c = pd.read_csv(pre.with_suffix(".conn"), header=None, names=hdr)
                rows += line(c[c["completed"] == 1], f"ns-2.35 {mode} {cfg}")
            r = simulate([matta_guo(n_flows=30, k=4, isolation=(mode == "pipes"), duration_s=200.0,
                                    seed=1)], [1], backend="cpu").transfers
            r = r[r["end_s"].notna() & r["traffic"].isin(["short", "long"])]
            r = r.drop(columns=["cls"]).rename(columns={"traffic": "cls", "slot": "session"})
            r["cls"] = r["cls"].astype(str)
            rows += line(r, f"diffsweep {'isolation' if mode == 'pipes' else 'share'}")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
