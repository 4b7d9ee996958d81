"""The engine's time slot of a scenario (docs/model.md, "Time"): one TCP data packet's
transmission time at the fastest rate a packet is serialised at, a link's or a sender's access
link's, unless ``Scenario.slot_s`` gives it; and the field that sets it, for messages."""
from __future__ import annotations

from diffsweep.scenario.checks import built_name


def serialising_rates(sc) -> list[tuple[float, str]]:
    """Every rate a packet of scenario ``sc`` is serialised at, with the field that sets it
    (``fastest_rate``): the links' first, then the senders' non-zero access rates."""
    out = [(link.rate_bps, built_name(link, "Link.rate_bps", f"links[{k}].rate_bps"))
           for k, link in enumerate(sc.links)]
    senders = _senders(sc)
    n = len(senders) - len(sc.traffic)
    paths = ([f"flows[{i}]" for i in range(n)]
             + [f"traffic[{g}].flow" for g in range(len(sc.traffic))])
    out += [(f.access_rate_bps,
             built_name(f, "TcpFlow.access_rate_bps", f"{path}.access_rate_bps"))
            for f, path in zip(senders, paths) if f.access_rate_bps]
    return out


def _senders(sc) -> list:
    """The TCP senders' flows: the fixed flows, then each traffic generator's template. A
    delay variant's flows differ only in their delays: its base's give the same sizes and
    rates, without making the variant's flows."""
    v = sc.__dict__.get("_delay_variant")
    return list((sc if v is None else v.base).flows) + [t.flow for t in sc.traffic]


def max_wire_bytes(sc) -> int:
    """The largest packet on the wire of scenario ``sc``: a TCP data packet (segment +
    header), or without TCP senders a source's packet. The default slot's packet."""
    wire = [f.segment_bytes + f.header_bytes for f in _senders(sc)]
    return max(wire or [s.pkt_bytes for s in sc.sources])


def fastest_rate(sc) -> tuple[float, str]:
    """The fastest rate a packet of scenario ``sc`` is serialised at, and the field that sets
    it: a link's ``rate_bps`` or a sender's non-zero ``access_rate_bps`` (its access link;
    0 is unpaced, None its route's first link), under a builder's name for the field where a
    builder's renamed_errors made it (``bottleneck_bps``, ``access_bps``). Ties go to the
    links, then to the earliest flow."""
    top = _fastest(sc)
    return next((r, n) for r, n in serialising_rates(sc) if r == top)


def _fastest(sc) -> float:
    """``fastest_rate``'s rate alone, without naming every field (every pack asks for it)."""
    return max([link.rate_bps for link in sc.links]
               + [f.access_rate_bps for f in _senders(sc) if f.access_rate_bps])


def default_slot_s(sc) -> float:
    """The engine's time slot of scenario ``sc``: ``sc.slot_s``, else one TCP data packet's
    transmission time at the fastest rate a packet is serialised at, a link's or a sender's
    access link's (``fastest_rate``; docs/model.md, "Time"). (``pack`` re-exports it: the
    Scenario needs it too, to refuse durations the slot clock cannot run.)"""
    if sc.slot_s is not None:
        return float(sc.slot_s)
    return max_wire_bytes(sc) * 8.0 / _fastest(sc)
