"""Padhye, Firoiu, Towsley & Kurose's full model of TCP Reno's send rate (PFTK, SIGCOMM'98,
eq. 31; reference [23] of Kaur & Vin) and its relative error against each flow's observed rate
(Kaur & Vin Sec. 5, Fig. 10).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.analysis.replicas import _need


def _pow1mp(p: np.ndarray, k) -> np.ndarray:
    """(1-p)^k computed as exp(k*log1p(-p)), accurate for tiny p."""
    return np.exp(np.asarray(k, dtype=float) * np.log1p(-p))


def _one_minus_pow1mp(p: np.ndarray, k) -> np.ndarray:
    """1-(1-p)^k without cancellation for tiny p."""
    return -np.expm1(np.asarray(k, dtype=float) * np.log1p(-p))


def _pftk_q(p: np.ndarray, w: np.ndarray) -> np.ndarray:
    """PFTK Q(p, w): probability that a loss in a window of w packets is a timeout.

    ``Q = min(1, (1-(1-p)^3) (1+(1-p)^3 (1-(1-p)^(w-3))) / (1-(1-p)^w))`` (PFTK Sec. 2.2, the
    approximation of Q-hat used in eq. 31).
    """
    num = _one_minus_pow1mp(p, 3.0) * (1.0 + _pow1mp(p, 3.0) * _one_minus_pow1mp(p, w - 3.0))
    return np.minimum(1.0, num / _one_minus_pow1mp(p, w))


def _pftk_f(p: np.ndarray) -> np.ndarray:
    """PFTK f(p) = 1+p+2p^2+4p^3+8p^4+16p^5+32p^6 (exponential back-off, PFTK eq. 28)."""
    return 1.0 + p * (1.0 + p * (2.0 + p * (4.0 + p * (8.0 + p * (16.0 + p * 32.0)))))


def padhye_throughput_pps(p, rtt_s, rto_s, b=1, w_max=1000.0):
    """TCP Reno send rate in packets/s from the full PFTK model (Padhye, Firoiu, Towsley,
    Kurose, "Modeling TCP Throughput: A Simple Model and its Empirical Validation",
    SIGCOMM'98, eq. 31: triple-duplicate losses, timeouts with back-off, and the receiver
    window limit).  This is reference [23] of Kaur & Vin, whose Fig. 10 shows its error.

    With ``E[W] = (2+b)/(3b) + sqrt(8(1-p)/(3bp) + ((2+b)/(3b))^2)`` (eq. 13),
    ``Q(p,w)`` (Sec. 2.2) and ``f(p)`` (eq. 28)::

        E[W] <  W_max:  B = ((1-p)/p + E[W] + Q(p,E[W])/(1-p))
                            / (RTT (b/2 E[W] + 1) + Q(p,E[W]) T0 f(p)/(1-p))
        E[W] >= W_max:  B = ((1-p)/p + W_max + Q(p,W_max)/(1-p))
                            / (RTT (b/8 W_max + (1-p)/(p W_max) + 2) + Q(p,W_max) T0 f(p)/(1-p))

    Not the approximate closed form ``min(W_max/RTT, 1/(RTT sqrt(2bp/3) + T0 min(1,
    3 sqrt(3bp/8)) p (1+32p^2)))``.

    Arguments broadcast as numpy arrays: ``p`` loss-indication probability in [0, 1)
    (``p == 0`` gives the window-limited rate ``W_max/RTT``; p outside [0, 1) or NaN gives NaN),
    ``rtt_s`` mean round-trip time, ``rto_s`` = T0 (mean base timeout), ``b`` packets
    acknowledged per ACK (1 without delayed ACKs, as in Kaur & Vin), ``w_max`` receiver window
    limit in packets (default 1000, the ``TcpFlow.max_window_pkts`` default).  Returns a float
    for scalar inputs, else an ndarray.
    """
    p, rtt, t0, b, wm = np.broadcast_arrays(*(np.asarray(v, dtype=float)
                                              for v in (p, rtt_s, rto_s, b, w_max)))
    scalar = p.ndim == 0
    p, rtt, t0, b, wm = (np.atleast_1d(v).astype(float) for v in (p, rtt, t0, b, wm))
    out = np.full(p.shape, np.nan)
    zero = p == 0.0
    out[zero] = wm[zero] / rtt[zero]
    ok = (p > 0.0) & (p < 1.0)
    if ok.any():
        pp, r, T0, bb, W = p[ok], rtt[ok], t0[ok], b[ok], wm[ok]
        c = (2.0 + bb) / (3.0 * bb)
        ew = c + np.sqrt(8.0 * (1.0 - pp) / (3.0 * bb * pp) + c * c)          # eq. 13
        fp = _pftk_f(pp)
        q1 = 1.0 - pp
        unl = ew < W                                                          # eq. 31, case 1
        w = np.where(unl, ew, W)
        q = _pftk_q(pp, w)
        num = q1 / pp + w + q / q1
        den_rtt = np.where(unl, bb / 2.0 * w + 1.0,                         # rounds per cycle
                           bb / 8.0 * W + q1 / (pp * W) + 2.0)               # eq. 31, case 2
        out[ok] = num / (r * den_rtt + q * T0 * fp / q1)
    return float(out[0]) if scalar else out


def padhye_error(flows: pd.DataFrame, b=1, w_max=1000.0) -> pd.DataFrame:
    """Relative error of the PFTK prediction per flow, ``(predicted - observed) / observed``
    (Kaur & Vin Sec. 5, Fig. 10: CDF of this quantity; paper: 80% off by >= 10%).

    Model inputs are the flow's own measurements: ``p = drops / pkts_sent`` (packets of the
    flow dropped at queues, over packets it sent; a per-packet loss rate standing in for PFTK's
    loss-indication rate), ``RTT = rtt_mean_s``, ``T0 = rto_mean_s``, ``W_max`` from a
    ``max_window_pkts`` column when the table has one (NaN cells and tables without it use
    ``w_max``).  ``observed = goodput_bps / (8 * segment_bytes)`` payload packets/s, the
    in-order delivered rate, as Kaur & Vin compare "observed throughput"; note PFTK's B counts
    packets *sent* (retransmissions included), so the error leans positive when retransmits
    are many.

    Flows with ``p == 0`` (the model only gives the window bound), ``pkts_sent == 0`` or
    ``observed == 0`` (relative error undefined) get NaN.  Returns a copy of ``flows`` with
    ``padhye_p``, ``observed_pps``, ``predicted_pps`` and ``padhye_error``.
    """
    _need(flows, ["goodput_bps", "segment_bytes", "drops", "pkts_sent", "rtt_mean_s",
                  "rto_mean_s"], "flows")
    out = flows.copy()
    sent = out["pkts_sent"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(sent > 0, out["drops"].to_numpy(dtype=float)
                     / np.where(sent > 0, sent, 1.0), np.nan)
    obs = (out["goodput_bps"].to_numpy(dtype=float)
           / (8.0 * out["segment_bytes"].to_numpy(dtype=float)))
    if "max_window_pkts" in out.columns:
        wm = out["max_window_pkts"].to_numpy(dtype=float)
        wm = np.where(np.isnan(wm), float(w_max), wm)
    else:
        wm = np.full(len(out), float(w_max))
    pred = np.asarray(padhye_throughput_pps(p, out["rtt_mean_s"].to_numpy(dtype=float),
                                            out["rto_mean_s"].to_numpy(dtype=float), b, wm),
                      dtype=float).reshape(len(out))
    valid = (p > 0) & (obs > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        err = np.where(valid, (pred - obs) / np.where(valid, obs, 1.0), np.nan)
    out["padhye_p"] = p
    out["observed_pps"] = obs
    out["predicted_pps"] = pred
    out["padhye_error"] = err
    return out
