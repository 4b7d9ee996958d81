"""Scenario description: links, TCP flows and on/off sources (see docs/api.md, "Scenario").

Every class is a frozen dataclass validated in ``__post_init__``. A bad value raises
:class:`~diffsweep.errors.ConfigError` whose message starts with the field path. A child built
on its own reports its class name (``TcpFlow.variant: ...``); a child given to ``Scenario`` as a
dict, or through ``Scenario.from_dict``, reports its place in the scenario
(``flows[2].variant: ...``), and so do the checks that need the whole scenario (routes, classes,
buffer sizes, start times).

Numbers are normalised on construction (numpy scalars to Python, float fields to ``float``,
integral values of integer fields to ``int``, sequences to tuples) so that two scenarios that
mean the same compare equal and give the same ``to_dict()`` and ``digest()``.
"""
from __future__ import annotations

import difflib
import hashlib
import json
import math
import numbers
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import KW_ONLY, MISSING, dataclass, field, fields
from typing import NamedTuple

import numpy as np

from .errors import ConfigError, check

# Engine limits, mirrored here so that a scenario the engine cannot run fails at construction.
MAX_ROUTE_LINKS = 4
MAX_WINDOW_PKTS = 1000  # the receiver's reorder bitmap is 1024 packets wide
MAX_SEGMENT_BYTES = 65495  # largest IPv4 payload (65535) less a minimal 40-byte TCP/IP header
MAX_HEADER_BYTES = 1000
MAX_WIRE_BYTES = 65535
MAX_FLOWS = 65000  # cuda/batch.h kMaxFlows: TCP flows (and pool slots) of one replica
MIN_ONOFF_MS = 1e-3  # shortest mean on or off period of an on-off source (1 us)
MAX_SEND_JITTER_S = 1.0  # longest send jitter (ns-2 overhead_)
MAX_SOURCES = 512  # kMaxSources
INT32_MAX = 2**31 - 1
MAX_ACCESS_BUFFER_PKTS = INT32_MAX  # TcpFlow.access_buffer_pkts (int32 flow_access_limit)
# A class queue is a ring whose capacity, an int32 power of two, holds the limit + 1 packets
# (pack.links: class_caps); a byte limit holds at most that many 1-byte packets.
MAX_QUEUE_LIMIT = 2**30 - 2
MAX_SLOTS = 0xFFFFFFFD  # cuda/batch.h kMaxSlots: the slot clock is 32-bit (kNever = 0xFFFFFFFF)

VARIANTS = ("reno", "newreno")
SPLITS = ("none", "random", "size", "lifetime")  # TcpFlow.split: the edge classifier
SCHEDULERS = ("priority", "wrr", "cbq")
TIE_BREAKS = ("random", "index")
COLOURS = ("green", "yellow", "red")  # drop precedence, most protected first (IN = green, OUT = red)
AQMS = ("droptail", "red", "rio-c", "rio-d", "wred")
MAX_TRACED = 4            # Scenario.trace_flows (cuda/batch.h kMaxTraced)
MAX_TRACE_SAMPLES = 100_000
MARKER_KINDS = ("token_bucket", "tsw2cm", "tsw3cm", "srtcm", "trtcm", "balancing", "rtt_aware",
                "rtt_rto")
SMALL_WINDOW_KINDS = ("tsw3cm", "rtt_aware", "rtt_rto")  # Marker.small_window_pkts
ONOFF = ("exponential", "fixed")
MAX_MARKERS = 64
MAX_GENS = 64
MAX_SIZE_SET = 32
TRAFFIC_KINDS = ("poisson", "sessions", "web")
SIZE_DISTS = ("set", "exponential", "pareto", "paretoII")

# Fields added after 0.2.0 leave to_dict() (and so digest()) when they hold their default, so
# that a scenario that does not use them keeps its identity and its results folder.
_OMIT = {"omit_default": True}


# --- value helpers -------------------------------------------------------------------------
# Public: the papers' scenario builders (diffsweep.papers.<paper>.scenario) check and normalise
# their parameters with these, so that their errors read like the Scenario's own.

# The exact-type fast paths matter: ABC isinstance checks dominate building 128-flow scenarios.

def is_real(v) -> bool:
    t = type(v)
    if t is float:
        return math.isfinite(v)
    if t is int:
        return True
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) and math.isfinite(v)


def is_int(v) -> bool:
    t = type(v)
    if t is int:
        return True
    if t is float or t is bool:
        return False
    return isinstance(v, numbers.Integral) and not isinstance(v, np.bool_)


def plain(v):
    """numpy scalar -> Python scalar, so that messages and to_dict() show plain values."""
    return v.item() if isinstance(v, np.generic) else v


def as_float(v):
    t = type(v)
    if t is float:
        return v
    if t is int:
        return float(v)
    v = plain(v)
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        return float(v)
    return v


def as_int(v):
    if type(v) is int:
        return v
    v = plain(v)
    # TOML and np.linspace give integral floats for sizes; accept them, reject 536.5.
    if isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return int(v)
    return v


def _as_tuple(v):
    if isinstance(v, np.ndarray):
        return tuple(v.tolist())
    if isinstance(v, (list, tuple)):
        return tuple(v)
    return v


def check_number(path, v, cond, allowed) -> None:
    """A finite real satisfying ``cond``; the message says "finite" only when that is the issue."""
    if is_real(v) and cond(v):
        return
    if isinstance(v, numbers.Real) and not isinstance(v, bool) and not math.isfinite(v):
        allowed = "a finite " + allowed.removeprefix("a ")
    check(False, path, v, allowed)


# The checks below return at once when the value passes and build their messages only when
# it does not: building a 64-flow scenario runs about 40 of them per flow.

def check_positive(path, v) -> None:
    if type(v) is float and v > 0 and v != math.inf:
        return
    check_number(path, v, lambda x: x > 0, "a number > 0")


def check_nonneg(path, v) -> None:
    if type(v) is float and v >= 0 and v != math.inf:
        return
    check_number(path, v, lambda x: x >= 0, "a number >= 0")


def _int_in(path, v, lo, hi, why="") -> None:
    if type(v) is int and lo <= v <= hi:
        return
    check(is_int(v) and lo <= v <= hi, path, v, f"an integer in {lo}..{hi}{why}")


def _one_of(path, v, options) -> None:
    if type(v) is str and v in options:
        return
    check(isinstance(v, str) and v in options, path, v,
          "one of " + ", ".join(repr(o) for o in options))


class IntField(NamedTuple):
    """The range of an integer field: the engine's C++ type (cuda/batch.h) or the ring it
    sizes bounds ``hi``. ``none``: None is allowed, and what it means ("None (backlogged)");
    ``why``: said after the range."""

    name: str
    lo: int
    hi: int
    none: str | None = None
    why: str = ""


