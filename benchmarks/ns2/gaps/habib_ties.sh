#!/usr/bin/env bash
# Habib et al. 2(a), standard conditioner, F2 RTT 20 ms, seeds 1-5: is the residual gap of F1's
# RTO expirations (diffsweep about 10% fewer, docs/ns2-gaps.md section 2) ns-2.35's order of
# same-instant arrivals (as for Lee & Jeong and Matta & Guo, section 3)? ns-2.35 as recorded
# (overhead_ 0) beside every TCP send delayed U(0, 10 us) (HB_OVERHEAD, ns-2's overhead_).
#   benchmarks/ns2/gaps/habib_ties.sh > benchmarks/ns2/gaps/habib_ties.txt
set -euo pipefail
cd "$(dirname "$0")/../habib"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
for ov in 0 1e-5; do
    seq 1 5 | HB_OVERHEAD=$ov xargs -P "${P:-2}" -I{} ns habib_2a.tcl 20 {} 100 tsw3cm 20 200 "$TMP/r_${ov}_{}" 2>/dev/null
done
python3 - "$TMP" <<'PY'
import glob, statistics as st, sys
d = sys.argv[1]
hdr = open(glob.glob(f"{d}/*.hdr")[0]).read().strip().split(",")
print("ns-2.35 habib_2a.tcl 20 <seed> 100 tsw3cm 20 200, seeds 1-5: mean (sd)\n")
print("| overhead_ | F1 goodput Mb/s | F1 RTO expirations | F1 core drops | F2 RTO expirations |")
print("|---|---|---|---|---|")
for ov in ("0", "1e-5"):
    rows = [dict(zip(hdr, open(f).read().strip().split(","))) for f in sorted(glob.glob(f"{d}/r_{ov}_*.run"))]
    cells = []
    for k in ("f1_mbps", "f1_timeouts", "f1_core_drops", "f2_timeouts"):
        v = [float(r[k]) for r in rows]
        cells.append(f"{st.mean(v):.3f} ({st.stdev(v):.3f})" if k == "f1_mbps" else f"{st.mean(v):.0f} ({st.stdev(v):.0f})")
    print(f"| {'0 (recorded)' if ov == '0' else '10 us'} | " + " | ".join(cells) + " |")
PY
