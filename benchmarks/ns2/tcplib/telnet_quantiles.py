"""Derive diffsweep's tcplib telnet interarrival table (cuda/model/app_telnet.h) from ns-2's
own sample.

ns-2's Application/Telnet with ``interval_ 0`` draws each gap uniformly from the 10,000 sorted
tcplib telnet interarrival samples of ``tcplib-telnet.cc`` (``tcplib_telnet[int(u * 10000)]``,
seconds). diffsweep keeps a compact summary of that sample instead of the sample itself: the
body (the first 10000 - TAIL samples) as KNOTS + 1 quantile knots at equal steps of u,
interpolated geometrically between knots, and the TAIL largest samples exactly (each with
probability 1/10000), which keeps the heavy tail's mass and so the mean.

Usage: ``python telnet_quantiles.py path/to/tcplib-telnet.cc`` prints the C++ tables and the
moments of the summary against the sample (recorded in README.md here).
"""
from __future__ import annotations

import re
import sys

import numpy as np

KNOTS = 128
TAIL = 32


def sample(path: str) -> np.ndarray:
    text = open(path).read()
    body = text[text.index("tcplib_telnet[] = {") + 19:text.index("};")]
    v = np.array([float(x) for x in re.findall(r"[0-9.]+(?:e-?\d+)?", body)])
    assert len(v) == 10000 and np.all(np.diff(v) >= 0), "not ns-2's sorted 10,000 samples"
    return v


def summary(v: np.ndarray):
    n = len(v)
    u = np.linspace(0.0, 1.0 - TAIL / n, KNOTS + 1)
    body = np.interp(np.clip(u * n - 0.5, 0, n - 1), np.arange(n), v)
    return body, v[n - TAIL:]


def draw(body, tail, u, n=10000):
    """The summary's inverse CDF (what the engine computes), vectorised."""
    cut = 1.0 - len(tail) / n
    out = np.empty_like(u)
    b = u < cut
    pos = u[b] / cut * (len(body) - 1)
    j = np.minimum(pos.astype(int), len(body) - 2)
    t = pos - j
    out[b] = body[j] * (body[j + 1] / body[j]) ** t
    k = np.minimum(((u[~b] - cut) * n).astype(int), len(tail) - 1)
    out[~b] = tail[k]
    return out


def main(path: str) -> None:
    v = sample(path)
    body, tail = summary(v)
    fmt = lambda a: ",\n    ".join(", ".join(f"{x:.9g}" for x in a[i:i + 6]) for i in range(0, len(a), 6))
    print(f"// {KNOTS + 1} body knots\n    {fmt(body)}\n// {TAIL} tail samples\n    {fmt(tail)}")
    u = (np.arange(2_000_000) + 0.5) / 2_000_000
    a = draw(body, tail, u)
    for name, f in (("mean", np.mean), ("median", np.median)):
        print(f"{name}: summary {f(a):.4f} s, ns-2 sample {f(v):.4f} s")
    for q in (0.1, 0.9, 0.99):
        print(f"q{q}: summary {np.quantile(a, q):.4f} s, ns-2 sample {np.quantile(v, q):.4f} s")


if __name__ == "__main__":
    main(sys.argv[1])
