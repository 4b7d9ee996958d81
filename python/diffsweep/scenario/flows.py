"""A TCP sender/receiver pair: ``TcpFlow`` and the ranges of its integer fields."""
from __future__ import annotations

from dataclasses import dataclass, field

from diffsweep.core.errors import check
from diffsweep.scenario.checks import (CONGESTION_CONTROLS, HYSTART_DETECTS, INT32_MAX,
                                       RTO_RESTARTS, SSTHRESH_FROM,
                                       MAX_ACCESS_BUFFER_PKTS, MAX_HEADER_BYTES,
                                       MAX_SEGMENT_BYTES, MAX_SEND_JITTER_S, MAX_WINDOW_PKTS,
                                       MAX_WIRE_BYTES, SPLITS, VARIANTS, _OMIT, IntField, _as_route,
                                       _as_tuple, _colour, _int_in, _name, _new_object, _one_of,
                                       _route, as_float, as_int, check_bool, check_ints,
                                       carry_renamed, check_nonneg, is_int, is_real, plain,
                                       remember_renamed)


@dataclass(frozen=True)
class TcpFlow:
    """A TCP sender/receiver pair. ``access_rate_bps``: None = rate of the first link of the
    route, 0 = unpaced. ``size_pkts``: None = backlogged. Delays outside the route's links:
    ``access`` (sender to first link), ``egress`` (last link to receiver), ``reverse`` (the
    whole ACK path, uncongested). ``access_buffer_pkts``: drop-tail buffer of the access link
    in packets (None = unlimited). ``init_ssthresh_pkts``: initial slow-start threshold (None =
    none until the first loss; ns-2's ssthresh_). ``drop_seqs``: validation hook, sequence numbers lost on
    their first transmission at the first link (at most 8). ``send_jitter_s``: ns-2's
    ``overhead_``, a send the window allows waits a uniform random time in [0, send_jitter_s)
    (breaks phase effects; 0 = off; docs/model.md, "Send jitter"). ``colour``: the drop
    precedence its packets leave the host with ("green", "yellow", "red"; None = green and not
    pre-coloured); an edge conditioner (``Scenario.markers``) may re-mark them.
    ``limited_transmit``: RFC 3042 (ns-2.35's default ``singledup_ 1``): a new segment on each
    of the first two duplicate ACKs. ``telnet_interval_s``: a telnet-like application (ns-2
    Application/Telnet): instead of bulk
    data it writes one segment at exponential intervals of this mean, each sent as soon as the
    window allows (use a small ``segment_bytes``); 0 = ns-2's ``interval_ 0``: gaps drawn from
    tcplib's telnet interarrival distribution (mean 1.1 s, median 0.24 s, heavy-tailed;
    docs/model.md, "Telnet"); a telnet-like flow with ``size_pkts`` is a session that ends
    after writing that many segments; None = bulk data (``size_pkts``).
    ``route2``: a second path (Matta & Guo's two-path "diamond"); ``split`` picks a packet's
    path: "none" (all on ``route``), "random" (each connection/transfer on either path with
    probability 1/2), "size" (a connection of fewer than ``split_pkts`` packets on ``route``,
    larger or backlogged ones on ``route2``), "lifetime" (segments with sequence number <
    ``split_pkts`` on ``route``, later ones on ``route2``; docs/model.md, "Two paths and the
    edge classifier"). ``syn``: ns-2's ``syn_``: a connection first sends a header-only SYN as
    sequence number 0 (its data are 1..n) and counts it as a packet, not as data.
    ``delay_growth``: ns-2's ``delay_growth_``: the ACK of sequence number 0 (the SYN's, or the
    first data packet's without ``syn``) sets cwnd back to the initial window; with ``syn`` the
    SYN goes alone (cwnd 1). Both off by default (docs/model.md, "TCP").
    ``congestion_control``: the window's growth and its reduction at a loss, in ns-3's
    vocabulary: "newreno" (ns-2's slow start and AIMD, the default) or "cubic" (RFC 9438 as
    ns-3.44's TcpCubic; docs/model.md, "CUBIC"), over the loss recovery ``variant`` picks.
    CUBIC's parameters are ns-3.44's TcpCubic attributes with its defaults, in force only with
    "cubic": ``cubic_c`` (C, 0.4 segments/s^3), ``cubic_beta`` (Beta, 0.7),
    ``cubic_fast_convergence`` (FastConvergence, True), ``cubic_tcp_friendliness``
    (TcpFriendliness, True), ``cubic_hystart`` (HyStart, True),
    ``cubic_hystart_low_window_pkts`` (HyStartLowWindow, 16), ``cubic_hystart_detect``
    (HyStartDetect: "packet_train", "delay" or "both"), ``cubic_hystart_min_samples``
    (HyStartMinSamples, 8), ``cubic_hystart_ack_delta_ms`` (HyStartAckDelta, 2 ms),
    ``cubic_hystart_delay_min_ms`` (HyStartDelayMin, 4 ms), ``cubic_hystart_delay_max_ms``
    (HyStartDelayMax, 1000 ms), ``cubic_delta_ms`` (CubicDelta, 10 ms), ``cubic_cnt_clamp``
    (CntClamp, 20).
    ``ssthresh_from``: what NewReno's window halves at a fast retransmit: "window" (ns-2.35's
    slowdown(): half the window, the default) or "flight" (ns-3.44's EnterRecovery with
    TcpNewReno::GetSsThresh: half of RFC 6675's pipe then, the SACKed segments and the lost
    head left out; cwnd = ssthresh); "flight" needs ``variant="sack"`` and changes NewReno's
    reduction only (CUBIC's and DCTCP's are their own; a timeout keeps ns-2's rule: docs/model.md,
    "SACK").
    ``rto_restart``: when the retransmission timer restarts: "fast_retransmit" (ns-2.35's,
    the default: also at a fast retransmit, reset_rtx_timer(), and at every partial ACK of a
    SACK recovery) or "new_ack" (ns-3.44's TcpSocketBase: only at a new ACK, NewAck(), and of
    a recovery's partial ACKs only the first; the fast retransmit leaves the running timer
    alone), any ``variant`` (docs/model.md, "SACK")."""

    route: tuple[int, ...] = (0,)
    cls: str = "be"
    variant: str = "reno"
    segment_bytes: int = 536
    header_bytes: int = 40
    max_window_pkts: int = 1000
    init_window_pkts: int = 2
    access_delay_ms: float = 0.0
    egress_delay_ms: float = 0.0
    reverse_delay_ms: float = 0.0
    access_rate_bps: float | None = None
    start_s: float = 0.0
    size_pkts: int | None = None
    delayed_ack: bool = False
    reno_bugfix: bool = False
    access_buffer_pkts: int | None = None
    init_ssthresh_pkts: int | None = None
    drop_seqs: tuple[int, ...] = ()
    send_jitter_s: float = 0.0
    colour: str | None = field(default=None, metadata=_OMIT)
    telnet_interval_s: float | None = field(default=None, metadata=_OMIT)
    limited_transmit: bool = field(default=False, metadata=_OMIT)
    route2: tuple[int, ...] = field(default=(), metadata=_OMIT)
    split: str = field(default="none", metadata=_OMIT)
    split_pkts: int | None = field(default=None, metadata=_OMIT)
    syn: bool = field(default=False, metadata=_OMIT)
    delay_growth: bool = field(default=False, metadata=_OMIT)
    congestion_control: str = field(default="newreno", metadata=_OMIT)
    ecn: bool = field(default=False, metadata=_OMIT)
    ssthresh_from: str = field(default="window", metadata=_OMIT)
    rto_restart: str = field(default="fast_retransmit", metadata=_OMIT)
    cubic_c: float = field(default=0.4, metadata=_OMIT)
    cubic_beta: float = field(default=0.7, metadata=_OMIT)
    cubic_fast_convergence: bool = field(default=True, metadata=_OMIT)
    cubic_tcp_friendliness: bool = field(default=True, metadata=_OMIT)
    cubic_hystart: bool = field(default=True, metadata=_OMIT)
    cubic_hystart_low_window_pkts: int = field(default=16, metadata=_OMIT)
    cubic_hystart_detect: str = field(default="both", metadata=_OMIT)
    cubic_hystart_min_samples: int = field(default=8, metadata=_OMIT)
    cubic_hystart_ack_delta_ms: float = field(default=2.0, metadata=_OMIT)
    cubic_hystart_delay_min_ms: float = field(default=4.0, metadata=_OMIT)
    cubic_hystart_delay_max_ms: float = field(default=1000.0, metadata=_OMIT)
    cubic_delta_ms: float = field(default=10.0, metadata=_OMIT)
    cubic_cnt_clamp: int = field(default=20, metadata=_OMIT)

    def __post_init__(self):
        self._normalize()
        self._validate(type(self).__name__)
        # the builder parameter that set the access rate (renamed_errors), which may set the
        # engine's time slot (slot.fastest_rate): named in the slot messages (not a field:
        # no digest change)
        remember_renamed(self, "TcpFlow.access_rate_bps")

    def _normalize(self) -> None:
        # Written through __dict__ (the dataclass is frozen, not slotted), and only where a
        # value changes: most arrive as plain ints, floats and one-link tuples already.
        d = self.__dict__
        drops = d["drop_seqs"]
        if drops != ():
            drops = _as_tuple(plain(drops))
            if isinstance(drops, tuple):
                drops = tuple(as_int(x) for x in drops)
            d["drop_seqs"] = drops
        for f in ("route", "route2"):
            v = d[f]
            if type(v) is not tuple or any(type(x) is not int for x in v):
                d[f] = _as_route(v)
        for f in _FLOW_INTS:
            v = d[f]
            if v is not None and type(v) is not int:
                d[f] = as_int(v)
        for f in _FLOW_FLOATS:
            v = d[f]
            if v is not None and type(v) is not float:
                d[f] = as_float(v)
        for f in ("delayed_ack", "reno_bugfix", "limited_transmit", "syn", "delay_growth",
                  "cubic_fast_convergence", "cubic_tcp_friendliness", "cubic_hystart"):
            v = d[f]
            if type(v) is not bool:
                d[f] = plain(v)

    def _validate(self, path: str) -> None:
        _route(f"{path}.route", self.route)
        if self.route2 != ():
            _route(f"{path}.route2", self.route2)
        _one_of(f"{path}.split", self.split, SPLITS)
        if self.split != "none":
            check(self.route2 != (), f"{path}.route2", self.route2,
                  f"a second route: split is {self.split!r}")
        if self.split in ("size", "lifetime"):
            check(is_int(self.split_pkts) and 1 <= self.split_pkts <= INT32_MAX,
                  f"{path}.split_pkts", self.split_pkts,
                  f"an integer >= 1: the threshold of the {self.split!r} split")
        else:
            check(self.split_pkts is None, f"{path}.split_pkts", self.split_pkts,
                  f"None: split is {self.split!r} (only 'size' and 'lifetime' take a threshold)")
        _name(f"{path}.cls", self.cls)
        _one_of(f"{path}.variant", self.variant, VARIANTS)
        check_ints(path, self, _FLOW_INT_RANGES)
        check(self.segment_bytes + self.header_bytes <= MAX_WIRE_BYTES, f"{path}.segment_bytes",
              self.segment_bytes,
              f"segment_bytes + header_bytes ({self.header_bytes}) <= {MAX_WIRE_BYTES}")
        check(isinstance(self.drop_seqs, tuple) and len(self.drop_seqs) <= 8
              and all(is_int(d) and 0 <= d <= INT32_MAX for d in self.drop_seqs),
              f"{path}.drop_seqs", self.drop_seqs,
              f"at most 8 sequence numbers in 0..{INT32_MAX}")
        _int_in(f"{path}.init_window_pkts", self.init_window_pkts, 1, self.max_window_pkts,
                " (at most max_window_pkts)")
        for f in ("access_delay_ms", "egress_delay_ms", "reverse_delay_ms"):
            check_nonneg(f"{path}.{f}", getattr(self, f))
        v = self.access_rate_bps
        check(v is None or (is_real(v) and v >= 0), f"{path}.access_rate_bps", v,
              "None (rate of the route's first link), 0 (unpaced) or a number > 0")
        check_nonneg(f"{path}.start_s", self.start_s)
        # a jitter is a fraction of a round trip (ns-2 users set 1e-4 s); beyond a second the
        # engine's send timer (a uint32 of slots) can wrap and the run never ends
        check(is_real(self.send_jitter_s) and 0 <= self.send_jitter_s <= MAX_SEND_JITTER_S,
              f"{path}.send_jitter_s", self.send_jitter_s,
              f"a number of seconds in 0..{MAX_SEND_JITTER_S:g} (0: off)")
        check_bool(f"{path}.delayed_ack", self.delayed_ack)
        check_bool(f"{path}.reno_bugfix", self.reno_bugfix)
        check_bool(f"{path}.limited_transmit", self.limited_transmit)
        check_bool(f"{path}.syn", self.syn)
        check_bool(f"{path}.delay_growth", self.delay_growth)
        if self.syn:
            check(self.telnet_interval_s is None, f"{path}.syn", self.syn,
                  "False with telnet_interval_s (a SYN before a telnet-like application's "
                  "writes is not modelled)")
            check(self.size_pkts is None or self.size_pkts < INT32_MAX, f"{path}.size_pkts",
                  self.size_pkts, f"at most {INT32_MAX - 1} with syn (the SYN takes sequence "
                  "number 0)")
            check(self.header_bytes >= 1, f"{path}.syn", self.syn,
                  f"False with header_bytes {self.header_bytes} (the SYN is a header-only "
                  "packet of header_bytes)")
        _colour(f"{path}.colour", self.colour)
        if self.telnet_interval_s is not None:
            check_nonneg(f"{path}.telnet_interval_s", self.telnet_interval_s)
        self._validate_cubic(path)

    def _validate_cubic(self, path: str) -> None:
        _one_of(f"{path}.congestion_control", self.congestion_control, CONGESTION_CONTROLS)
        _one_of(f"{path}.ssthresh_from", self.ssthresh_from, SSTHRESH_FROM)
        if self.ssthresh_from == "flight":
            check(self.variant == "sack", f"{path}.ssthresh_from", self.ssthresh_from,
                  f"'window' with variant {self.variant!r} ('flight' is ns-3's half of the SACK "
                  "pipe: variant 'sack')")
        _one_of(f"{path}.rto_restart", self.rto_restart, RTO_RESTARTS)
        check_bool(f"{path}.ecn", self.ecn)
        if self.congestion_control != "cubic":
            # a CUBIC parameter on a flow that does not run CUBIC is a mistake, not a no-op
            for f, default in _CUBIC_DEFAULTS.items():
                v = getattr(self, f)
                check(v == default, f"{path}.{f}", v,
                      f"the default {default!r} unless congestion_control is 'cubic' (it is "
                      f"{self.congestion_control!r})")
            return
        # C and beta as ns-3's checkers allow them, less the values its arithmetic cannot take:
        # C = 0 divides by zero in K, beta >= 1 in the TCP-friendly scale
        check(is_real(self.cubic_c) and 0 < self.cubic_c <= 1e6, f"{path}.cubic_c", self.cubic_c,
              "a number in (0, 1e6] (segments per s^3; ns-3's default 0.4)")
        check(is_real(self.cubic_beta) and 0 < self.cubic_beta < 1, f"{path}.cubic_beta",
              self.cubic_beta, "a number in (0, 1) (ns-3's default 0.7)")
        for f in ("cubic_fast_convergence", "cubic_tcp_friendliness", "cubic_hystart"):
            check_bool(f"{path}.{f}", getattr(self, f))
        _one_of(f"{path}.cubic_hystart_detect", self.cubic_hystart_detect, HYSTART_DETECTS)
        check_ints(path, self, _CUBIC_INT_RANGES)
        for f in ("cubic_hystart_ack_delta_ms", "cubic_hystart_delay_min_ms",
                  "cubic_hystart_delay_max_ms", "cubic_delta_ms"):
            check_nonneg(f"{path}.{f}", getattr(self, f))
        check(self.cubic_hystart_delay_min_ms <= self.cubic_hystart_delay_max_ms,
              f"{path}.cubic_hystart_delay_min_ms", self.cubic_hystart_delay_min_ms,
              f"at most cubic_hystart_delay_max_ms ({self.cubic_hystart_delay_max_ms!r})")

    @property
    def cubic_params(self) -> tuple | None:
        """CUBIC's parameters (the cubic_* fields, in their order), None without CUBIC."""
        if self.congestion_control != "cubic":
            return None
        return tuple(getattr(self, f) for f in _CUBIC_DEFAULTS)

    @property
    def wire_bytes(self) -> int:
        """Bytes of one full data packet on the wire."""
        return self.segment_bytes + self.header_bytes

    def with_delays(self, access_delay_ms, egress_delay_ms, reverse_delay_ms) -> "TcpFlow":
        """This flow with other constant delays: the same as ``dataclasses.replace`` with them,
        checking only what changes (no other check involves them), for builders that make many
        flows differing only in their RTPs (a 64-flow scenario: ~20 us per flow saved)."""
        vals = []
        for f, v in (("access_delay_ms", access_delay_ms), ("egress_delay_ms", egress_delay_ms),
                     ("reverse_delay_ms", reverse_delay_ms)):
            v = as_float(v)
            check_nonneg(f"TcpFlow.{f}", v)
            vals.append(v)
        return self._delayed(*vals)

    def _delayed(self, access_delay_ms: float, egress_delay_ms: float,
                 reverse_delay_ms: float) -> "TcpFlow":
        """``with_delays`` without its checks (plain floats, already checked): a new instance
        sharing every other field's value."""
        new = _new_object(TcpFlow)
        d = new.__dict__
        d.update(self.__dict__)
        d["access_delay_ms"] = access_delay_ms
        d["egress_delay_ms"] = egress_delay_ms
        d["reverse_delay_ms"] = reverse_delay_ms
        carry_renamed(self, new)
        return new


