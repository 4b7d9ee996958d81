// A sender's access link: a FIFO of segments handed over by TCP and not yet sent, with an
// optional drop-tail buffer (in packets), sending at its own rate (0 = unpaced: all in the
// same slot). Segments it sends arrive at the first link of the route in that slot; the
// access delay is folded into the ACK's flight time (docs/model.md, "Delays").
//
// One entry per segment: runs of consecutive segments do not compress it in general (after a
// timeout, go-back-N retransmissions, skips and new data interleave; measured on the Kaur &
// Vin cases, 256 runs were not enough for one flow); the entries live in chunks of a pool
// shared by the flows of a lane (NicPool), not in a ring per flow sized by its buffer.
#pragma once
#include <cstdint>

#include "../core/hd.h"
#include "packet.h"

namespace ds {

constexpr uint32_t kNicRexmit = 0x80000000u;  // marks a retransmission in the FIFO
constexpr int32_t kNicChunkSegs = 8;          // segments per chunk of a lane's pool

// The FIFOs of a lane's flows share one pool of chunks (engine/replica.h): their total
// occupancy is far below the sum of their buffers (a FIFO fills only in a sender's bursts,
// and not every flow bursts at once), so the pool is sized from a replica's flows, not from
// a buffer per flow (docs/design.md, "Capacities"). A FIFO is a chain of chunks.
struct AccessLink {
  double nic_free;   // slot time at which the access link can start the next packet
  double tx_slots;   // one packet's transmission time on it (slots; 0: unpaced). Set once:
                     // a division per send sat on the chain from one flow event to the next
  int32_t head;      // first chunk of the FIFO (-1: none)
  int32_t tail;      // last chunk
  int32_t count;     // segments waiting
  int32_t head_off;  // position of the first segment in the head chunk
};

struct NicPool {     // one per lane: its free chunks, linked
  int32_t free_head;  // -1: none left
  int32_t pad;
};

// One flow's FIFO over its lane's pool. Only the lane that owns the flow touches either.
struct NicFifo {
  AccessLink* a;
  uint32_t* seg;   // [chunk * kNicChunkSegs + i]: seq | kNicRexmit
  int32_t* next;   // [chunk]: the next chunk of its chain, or of the free list
  NicPool* pool;

  DS_HD DS_INLINE bool empty() const { return a->count == 0; }
  DS_HD DS_INLINE int32_t size() const { return a->count; }
  // false when the pool has no free chunk (the caller reports the overflow).
  DS_HD DS_INLINE bool push(uint32_t v) const {
    if (a->count == 0) {  // an empty FIFO keeps its last chunk: no pool work per packet when
      a->head_off = 0;    // a paced access link empties between sends
      if (a->head < 0) {
        const int32_t c = take();
        if (c < 0) return false;
        a->head = a->tail = c;
      }
      seg[(size_t)a->head * kNicChunkSegs] = v;
      a->count = 1;
      return true;
    }
    const int32_t pos = (a->head_off + a->count) & (kNicChunkSegs - 1);
    if (pos == 0) {
      const int32_t c = take();
      if (c < 0) return false;
      next[a->tail] = c;
      a->tail = c;
    }
    seg[(size_t)a->tail * kNicChunkSegs + pos] = v;
    a->count += 1;
    return true;
  }
  DS_HD DS_INLINE uint32_t pop() const {
    const int32_t c = a->head;
    const uint32_t v = seg[(size_t)c * kNicChunkSegs + a->head_off];
    a->head_off += 1;
    a->count -= 1;
    if (a->count == 0) {
      a->head_off = 0;  // keeps its chunk (head == tail)
    } else if (a->head_off == kNicChunkSegs) {  // the chunk goes back to the pool
      a->head = next[c];
      a->head_off = 0;
      give(c);
    }
    return v;
  }
  // Everything waiting is dropped (a pool slot's new connection): every chunk goes back.
  DS_HD DS_INLINE void clear() const {
    for (int32_t c = a->head; c >= 0;) {
      const int32_t n = c == a->tail ? -1 : next[c];
      give(c);
      c = n;
    }
    a->head = a->tail = -1;
    a->count = 0;
    a->head_off = 0;
  }
  DS_HD DS_INLINE int32_t take() const {
    const int32_t c = pool->free_head;
    if (c >= 0) {
      pool->free_head = next[c];
      next[c] = -1;
    }
    return c;
  }
  DS_HD DS_INLINE void give(int32_t c) const {
    next[c] = pool->free_head;
    pool->free_head = c;
  }
};

// A FIFO with nothing in it (its chunks, if any, already returned), sending `wire_bytes` per
// packet at `pace_bytes` per slot (0: unpaced).
DS_HD DS_INLINE void access_init(AccessLink& a, double pace_bytes, int32_t wire_bytes) {
  a.nic_free = 0.0;
  a.tx_slots = pace_bytes > 0.0 ? (double)wire_bytes / pace_bytes : 0.0;
  a.head = a.tail = -1;
  a.count = 0;
  a.head_off = 0;
}

// Queues one segment; false when the lane's pool is exhausted (the caller reports it).
DS_HD DS_INLINE bool access_push(const NicFifo& fifo, int32_t seq, bool rexmit) {
  return fifo.push((uint32_t)seq | (rexmit ? kNicRexmit : 0u));
}

// Sends what the access link can this slot; returns the slot to wake up at when segments
// wait for the link to free up (0xFFFFFFFF: nothing waits). `emit(seq, rexmit, t)` hands one
// on, t being the time (slots) its transmission starts: unpaced, at once or, after a held
// send (nic_free set by the sender), at that time.
template <class Emit>
DS_HD DS_FLATTEN uint32_t access_transmit(AccessLink& a, const NicFifo& fifo, uint32_t now,
                                          Emit emit) {
  while (!fifo.empty()) {
    const double start = a.nic_free > (double)now ? a.nic_free : (double)now;
    if (a.tx_slots > 0.0) {
      if (start >= (double)now + 1.0) return (uint32_t)start;
      a.nic_free = start + a.tx_slots;
    }
    const uint32_t e = fifo.pop();
    emit((int32_t)(e & ~kNicRexmit), (e & kNicRexmit) != 0, start);
  }
  return 0xFFFFFFFFu;
}

}  // namespace ds
