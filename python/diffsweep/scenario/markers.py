"""An edge conditioner (meter + marker) of one aggregate: ``Marker``."""
from __future__ import annotations

from dataclasses import dataclass, field

from diffsweep.core.errors import check
from diffsweep.scenario.checks import (INT32_MAX, MARKER_KINDS, SMALL_WINDOW_KINDS, _OMIT,
                                       _as_tuple, _name, _one_of, _set, as_float, as_int,
                                       check_bool, check_nonneg, check_number, check_positive,
                                       is_int, plain)


@dataclass(frozen=True, kw_only=True)
class Marker:
    """An edge conditioner (meter + marker) for one aggregate: the TCP flows ``flows`` and the
    sources ``sources`` (indices into the scenario's lists), metered together at the ingress of
    link ``link`` (which must be on each member's route), before that link's queue.

    kinds (docs/model.md, "Edge conditioners"): ``"token_bucket"`` (``cir_bps``, ``cbs_bytes``:
    green or red), ``"tsw2cm"`` (TSW rate estimate over ``window_s`` against ``cir_bps``),
    ``"tsw3cm"`` (and ``pir_bps``: three colours), ``"srtcm"`` (RFC 2697: ``cir_bps``,
    ``cbs_bytes``, EBS = ``pbs_bytes``), ``"trtcm"`` (RFC 2698: ``cir_bps``/``cbs_bytes``,
    ``pir_bps``/``pbs_bytes``), ``"balancing"`` (Lee & Jeong's Balancing Marker: per-connection
    first buckets of ``b1_bytes`` at cir_bps / active connections, a shared second bucket
    (``cir_bps``, ``cbs_bytes``), and the RED-to-YELLOW re-marking probability P(W) =
    ``p_max`` for W <= ``w_lo``, 0 for W >= ``w_hi``, linear between, W = AR_x / R_x_basic;
    a connection silent for ``active_s`` is not active), ``"rtt_aware"`` (Nandy et al.'s
    RTT-aware conditioner: the aggregate's TSW rate against the target ``cir_bps``; an
    out-of-profile packet is DP2 (red) with probability (``ref_rtt_s`` / RTT)^2, else DP1,
    RTT being its sender's smoothed RTT when sent), ``"rtt_rto"`` (Habib et al.'s RTT-RTO
    conditioner, eq. 9: DP2 with probability (``ref_rtt_s`` / RTT) sqrt(``ref_rto_s`` / RTO),
    a flow at or below the references by its own RTT / RTO). ``ref_rtt_s`` / ``ref_rto_s``:
    None = the shortest propagation round trip of the flows metered by a TCP-aware
    conditioner, and max(min_rto_s, that RTT). ``small_window_pkts`` (k; tsw3cm, rtt_aware,
    rtt_rto; None = off): a packet whose sender's cwnd was below k when sent is green (DP0:
    Feroz et al.'s small-window protection; "standard+SW" with tsw3cm, "RTT-SW" with
    rtt_aware). docs/model.md, "TCP-aware conditioners". ``colour_aware``: srTCM/trTCM read the
    colour packets arrive with (the members must then have a ``colour``). A flow crossing two
    DiffServ domains may be a member of two conditioners, on different links of its route."""

    name: str
    kind: str
    cir_bps: float
    cbs_bytes: float
    link: int = 0
    flows: tuple[int, ...] = ()
    sources: tuple[int, ...] = ()
    traffic: tuple[int, ...] = field(default=(), metadata=_OMIT)
    pir_bps: float | None = None
    pbs_bytes: float | None = None
    window_s: float = 1.0
    colour_aware: bool = False
    b1_bytes: float | None = None
    w_lo: float = 1.0
    w_hi: float = 2.0
    p_max: float = 1.0
    active_s: float = 1.0
    small_window_pkts: int | None = field(default=None, metadata=_OMIT)
    ref_rtt_s: float | None = field(default=None, metadata=_OMIT)
    ref_rto_s: float | None = field(default=None, metadata=_OMIT)

    def __post_init__(self):
        for f in ("flows", "sources", "traffic"):
            v = _as_tuple(plain(getattr(self, f)))
            if isinstance(v, tuple):
                v = tuple(as_int(i) for i in v)
            _set(self, f, v)
        _set(self, "link", as_int(self.link))
        for f in ("cir_bps", "cbs_bytes", "pir_bps", "pbs_bytes", "window_s", "b1_bytes", "w_lo",
                  "w_hi", "p_max", "active_s", "ref_rtt_s", "ref_rto_s"):
            _set(self, f, as_float(getattr(self, f)))
        _set(self, "small_window_pkts", as_int(self.small_window_pkts))
        _set(self, "colour_aware", plain(self.colour_aware))
        self._validate(type(self).__name__)

    def _validate(self, path: str) -> None:
        _name(f"{path}.name", self.name)
        _one_of(f"{path}.kind", self.kind, MARKER_KINDS)
        check(is_int(self.link) and self.link >= 0, f"{path}.link", self.link, "a link index >= 0")
        for f in ("flows", "sources", "traffic"):
            v = getattr(self, f)
            check(isinstance(v, tuple), f"{path}.{f}", v, "a sequence of indices")
            for j, i in enumerate(v):
                check(is_int(i) and i >= 0, f"{path}.{f}[{j}]", i, "an index >= 0")
            check(len(set(v)) == len(v), f"{path}.{f}", v, "indices without repeats")
        check(len(self.flows) + len(self.sources) + len(self.traffic) >= 1, f"{path}.flows",
              self.flows, "at least one flow (or a source in sources, or a generator in "
              "traffic): an aggregate has members")
        if self.kind in ("rtt_aware", "rtt_rto"):
            check(self.cir_bps is not None, f"{path}.cir_bps", self.cir_bps,
                  f"a number > 0 (the aggregate's target rate) for kind {self.kind!r}")
        check_positive(f"{path}.cir_bps", self.cir_bps)
        check_positive(f"{path}.cbs_bytes", self.cbs_bytes)
        if self.small_window_pkts is not None:
            check(self.kind in SMALL_WINDOW_KINDS, f"{path}.small_window_pkts",
                  self.small_window_pkts, "None for kind " + repr(self.kind) + " (small-window "
                  "protection goes with " + ", ".join(repr(k) for k in SMALL_WINDOW_KINDS) + ")")
            check(is_int(self.small_window_pkts) and 1 <= self.small_window_pkts <= INT32_MAX,
                  f"{path}.small_window_pkts", self.small_window_pkts,
                  "an integer k >= 1 (cwnd < k is protected) or None (off)")
        for f in ("ref_rtt_s", "ref_rto_s"):
            if getattr(self, f) is not None:
                check(self.kind in ("rtt_aware", "rtt_rto"), f"{path}.{f}", getattr(self, f),
                      "None for kind " + repr(self.kind) + " (a reference of the RTT-aware "
                      "and RTT-RTO conditioners)")
                check_positive(f"{path}.{f}", getattr(self, f))
        if self.kind in ("tsw3cm", "trtcm"):
            check(self.pir_bps is not None, f"{path}.pir_bps", self.pir_bps,
                  f"a number >= cir_bps ({self.cir_bps}) for kind {self.kind!r}")
        if self.pir_bps is not None:
            check_number(f"{path}.pir_bps", self.pir_bps, lambda x: x >= self.cir_bps,
                         f"a number >= cir_bps ({self.cir_bps}): the peak rate is not below "
                         "the committed rate")
        if self.kind == "trtcm":
            check(self.pbs_bytes is not None, f"{path}.pbs_bytes", self.pbs_bytes,
                  "a number > 0 for kind 'trtcm'")
            check_positive(f"{path}.pbs_bytes", self.pbs_bytes)
        if self.kind == "srtcm":
            check(self.pbs_bytes is not None, f"{path}.pbs_bytes", self.pbs_bytes,
                  "a number >= 0 (the excess burst size, EBS) for kind 'srtcm'")
            check_nonneg(f"{path}.pbs_bytes", self.pbs_bytes)
        check_positive(f"{path}.window_s", self.window_s)
        check_bool(f"{path}.colour_aware", self.colour_aware)
        check(not self.colour_aware or self.kind in ("srtcm", "trtcm"), f"{path}.colour_aware",
              self.colour_aware, f"False for kind {self.kind!r} (only 'srtcm' and 'trtcm' are "
              "colour-aware)")
        if self.kind == "balancing":
            check(self.b1_bytes is not None, f"{path}.b1_bytes", self.b1_bytes,
                  "a number > 0 (each connection's first bucket) for kind 'balancing'")
            check_positive(f"{path}.b1_bytes", self.b1_bytes)
        check_nonneg(f"{path}.w_lo", self.w_lo)
        check_number(f"{path}.w_hi", self.w_hi, lambda x: x > self.w_lo,
                     f"a number > w_lo ({self.w_lo})")
        check_number(f"{path}.p_max", self.p_max, lambda x: 0 < x <= 1, "a number in (0, 1]")
        check_positive(f"{path}.active_s", self.active_s)