# The engine's sequence numbers are int32 (model/packet.h), as are its windows and buffers.
_FLOW_INT_RANGES = (
    IntField("segment_bytes", 1, MAX_SEGMENT_BYTES),
    IntField("header_bytes", 0, MAX_HEADER_BYTES),
    IntField("max_window_pkts", 1, MAX_WINDOW_PKTS, None,
             " (2^16): the receiver's reorder bitmap grows with the window, 8 KiB a flow at 65536"),
    IntField("init_ssthresh_pkts", 2, INT32_MAX, "None"),
    IntField("access_buffer_pkts", 1, MAX_ACCESS_BUFFER_PKTS, "None (unlimited)"),
    IntField("size_pkts", 1, INT32_MAX, "None (backlogged)", " (sequence numbers are 32-bit)"))

# CUBIC's parameters and their defaults (ns-3.44 TcpCubic's attributes), in the engine's order
# (cuda/batch.h CubicParam)
_CUBIC_DEFAULTS = {
    "cubic_c": 0.4, "cubic_beta": 0.7, "cubic_fast_convergence": True,
    "cubic_tcp_friendliness": True, "cubic_hystart": True, "cubic_hystart_low_window_pkts": 16,
    "cubic_hystart_detect": "both", "cubic_hystart_min_samples": 8,
    "cubic_hystart_ack_delta_ms": 2.0, "cubic_hystart_delay_min_ms": 4.0,
    "cubic_hystart_delay_max_ms": 1000.0, "cubic_delta_ms": 10.0, "cubic_cnt_clamp": 20}
