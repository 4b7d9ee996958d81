// A packet as the queues see it: in a class queue, a delay line, a lane's emission ring or
// the same-slot arrival buffer. 16 bytes.
#pragma once
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
  uint8_t cls;       // class index on every link of the route
  uint8_t flags;     // kPktSource | kPktRexmit | colour << kPktColourShift | gen << kPktGenShift
  uint8_t link;      // link it is arriving at (emission ring and arrival buffer)
};
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
