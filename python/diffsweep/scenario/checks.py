"""Shared by the scenario's classes: the engine's limits and the option lists, and the
value checks and normalisers (public ones are used by the papers' builders too), the range
table of integer fields (``IntField``, ``check_ints``) and the dict <-> dataclass helpers."""
from __future__ import annotations

import difflib
import math
import numbers
import weakref
from collections.abc import Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import MISSING, fields
from typing import NamedTuple

import numpy as np

from diffsweep.core.errors import ConfigError, check


# Engine limits, mirrored here so that a scenario the engine cannot run fails at construction.
MAX_ROUTE_LINKS = 4
# 2^16 (issue 52: a 1 Gb/s, 100 ms path needs ~8,300 packets): the receiver's reorder bitmap
# is as wide as the batch's largest window needs (cuda/batch.h BatchShape::rx_bits; 1024 bits
# up to a window of 1000, 8 KiB a flow at 2^16)
MAX_WINDOW_PKTS = 65536
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

VARIANTS = ("reno", "newreno", "sack")
# TcpFlow.congestion_control, in ns-3's vocabulary (TcpCongestionOps): the window's growth and
# reduction, orthogonal to the loss recovery (variant)
CONGESTION_CONTROLS = ("newreno", "cubic", "dctcp")
SSTHRESH_FROM = ("window", "flight")  # TcpFlow.ssthresh_from
RTO_RESTARTS = ("fast_retransmit", "new_ack")  # TcpFlow.rto_restart
HYSTART_DETECTS = ("packet_train", "delay", "both")  # ns-3 TcpCubic HyStartDetect
MAX_CUBIC_SETS = 4  # cuda/batch.h kMaxCubicSets: distinct CUBIC parameter sets per scenario
SPLITS = ("none", "random", "size", "lifetime")  # TcpFlow.split: the edge classifier
SCHEDULERS = ("priority", "wrr", "cbq")
TIE_BREAKS = ("random", "index")
COLOURS = ("green", "yellow", "red")  # drop precedence, most protected first (IN = green, OUT = red)
AQMS = ("droptail", "red", "rio-c", "rio-d", "wred", "codel", "pie", "fq_codel")
MAX_TRACE_SAMPLES = 100_000  # per trace (cwnd, queue): samples over duration_s
# Both traces live in a replica's state block until it ends (cuda/batch.h: trace_cwnd, qtrace_*),
# on the GPU for every replica of a launch at once: together at most this per replica, the
# most the cwnd trace could take when it was capped at 4 flows (4 x 100,000 samples x 4 bytes).
MAX_TRACE_BYTES = 1_600_000
CWND_SAMPLE_BYTES = 4    # a float per traced flow and sample (trace_cwnd)
QUEUE_SAMPLE_BYTES = 64  # per traced link and sample: 4 class slots (kMaxClasses) x (int32
                         # packets + int64 bytes + float RED average), whatever classes it has
MARKER_KINDS = ("token_bucket", "tsw2cm", "tsw3cm", "srtcm", "trtcm", "balancing", "rtt_aware",
                "rtt_rto")
SMALL_WINDOW_KINDS = ("tsw3cm", "rtt_aware", "rtt_rto")  # Marker.small_window_pkts
ONOFF = ("exponential", "fixed")
MAX_MARKERS = 64
MAX_GENS = 64
MAX_SIZE_SET = 32
TRAFFIC_KINDS = ("poisson", "sessions", "web")
SIZE_DISTS = ("set", "exponential", "pareto", "paretoII")

def trace_samples_of(duration_s: float, interval_s: float | None) -> int:
    """Samples of a trace at 0, interval_s, ... up to duration_s (0: none)."""
    if interval_s is None:
        return 0
    return int(math.floor(duration_s / interval_s + 1e-9)) + 1


def trace_bytes(sc) -> int:
    """A replica's trace memory (``MAX_TRACE_BYTES`` bounds it): cwnd and queue traces."""
    cwnd = trace_samples_of(sc.duration_s, sc.trace_interval_s) * len(sc.trace_flows)
    links = len(sc.links) if sc.queue_trace_links is None else len(sc.queue_trace_links)
    queue = trace_samples_of(sc.duration_s, sc.queue_trace_interval_s) * links
    return cwnd * CWND_SAMPLE_BYTES + queue * QUEUE_SAMPLE_BYTES


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


# grid.py imports these two under their former private names.
_is_int, _plain = is_int, plain


def _set(obj, name, value) -> None:
    object.__setattr__(obj, name, value)


_new_object = object.__new__


# The renames of the renamed_errors blocks now open: a Link built inside one remembers the
# builder's name of its rate (renamed_field), for errors raised later, when the Scenario
# checks how the links fit together (the slot clock: Scenario._check_slots).
_RENAMES: ContextVar[dict[str, str]] = ContextVar("diffsweep_renames", default={})


def renamed_field(path: str) -> str | None:
    """The builder's name for ``path`` (e.g. ``"Link.rate_bps"``) in the open renamed_errors
    blocks, None outside them."""
    return _RENAMES.get().get(path)


# What remember_renamed kept: id(obj) -> (a weak reference to obj, {field path: the builder's
# name}). Beside the object, not in it, so that ``TcpFlow(**{**flow.__dict__, ...})`` and
# equality see the fields alone.
_BUILT_NAMES: dict[int, tuple[weakref.ref, dict[str, str]]] = {}


def _names_of(obj) -> dict[str, str] | None:
    entry = _BUILT_NAMES.get(id(obj))
    return entry[1] if entry is not None and entry[0]() is obj else None


def _keep(obj, names: dict[str, str]) -> None:
    key = id(obj)
    _BUILT_NAMES[key] = (weakref.ref(obj, lambda _, k=key: _BUILT_NAMES.pop(k, None)), names)


def remember_renamed(obj, path: str) -> None:
    """Keep the builder's name for field ``path`` of ``obj`` (e.g. a Link's ``"Link.rate_bps"``)
    when ``obj`` is built inside a renamed_errors block that renames it: errors raised later
    from what was built (the Scenario's slot clock, ``slot.fastest_rate``) name it too."""
    name = renamed_field(path)
    if name is not None:
        _keep(obj, {**(_names_of(obj) or {}), path: name})


def carry_renamed(src, dst) -> None:
    """``dst``, a copy of ``src`` made without its constructor, keeps ``src``'s names."""
    names = _names_of(src)
    if names is not None:
        _keep(dst, names)


def built_name(obj, path: str, default: str) -> str:
    """The name remember_renamed kept for field ``path`` of ``obj``, else ``default``."""
    return (_names_of(obj) or {}).get(path, default)


@contextmanager
def renamed_errors(renames: dict[str, str]):
    """Re-raise a ConfigError of scenario construction under another leading path (a paper's
    builder names its own parameter: ``buffer_pkts`` rather than ``links[0].classes[0]...``).
    The renames also hold for checks made later from what was built here (``renamed_field``)."""
    token = _RENAMES.set({**_RENAMES.get(), **renames})
    try:
        yield
    except ConfigError as e:
        msg = str(e)
        for old, new in renames.items():
            msg = reprefix(msg, old, new)
        raise ConfigError(msg) from None
    finally:
        _RENAMES.reset(token)


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


def _as_route(v):
    """A route as a tuple of link indices; an int is the common one-link route (route=0).
    Anything else is left for the validation to name."""
    route = _as_tuple(plain(v))
    if is_int(route):
        route = (route,)
    if isinstance(route, tuple):
        route = tuple(as_int(r) for r in route)
    return route
