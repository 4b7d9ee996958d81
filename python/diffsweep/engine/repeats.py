"""repeats: replicas an engine call holds more than once, run once (``engine.simulate``).

A replica's results are a function of its scenario and its seed alone (docs/design.md,
"Determinism": not of its batch, its place in the work list or how the engine slices time).
A figure family's sweeps share points (Kaur & Vin's full family: 7,880 distinct replicas of
10,560, 74.6% of its replica-slots; the quick one 888 of 1,104), so ``simulate`` runs each
distinct (scenario, seed) once and gives every repeat a copy of its tables, bit for bit what
running it again would give.

Two replicas are the same when their seeds are equal and their scenarios equal in every
field but ``params`` (descriptive values shown as grid columns, which ``pack`` never reads);
delay variants (``Scenario.with_flow_delays``) when their bases are and their delays. A
scenario with a field that cannot be hashed makes every replica of the call distinct.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from diffsweep.core.results import Results
from diffsweep.scenario import Scenario

#: the fields that make a replica (``params`` only describes it)
_FIELDS = tuple(f.name for f in dataclasses.fields(Scenario) if f.name != "params")


def find_repeats(scenarios, seeds) -> tuple[list[int], np.ndarray]:
    """(first, twin): ``first`` the positions of the distinct replicas, in order of first
    appearance; ``twin[i]`` the place in ``first`` of replica i's twin (itself when first)."""
    seen: dict = {}
    first: list[int] = []
    twin = np.empty(len(scenarios), dtype=np.int64)
    base_no: dict = {}  # a delay variant's base (by id) -> the number of its fields' key
    base_keys: dict = {}  # a base's fields' key -> its number
    scenario_no: dict = {}  # a scenario (by id: one object may stand for several seeds) ->
    keys: dict = {}  # the number of its key (a tuple hashes its items at every lookup)
    try:
        for i, (sc, seed) in enumerate(zip(scenarios, seeds)):
            n = scenario_no.get(id(sc))
            if n is None:
                n = scenario_no[id(sc)] = keys.setdefault(_key(sc, base_no, base_keys), len(keys))
            j = seen.setdefault((n, int(seed)), len(first))
            if j == len(first):
                first.append(i)
            twin[i] = j
    except TypeError:  # an unhashable field value: no repeats found, every replica runs
        return list(range(len(scenarios))), np.arange(len(scenarios), dtype=np.int64)
    return first, twin


def distinct_points(points, seed_lists) -> list[tuple[int, int]]:
    """For grid points given by their first-seed scenario (``points``) and their seeds
    (``seed_lists``, one sequence per point): (i, k) per distinct scenario, i its first point,
    k the distinct seeds over every point that builds it (a point's seeds change its draws,
    not whether it equals another). One pass over the points, none over points x seeds."""
    first, twin = find_repeats(points, [0] * len(points))
    members: dict[int, list[int]] = {}
    for i, j in enumerate(twin.tolist()):
        members.setdefault(j, []).append(i)
    return [(first[j], len(seed_lists[ps[0]]) if len(ps) == 1 else
             len(set().union(*({int(x) for x in seed_lists[i]} for i in ps))))
            for j, ps in members.items()]


def _key(sc, base_no: dict, base_keys: dict):
    """A scenario's identity but for ``params``. A delay variant (``Scenario.with_flow_delays``:
    its base's fields but its flows' three delays) is its base's number and those delays'
    bytes, so that its flows are neither made nor hashed (64 TcpFlows a Kaur & Vin replica:
    most of the time a full family's check took); the base's fields are hashed once. (A
    variant and a plain scenario that are equal count as two: they run twice, as before.)"""
    v = getattr(sc, "delay_variant", None)
    if v is None:
        return tuple(getattr(sc, f) for f in _FIELDS)
    b = base_no.get(id(v.base))
    if b is None:
        key = tuple(getattr(v.base, f) for f in _FIELDS)  # (a base is no variant)
        b = base_no[id(v.base)] = base_keys.setdefault(key, len(base_keys))
    return (b, v.access_delay_ms.tobytes(), v.egress_delay_ms.tobytes(),
            v.reverse_delay_ms.tobytes())


def copy_to_repeats(res: Results, twin: np.ndarray, ids: np.ndarray | None = None,
                    meta: dict | None = None) -> Results:
    """The tables of a call over the distinct replicas (``res``: ``replica`` = place in
    ``first``) as a call over all of them: replica ``ids[k]`` (default k) gets the rows of
    distinct replica ``twin[k]``, in its order; the result sorted by replica as ``res`` is,
    its meta ``res``'s updated with ``meta``."""
    ids = np.arange(len(twin), dtype=np.int64) if ids is None else np.asarray(ids, dtype=np.int64)
    out = {}
    for name, df in res.tables().items():
        if "replica" not in df.columns or not len(df):
            out[name] = df  # no rows to copy (an empty table keeps its columns)
            continue
        rep = df["replica"].to_numpy(np.int64)
        order = np.argsort(rep, kind="stable")  # each distinct replica's rows, in their order
        counts = np.bincount(rep, minlength=int(twin.max(initial=-1)) + 1)
        starts = np.cumsum(counts) - counts
        n = counts[twin]  # rows of each replica of the call
        within = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
        rows = df.iloc[order[np.repeat(starts[twin], n) + within]].reset_index(drop=True)
        rows["replica"] = np.repeat(ids, n).astype(df["replica"].dtype, copy=False)
        out[name] = rows
    return Results(**out, meta={**res.meta, **(meta or {})})
