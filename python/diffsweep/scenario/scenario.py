"""One simulated network: ``Scenario`` (how its links, flows, sources, markers and traffic fit
together, its time slot, delay variants, plain data and digest)."""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import NamedTuple

import numpy as np

from diffsweep.core.errors import ConfigError, check
from diffsweep.scenario.checks import (CWND_SAMPLE_BYTES, MAX_CUBIC_SETS, MAX_GENS, MAX_MARKERS,
                                       MAX_SLOTS,
                                       MAX_TRACE_BYTES, MAX_TRACE_SAMPLES, QUEUE_SAMPLE_BYTES,
                                       TIE_BREAKS, _OMIT, _as_tuple, _construct,
                                       _known_fields, _new_object, _one_of, _plain_dict, _set,
                                       as_float, as_int, check_bool, check_nonneg, check_number, check_positive,
                                       is_int, is_real, plain, trace_bytes)
from diffsweep.scenario.flows import TcpFlow
from diffsweep.scenario.fq_hash import fq_classes, fq_queues
from diffsweep.scenario.links import CODEL_MAX_MS, PIE_MAX_UPDATES, Link

#: FQ-CoDel flow queues a link keeps at most (cuda/model/queue_fq_codel.h kMaxFqQueues)
MAX_FQ_QUEUES = 256
from diffsweep.scenario.markers import Marker
from diffsweep.scenario.sources import OnOffSource
from diffsweep.scenario.slot import default_slot_s, fastest_rate, serialising_rates
from diffsweep.scenario.traffic import Traffic


def _slot_text(sc, slot: float) -> str:
    """One time slot and where its length comes from, for messages."""
    if sc.slot_s is not None:
        return f"one time slot ({slot:.4g} s: slot_s)"
    fastest, name = fastest_rate(sc)
    return (f"one time slot ({slot:.4g} s: the transmission time of a "
            f"{round(slot * fastest / 8.0)}-byte packet at the fastest rate, {name} "
            f"{fastest:g} b/s)")


def _down(x: float) -> str:
    """``x`` to 4 significant digits, rounded down (a bound a user may copy and still pass)."""
    e = math.floor(math.log10(x)) - 3
    return f"{math.floor(x / 10.0 ** e) * 10.0 ** e:.4g}"


def _up(x: float) -> str:
    """``x`` to 4 significant digits, rounded up."""
    e = math.floor(math.log10(x)) - 3
    return f"{math.ceil(x / 10.0 ** e) * 10.0 ** e:.4g}"


