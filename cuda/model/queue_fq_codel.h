// FQ-CoDel, the FlowQueue-CoDel packet scheduler and AQM (RFC 8290), for one class queue of a
// link, as ns-3.44's FqCoDelQueueDisc does it (src/traffic-control/model/fq-codel-queue-disc.cc).
// Plain state and pure functions on a link's flow queues; the engine (engine/fq_side.h) keeps
// the packets and calls fq_enqueued() at arrival, fq_overlimit() when the disc is over its
// limit, and fq_dequeue() when the link takes the class's next packet.
//
// Semantics (docs/model.md, "FQ-CoDel"):
//  * Flow queues: a packet joins flow queue fq_queue_of(sender), a per-replica table the host
//    fills (python/diffsweep/scenario/fq_hash.py): the sender's bucket hash(sender) % flows, as
//    ns-3's `Hash(perturbation) % m_flows`, numbered densely in order of first use by sender
//    index; at most kMaxFqQueues distinct buckets on a replica (more senders than that may
//    share buckets only through the hash, as ns-3's would). RFC 8290 section 4.1.1.
//  * Enqueue (RFC 8290 4.1, ns-3 DoEnqueue): an inactive queue becomes a new flow with a
//    deficit of one quantum, at the tail of the new-flows list; then, when the disc holds more
//    than its limit, FqCoDelDrop: from the head of the queue with the most bytes (the first of
//    equals) packets are dropped until half its bytes or drop_batch packets are gone (RFC 8290
//    4.1: "drop batch"; ns-3's DropBatchSize 64). ns-3 has no memory limit (Linux's
//    memory_limit): nor has this.
//  * Dequeue (RFC 8290 4.2-4.4, ns-3 DoDequeue): the first new flow with a positive deficit,
//    else the first old one; a flow met with a deficit <= 0 gets a quantum more and goes to
//    the old-flows tail (a new one becomes old). The chosen queue's CoDel (model/queue_codel.h,
//    codel_dequeue: the same control law, a CodelState per flow queue) may drop heads; if the
//    queue is then empty, a flow taken from the new list goes to the old tail (ns-3 moves it
//    whenever the new list is not empty, i.e. whenever it came from there), one taken from the
//    old list becomes inactive, and the choice starts again. The packet sent takes its bytes
//    off the flow's deficit.
//  * Bytes are the packet's wire bytes (ns-3's QueueDiscItem size, the IP packet); the quantum
//    is ns-3's, the device MTU (1500) unless set.
//  * CoDel's drop decision is codel_dequeue's call of Q::drop_head(): here FqFlowQueue's, the
//    one place where ECN marking will go.
#pragma once
#include <cstdint>

#include "../core/hd.h"
#include "queue_codel.h"

