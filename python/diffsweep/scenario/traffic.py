"""Short-lived TCP transfers arriving over time (Poisson, sessions, web): ``Traffic``."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from diffsweep.core.errors import check
from diffsweep.scenario.checks import (INT32_MAX, MAX_SIZE_SET, SIZE_DISTS, TRAFFIC_KINDS, _OMIT,
                                       IntField, _as_tuple, _construct, _int_in, _name, _one_of,
                                       _set, as_float, as_int, check_ints, check_number,
                                       check_positive, plain)
from diffsweep.scenario.flows import TcpFlow


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

