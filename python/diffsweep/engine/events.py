"""events: a replica rerun with its packet events recorded (issue 53; docs/traces.md).

The engines are deterministic: a replica run alone gives the bits it gave in its sweep. So a
packet trace is a rerun of one (scenario, seed) on ``diffsweep._engine_cpu_events``, the CPU
engine built with its event hooks compiled in (``cuda/engine/events.h``, DS_EVENT_TRACE); the
engine every run uses has none, and pays nothing. ``record`` returns the replica's tables
(what ``simulate`` gives for it, bit for bit) and its events: one row per enqueue ('+'),
dequeue ('-'), drop ('d', with its reason) and receive ('r') at each link, and the ACKs' '+',
'-' and 'r' on their unqueued return, in time order.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from diffsweep.core.errors import BackendError, ConfigError, EngineError
from diffsweep.core.results import Results
from diffsweep.engine import compiled
from diffsweep.engine.pack import layout, pack
from diffsweep.engine.tables import batch_tables
from diffsweep.scenario.slot import max_wire_bytes

#: the default cap on the events recorded, in bytes (EVENT_DTYPE.itemsize = 32 each: 2,097,152
#: events): about 40 s of a 10 Mb/s bottleneck's packets with their ACKs. Reached, the trace
#: stops there and says so (``Recording.truncated``); the replica still runs to its end.
MAX_EVENT_BYTES = 64 << 20

#: one event as the engine writes it (cuda/engine/events.h PacketEvent)
EVENT_DTYPE = np.dtype([
    ("t_slots", "<f8"), ("id", "<i8"), ("seq", "<i4"), ("sender", "<u2"), ("bytes", "<u2"),
    ("kind", "u1"), ("reason", "u1"), ("cls", "u1"), ("colour", "u1"), ("flags", "u1"),
    ("hop", "u1"), ("link", "i1"), ("pad", "u1")])

#: EventDrop (engine/events.h): a drop's reason, as the ns-2 trace's flags write it
DROP_REASONS = {1: "buffer", 2: "forced", 3: "early", 4: "loss", 5: "ring"}
#: EventFlag bits
FLAG_SOURCE, FLAG_REXMIT, FLAG_ACK = 1, 2, 4


@dataclass
class Recording:
    """One replica's rerun: its tables (indexed by ``replica`` 0, as ``simulate`` gives them),
    its events (EVENT_DTYPE plus ``t_s``, seconds; time order, ties in the engine's order),
    whether the cap cut them short, and the facts a trace writer needs."""

    tables: Results
    events: np.ndarray
    truncated: bool
    slot_s: float
    max_event_bytes: int
    until_s: float | None
    max_flows: int  # a source's sender index is max_flows + its index


def _module():
    m = compiled._module("cpu_events")
    if m is None:
        raise BackendError("packet traces need diffsweep._engine_cpu_events, the CPU engine "
                           "built with its event hooks (CMakeLists.txt builds it beside "
                           "_engine_cpu); rebuild diffsweep (`pip install .`)")
    return m


def check_max_event_bytes(value, option: str = "max_event_bytes") -> int:
    """The cap on a trace's events in bytes: an integer of at least one event's 32 bytes."""
    size = EVENT_DTYPE.itemsize
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < size:
        raise ConfigError(f"{option}: {value!r} is not allowed (expected an integer number of "
                          f"bytes >= {size}, one event; default {MAX_EVENT_BYTES})")
    return int(value)


def record(scenario, seed: int, max_event_bytes: int = MAX_EVENT_BYTES,
           until_s: float | None = None) -> Recording:
    """Rerun the replica (``scenario``, ``seed``) recording its packet events, those before
    ``until_s`` (None: all), at most ``max_event_bytes`` of them (32 bytes each)."""
    cap = check_max_event_bytes(max_event_bytes)
    fq = [f"links[{i}].classes[{j}]" for i, link in enumerate(scenario.links)
          for j, q in enumerate(link.classes) if q.aqm == "fq_codel"]
    if fq:  # its dequeue serves a flow queue's head from the middle of the class's ring
        raise ConfigError(f"{fq[0]}.aqm: 'fq_codel' is not allowed in a packet trace yet "
                          "(FQ-CoDel sends and drops packets out of their arrival order, which "
                          "the recorder does not follow: docs/traces.md); trace a drop-tail, "
                          "RED, RIO, WRED, CoDel or PIE replica")
    if until_s is not None and (isinstance(until_s, bool) or not isinstance(
            until_s, (int, float)) or not until_s > 0):
        raise ConfigError(f"until_s: {until_s!r} is not allowed (expected a time in seconds "
                          "> 0, or None for the whole run)")
    m = _module()
    lanes = compiled.default_lanes("cpu", scenario.n_flows, 1)
    p = pack([scenario], [int(seed)], lanes=lanes)
    until = np.inf if until_s is None else float(until_s) / float(p.slot_s[0])
    # recorded a little past until: a '-' is written at its transmission's start, up to one
    # packet time (many slots when the slot is shorter than a packet) before the slot that
    # sends it; the events after until are cut below
    wire = max([max_wire_bytes(scenario)] + [src.pkt_bytes for src in scenario.sources])
    slowest = min(link.rate_bps * min((q.share or 1.0) if link.scheduler == "cbq" else 1.0
                                      for q in link.classes) for link in scenario.links)
    past = wire * 8.0 / slowest / float(p.slot_s[0]) + 2
    stop = until + past
    out, events = m.run_events(p.shape, compiled._flat(p), cap, stop)
    lay = layout()
    pool_bit = next(b for b, t in lay.overflow_bits.items() if t == "access-link pool")
    if int(out["overflow"][0]) == pool_bit:
        # as engine.simulate does: the rerun with pools that cannot run out is the result
        p = pack([scenario], [int(seed)], lanes=lanes, nic_pool="full")
        out, events = m.run_events(p.shape, compiled._flat(p), cap, stop)
    out = {k: np.asarray(v).reshape(lay.axes(lay.outputs[k][1], p.shape)) for k, v in out.items()}
    if int(out["overflow"][0]):
        what = [t for b, t in lay.overflow_bits.items() if out["overflow"][0] & b]
        raise EngineError(f"replica (seed {seed}) exceeded an engine limit: {', '.join(what)}")
    raw, truncated = events[0]
    ev = np.frombuffer(raw, dtype=EVENT_DTYPE)
    ev = ev[np.argsort(ev["t_slots"], kind="stable")]
    slot = float(p.slot_s[0])
    if until_s is not None:  # an ACK's 'r' is recorded when it is sent
        ev = ev[ev["t_slots"] < until]
    t_s = ev["t_slots"] * slot
    full = np.empty(len(ev), dtype=EVENT_DTYPE.descr + [("t_s", "<f8")])
    for name in EVENT_DTYPE.names:
        full[name] = ev[name]
    full["t_s"] = t_s
    tables = Results(**batch_tables(p, out, [scenario], [0]),
                     meta={"backend": "cpu_events", "version": compiled.version()})
    return Recording(tables=tables, events=full, truncated=bool(truncated), slot_s=slot,
                     max_event_bytes=cap, until_s=until_s,
                     max_flows=int(p.shape["max_flows"]))
