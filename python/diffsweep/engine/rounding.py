"""rounding: what the engine's whole slots do to a sweep's times, said before it runs.

The engine counts time in whole slots (docs/model.md, "Time"): every delay, the run and its
warm-up are rounded to slots once, on the host (``pack``). On a slow link a slot is long (576 B
at 100 kb/s: 46.08 ms), so a round trip asked as 0.5 ms runs as 46.08 ms, and a warm-up can
leave a handful of slots to measure. ``check(grid)`` packs every point of a grid once (its
first seed) and returns one warning line per kind of problem, and refuses points the engine
cannot tell apart:

* ``ROUNDING_WARN_SHARE``: a flow's round-trip propagation delay (``rtp_ms``: access + links +
  egress + reverse; a traffic generator's transfers too, by its template flow), ``duration_s``
  or ``warmup_s`` that runs more than this share away from the asked value. The tables keep both: ``flows.rtp_ms`` (asked) beside ``flows.rtp_ms_run``
  (run); ``replicas.duration_s`` / ``warmup_s`` are the run values, the grid's the asked.
* ``MIN_WINDOW_SLOTS``: a measurement window (``duration_s - warmup_s``) of fewer slots. Goodput
  counts whole packets of about one slot each: with fewer than 100 slots one packet more or less
  moves a flow's goodput by more than 1% of the fastest link (with 1 slot: 0 or the whole link).
* Points the engine cannot tell apart: two points whose scenarios differ but whose packed
  engine inputs are equal (two delays that round to the same slots, two values equal after the
  engine's rounding) are one point run twice, as a repeated axis value ``[4, 4.0]`` is: refused
  with a ConfigError naming the parameters where they differ and both values.

``run`` (at its start, as ``UserWarning``s) and ``diffsweep run --dry-run`` call it.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from diffsweep.core.errors import ConfigError

#: a time rounded to whole slots by more than this share of itself is warned about
ROUNDING_WARN_SHARE = 0.10
#: a measurement window of fewer slots than this is warned about
MIN_WINDOW_SLOTS = 100
#: examples a warning line names
EXAMPLES = 2


def rtp_run_ms(arrays: dict, slot_s) -> np.ndarray:
    """[replicas, flow rows] the round-trip propagation delay each flow runs with (ms): its
    ACK loop plus the whole-slot delays of the links before its last, in slots of ``slot_s``
    ([replicas]): the same sum as ``pack.flows.delay_columns``' rounding error."""
    loop = np.asarray(arrays["flow_loop_slots"], dtype=np.int64)
    route = np.asarray(arrays["flow_route"], dtype=np.int64)
    hops = np.asarray(arrays["flow_n_hops"], dtype=np.int64)
    prop = np.asarray(arrays["link_prop_slots"], dtype=np.int64)
    before = np.zeros_like(loop)
    rows = np.arange(loop.shape[0])[:, None]
    for h in range(route.shape[2]):
        on = h < hops - 1
        if not on.any():
            break
        link = np.where(on, route[:, :, h], 0)
        before += np.where(on, prop[rows, link], 0)
    return (loop + before) * np.asarray(slot_s, dtype=float)[:, None] * 1e3


@dataclass
class _Issue:
    """One kind of problem over the points: how many, and the first examples."""

    points: list = field(default_factory=list)
    examples: list = field(default_factory=list)

    def add(self, point: int, text: str) -> None:
        if not self.points or self.points[-1] != point:
            self.points.append(point)
        if len(self.examples) < EXAMPLES:
            self.examples.append(text)


def _ms(v: float) -> str:
    return f"{v:.6g} ms"


def _s(v: float) -> str:
    return f"{v:.6g} s"


def _share(asked: float, run: float) -> float:
    if asked == run:
        return 0.0
    return abs(run - asked) / abs(asked) if asked else float("inf")


