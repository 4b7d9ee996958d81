"""FQ-CoDel's flow queues of a scenario (cuda/model/queue_fq_codel.h): each sender's bucket,
ns-3's ``Hash(perturbation) % Flows`` with a documented hash of the sender's index in place of
ns-3's hash of the 5-tuple (docs/model.md, "FQ-CoDel"), numbered densely in order of first use
by sender index: the flow queue the engine puts its packets in. The hash is murmur3's 32-bit
finaliser (fmix32) of ``id * 0x9E3779B1 ^ perturbation``, ``id`` a flow slot's index, or
65536 + a source's index (the engine's ``fq_bucket``; tests/cpp/test_fq_codel.cpp holds its
values). Senders that share a bucket share a flow queue, as two ns-3 flows whose hashes
collide do."""
from __future__ import annotations

import numpy as np

#: a source's id: 65536 + its index (flows' ids are their slot indices, < 65000)
SOURCE_ID_BASE = 65536


def fq_bucket(sender_id: int, perturbation: int, flows: int) -> int:
    h = ((sender_id * 0x9E3779B1) & 0xFFFFFFFF) ^ perturbation
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h % flows


def fq_classes(sc) -> list:
    return [c for link in sc.links for c in link.classes if c.aqm == "fq_codel"]


def fq_queues(sc) -> tuple[np.ndarray, np.ndarray, int]:
    """(flow_fq_queue over the engine's flow slots, src_fq_queue over the sources, the number
    of flow queues in use). Every FQ-CoDel class of a scenario hashes with the first one's
    fq_flows and fq_perturbation (Scenario checks they agree). Without one: zeros and 0."""
    nf, ns = sc.engine_flows, len(sc.sources)
    fq = fq_classes(sc)
    if not fq:
        return np.zeros(nf, dtype=np.int64), np.zeros(ns, dtype=np.int64), 0
    flows, pert = fq[0].fq_flows, fq[0].fq_perturbation
    ids = list(range(nf)) + [SOURCE_ID_BASE + s for s in range(ns)]
    number: dict[int, int] = {}
    q = np.array([number.setdefault(fq_bucket(i, pert, flows), len(number)) for i in ids],
                 dtype=np.int64)
    return q[:nf], q[nf:], len(number)