def check_ints(path: str, obj, table) -> None:
    """Every integer field of ``table`` (IntField rows) of ``obj`` in its range: one check for
    all of a class's integer fields, so that none reaches pack unbounded (buffer_bytes = 1e30
    was an OverflowError there; an int32 field would have wrapped silently)."""
    d = obj.__dict__
    for name, lo, hi, none, why in table:
        v = d[name]
        if type(v) is int and lo <= v <= hi:
            continue
        if v is None and none is not None:
            continue
        allowed = f"an integer in {lo}..{hi}{why}"
        check(is_int(v) and lo <= v <= hi, f"{path}.{name}", v,
              f"{none} or {allowed}" if none is not None else allowed)


def check_count(path: str, v, lo: int, hi: int, what: str) -> None:
    """A builder's count of flows or sources (``lo``.. the engine's limit ``hi`` on ``what``),
    checked before it makes one object per count (kaur_vin's n_flows = 1e30 was an
    OverflowError); above the limit, the runner's words for a scenario with too many."""
    check(is_int(v) and v >= lo, path, v, f"an integer >= {lo}")
    if v > hi:
        raise ConfigError(f"{path}: {v} is above the engine's limit on {what} (expected at most "
                          f"{hi})")


def check_bool(path, v) -> None:
    check(isinstance(v, bool), path, v, "True or False")


def _name(path, v) -> None:
    check(isinstance(v, str) and v != "", path, v, "a non-empty string")


def _colour(path, v) -> None:
    if v is None:
        return
    check(v is None or (isinstance(v, str) and v in COLOURS), path, v,
          "None or one of " + ", ".join(repr(c) for c in COLOURS))


def _route(path, route) -> None:
    if type(route) is tuple and len(route) == 1 and type(route[0]) is int and route[0] >= 0:
        return  # the common one-link route
    check(isinstance(route, tuple) and 1 <= len(route) <= MAX_ROUTE_LINKS, path, route,
          f"a sequence of 1..{MAX_ROUTE_LINKS} link indices")
    for j, idx in enumerate(route):
        check(is_int(idx) and idx >= 0, f"{path}[{j}]", idx, "a link index >= 0")
    check(len(set(route)) == len(route), path, route, "link indices without repeats")


def default_slot_s(sc) -> float:
    """The engine's time slot of scenario ``sc``: ``sc.slot_s``, else one TCP data packet's
    transmission time on the fastest link (docs/model.md, "Time"). (``pack`` re-exports it:
    the Scenario needs it too, to refuse durations the slot clock cannot run.)"""
    if sc.slot_s is not None:
        return float(sc.slot_s)
    # a delay variant's flows differ only in their delays: its base's give the same sizes,
    # without making the variant's flows
    v = sc.__dict__.get("_delay_variant")
    flows = (sc if v is None else v.base).flows
    fastest = max(link.rate_bps for link in sc.links)
    wire = ([f.segment_bytes + f.header_bytes for f in flows]
            + [t.flow.segment_bytes + t.flow.header_bytes for t in sc.traffic]
            or [s.pkt_bytes for s in sc.sources])
    return max(wire) * 8.0 / fastest


def _slot_text(sc, slot: float) -> str:
    """One time slot and where its length comes from, for messages."""
    if sc.slot_s is not None:
        return f"one time slot ({slot:.4g} s: slot_s)"
    fastest = max(link.rate_bps for link in sc.links)
    return (f"one time slot ({slot:.4g} s: the transmission time of a "
            f"{round(slot * fastest / 8.0)}-byte packet on the fastest link, {fastest:g} b/s)")


# grid.py imports these two under their former private names.
_is_int, _plain = is_int, plain


def _set(obj, name, value) -> None:
    object.__setattr__(obj, name, value)


_new_object = object.__new__


@contextmanager
def renamed_errors(renames: dict[str, str]):
    """Re-raise a ConfigError of scenario construction under another leading path (a paper's
    builder names its own parameter: ``buffer_pkts`` rather than ``links[0].classes[0]...``)."""
    try:
        yield
    except ConfigError as e:
        msg = str(e)
        for old, new in renames.items():
            msg = reprefix(msg, old, new)
        raise ConfigError(msg) from None


def reprefix(message: str, old: str, new: str) -> str:
    """Replace the leading path ``old`` of a ConfigError message with ``new``."""
    if message.startswith(old) and message[len(old):len(old) + 1] in (".", ":", "["):
        return new + message[len(old):]
    return message


def _field_names(cls) -> list[str]:
    return [f.name for f in fields(cls) if f.init]


