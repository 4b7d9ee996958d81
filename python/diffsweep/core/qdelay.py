"""The queueing-delay histogram's bins (cuda/batch.h: qdelay_bin) and percentiles from it.

The engine counts each departure's wait (departure slot - arrival slot, whole slots) in one
bin: bin b < LINEAR holds the wait b exactly; above, PER_OCTAVE bins per octave, bin
LINEAR + 8 o + s holding waits [(8 + s) 2^(o+3), (9 + s) 2^(o+3)) (each 1/8 to 1/15 of its
lower edge wide), up to LINEAR 2^OCTAVES slots; the last bin holds every longer wait.
tests/test_codel.py checks these constants against the compiled engine's limits."""
from __future__ import annotations

import numpy as np

LINEAR = 64
PER_OCTAVE = 8
OCTAVES = 18
BINS = LINEAR + PER_OCTAVE * OCTAVES + 1


def bin_edges() -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) of every bin in slots; a bin holds the waits lo <= w < hi (hi = inf last)."""
    lo = np.empty(BINS)
    hi = np.empty(BINS)
    lo[:LINEAR] = np.arange(LINEAR)
    hi[:LINEAR] = lo[:LINEAR] + 1
    b = np.arange(PER_OCTAVE * OCTAVES)
    octave, sub = b // PER_OCTAVE, b % PER_OCTAVE
    lo[LINEAR:-1] = (PER_OCTAVE + sub) * 2.0 ** (octave + 3)
    hi[LINEAR:-1] = (PER_OCTAVE + sub + 1) * 2.0 ** (octave + 3)
    lo[-1] = float(LINEAR << OCTAVES)
    hi[-1] = np.inf
    return lo, hi


def quantile_slots(bins: np.ndarray, counts: np.ndarray, q: float,
                   top: float = np.inf) -> float:
    """The q-quantile of the waits (slots) counted ``counts`` in bins ``bins``: the smallest
    wait w with at least q of the departures at or below it (the inverse of the empirical
    distribution function). A one-slot bin (bin < LINEAR) gives its wait exactly; a wider one
    is interpolated linearly within it, and never beyond ``top`` (the longest wait, which the
    engine keeps exactly: queues.max_delay_s); the last, open bin gives its lower edge. NaN
    without departures."""
    bins = np.asarray(bins, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.float64)
    keep = counts > 0
    bins, counts = bins[keep], counts[keep]
    n = counts.sum()
    if n <= 0:
        return float("nan")
    order = np.argsort(bins, kind="stable")
    bins, counts = bins[order], counts[order]
    cum = np.cumsum(counts)
    rank = max(q * n, np.nextafter(0.0, 1.0))  # q = 0: the smallest wait
    j = int(np.searchsorted(cum, rank, side="left"))
    j = min(j, len(bins) - 1)
    lo, hi = bin_edges()
    b = int(bins[j])
    if b < LINEAR or not np.isfinite(hi[b]):
        return float(lo[b])
    before = cum[j] - counts[j]
    return float(min(lo[b] + (hi[b] - lo[b]) * (rank - before) / counts[j], max(top, lo[b])))


def quantiles_slots(hist: np.ndarray, q: float, top=np.inf) -> np.ndarray:
    """``quantile_slots`` of every row of ``hist`` (rows x BINS counts), at once; ``top``: each
    row's longest wait (or one for all)."""
    hist = np.asarray(hist, dtype=np.float64).reshape(-1, BINS)
    cum = np.cumsum(hist, axis=1)
    n = cum[:, -1]
    rank = np.maximum(q * n, np.nextafter(0.0, 1.0))
    j = np.minimum((cum < rank[:, None]).sum(axis=1), BINS - 1)
    lo, hi = bin_edges()
    rows = np.arange(len(hist))
    count = hist[rows, j]
    before = cum[rows, j] - count
    with np.errstate(invalid="ignore", divide="ignore"):
        inside = lo[j] + (hi[j] - lo[j]) * (rank - before) / count
    inside = np.minimum(inside, np.maximum(top, lo[j]))
    out = np.where((j < LINEAR) | ~np.isfinite(hi[j]), lo[j], inside)
    return np.where(n > 0, out, np.nan)
