// A packet as the queues see it: in a class queue, a delay line, a lane's emission ring or
// the same-slot arrival buffer. 16 bytes.
#pragma once
#include <cstdint>

namespace ds {

struct Packet {
  int32_t seq;       // TCP sequence number (packets); source packets: running count
  uint32_t t_enq;    // slot it entered its current queue; in an emission ring, its arrival slot
  uint16_t sender;   // flow index, or max_flows + source index
  uint16_t bytes;    // size on the wire
  uint8_t hop;       // index into the sender's route
  uint8_t cls;       // class index on every link of the route
  uint8_t flags;     // kPktSource | kPktRexmit
  uint8_t link;      // link it is arriving at (emission ring and arrival buffer)
};
constexpr uint8_t kPktSource = 1;
constexpr uint8_t kPktRexmit = 2;

struct TimedPacket {  // delay-line entry
  uint32_t due;
  uint32_t pad;
  Packet pkt;
};

}  // namespace ds