def _known_fields(cls, data: Mapping, prefix: str) -> None:
    """ConfigError ``{prefix}{key}: unknown field of {cls} (did you mean ...? fields: ...)`` for
    the first key of ``data`` that is not a field of ``cls``."""
    names = _field_names(cls)
    for key in data:
        if key not in names:
            close = difflib.get_close_matches(str(key), names, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ConfigError(f"{prefix}{key}: unknown field of {cls.__name__} "
                              f"({hint}fields: {', '.join(names)})")


def _construct(cls, obj, path: str):
    """``obj`` as an instance of ``cls``: kept if it is one, built from its fields if a mapping.

    Errors raised while building name ``path`` instead of the class name, so that a scenario
    given as nested dicts reports ``flows[2].variant`` rather than ``TcpFlow.variant``.
    """
    if isinstance(obj, cls):
        return obj
    if not isinstance(obj, Mapping):
        raise ConfigError(f"{path}: {obj!r} is not allowed "
                          f"(expected a {cls.__name__} or a dict of its fields)")
    _known_fields(cls, obj, f"{path}.")
    for f in fields(cls):
        if f.init and f.default is MISSING and f.default_factory is MISSING and f.name not in obj:
            raise ConfigError(f"{path}.{f.name}: missing (required field of {cls.__name__})")
    try:
        return cls(**obj)
    except ConfigError as e:
        raise ConfigError(reprefix(str(e), cls.__name__, path)) from None


def _plain_dict(obj) -> dict:
    """A dataclass as JSON-able plain data: tuples become lists, children become dicts; a
    field marked ``_OMIT`` is left out while it holds its default."""
    def conv(v):
        if hasattr(v, "__dataclass_fields__"):
            return _plain_dict(v)
        if isinstance(v, (tuple, list)):
            return [conv(x) for x in v]
        if isinstance(v, Mapping):
            return {str(k): conv(x) for k, x in v.items()}
        return v
    out = {}
    for f in fields(type(obj)):
        if not f.init:
            continue
        v = getattr(obj, f.name)
        if f.metadata.get("omit_default") and f.default is not MISSING and v == f.default:
            continue
        out[f.name] = conv(v)
    return out


# --- the classes ----------------------------------------------------------------------------

@dataclass(frozen=True)
class RedThresholds:
    """RED thresholds of one drop precedence: the average queue ``min_th``/``max_th`` (packets,
    or bytes when the class has ``red_bytes``) and the drop probability ``max_p`` at max_th."""

    min_th: float
    max_th: float
    max_p: float

    def __post_init__(self):
        for f in ("min_th", "max_th", "max_p"):
            _set(self, f, as_float(getattr(self, f)))
        self._validate(type(self).__name__)

    def _validate(self, path: str) -> None:
        check_nonneg(f"{path}.min_th", self.min_th)
        check_number(f"{path}.max_th", self.max_th, lambda x: x > self.min_th,
                      f"a number > min_th ({self.min_th}): thresholds in order")
        check_number(f"{path}.max_p", self.max_p, lambda x: 0 < x <= 1, "a number in (0, 1]")


@dataclass(frozen=True)
class QueueClass:
    """One queue of a link. ``limit_bytes``/``limit_pkts``: at most one; both None = unlimited
    (sensible only for a priority class whose arrival rate the scheduler bounds, e.g. EF).

    ``aqm``: ``"droptail"`` (default), or RED before the limit (which stays the buffer):
    ``"red"`` (one average, ``red`` = one RedThresholds), ``"rio-c"`` / ``"rio-d"`` (RIO
    coupled / decoupled) and ``"wred"`` (one average, per-colour thresholds), whose ``red``
    gives (green, red) or (green, yellow, red). ``red_w_q`` is ns-2's q_weight_, ``red_gentle``
    its gentle_, ``red_wait`` its wait_, ``red_bytes`` its bytes_ and ``red_mean_pkt_bytes``
    its mean_pktsize_ (docs/model.md, "RED, RIO and WRED").

    ``share``: the class's fraction of the link rate under the ``"cbq"`` scheduler (required
    there, in (0, 1]; an error on a link with another scheduler)."""

    name: str = "be"
    limit_bytes: int | None = None
    limit_pkts: int | None = None
    weight: int = 1
    aqm: str = field(default="droptail", metadata=_OMIT)
    red: tuple[RedThresholds, ...] = field(default=(), metadata=_OMIT)
    red_w_q: float = field(default=0.002, metadata=_OMIT)
    red_gentle: bool = field(default=False, metadata=_OMIT)
    red_wait: bool = field(default=True, metadata=_OMIT)
    red_bytes: bool = field(default=False, metadata=_OMIT)
    red_mean_pkt_bytes: int = field(default=500, metadata=_OMIT)
    share: float | None = field(default=None, metadata=_OMIT)

    def __post_init__(self):
        self._normalize(type(self).__name__)
        self._validate(type(self).__name__)

    def _normalize(self, path: str = "QueueClass") -> None:
        for f in ("limit_bytes", "limit_pkts", "weight", "red_mean_pkt_bytes"):
            _set(self, f, as_int(getattr(self, f)))
        _set(self, "red_w_q", as_float(self.red_w_q))
        if self.share is not None:
            _set(self, "share", as_float(self.share))
        for f in ("red_gentle", "red_wait", "red_bytes"):
            _set(self, f, plain(getattr(self, f)))
        red = _as_tuple(self.red)
        if isinstance(red, tuple):
            red = tuple(_construct(RedThresholds, t, f"{path}.red[{k}]") for k, t in enumerate(red))
        _set(self, "red", red)

    def _validate(self, path: str) -> None:
        _name(f"{path}.name", self.name)
        check_ints(path, self, _QUEUE_INTS)
        check(self.limit_bytes is None or self.limit_pkts is None, f"{path}.limit_pkts",
              self.limit_pkts, f"None when limit_bytes is set ({self.limit_bytes}): give one limit")
        _one_of(f"{path}.aqm", self.aqm, AQMS)
        check(isinstance(self.red, tuple), f"{path}.red", self.red, "a sequence of RedThresholds")
        for k, t in enumerate(self.red):
            check(isinstance(t, RedThresholds), f"{path}.red[{k}]", t, "a RedThresholds")
            t._validate(f"{path}.red[{k}]")
        if self.aqm == "droptail":
            check(self.red == (), f"{path}.red", self.red, "() for aqm 'droptail' (set aqm to "
                  "'red', 'rio-c', 'rio-d' or 'wred' to use thresholds)")
        elif self.aqm == "red":
            check(len(self.red) == 1, f"{path}.red", self.red, "one RedThresholds for aqm 'red'")
        else:
            check(len(self.red) in (2, 3), f"{path}.red", self.red,
                  f"2 RedThresholds (green, red) or 3 (green, yellow, red) for aqm {self.aqm!r}")
        check_number(f"{path}.red_w_q", self.red_w_q, lambda x: 0 < x <= 1, "a number in (0, 1]")
        for f in ("red_gentle", "red_wait", "red_bytes"):
            check_bool(f"{path}.{f}", getattr(self, f))
        if self.share is not None:
            check_number(f"{path}.share", self.share, lambda x: 0 < x <= 1,
                          "None or a number in (0, 1]: a fraction of the link rate")

    def thresholds(self) -> tuple[RedThresholds, ...]:
        """Per colour (green, yellow, red); a (green, red) pair gives yellow red's values."""
        if len(self.red) == 2:
            return (self.red[0], self.red[1], self.red[1])
        if len(self.red) == 1:
            return self.red * 3
        return self.red


_RING = ": the engine's class queues hold at most 2^30 packets"
_QUEUE_INTS = (IntField("limit_bytes", 1, MAX_QUEUE_LIMIT, "None", _RING),
               IntField("limit_pkts", 1, MAX_QUEUE_LIMIT, "None", _RING),
               IntField("weight", 1, INT32_MAX),
               IntField("red_mean_pkt_bytes", 1, MAX_WIRE_BYTES))


def _as_route(v):
    """A route as a tuple of link indices; an int is the common one-link route (route=0).
    Anything else is left for the validation to name."""
    route = _as_tuple(plain(v))
    if is_int(route):
        route = (route,)
    if isinstance(route, tuple):
        route = tuple(as_int(r) for r in route)
    return route


@dataclass(frozen=True)
class Link:
    """A one-way link. Class order is priority order (index 0 highest); ``weight`` is used by
    ``"wrr"``. ``loss_prob``: independent random loss per packet on top of queue drops.

    ``"cbq"`` (class-based isolation): each class sends at most its ``share`` of the rate from
    its own byte credit; ``cbq_lend`` hands the credit that empty classes leave unused in a
    slot to the backlogged classes, in class order (docs/model.md, "Class-based isolation").

    ``domain``: the DiffServ domain the link belongs to (None: not said). A conditioned flow
    whose route enters another domain must be conditioned again at the link where it enters
    (a second Marker holding it there; Habib et al.'s multi-domain topology)."""

    rate_bps: float
    prop_delay_ms: float = 0.0
    classes: tuple[QueueClass, ...] = field(default_factory=lambda: (QueueClass(),))
    scheduler: str = "priority"
    loss_prob: float = 0.0
    cbq_lend: bool = field(default=False, metadata=_OMIT)
    domain: int | None = field(default=None, metadata=_OMIT)

    def __post_init__(self):
        path = type(self).__name__
        self._normalize(path)
        self._validate(path)

    def _normalize(self, path: str) -> None:
        for f in ("rate_bps", "prop_delay_ms", "loss_prob"):
            _set(self, f, as_float(getattr(self, f)))
        _set(self, "cbq_lend", plain(self.cbq_lend))
        _set(self, "domain", as_int(plain(self.domain)))
        classes = _as_tuple(self.classes)
        if isinstance(classes, tuple):
            classes = tuple(_construct(QueueClass, c, f"{path}.classes[{k}]")
                            for k, c in enumerate(classes))
        _set(self, "classes", classes)

    def _validate(self, path: str) -> None:
        check_positive(f"{path}.rate_bps", self.rate_bps)
        check_nonneg(f"{path}.prop_delay_ms", self.prop_delay_ms)
        check(isinstance(self.classes, tuple) and len(self.classes) >= 1, f"{path}.classes",
              self.classes, "a non-empty sequence of QueueClass")
        seen = set()
        for k, c in enumerate(self.classes):
            check(isinstance(c, QueueClass), f"{path}.classes[{k}]", c, "a QueueClass")
            c._validate(f"{path}.classes[{k}]")
            check(c.name not in seen, f"{path}.classes[{k}].name", c.name,
                  "a name not used by another class of this link")
            seen.add(c.name)
        _one_of(f"{path}.scheduler", self.scheduler, SCHEDULERS)
        if self.domain is not None:
            check(is_int(self.domain) and self.domain >= 0, f"{path}.domain", self.domain,
                  "an integer >= 0 (a DiffServ domain) or None")
        check_number(f"{path}.loss_prob", self.loss_prob, lambda x: 0 <= x < 1, "a number in [0, 1)")
        check_bool(f"{path}.cbq_lend", self.cbq_lend)
        if self.scheduler == "cbq":
            for k, c in enumerate(self.classes):
                check(c.share is not None, f"{path}.classes[{k}].share", c.share,
                      "a number in (0, 1] on a 'cbq' link: the class's fraction of the link rate")
            total = math.fsum(c.share for c in self.classes)
            if total > 1.0 + 1e-9:
                raise ConfigError(f"{path}.classes: shares sum to {total:g} (expected at most 1: "
                                  "each share is a fraction of the link rate)")
        else:
            for k, c in enumerate(self.classes):
                check(c.share is None, f"{path}.classes[{k}].share", c.share,
                      f"None on a {self.scheduler!r} link (shares are for scheduler 'cbq')")
            check(self.cbq_lend is False, f"{path}.cbq_lend", self.cbq_lend,
                  f"False on a {self.scheduler!r} link (lending is for scheduler 'cbq')")

    def class_index(self, name: str) -> int | None:
        for k, c in enumerate(self.classes):
            if c.name == name:
                return k
        return None


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
    edge classifier")."""

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

    def __post_init__(self):
        self._normalize()
        self._validate(type(self).__name__)

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
        for f in ("delayed_ack", "reno_bugfix", "limited_transmit"):
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
        _colour(f"{path}.colour", self.colour)
        if self.telnet_interval_s is not None:
            check_nonneg(f"{path}.telnet_interval_s", self.telnet_interval_s)

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
        return new


# The engine's sequence numbers are int32 (model/packet.h), as are its windows and buffers.
_FLOW_INT_RANGES = (
    IntField("segment_bytes", 1, MAX_SEGMENT_BYTES),
    IntField("header_bytes", 0, MAX_HEADER_BYTES),
    IntField("max_window_pkts", 1, MAX_WINDOW_PKTS, None,
             ": the receiver's reorder bitmap is 1024 packets wide"),
    IntField("init_ssthresh_pkts", 2, INT32_MAX, "None"),
    IntField("access_buffer_pkts", 1, MAX_ACCESS_BUFFER_PKTS, "None (unlimited)"),
    IntField("size_pkts", 1, INT32_MAX, "None (backlogged)", " (sequence numbers are 32-bit)"))

_FLOW_INTS = ("access_buffer_pkts", "init_ssthresh_pkts", "split_pkts", "segment_bytes",
               "header_bytes", "max_window_pkts", "init_window_pkts", "size_pkts")
_FLOW_FLOATS = ("telnet_interval_s", "access_delay_ms", "egress_delay_ms", "reverse_delay_ms",
                "access_rate_bps", "start_s", "send_jitter_s")


@dataclass(frozen=True, kw_only=True)
class OnOffSource:
    """On/off source sending ``pkt_bytes`` packets at ``peak_bps`` while on, for on- and
    off-periods of mean ``t_on_ms``/``t_off_ms``: exponential (``onoff="exponential"``, ns-2's
    Application/Traffic/Exponential) or exactly those lengths (``"fixed"``: periodic, with a
    random phase). ``t_off_ms == 0`` means always on (CBR at ``peak_bps``). ``colour``: as
    TcpFlow's."""

    route: tuple[int, ...] = (0,)
    cls: str = "ef"
    peak_bps: float
    pkt_bytes: int = 1500
    t_on_ms: float
    t_off_ms: float
    name: str = "ef"
    onoff: str = field(default="exponential", metadata=_OMIT)
    colour: str | None = field(default=None, metadata=_OMIT)

    def __post_init__(self):
        self._normalize()
        self._validate(type(self).__name__)

    def _normalize(self) -> None:
        _set(self, "route", _as_route(self.route))
        _set(self, "pkt_bytes", as_int(self.pkt_bytes))
        for f in ("peak_bps", "t_on_ms", "t_off_ms"):
            _set(self, f, as_float(getattr(self, f)))

    def _validate(self, path: str) -> None:
        _route(f"{path}.route", self.route)
        _name(f"{path}.cls", self.cls)
        check_positive(f"{path}.peak_bps", self.peak_bps)
        _int_in(f"{path}.pkt_bytes", self.pkt_bytes, 1, MAX_WIRE_BYTES)
        # The engine toggles a source at every on/off change, so its cost per slot grows as the
        # slot over the mean period: below 1 us (a 1500-byte packet at 12 Gb/s) a run at
        # 1e-300 ms never ends, and a burst that short carries no packet anyway.
        check(is_real(self.t_on_ms) and self.t_on_ms >= MIN_ONOFF_MS, f"{path}.t_on_ms",
              self.t_on_ms, f"a number of milliseconds >= {MIN_ONOFF_MS:g} (1 us)")
        check(is_real(self.t_off_ms) and (self.t_off_ms == 0 or self.t_off_ms >= MIN_ONOFF_MS),
              f"{path}.t_off_ms", self.t_off_ms,
              f"0 (always on) or a number of milliseconds >= {MIN_ONOFF_MS:g} (1 us)")
        _name(f"{path}.name", self.name)
        _one_of(f"{path}.onoff", self.onoff, ONOFF)
        _colour(f"{path}.colour", self.colour)

    @property
    def mean_rate_bps(self) -> float:
        return self.peak_bps * self.t_on_ms / (self.t_on_ms + self.t_off_ms)


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


@dataclass(frozen=True, kw_only=True)
class Traffic:
    """Short-lived TCP transfers arriving over time (web-like traffic, Rossi et al.; sessions).

    Each transfer is a new connection (slow start, initial RTO) with the parameters of the
    template ``flow`` (a TcpFlow: route, class, variant, sizes, delays, colour; its ``size_pkts``
    and ``start_s`` are ignored) and a size drawn per transfer:
    ``size_dist="set"``: uniform over ``size_set_pkts``; ``"exponential"``: ceil(Exp(``size_mean_pkts``));
    ``"pareto"``: bounded Pareto, shape ``size_alpha`` on [``size_min_pkts``, ``size_max_pkts``],
    rounded up; ``"paretoII"``: Pareto of the second kind (ns-2's ParetoII) of mean
    ``size_mean_pkts`` and shape ``size_alpha`` (> 1), rounded up.

    ``kind="poisson"``: Poisson arrivals, mean interarrival ``mean_interarrival_s``;
    ``"sessions"``: ``pool`` sessions, each starting its next transfer an exponential think
    time (mean ``think_s``) after its last one was received, the first one after such a think
    time or, with ``first_start_s``, at a uniform time in [0, ``first_start_s``); ``"web"``:
    ns-2's WebTraf model (tcl/ex/web-traffic.tcl): ``sessions`` sessions of ``pages_per_session`` pages at
    exponential intervals (mean ``inter_page_s``, the first after one such interval), each page
    ``objects_per_page`` objects at exponential intervals (mean ``inter_object_s``), each object
    a transfer (HTTP/1.0: one connection per object), sizes by default ns-2's ParetoII of mean
    10 packets and shape 1.2 (``size_dist="paretoII"``). No transfer starts at or after
    ``t_stop_s`` (None: the scenario's end).

    ``pool``: flow slots the engine keeps for transfers alive at once (their state is all the
    memory transfers take): an arrival that finds every slot busy is refused and counted
    (results ``traffic.refused``). ``max_records``: transfer records kept per replica (None:
    enough for the expected arrivals); more are counted, not kept."""

    name: str
    flow: TcpFlow
    kind: str = "poisson"
    mean_interarrival_s: float | None = None
    think_s: float = 1.0
    t_stop_s: float | None = None
    size_dist: str = "set"
    size_set_pkts: tuple[int, ...] = ()
    size_mean_pkts: float = 10.0
    size_min_pkts: float = 1.0
    size_max_pkts: float = 1000.0
    size_alpha: float = 1.2
    pool: int = 256
    max_records: int | None = None
    sessions: int = field(default=1, metadata=_OMIT)
    pages_per_session: int = field(default=10, metadata=_OMIT)
    objects_per_page: int = field(default=1, metadata=_OMIT)
    inter_page_s: float = field(default=1.0, metadata=_OMIT)
    inter_object_s: float = field(default=0.01, metadata=_OMIT)
    first_start_s: float | None = field(default=None, metadata=_OMIT)

    def __post_init__(self):
        _set(self, "flow", _construct(TcpFlow, self.flow, f"{type(self).__name__}.flow"))
        v = _as_tuple(plain(self.size_set_pkts))
        if isinstance(v, tuple):
            v = tuple(as_int(i) for i in v)
        _set(self, "size_set_pkts", v)
        for f in ("mean_interarrival_s", "think_s", "t_stop_s", "size_mean_pkts", "size_min_pkts",
                  "size_max_pkts", "size_alpha", "inter_page_s", "inter_object_s",
                  "first_start_s"):
            _set(self, f, as_float(getattr(self, f)))
        for f in ("pool", "max_records", "sessions", "pages_per_session", "objects_per_page"):
            _set(self, f, as_int(getattr(self, f)))
        self._validate(type(self).__name__)

    def _validate(self, path: str) -> None:
        _name(f"{path}.name", self.name)
        check(isinstance(self.flow, TcpFlow), f"{path}.flow", self.flow, "a TcpFlow (the template)")
        self.flow._validate(f"{path}.flow")
        check(self.flow.telnet_interval_s is None, f"{path}.flow.telnet_interval_s",
              self.flow.telnet_interval_s, "None: a transfer is bulk data of its drawn size")
        _one_of(f"{path}.kind", self.kind, TRAFFIC_KINDS)
        if self.kind == "poisson":
            check(self.mean_interarrival_s is not None, f"{path}.mean_interarrival_s", None,
                  "a number > 0 for kind 'poisson'")
            check_positive(f"{path}.mean_interarrival_s", self.mean_interarrival_s)
        check_positive(f"{path}.think_s", self.think_s)
        if self.first_start_s is not None:
            check(self.kind == "sessions", f"{path}.first_start_s", self.first_start_s,
                  "None unless kind is 'sessions'")
            check_positive(f"{path}.first_start_s", self.first_start_s)
        if self.t_stop_s is not None:
            check_positive(f"{path}.t_stop_s", self.t_stop_s)
        _one_of(f"{path}.size_dist", self.size_dist, SIZE_DISTS)
        v = self.size_set_pkts
        if self.size_dist == "set":
            check(isinstance(v, tuple) and 1 <= len(v) <= MAX_SIZE_SET, f"{path}.size_set_pkts", v,
                  f"1..{MAX_SIZE_SET} transfer sizes in packets for size_dist 'set'")
            for j, k in enumerate(v):
                _int_in(f"{path}.size_set_pkts[{j}]", k, 1, 2**30 - 1)
        check_positive(f"{path}.size_mean_pkts", self.size_mean_pkts)
        check_positive(f"{path}.size_min_pkts", self.size_min_pkts)
        check_number(f"{path}.size_max_pkts", self.size_max_pkts,
                     lambda x: x > self.size_min_pkts, f"a number > size_min_pkts ({self.size_min_pkts})")
        check_positive(f"{path}.size_alpha", self.size_alpha)
        if self.size_dist == "paretoII":
            check_number(f"{path}.size_alpha", self.size_alpha, lambda x: x > 1,
                         "a number > 1 for size_dist 'paretoII' (a finite mean)")
        check_ints(path, self, _TRAFFIC_INTS)
        check_positive(f"{path}.inter_page_s", self.inter_page_s)
        check_positive(f"{path}.inter_object_s", self.inter_object_s)

    def mean_size_pkts(self) -> float:
        """The mean transfer size in packets (before rounding up, for exponential and Pareto)."""
        if self.size_dist == "set":
            return sum(self.size_set_pkts) / len(self.size_set_pkts)
        if self.size_dist in ("exponential", "paretoII"):
            return self.size_mean_pkts
        a, lo, hi = self.size_alpha, self.size_min_pkts, self.size_max_pkts
        if abs(a - 1.0) < 1e-12:
            return lo * hi / (hi - lo) * math.log(hi / lo)
        return (lo ** a / (1 - (lo / hi) ** a)) * a / (a - 1) * (lo ** (1 - a) - hi ** (1 - a))


_TRAFFIC_INTS = (IntField("pool", 1, 60000), IntField("sessions", 1, 1_000_000),
                 IntField("pages_per_session", 1, INT32_MAX),
                 IntField("objects_per_page", 1, INT32_MAX),
                 IntField("max_records", 1, INT32_MAX, "None"))

_PARAM_TYPES = (str, bool, int, float, type(None))


class DelayVariant(NamedTuple):
    """How a scenario made by ``Scenario.with_flow_delays`` differs from ``base``: only in its
    flows' constant delays, one value per flow (read-only float64 arrays)."""

    base: "Scenario"
    access_delay_ms: np.ndarray
    egress_delay_ms: np.ndarray
    reverse_delay_ms: np.ndarray


class _VariantFlows:
    """``Scenario.flows`` of a scenario made by ``with_flow_delays``: made from its base's
    flows on first read, then kept in the instance, whose own ``flows`` shadows this
    non-data descriptor (as it does for every other scenario from construction on)."""

    def __get__(self, obj, cls=None):
        if obj is None:
            return ()  # the field's default, as a dataclass keeps it on the class
        v = obj.__dict__.get("_delay_variant")
        if v is None:
            raise AttributeError("flows")
        flows = tuple(f._delayed(a, e, r) for f, a, e, r in zip(
            v.base.flows, v.access_delay_ms.tolist(), v.egress_delay_ms.tolist(),
            v.reverse_delay_ms.tolist()))
        obj.__dict__["flows"] = flows
        return flows


@dataclass(frozen=True)
class Scenario:
    """One simulated network. ``slot_s`` None lets the engine choose its time slot;
    ``interval_s`` set asks for per-interval goodput; ``trace_flows`` (at most 4 indices into
    ``flows``) asks for their congestion window every ``trace_interval_s`` (results table
    ``cwnd_trace``); ``params`` are derived/descriptive values (plain scalars) that ``Grid``
    shows as columns."""

    links: tuple[Link, ...]
    flows: tuple[TcpFlow, ...] = ()
    _: KW_ONLY
    sources: tuple[OnOffSource, ...] = ()
    duration_s: float
    warmup_s: float = 0.0
    slot_s: float | None = None
    tcp_tick_s: float = 0.01
    min_rto_s: float = 0.2
    max_rto_s: float = 60.0
    init_rto_s: float = 3.0
    interval_s: float | None = None
    tie_break: str = "random"
    markers: tuple[Marker, ...] = field(default=(), metadata=_OMIT)
    traffic: tuple[Traffic, ...] = field(default=(), metadata=_OMIT)
    trace_flows: tuple[int, ...] = field(default=(), metadata=_OMIT)
    trace_interval_s: float | None = field(default=None, metadata=_OMIT)
    # hash=False: a dict is unhashable, and equal scenarios still hash equal without it.
    params: dict = field(default_factory=dict, hash=False)

    def __post_init__(self):
        for name, cls in (("links", Link), ("flows", TcpFlow), ("sources", OnOffSource),
                          ("markers", Marker), ("traffic", Traffic)):
            seq = _as_tuple(getattr(self, name))
            check(isinstance(seq, tuple), name, seq, f"a sequence of {cls.__name__}")
            if not set(map(type, seq)) <= {cls}:
                seq = tuple(_construct(cls, c, f"{name}[{i}]") for i, c in enumerate(seq))
            _set(self, name, seq)
        for f in ("duration_s", "warmup_s", "slot_s", "tcp_tick_s", "min_rto_s", "max_rto_s",
                  "init_rto_s", "interval_s", "trace_interval_s"):
            _set(self, f, as_float(getattr(self, f)))
        v = _as_tuple(plain(self.trace_flows))
        if isinstance(v, tuple):
            v = tuple(as_int(i) for i in v)
        _set(self, "trace_flows", v)
        check(isinstance(self.params, Mapping), "params", self.params, "a dict")
        _set(self, "params", {k: plain(v) for k, v in self.params.items()})
        self._validate()

    def _validate(self) -> None:
        # Links, flows and sources validated themselves when built (frozen since; a dict is
        # built by _construct, whose errors name flows[i]...): only how they fit together is
        # checked here. Validating each again cost a third of building a 64-flow scenario.
        check(len(self.links) >= 1, "links", [], "at least one Link")
        check(len(self.flows) + len(self.sources) + len(self.traffic) >= 1, "flows", [],
              "at least one TcpFlow, or an OnOffSource in sources, or a Traffic in traffic")

        check_positive("duration_s", self.duration_s)
        check_number("warmup_s", self.warmup_s, lambda x: 0 <= x < self.duration_s,
                f"a number >= 0 and < duration_s ({self.duration_s})")
        check(self.slot_s is None or (is_real(self.slot_s) and self.slot_s > 0), "slot_s",
              self.slot_s, "None (engine's choice) or a number > 0")
        check_positive("tcp_tick_s", self.tcp_tick_s)
        check_nonneg("min_rto_s", self.min_rto_s)
        check_number("max_rto_s", self.max_rto_s, lambda x: x >= self.min_rto_s,
                f"a number >= min_rto_s ({self.min_rto_s})")
        check_positive("init_rto_s", self.init_rto_s)
        check(self.interval_s is None
              or (is_real(self.interval_s) and 0 < self.interval_s <= self.duration_s),
              "interval_s", self.interval_s,
              f"None or a number > 0 and <= duration_s ({self.duration_s})")
        _one_of("tie_break", self.tie_break, TIE_BREAKS)
        self._check_trace()
        for k, v in self.params.items():
            check(isinstance(k, str), "params", k, "string keys")
            check(isinstance(v, _PARAM_TYPES), f"params[{k!r}]", v,
                  "a plain scalar: str, bool, int, float or None")

        # a flow object listed again (a builder's copies) is checked once, at its first place
        flows = self.flows
        first = dict(zip(map(id, reversed(flows)), range(len(flows) - 1, -1, -1)))
        for i in sorted(first.values()):
            flow = flows[i]
            self._check_route(f"flows[{i}]", flow.route, flow.cls, flow.wire_bytes,
                              f"segment_bytes {flow.segment_bytes} + header_bytes "
                              f"{flow.header_bytes}")
            self._check_route2(f"flows[{i}]", flow)
            check(flow.start_s < self.duration_s, f"flows[{i}].start_s", flow.start_s,
                  f"a number >= 0 and < duration_s ({self.duration_s})")
        for i, src in enumerate(self.sources):
            self._check_route(f"sources[{i}]", src.route, src.cls, src.pkt_bytes,
                              f"pkt_bytes {src.pkt_bytes}")
        self._check_traffic()
        self._check_markers()
        self._check_slots()

    def _check_slots(self) -> None:
        """The times pack turns into whole slots (round(t / slot_s)) give a run the engine can
        make: at least one slot long (a shorter one ran zero slots and gave all-NaN tables)
        and fewer than 2^32 (the slot clock), at least one slot measured after the warm-up
        (else the rates are 0/0), and goodput intervals of at least one slot (0 slots means
        "no intervals" to the engine)."""
        sl = default_slot_s(self)
        end = int(round(self.duration_s / sl))
        check(self.duration_s >= sl, "duration_s", self.duration_s,
              f"a number >= {sl:.4g} s: the run must last at least {_slot_text(self, sl)}")
        check(end <= MAX_SLOTS, "duration_s", self.duration_s,
              f"fewer than 2^32 slots of {sl:.3g} s, i.e. at most {MAX_SLOTS * sl:.4g} s")
        check(end - int(round(self.warmup_s / sl)) >= 1, "warmup_s", self.warmup_s,
              f"a number >= 0 and at least {_slot_text(self, sl)} below duration_s "
              f"({self.duration_s}): rates are measured after the warm-up")
        if self.interval_s is not None:
            check(int(round(self.interval_s / sl)) >= 1, "interval_s", self.interval_s,
                  f"None or a number >= {_slot_text(self, sl)} and <= duration_s "
                  f"({self.duration_s})")

    def _check_traffic(self) -> None:
        check(len(self.traffic) <= MAX_GENS, "traffic", f"{len(self.traffic)} generators",
              f"at most {MAX_GENS} traffic generators")
        names = set()
        for g, tr in enumerate(self.traffic):
            path = f"traffic[{g}]"
            tr._validate(path)
            check(tr.name not in names, f"{path}.name", tr.name, "a name no other traffic has")
            names.add(tr.name)
            self._check_route(f"{path}.flow", tr.flow.route, tr.flow.cls, tr.flow.wire_bytes,
                              f"segment_bytes {tr.flow.segment_bytes} + header_bytes "
                              f"{tr.flow.header_bytes}")
            self._check_route2(f"{path}.flow", tr.flow)
            if tr.t_stop_s is not None:
                check(tr.t_stop_s <= self.duration_s, f"{path}.t_stop_s", tr.t_stop_s,
                      f"a number > 0 and <= duration_s ({self.duration_s}): the run halts at "
                      "duration_s, after the last start")
        if self.traffic:  # (the flows alone are checked against the engine's limit by the runner)
            n = self.engine_flows
            check(n <= 60000, "traffic", f"{n} flow slots",
                  "at most 60000 flows and pool slots in all")

    def _check_markers(self) -> None:
        check(len(self.markers) <= MAX_MARKERS, "markers", f"{len(self.markers)} markers",
              f"at most {MAX_MARKERS} edge conditioners")
        owner: dict[tuple[str, int], list[int]] = {}
        names = set()
        for m, mk in enumerate(self.markers):
            path = f"markers[{m}]"
            mk._validate(path)
            check(mk.name not in names, f"{path}.name", mk.name, "a name no other marker has")
            names.add(mk.name)
            check(mk.link < len(self.links), f"{path}.link", mk.link,
                  f"a link index in 0..{len(self.links) - 1}")
            for what, members, have in (("flows", mk.flows, self.flows),
                                        ("sources", mk.sources, self.sources),
                                        ("traffic", mk.traffic, [t.flow for t in self.traffic])):
                one = {"flows": "flow", "sources": "source", "traffic": "traffic generator"}[what]
                for j, i in enumerate(members):
                    check(i < len(have), f"{path}.{what}[{j}]", i,
                          f"a {one} index in 0..{len(have) - 1}" if have
                          else f"no index: the scenario has no {what}")
                    prev = owner.get((what, i), [])
                    member = f"{what}[{i}]" + (".flow" if what == "traffic" else "")
                    on = mk.link in have[i].route or mk.link in getattr(have[i], "route2", ())
                    check(on, f"{path}.link", mk.link,
                          f"a link on the route (or route2) of {member} {have[i].route}")
                    if prev:
                        # a second domain's conditioner: TCP members only, another link of
                        # the route (model/marker.h: flow_marker2)
                        other = self.markers[prev[0]]
                        check(what != "sources" and len(prev) == 1
                              and mk.link != other.link and mk.link in have[i].route
                              and other.link in have[i].route, f"{path}.{what}[{j}]", i,
                              f"a {one} of no other aggregate (markers[{prev[0]}] has it), "
                              "unless it crosses two domains: a TCP flow may be a member of "
                              "two conditioners on different links of its route")
                    owner[(what, i)] = prev + [m]
                    if mk.colour_aware:
                        check(have[i].colour is not None, f"{member}.colour", None,
                              f"a colour: {path} is colour-aware and nothing else colours "
                              f"{member}'s packets before it")
        self._check_domains(owner)

    def _check_trace(self) -> None:
        v = self.trace_flows
        check(isinstance(v, tuple) and len(v) <= MAX_TRACED, "trace_flows", v,
              f"at most {MAX_TRACED} flow indices")
        for j, i in enumerate(v):
            check(is_int(i) and 0 <= i < len(self.flows), f"trace_flows[{j}]", i,
                  f"a flow index in 0..{len(self.flows) - 1}" if self.flows
                  else "no index: the scenario has no flows")
        check(len(set(v)) == len(v), "trace_flows", v, "indices without repeats")
        if not v:
            check(self.trace_interval_s is None, "trace_interval_s", self.trace_interval_s,
                  "None without trace_flows")
            return
        check(self.trace_interval_s is not None and is_real(self.trace_interval_s)
              and 0 < self.trace_interval_s <= self.duration_s, "trace_interval_s",
              self.trace_interval_s, f"a number > 0 and <= duration_s ({self.duration_s})")
        n = math.floor(self.duration_s / self.trace_interval_s + 1e-9) + 1
        check(n <= MAX_TRACE_SAMPLES, "trace_interval_s", self.trace_interval_s,
              f"a sampling interval giving at most {MAX_TRACE_SAMPLES} samples over duration_s "
              f"({self.duration_s}), i.e. >= {self.duration_s / (MAX_TRACE_SAMPLES - 1):.3g} s")

    def _check_domains(self, owner) -> None:
        """A conditioned TCP flow that enters another domain is conditioned again where it
        enters (Link.domain)."""
        if all(l.domain is None for l in self.links):
            return
        for (what, i), ms in owner.items():
            if what == "sources":
                continue
            f = self.flows[i] if what == "flows" else self.traffic[i].flow
            links = {self.markers[m].link for m in ms}
            path = f"{what}[{i}]" + (".flow" if what == "traffic" else "") + ".route"
            for a, b in zip(f.route, f.route[1:]):
                da, db = self.links[a].domain, self.links[b].domain
                if da is not None and db is not None and da != db:
                    check(b in links, path, f.route,
                          f"a route conditioned where it enters each domain: it enters domain "
                          f"{db} at link {b} without an edge conditioner there (a Marker with "
                          f"link {b} holding it)")

    def _check_route(self, path, route, cls, wire_bytes, wire_text, name="route") -> None:
        n = len(self.links)
        for j, idx in enumerate(route):
            check(idx < n, f"{path}.{name}[{j}]", idx, f"a link index in 0..{n - 1}")
            link = self.links[idx]
            k = link.class_index(cls)
            check(k is not None, f"{path}.cls", cls, f"a class of every link of the {name}; "
                  f"link {idx} has " + ", ".join(repr(c.name) for c in link.classes))
            lim = link.classes[k].limit_bytes
            check(lim is None or lim >= wire_bytes, f"links[{idx}].classes[{k}].limit_bytes", lim,
                  f"an integer >= {wire_bytes}: one packet of {path} ({wire_text}) must fit")

    def _check_route2(self, path, flow) -> None:
        """A second path: its links exist and carry the flow's class at the same position as
        on ``route`` (a packet has one class index); both routes end at the same destination,
        which here means: their last links (which may differ) have the same propagation
        delay, so that the delays after the last link -- folded into the ACK's flight time,
        one per flow -- are the same on both paths. Forward delays may differ."""
        if not flow.route2:
            return
        self._check_route(path, flow.route2, flow.cls, flow.wire_bytes,
                          f"segment_bytes {flow.segment_bytes} + header_bytes {flow.header_bytes}",
                          name="route2")
        ks = {self.links[l].class_index(flow.cls) for l in flow.route + flow.route2}
        check(len(ks) == 1, f"{path}.route2", flow.route2,
              f"links where class {flow.cls!r} is at the same position as on route {flow.route}")
        d1 = self.links[flow.route[-1]].prop_delay_ms
        d2 = self.links[flow.route2[-1]].prop_delay_ms
        check(d1 == d2, f"{path}.route2", flow.route2,
              f"a route to the same destination: its last link's prop_delay_ms ({d2}) equal to "
              f"that of route's last link ({d1}), as the ACK loop delay is one per flow")

    # --- derived values ---

    def flow_rtp_ms(self, i: int) -> float:
        """Round-trip propagation latency of flow ``i``: access + links + egress + reverse."""
        return self.route_rtp_ms(self.flows[i])

    @property
    def engine_flows(self) -> int:
        """Flow slots the engine runs: the fixed flows and every traffic pool's slots."""
        return self.n_flows + sum(t.pool for t in self.traffic)

    @property
    def n_flows(self) -> int:
        """``len(flows)``, without making a delay variant's flows."""
        d = self.__dict__
        flows = d.get("flows")
        return len(flows) if flows is not None else len(d["_delay_variant"].access_delay_ms)

    # --- delay variants ---

    def with_flow_delays(self, access_delay_ms, egress_delay_ms, reverse_delay_ms) -> Scenario:
        """This scenario with flow i's constant delays set to the i-th value of each argument
        (a sequence with one value per flow, or one number for every flow): equal to
        ``replace(self, flows=tuple(f.with_delays(a, e, r) for ...))``, but it checks only the
        delays (no check of a scenario involves them), shares everything else, and makes its
        flows only when something reads ``flows``. For builders whose seeds draw the flows'
        round trips: ~10 us for 64 flows rather than ~0.4 ms. ``delay_variant`` says how it was
        made, so that ``pack`` computes only the delay-dependent columns of such scenarios,
        for all of them at once."""
        n = self.n_flows
        given = (("access_delay_ms", access_delay_ms), ("egress_delay_ms", egress_delay_ms),
                 ("reverse_delay_ms", reverse_delay_ms))
        rows = []
        for name, v in given:
            if not (type(v) is np.ndarray and v.dtype == np.float64 and v.shape == (n,)):
                raw = np.asarray(v)
                check(raw.dtype.kind in "iuf" and raw.ndim <= 1
                      and raw.size == (1 if raw.ndim == 0 else n), name, v,
                      f"a number or {n} numbers, one per flow")
                v = np.broadcast_to(raw, (n,))
            rows.append(v)
        x = np.array(rows, dtype=np.float64)  # [3, flows], its own copy
        if n and not (x.min() >= 0 and x.max() < math.inf):  # (False for a NaN)
            for (name, _), a in zip(given, x):
                ok = np.isfinite(a) & (a >= 0)
                if not ok.all():
                    i = int(np.argmin(ok))
                    check_nonneg(f"flows[{i}].{name}", float(a[i]))
        x.setflags(write=False)
        arrays = list(x)
        d = self.__dict__
        variant = d.get("_delay_variant")
        new = _new_object(Scenario)
        nd = new.__dict__
        nd.update(d)
        nd.pop("flows", None)
        nd["params"] = dict(d["params"])
        nd["_delay_variant"] = DelayVariant(self if variant is None else variant.base, *arrays)
        return new

    @property
    def delay_variant(self) -> DelayVariant | None:
        """For a scenario made by ``with_flow_delays``: the scenario it differs from only in
        its flows' delays (one made otherwise) and those delays; else None."""
        return self.__dict__.get("_delay_variant")

    def route_rtp_ms(self, f: "TcpFlow") -> float:
        """Round-trip propagation latency of a TcpFlow (a flow or a traffic generator's
        template) on its first route over this scenario's links."""
        return (f.access_delay_ms + sum(self.links[j].prop_delay_ms for j in f.route)
                + f.egress_delay_ms + f.reverse_delay_ms)

    def after_last_link_ms(self, f: "TcpFlow") -> float:
        """The constant delays after a TcpFlow's last link that the engine folds into its ACK
        loop, and its access delay (docs/model.md, "Delays"): what the host adds to the times
        the engine records at the last link."""
        return self.links[f.route[-1]].prop_delay_ms + f.egress_delay_ms + f.access_delay_ms

    # --- plain data ---

    def to_dict(self) -> dict:
        """Plain JSON-able data (lists, dicts, numbers, strings, None); ``from_dict`` inverts it."""
        return _plain_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> Scenario:
        """Build from ``to_dict()`` output (or hand-written dicts); children may be dicts, and
        errors name their place (``flows[2].variant``)."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"scenario: {data!r} is not allowed (expected a dict)")
        _known_fields(cls, data, "")
        for required in ("links", "duration_s"):
            if required not in data:
                raise ConfigError(f"{required}: missing (required field of Scenario)")
        return cls(**data)

    def digest(self) -> str:
        """SHA-256 of the canonical JSON of ``to_dict()``: equal scenarios, equal digests."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


Scenario.flows = _VariantFlows()  # after @dataclass, which keeps the field's default in __init__
