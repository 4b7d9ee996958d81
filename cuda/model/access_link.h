// A sender's access link: a FIFO of segments handed over by TCP and not yet sent, with an
// optional drop-tail buffer (in packets), sending at its own rate (0 = unpaced: all in the
// same slot). Segments it sends arrive at the first link of the route in that slot; the
// access delay is folded into the ACK's flight time (docs/model.md, "Delays").
//
// One entry per segment: runs of consecutive segments do not compress it in general (after a
// timeout, go-back-N retransmissions, skips and new data interleave; measured on the Kaur &
// Vin cases, 256 runs were not enough for one flow), so it is sized by the access buffer.
#pragma once
#include <cstdint>

#include "../core/hd.h"
#include "../core/ring.h"
#include "packet.h"

namespace ds {

constexpr uint32_t kNicRexmit = 0x80000000u;  // marks a retransmission in the FIFO

struct AccessLink {
  double nic_free;  // slot time at which the access link can start the next packet
  RingIdx fifo;     // entries: seq | kNicRexmit
};

DS_HD DS_INLINE void access_init(AccessLink& a) {
  a.nic_free = 0.0;
  ring_clear(a.fifo);
}

// Queues one segment; false when the FIFO is full (the caller reports the overflow).
DS_HD DS_INLINE bool access_push(Ring<uint32_t> fifo, int32_t seq, bool rexmit) {
  if (fifo.full()) return false;
  fifo.push((uint32_t)seq | (rexmit ? kNicRexmit : 0u));
  return true;
}

// Sends what the access link can this slot; returns the slot to wake up at when segments
// wait for the link to free up (0xFFFFFFFF: nothing waits). `emit(seq, rexmit, t)` hands one
// on, t being the time (slots) its transmission starts: unpaced, at once or, after a held
// send (nic_free set by the sender), at that time.
template <class Emit>
DS_HD DS_FLATTEN uint32_t access_transmit(AccessLink& a, Ring<uint32_t> fifo, double pace_bytes,
                                      int32_t wire_bytes, uint32_t now, Emit emit) {
  const double tx_slots = pace_bytes > 0.0 ? (double)wire_bytes / pace_bytes : 0.0;
  while (!fifo.empty()) {
    const double start = a.nic_free > (double)now ? a.nic_free : (double)now;
    if (pace_bytes > 0.0) {
      if (start >= (double)now + 1.0) return (uint32_t)start;
      a.nic_free = start + tx_slots;
    }
    const uint32_t e = fifo.pop();
    emit((int32_t)(e & ~kNicRexmit), (e & kNicRexmit) != 0, start);
  }
  return 0xFFFFFFFFu;
}

}  // namespace ds
