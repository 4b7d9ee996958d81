// A packet as the queues see it: in a class queue, a delay line, a lane's emission ring or
// the same-slot arrival buffer. 16 bytes.
#pragma once
#include <cstddef>
#include <cstdint>

#include "../core/hd.h"

namespace ds {

struct Packet {
  int32_t seq;       // TCP sequence number (packets); source packets: running count
  uint32_t t_enq;    // slot it entered its current queue; in an emission ring and the arrival
                     // buffer, its time within its arrival slot (kSubSlot)
  uint16_t sender;   // flow index, or max_flows + source index
  uint16_t bytes;    // size on the wire
  uint8_t hop;       // bits 0-2: index into the sender's route; bits 3-6: TCP-aware marker
                     // tag (model/marker_tcp_aware.h); top bit kHopPath2: its second route
  uint8_t cls;       // class index on every link of the route (bits 0-5, cls_index); top
                     // bits: ECN's kPktCe and kPktCwr (model/tcp_ecn.h)
  uint8_t flags;     // kPktSource | kPktRexmit | colour << kPktColourShift | gen << kPktGenShift
  uint8_t link;      // link it is arriving at (emission ring and arrival buffer)
};
static_assert(sizeof(Packet) == 16 && offsetof(Packet, t_enq) == 4 && offsetof(Packet, sender) == 8 &&
                  offsetof(Packet, hop) == 12 && offsetof(Packet, link) == 15,
              "put_packet writes this layout");
// Writes a whole packet at d in one store where the compiler allows it (GCC/Clang on the host:
// one 16-byte store). A packet written field by field and read back soon after as a whole (a
// ring copy) stalls the CPU: store forwarding cannot combine several narrow stores into one
// wide load. On the GPU, plain field stores.
DS_HD DS_INLINE void put_packet(Packet* d, int32_t seq, uint32_t t_enq, uint16_t sender,
                                uint16_t bytes, uint8_t hop, uint8_t cls, uint8_t flags,
                                uint8_t link) {
#if !defined(__CUDA_ARCH__) && (defined(__GNUC__) || defined(__clang__)) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  typedef uint64_t Words __attribute__((vector_size(16)));
  const uint64_t lo = (uint64_t)(uint32_t)seq | (uint64_t)t_enq << 32;
  const uint64_t hi = (uint64_t)sender | (uint64_t)bytes << 16 | (uint64_t)hop << 32 |
                      (uint64_t)cls << 40 | (uint64_t)flags << 48 | (uint64_t)link << 56;
  const Words w = {lo, hi};
  __builtin_memcpy(d, &w, sizeof(Packet));
#else
  d->seq = seq;
  d->t_enq = t_enq;
  d->sender = sender;
  d->bytes = bytes;
  d->hop = hop;
  d->cls = cls;
  d->flags = flags;
  d->link = link;
#endif
}

// A TCP packet on its flow's second path (batch.h Split) has the top bit of hop set, and the
// tag a TCP-aware conditioner reads in bits 3-6: hop indices are <= kMaxHops (4), so these
// bits are free and the packet stays 16 bytes. Read the hop index with hop_index(); hop += 1
// keeps the other bits.
constexpr uint8_t kHopPath2 = 0x80;
constexpr uint8_t kHopMask = 0x07;
constexpr uint8_t kHopTagShift = 3;
constexpr uint8_t kHopTagMask = 0x78;
constexpr uint8_t kPktSource = 1;
constexpr uint8_t kPktRexmit = 2;
// The DiffServ drop precedence (batch.h Colour) rides in two bits of flags: the packet stays
// 16 bytes. Set at the first link from the sender's colour, then by its edge conditioner.
constexpr uint8_t kPktColourShift = 2;
constexpr uint8_t kPktColourMask = 3u << kPktColourShift;

// The transfer generation of a TCP packet from a reused pool slot (engine/traffic.h): 4 bits,
// so a stale packet is recognised unless its slot was reused 16 times while it was in flight
// (each transfer lasts at least a round trip).
constexpr uint8_t kPktGenShift = 4;
constexpr uint8_t kPktGenMask = 0xF0;

// ECN bits in the cls byte (class indices are < kMaxClasses = 4): CE set by a marking queue,
// CWR by the sender on the first new data packet after a reduction (RFC 3168 6.1.2, 6.1.3).
constexpr uint8_t kPktCe = 0x80;
constexpr uint8_t kPktCwr = 0x40;
constexpr uint8_t kPktEcnBits = kPktCe | kPktCwr;
constexpr uint8_t kClsMask = 0x3F;
DS_HD DS_INLINE int cls_index(const Packet& p) { return p.cls & kClsMask; }

DS_HD DS_INLINE int hop_index(const Packet& p) { return p.hop & kHopMask; }
DS_HD DS_INLINE bool on_path2(const Packet& p) { return (p.hop & kHopPath2) != 0; }
DS_HD DS_INLINE uint8_t tag_of(const Packet& p) {
  return (uint8_t)((p.hop & kHopTagMask) >> kHopTagShift);
}

DS_HD DS_INLINE uint8_t gen_of(const Packet& p) { return (uint8_t)(p.flags >> kPktGenShift); }

DS_HD DS_INLINE uint8_t colour_of(const Packet& p) {
  return (uint8_t)((p.flags & kPktColourMask) >> kPktColourShift);
}
DS_HD DS_INLINE void set_colour(Packet& p, uint8_t c) {
  p.flags = (uint8_t)((p.flags & ~kPktColourMask) | ((c << kPktColourShift) & kPktColourMask));
}

// Time within a slot in fixed point: same-slot arrivals are ordered by it under the index
// tie-break (engine/queue_side.h). A packet a sender hands over at time t has t - floor(t);
// sources and packets from a delay line count as arriving at the slot's start.
constexpr double kSubSlot = 4294967296.0;

DS_HD DS_INLINE uint32_t sub_slot(double t, uint32_t slot) {
  const double f = (t - (double)slot) * kSubSlot;
  return f <= 0.0 ? 0u : f >= kSubSlot ? 0xFFFFFFFFu : (uint32_t)f;
}

struct TimedPacket {  // delay-line entry
  uint32_t due;
  uint32_t pad;
  Packet pkt;
};

}  // namespace ds