namespace ds {

constexpr int kMaxFqQueues = 256;  // flow queues of an FQ-CoDel class (per link; docs/model.md)

enum FqStatus : uint8_t { kFqInactive = 0, kFqNew = 1, kFqOld = 2 };

struct FqParams {
  int32_t quantum;     // ns-3 Quantum: bytes of deficit a round adds (0 there: the device MTU)
  int32_t drop_batch;  // ns-3 DropBatchSize (64)
  CodelParams codel;   // every flow queue's CoDel (ns-3 Target, Interval; MinBytes 1500)
};

// One flow queue (ns-3 FqCoDelFlow and its child CoDelQueueDisc's state).
struct FqFlow {
  CodelState codel;  // its CoDel (model/queue_codel.h)
  int32_t deficit;   // DRR deficit, bytes
  int32_t bytes;     // bytes waiting in it (the packet taken for the wire has left)
  int32_t pkts;      // packets waiting in it
  int16_t next;      // the next flow of the list it is in; -1: the last
  uint8_t status;    // FqStatus
  uint8_t pad;
};

// A link's FQ-CoDel lists (ns-3 m_newFlows, m_oldFlows): singly linked through FqFlow::next.
struct FqLists {
  int16_t new_head, new_tail, old_head, old_tail;
};

DS_HD DS_INLINE void fq_init(FqLists& L, FqFlow* f, int n) {
  L.new_head = L.new_tail = L.old_head = L.old_tail = -1;
  for (int i = 0; i < n; ++i) {
    codel_init(f[i].codel);
    f[i].deficit = f[i].bytes = f[i].pkts = 0;
    f[i].next = -1;
    f[i].status = kFqInactive;
    f[i].pad = 0;
  }
}

DS_HD DS_INLINE void fq_push_back(int16_t& head, int16_t& tail, FqFlow* f, int i) {
  f[i].next = -1;
  if (tail >= 0) f[tail].next = (int16_t)i;
  else head = (int16_t)i;
  tail = (int16_t)i;
}

DS_HD DS_INLINE void fq_pop_front(int16_t& head, int16_t& tail, FqFlow* f) {
  const int i = head;
  head = f[i].next;
  if (head < 0) tail = -1;
  f[i].next = -1;
}

// A packet of `bytes` joined flow queue i (ns-3 DoEnqueue before the limit check).
DS_HD DS_INLINE void fq_enqueued(const FqParams& p, FqLists& L, FqFlow* f, int i, int32_t bytes) {
  if (f[i].status == kFqInactive) {
    f[i].status = kFqNew;
    f[i].deficit = p.quantum;
    fq_push_back(L.new_head, L.new_tail, f, i);
  }
  f[i].bytes += bytes;
  f[i].pkts += 1;
}

// The fattest flow queue of n (ns-3 FqCoDelDrop: the first with the most bytes); -1 if all
// are empty.
DS_HD DS_INLINE int fq_fattest(const FqFlow* f, int n) {
  int32_t most = 0;
  int at = -1;
  for (int i = 0; i < n; ++i)
    if (f[i].bytes > most) {
      most = f[i].bytes;
      at = i;
    }
  return at;
}

// ns-3 FqCoDelDrop, when the disc holds more than its limit: drops from the head of the fattest
// queue until half its bytes (rounded down) or drop_batch packets are gone. Q:
//   int32_t drop_head(int i)   drop flow queue i's head (counted by the caller): its bytes
// Returns the queue dropped from (-1: none held a byte).
template <class Q>
DS_HD inline int fq_overlimit(const FqParams& p, FqFlow* f, int n, Q& q) {
  const int i = fq_fattest(f, n);
  if (i < 0) return -1;
  const int32_t threshold = (int32_t)((uint32_t)f[i].bytes >> 1);
  int32_t len = 0, count = 0;
  do {
    const int32_t b = q.drop_head(i);
    f[i].bytes -= b;
    f[i].pkts -= 1;
    len += b;
  } while (++count < p.drop_batch && len < threshold && f[i].pkts > 0);
  return i;
}

// Flow queue i as its CoDel sees it (codel_dequeue's Q) over the engine's Q:
//   bool head(int i, uint32_t& sojourn, int32_t& bytes)  flow i's head: its sojourn (CoDel
//                                                         time) and bytes; false when empty
//   int32_t drop_head(int i)                              drop flow i's head (counted): bytes
template <class Q>
struct FqFlowQueue {
  Q& q;
  FqFlow& f;
  int i;
  DS_HD DS_INLINE bool head(uint32_t& sojourn, int64_t& bytes_left) {
    int32_t b = 0;
    if (f.pkts <= 0 || !q.head(i, sojourn, b)) return false;
    bytes_left = (int64_t)f.bytes - b;  // behind the head in its flow queue (ns-3 MinBytes)
    return true;
  }
  // CoDel's mark instead of a drop (ECN, RFC 8290 4.1 / ns-3 UseEcn): Q's mark_head(i)
  DS_HD DS_INLINE bool mark_head() { return q.mark_head(i); }
  // CoDel's drop (RFC 8289 3.3 via codel_dequeue)
  DS_HD DS_INLINE void drop_head() {
    const int32_t b = q.drop_head(i);
    f.bytes -= b;
    f.pkts -= 1;
  }
};

// ns-3 DoDequeue at CoDel time `now`: the flow queue whose head the link sends next, its bytes
// taken off the flow's deficit and backlog, or -1 when every queue is empty (every flow the
// lists held is then inactive). Q as FqFlowQueue's, and
//   int32_t take(int i)   flow i's head leaves the disc (the engine sends it): its bytes
template <class Q>
DS_HD inline int fq_dequeue(const FqParams& p, FqLists& L, FqFlow* f, uint32_t now, Q& q) {
  for (;;) {
    int i = -1;
    while (L.new_head >= 0) {
      const int j = L.new_head;
      if (f[j].deficit > 0) {
        i = j;
        break;
      }
      f[j].deficit += p.quantum;  // a new flow that used its quantum becomes old (RFC 8290 4.2)
      f[j].status = kFqOld;
      fq_pop_front(L.new_head, L.new_tail, f);
      fq_push_back(L.old_head, L.old_tail, f, j);
    }
    if (i < 0)
      while (L.old_head >= 0) {
        const int j = L.old_head;
        if (f[j].deficit > 0) {
          i = j;
          break;
        }
        f[j].deficit += p.quantum;  // round robin: to the old list's tail, a quantum more
        fq_pop_front(L.old_head, L.old_tail, f);
        fq_push_back(L.old_head, L.old_tail, f, j);
      }
    if (i < 0) return -1;
    FqFlowQueue<Q> fq{q, f[i], i};
    codel_dequeue(p.codel, f[i].codel, now, fq);
    if (f[i].pkts > 0) {
      const int32_t b = q.take(i);
      f[i].bytes -= b;
      f[i].pkts -= 1;
      f[i].deficit -= b;
      return i;
    }
    // empty (RFC 8290 4.3; ns-3: a flow from the new list goes to the old list's tail, one
    // from the old list becomes inactive)
    if (L.new_head >= 0) {
      f[i].status = kFqOld;
      fq_pop_front(L.new_head, L.new_tail, f);
      fq_push_back(L.old_head, L.old_tail, f, i);
    } else {
      f[i].status = kFqInactive;
      fq_pop_front(L.old_head, L.old_tail, f);
    }
  }
}

// The flow queue of a sender: murmur3's 32-bit finaliser (fmix32) of the sender's id mixed with
// the perturbation, modulo `flows` (ns-3 Flows): the bucket; python/diffsweep/scenario/fq_hash.py
// computes the same (tests/test_fq_codel.py checks the two agree) and numbers the buckets.
DS_HD DS_INLINE uint32_t fq_bucket(uint32_t sender_id, uint32_t perturbation, uint32_t flows) {
  uint32_t h = sender_id * 0x9E3779B1u ^ perturbation;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h % flows;
}

}  // namespace ds
