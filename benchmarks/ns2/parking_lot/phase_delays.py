"""The bottlenecks' delays of the primary cells (README.md, "Phase"): per seed and link,
10 ms + U(0, one packet time), a 1040-byte packet at 10 Mb/s = 0.832 ms, so that ns-2.35's
intervals average over the links' relative phases instead of reporting one (Floyd & Jacobson
1992). Standard library only: run.sh calls it for ns-2 (PL_LINK_MS) and
diffsweep_parking_lot.py imports it, so both simulators get the same delays.

    python3 phase_delays.py <seed> <n_links>   ->  "10.3141,10.0277,..."  (ms, 4 decimals)
"""
from __future__ import annotations

import random
import sys

BASE_MS = 10.0
PKT_MS = 1040 * 8 / 10e6 * 1e3  # 0.832 ms: one packet time at a bottleneck


def link_delays_ms(seed: int, n_links: int) -> list[str]:
    """The delays (ms, as the 4-decimal strings both simulators are given) of links 0..n-1."""
    rng = random.Random(f"parking-lot link phase {seed}")  # str seeds: stable across Pythons
    return [f"{BASE_MS + rng.uniform(0.0, PKT_MS):.4f}" for _ in range(n_links)]


if __name__ == "__main__":
    print(",".join(link_delays_ms(int(sys.argv[1]), int(sys.argv[2]))))