#: a slot shorter than this (1 ns: one 1000-byte packet at 8 Tb/s) is what makes a run longer
#: than the slot clock, rather than its duration (Scenario._too_many_slots)
SUB_NS_SLOT_S = 1e-9

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
    ``interval_s`` set asks for per-interval goodput; ``trace_flows`` (indices into ``flows``)
    asks for their congestion window every ``trace_interval_s`` (results table
    ``cwnd_trace``); ``queue_trace_interval_s`` asks for the length of every class queue of
    ``queue_trace_links`` (None: every link) at that interval (table ``queue_trace``); both
    traces together hold at most ``MAX_TRACE_BYTES`` per replica (docs/columns.md);
    ``queue_delay_hist`` asks for a histogram of every class queue's waits (table
    ``queue_delay``, columns ``delay_p50_ms`` ... of ``queues``; docs/model.md, "Queueing-delay
    percentiles"); ``params`` are derived/descriptive values (plain scalars) that ``Grid``
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
    queue_trace_interval_s: float | None = field(default=None, metadata=_OMIT)
    queue_trace_links: tuple[int, ...] | None = field(default=None, metadata=_OMIT)
    queue_delay_hist: bool = field(default=False, metadata=_OMIT)
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
                  "init_rto_s", "interval_s", "trace_interval_s", "queue_trace_interval_s"):
            _set(self, f, as_float(getattr(self, f)))
        for f in ("trace_flows", "queue_trace_links"):
            v = _as_tuple(plain(getattr(self, f)))
            if isinstance(v, tuple):
                v = tuple(as_int(i) for i in v)
            _set(self, f, v)
        check(isinstance(self.params, Mapping), "params", self.params, "a dict")
        _set(self, "params", {k: plain(v) for k, v in self.params.items()})
        _set(self, "queue_delay_hist", plain(self.queue_delay_hist))
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
        check_bool("queue_delay_hist", self.queue_delay_hist)
        if any(c.aqm in ("codel", "fq_codel") for link in self.links for c in link.classes):
            check(self.duration_s < CODEL_MAX_MS / 1e3, "duration_s", self.duration_s,
                  f"a number < {CODEL_MAX_MS / 1e3:g} with a CoDel queue (its clock, ns >> 10 "
                  "in 32 bits as ns-3's, wraps there)")
        pie_t_update = [c.pie_t_update_ms for link in self.links for c in link.classes
                        if c.aqm == "pie"]
        if pie_t_update:
            most_s = PIE_MAX_UPDATES * min(pie_t_update) / 1e3
            check(self.duration_s < most_s, "duration_s", self.duration_s,
                  f"a number < {most_s:g} with a PIE queue of pie_t_update_ms "
                  f"{min(pie_t_update):g} (the engine counts its updates in 32 bits)")
        self._check_fq_codel()
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
        self._check_cubic_sets(flows, first)

    def _check_cubic_sets(self, flows, first) -> None:
        """At most MAX_CUBIC_SETS distinct sets of CUBIC parameters among the flows and the
        traffic pools' flows (the engine keeps that many per replica: cuda/batch.h)."""
        sets: dict = {}
        named = [(f"flows[{i}]", flows[i]) for i in sorted(first.values())]
        named += [(f"traffic[{k}].flow", t.flow) for k, t in enumerate(self.traffic)]
        for name, flow in named:
            p = flow.cubic_params
            if p is None or p in sets:
                continue
            sets[p] = name
            check(len(sets) <= MAX_CUBIC_SETS, f"{name}.cubic_c", flow.cubic_c,
                  f"at most {MAX_CUBIC_SETS} distinct sets of CUBIC parameters (cubic_*) in one "
                  "scenario (the engine keeps that many per replica): this flow's is another")

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
        if end > MAX_SLOTS:
            self._too_many_slots(sl)
        check(end - int(round(self.warmup_s / sl)) >= 1, "warmup_s", self.warmup_s,
              f"a number >= 0 and at least {_slot_text(self, sl)} below duration_s "
              f"({self.duration_s}): rates are measured after the warm-up")
        if self.interval_s is not None:
            check(int(round(self.interval_s / sl)) >= 1, "interval_s", self.interval_s,
                  f"None or a number >= {_slot_text(self, sl)} and <= duration_s "
                  f"({self.duration_s})")

    def _too_many_slots(self, sl: float) -> None:
        """Refuse a run of more than 2^32 slots (the engine's slot clock is 32-bit), naming the
        two ways out: a shorter duration_s, or a longer slot from what sets it (``slot_s``, or
        else the fastest rate, a link's or a sender's access link's, under the builder's name
        for it when a builder's renamed_errors built it: ``fastest_rate``). The message leads
        with the slot's source when the slot is under 1 ns (SUB_NS_SLOT_S: a link beyond
        8 Tb/s for 1000-byte packets, faster than any link modelled, e.g. bottleneck_bps =
        1e15 makes a slot of 8.3 ps), else with duration_s (a run longer than the clock holds
        at a real link's rate). Where slowing the fastest rate alone could not make the slot
        long enough (another field's rate would then set it), the second way out offered is
        ``slot_s``."""
        longest = _down(MAX_SLOTS * sl)
        slot_rng = f"a number >= {_up(self.duration_s / MAX_SLOTS)} s"
        if self.slot_s is not None:
            name, value, rng, what = "slot_s", self.slot_s, slot_rng, "slot_s"
        else:
            value, name = fastest_rate(self)
            bits = sl * value  # the largest packet on the wire, in bits
            at_most = bits * MAX_SLOTS / self.duration_s
            rng = f"a number > 0 and at most {_down(at_most)} b/s"
            what = (f"the transmission time of a {round(bits / 8.0)}-byte packet at the "
                    f"fastest rate, {name} {value:g} b/s")
            # the rates another field sets (one builder parameter may set several links' and
            # access links' rates, e.g. Kaur & Vin's link_rate_bps, and slows them together)
            others = [r for r, n in serialising_rates(self) if n != name]
            if sl >= SUB_NS_SLOT_S and others and max(others) > at_most:
                name, rng = "slot_s", slot_rng
        if sl < SUB_NS_SLOT_S:
            raise ConfigError(
                f"{name}: {value!r} is not allowed (expected {rng}, so that duration_s "
                f"{self.duration_s:g} is fewer than 2^32 slots, the 32-bit slot clock: the slot "
                f"is {sl:.4g} s, {what}; or a duration_s of at most {longest} s)")
        raise ConfigError(
            f"duration_s: {self.duration_s!r} is not allowed (expected a number > 0 and at most "
            f"{longest} s, fewer than 2^32 slots of {sl:.4g} s ({what}), the 32-bit slot clock; "
            f"or {name} {rng})")

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
        check(isinstance(v, tuple), "trace_flows", v, "a sequence of flow indices")
        for j, i in enumerate(v):
            check(is_int(i) and 0 <= i < len(self.flows), f"trace_flows[{j}]", i,
                  f"a flow index in 0..{len(self.flows) - 1}" if self.flows
                  else "no index: the scenario has no flows")
        check(len(set(v)) == len(v), "trace_flows", v, "indices without repeats")
        if not v:
            check(self.trace_interval_s is None, "trace_interval_s", self.trace_interval_s,
                  "None without trace_flows")
        else:
            self._check_interval("trace_interval_s")
        v = self.queue_trace_links
        if v is not None:
            check(isinstance(v, tuple) and len(v) >= 1, "queue_trace_links", v,
                  "None (every link) or a non-empty sequence of link indices")
            for j, i in enumerate(v):
                check(is_int(i) and 0 <= i < len(self.links), f"queue_trace_links[{j}]", i,
                      f"a link index in 0..{len(self.links) - 1}")
            check(len(set(v)) == len(v), "queue_trace_links", v, "indices without repeats")
            check(self.queue_trace_interval_s is not None, "queue_trace_links", v,
                  "None without queue_trace_interval_s")
        if self.queue_trace_interval_s is not None:
            self._check_interval("queue_trace_interval_s")
        n = trace_bytes(self)
        check(n <= MAX_TRACE_BYTES, "trace_flows" if self.trace_flows else "queue_trace_interval_s",
              self.trace_flows if self.trace_flows else self.queue_trace_interval_s,
              f"traces of at most {MAX_TRACE_BYTES} bytes per replica (this one: {n}; "
              f"{CWND_SAMPLE_BYTES} bytes per traced flow and cwnd sample, "
              f"{QUEUE_SAMPLE_BYTES} per traced link and queue sample): fewer traced flows or "
              "links, or a longer interval")

    def _check_interval(self, name: str) -> None:
        iv = getattr(self, name)
        check(iv is not None and is_real(iv) and 0 < iv <= self.duration_s, name, iv,
              f"a number > 0 and <= duration_s ({self.duration_s})")
        n = math.floor(self.duration_s / iv + 1e-9) + 1
        check(n <= MAX_TRACE_SAMPLES, name, iv,
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

    def _check_fq_codel(self) -> None:
        # one hash per replica (scenario/fq_hash.py), at most MAX_FQ_QUEUES buckets in use
        fq = fq_classes(self)
        if not fq:
            return
        for f in ("fq_flows", "fq_perturbation"):
            vals = sorted({getattr(c, f) for c in fq})
            check(len(vals) == 1, f"links[].classes[].{f}", vals,
                  "the same on every 'fq_codel' class of a scenario (one hash of its senders)")
        n = fq_queues(self)[2]
        check(n <= MAX_FQ_QUEUES, "fq_flows", fq[0].fq_flows,
              f"fewer buckets: the {self.engine_flows + len(self.sources)} senders fill {n} "
              f"flow queues, and the engine keeps at most {MAX_FQ_QUEUES} a link "
              "(docs/model.md, 'FQ-CoDel'); fq_flows <= 256 bounds them")

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