# ns-3 keeps HyStartMinSamples and CntClamp in a uint8
_CUBIC_INT_RANGES = (
    IntField("cubic_hystart_low_window_pkts", 1, INT32_MAX),
    IntField("cubic_hystart_min_samples", 0, 255, None, " (ns-3: a uint8)"),
    IntField("cubic_cnt_clamp", 0, 255, None, " (ns-3: a uint8)"))

_FLOW_INTS = ("access_buffer_pkts", "init_ssthresh_pkts", "split_pkts", "segment_bytes",
               "header_bytes", "max_window_pkts", "init_window_pkts", "size_pkts",
               "cubic_hystart_low_window_pkts", "cubic_hystart_min_samples", "cubic_cnt_clamp")
_FLOW_FLOATS = ("telnet_interval_s", "access_delay_ms", "egress_delay_ms", "reverse_delay_ms",
                "access_rate_bps", "start_s", "send_jitter_s", "cubic_c", "cubic_beta",
                "cubic_hystart_ack_delta_ms", "cubic_hystart_delay_min_ms",
                "cubic_hystart_delay_max_ms", "cubic_delta_ms")


#: CUBIC's builder options: TcpFlow's cubic_* fields (ns-3.44 TcpCubic's attributes), with its
#: defaults
CUBIC_OPTIONS = tuple(f for f in TcpFlow.__dataclass_fields__ if f.startswith("cubic_"))


def cubic_options(ccs, values: dict) -> dict:
    """The CUBIC flows' cubic_* fields from a builder's options (``values``: name -> value, a
    builder's locals()); without a CUBIC flow among ``ccs`` each must be its default (TcpFlow
    says the same of a flow; here in the builder's words)."""
    cubic = {k: plain(values[k]) for k in CUBIC_OPTIONS}
    if "cubic" not in ccs:
        for k, v in cubic.items():
            d = TcpFlow.__dataclass_fields__[k].default
            check(v == d, k, v, f"the default {d!r} unless a flow's congestion_control is "
                                "'cubic'")
    return cubic