def check(grid, packs: dict | None = None) -> list[str]:
    """Warning lines (none when all is well) for the points of ``grid``; a ConfigError when two
    points are the same to the engine. Packs every point with its first seed (``packs``: point
    -> its packed first seed where already packed, as the runner's size check does)."""
    from diffsweep.engine.pack import pack  # noqa: PLC0415
    from diffsweep.engine.repeats import find_repeats  # noqa: PLC0415

    seed = grid.seeds[0]
    scs = [grid.scenario(p, seed) for p in range(grid.n_points)]
    _, twin = find_repeats(scs, [seed] * len(scs))  # points that build the same scenario
    rtp, times, window = _Issue(), _Issue(), _Issue()
    by_inputs: dict[bytes, int] = {}
    for p, sc in enumerate(scs):
        try:
            pk = packs[p] if packs and p in packs else pack([sc], [seed])
        except ConfigError as e:  # an engine limit (the runner's point_info says it too)
            raise ConfigError(f"{e} ({grid._where(p, seed)})") from None
        a, slot = pk.arrays, float(pk.slot_s[0])
        where = _where(grid, p)
        run = rtp_run_ms(a, pk.slot_s)[0]
        # no flow's share can pass the threshold when the worst error (pack's, over every
        # flow) is small beside the shortest run round trip: its flows are not looked at
        worst = float(pk.delay_rounding_ms[0])
        low = float(run[:sc.n_flows].min(initial=np.inf)) - worst
        for f in range(sc.n_flows if worst > ROUNDING_WARN_SHARE * low else 0):
            asked = sc.flow_rtp_ms(f)
            if _share(asked, run[f]) > ROUNDING_WARN_SHARE:
                rtp.add(p, f"{where}: flow {f}'s rtp_ms {_ms(asked)} runs as {_ms(run[f])}")
                break
        # a traffic generator's transfers run on its pool's rows, after the flows' (pack's
        # pool_flows), each as its template: one row per generator says it
        said = bool(rtp.points) and rtp.points[-1] == p
        row = sc.n_flows
        for t in () if said else sc.traffic:
            asked = sc.route_rtp_ms(t.flow)
            if _share(asked, run[row]) > ROUNDING_WARN_SHARE:
                rtp.add(p, f"{where}: traffic {t.name}'s transfers' rtp_ms {_ms(asked)} run as "
                           f"{_ms(run[row])}")
                break
            row += t.pool
        end, warm = int(a["end_slot"][0]), int(a["warmup_slot"][0])
        for name, asked, slots in (("duration_s", sc.duration_s, end),
                                   ("warmup_s", sc.warmup_s, warm)):
            if _share(asked, slots * slot) > ROUNDING_WARN_SHARE:
                times.add(p, f"{where}: {name} {_s(asked)} runs as {_s(slots * slot)}")
        if end - warm < MIN_WINDOW_SLOTS:
            window.add(p, f"{where}: duration_s - warmup_s = {_s(sc.duration_s - sc.warmup_s)} "
                          f"asked, {end - warm} slot(s) = {_s((end - warm) * slot)} run")
        digest = _inputs_digest(pk, sc)
        q = by_inputs.setdefault(digest, p)
        if q != p and twin[q] != twin[p]:
            raise _same_point(grid, scs, q, p)
    n = grid.n_points
    slot_note = _slot_note(scs)
    lines = []
    if rtp.points:
        lines.append(f"round-trip delays rounded to whole slots by more than "
                     f"{ROUNDING_WARN_SHARE:.0%} at {len(rtp.points)} of {n} points "
                     f"({'; '.join(rtp.examples)}){slot_note}; "
                     + ("the flows table has the asked and the run value (rtp_ms, rtp_ms_run)"
                        if any(": flow " in e for e in rtp.examples) else
                        "the transfers table does not list round trips"))
    if times.points:
        lines.append(f"run times rounded to whole slots by more than {ROUNDING_WARN_SHARE:.0%} "
                     f"at {len(times.points)} of {n} points ({'; '.join(times.examples)})"
                     f"{slot_note}; the replicas table has the run values")
    if window.points:
        lines.append(f"measurement window of fewer than {MIN_WINDOW_SLOTS} slots at "
                     f"{len(window.points)} of {n} points ({'; '.join(window.examples)})"
                     f"{slot_note}: goodput counts whole packets, so it is coarse (with one "
                     "slot: 0 or the whole link); a longer duration_s or a shorter warmup_s")
    return lines


def _where(grid, p: int) -> str:
    values = ", ".join(f"{k}={v!r}" for k, v in grid._point_values[p].items())
    return f"point {p}" + (f" ({values})" if values else "")


def _slot_note(scs) -> str:
    from diffsweep.scenario import default_slot_s  # noqa: PLC0415

    slots = sorted({default_slot_s(sc) for sc in scs})
    shown = ", ".join(f"{s * 1e3:.6g} ms" for s in slots[:3]) + (", ..." if len(slots) > 3 else "")
    why = ("Scenario.slot_s" if all(sc.slot_s is not None for sc in scs) else
           "a slot is one TCP packet's time at the fastest rate, a link's or an "
           "access link's")
    return f"; slots of {shown} ({why})"


#: inputs only a scenario's markers read (cuda/model/tcp_sender.h, sender_tag: a TCP-aware
#: marker's stand-in for the smoothed RTT): left out of the comparison without markers
_MARKERS_ONLY = ("flow_base_rtt_slots",)


def _inputs_digest(pk, sc) -> bytes:
    """What the engine reads of a packed replica: every array's name, dtype, shape and bytes,
    and the slot length (which the tables' times are in)."""
    h = hashlib.sha256()
    for k in sorted(pk.arrays):
        if k in _MARKERS_ONLY and not sc.markers:
            continue
        v = np.ascontiguousarray(pk.arrays[k])
        h.update(f"{k}:{v.dtype.str}:{v.shape}".encode())
        h.update(v.tobytes())
    h.update(np.asarray(pk.slot_s, dtype=float).tobytes())
    return h.digest()


def _same_point(grid, scs, q: int, p: int) -> ConfigError:
    """The ConfigError of points ``q`` < ``p`` that differ but run the same."""
    a, b = grid._point_values[q], grid._point_values[p]
    names = [k for k in a if _differ(a[k], b[k])] or list(a)
    if len(names) == 1:
        values = f"{a[names[0]]!r} and {b[names[0]]!r}"
    else:
        values = (f"({', '.join(repr(a[k]) for k in names)}) and "
                  f"({', '.join(repr(b[k]) for k in names)})")
    why = "the engine rounds them to the same inputs"
    ra = [scs[q].flow_rtp_ms(f) for f in range(scs[q].n_flows)]
    rb = [scs[p].flow_rtp_ms(f) for f in range(scs[p].n_flows)]
    if ra != rb and ra and rb:
        from diffsweep.engine.pack import pack  # noqa: PLC0415
        pk = pack([scs[q]], [grid.seeds[0]])
        run = rtp_run_ms(pk.arrays, pk.slot_s)[0]
        why = (f"the flows' round trips ({_ms(ra[0])} and {_ms(rb[0])} for flow 0) both run as "
               f"{_ms(run[0])}, whole slots of {_ms(float(pk.slot_s[0]) * 1e3)}")
    return ConfigError(f"{', '.join(names)}: {values} are the same point to the engine (grid "
                       f"points {q} and {p}: {why}); each point would be run twice: keep one "
                       "of the values")


def _differ(x, y) -> bool:
    try:
        return bool(x != y)
    except (TypeError, ValueError):  # arrays
        return not np.array_equal(np.asarray(x), np.asarray(y))
