// Fixed-capacity FIFO over caller-owned storage. Every queue in the engine is one: a class's
// packet queue, a link's delay line, a flow's ACKs in flight and access-link FIFO, a lane's
// emissions. Capacities are powers of two, sized on the host from what a replica can hold
// (python/diffsweep/pack.py); a push onto a full ring is refused and reported by the caller.
#pragma once
#include <cstdint>

#include "hd.h"

namespace ds {

struct RingIdx {  // lives in the owner's state block
  int32_t head, count;
};

template <class T>
struct Ring {
  T* buf;
  RingIdx* idx;
  uint32_t mask;  // capacity - 1

  DS_HD DS_INLINE bool empty() const { return idx->count == 0; }
  DS_HD DS_INLINE bool full() const { return (uint32_t)idx->count > mask; }
  DS_HD DS_INLINE int32_t size() const { return idx->count; }
  DS_HD DS_INLINE int32_t free() const { return (int32_t)(mask + 1) - idx->count; }
  DS_HD DS_INLINE T& front() const { return buf[(uint32_t)idx->head]; }
  DS_HD DS_INLINE T& back() const {
    return buf[((uint32_t)idx->head + (uint32_t)idx->count - 1u) & mask];
  }
  DS_HD DS_INLINE void push(const T& v) { push_slot() = v; }
  // The new last element, to be filled in place (a packet copied whole, then one field
  // changed in its place, not changed in a local copy first: a wide load of narrow stores
  // still in flight stalls the CPU's store forwarding).
  DS_HD DS_INLINE T& push_slot() {
    T& v = buf[((uint32_t)idx->head + (uint32_t)idx->count) & mask];
    idx->count += 1;
    return v;
  }
  DS_HD DS_INLINE T pop() {
    T v = buf[(uint32_t)idx->head];
    pop_front();
    return v;
  }
  // Drops the first element (read it through front() first).
  DS_HD DS_INLINE void pop_front() {
    idx->head = (int32_t)(((uint32_t)idx->head + 1) & mask);
    idx->count -= 1;
  }
  // The element j places behind the front (j < size()).
  DS_HD DS_INLINE T& at(int32_t j) const { return buf[((uint32_t)idx->head + (uint32_t)j) & mask]; }
  // Element j out of the ring, the ones ahead of it one place back (a queue's middle: the
  // places ahead of it are few, the packets on a wire or in a device queue, FQ-CoDel's pick).
  DS_HD inline T remove_at(int32_t j) {
    const T v = at(j);
    for (int32_t m = j; m > 0; --m) at(m) = at(m - 1);
    pop_front();
    return v;
  }
};

template <class T>
DS_HD DS_INLINE Ring<T> make_ring(T* buf, RingIdx& idx, int32_t cap) {
  return Ring<T>{buf, &idx, (uint32_t)cap - 1u};
}

DS_HD DS_INLINE void ring_clear(RingIdx& r) {
  r.head = 0;
  r.count = 0;
}

}  // namespace ds
