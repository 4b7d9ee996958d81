"""Layer ``scenario``: what a network is -- links, TCP flows and on/off sources (docs/api.md,
"Scenario"), the standard topologies (``dumbbell``) and the builders by name (``registry``: the
sweep files' ``builder = ...`` and ``@diffsweep.builder``; ``builders``: every builder, the
standard ones and the registered papers', as ``diffsweep.scenarios``).

May import: ``diffsweep.core``. Nothing here knows how a scenario is run.

Every class is a frozen dataclass validated in ``__post_init__``. A bad value raises
:class:`~diffsweep.core.errors.ConfigError` whose message starts with the field path. A child built
on its own reports its class name (``TcpFlow.variant: ...``); a child given to ``Scenario`` as a
dict, or through ``Scenario.from_dict``, reports its place in the scenario
(``flows[2].variant: ...``), and so do the checks that need the whole scenario (routes, classes,
buffer sizes, start times).

Numbers are normalised on construction (numpy scalars to Python, float fields to ``float``,
integral values of integer fields to ``int``, sequences to tuples) so that two scenarios that
mean the same compare equal and give the same ``to_dict()`` and ``digest()``.

One module per part of the model, as in ``pack/``: ``checks`` (the engine's limits, option
lists and the shared value checks), ``links`` (Link, QueueClass, RedThresholds), ``flows``
(TcpFlow), ``sources`` (OnOffSource), ``markers`` (Marker), ``traffic`` (Traffic) and
``scenario`` (Scenario: how the parts fit together). Their public names (and grid.py's two
private aliases) are re-exported here, so that ``diffsweep.scenario.X`` is the one import path.
"""
from __future__ import annotations

from diffsweep.scenario.checks import (AQMS, COLOURS, INT32_MAX, MARKER_KINDS,
                                       MAX_ACCESS_BUFFER_PKTS, MAX_FLOWS, MAX_GENS,
                                       MAX_HEADER_BYTES, MAX_MARKERS, MAX_QUEUE_LIMIT,
                                       MAX_ROUTE_LINKS, MAX_SEGMENT_BYTES, MAX_SEND_JITTER_S,
                                       MAX_SIZE_SET, MAX_SLOTS, MAX_SOURCES, MAX_TRACE_SAMPLES,
                                       MAX_TRACE_BYTES, MAX_WINDOW_PKTS, MAX_WIRE_BYTES, MIN_ONOFF_MS,
                                       ONOFF, SCHEDULERS, SIZE_DISTS, SMALL_WINDOW_KINDS, SPLITS,
                                       TIE_BREAKS, TRAFFIC_KINDS, VARIANTS, CONGESTION_CONTROLS,
                                       HYSTART_DETECTS, MAX_CUBIC_SETS, IntField, _is_int,
                                       _plain, as_float, as_int, check_bool, check_count,
                                       check_ints, check_nonneg, check_number, check_positive,
                                       is_int, is_real, plain, renamed_errors, reprefix)
from diffsweep.scenario.flows import TcpFlow
from diffsweep.scenario.links import Link, QueueClass, RedThresholds
from diffsweep.scenario.markers import Marker
from diffsweep.scenario.scenario import DelayVariant, Scenario, default_slot_s
from diffsweep.scenario.sources import OnOffSource
from diffsweep.scenario.traffic import Traffic

__all__ = [
    # the model
    "Scenario", "Link", "QueueClass", "RedThresholds", "TcpFlow", "OnOffSource", "Marker",
    "Traffic", "DelayVariant", "default_slot_s",
    # the engine's limits and the option lists
    "AQMS", "COLOURS", "INT32_MAX", "MARKER_KINDS", "MAX_ACCESS_BUFFER_PKTS", "MAX_FLOWS",
    "MAX_GENS", "MAX_HEADER_BYTES", "MAX_MARKERS", "MAX_QUEUE_LIMIT", "MAX_ROUTE_LINKS",
    "MAX_SEGMENT_BYTES", "MAX_SEND_JITTER_S", "MAX_SIZE_SET", "MAX_SLOTS", "MAX_SOURCES",
    "MAX_TRACE_SAMPLES", "MAX_TRACE_BYTES", "MAX_WINDOW_PKTS", "MAX_WIRE_BYTES", "MIN_ONOFF_MS",
    "ONOFF", "SCHEDULERS", "SIZE_DISTS", "SMALL_WINDOW_KINDS", "SPLITS", "TIE_BREAKS",
    "TRAFFIC_KINDS", "VARIANTS", "CONGESTION_CONTROLS", "HYSTART_DETECTS", "MAX_CUBIC_SETS",
    # the value checks the papers' builders use
    "IntField", "as_float", "as_int", "check_bool", "check_count", "check_ints", "check_nonneg",
    "check_number", "check_positive", "is_int", "is_real", "plain", "renamed_errors", "reprefix",
]
