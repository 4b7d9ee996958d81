// Random Early Detection and its colour-aware variants for one class queue (ns-2.35 RED,
// red.cc, and the DiffServ module's multi-RED, dsredq.cc): RED, RIO-C (coupled), RIO-D
// (decoupled) and WRED. Plain state and pure functions; the engine (engine/queue_side.h) calls
// red_arrival() before the drop-tail limit (which stays the buffer size: its overflow is a
// forced drop), red_enqueued() when the packet is queued and red_dequeued() when it leaves.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"

namespace ds {

// One class queue's RED parameters (gathered from the RLC / RLCK input arrays). Thresholds
// are in packets, or in bytes when `bytes` is set; index = colour (drop precedence).
struct RedParams {
  uint8_t aqm;               // Aqm (kAqmRed .. kAqmWred); kAqmRed reads index 0 only
  uint8_t gentle;            // ns-2 gentle_: p rises from max_p to 1 between max_th and 2 max_th
  uint8_t wait;              // ns-2 wait_: wait between drops (count-based spacing)
  uint8_t bytes;             // ns-2 bytes_: queue and thresholds in bytes, p scaled by size
  double w_q;                // EWMA weight (ns-2 q_weight_)
  double ptc;                // link rate in mean-size packets per slot (idle-time correction)
  double mean_pkt_bytes;     // ns-2 mean_pktsize_
  double min_th[kMaxColours], max_th[kMaxColours], max_p[kMaxColours];
};

// One class queue's RED state (replica state, one per link class).
struct RedState {
  double avg[kMaxColours];      // EWMA per colour (RED, WRED: avg[0] is the one average)
  int32_t count[kMaxColours];   // packets since the last drop (ns-2 count_), per colour
  uint8_t old[kMaxColours];     // ns-2 old_: the average was above min_th at the last arrival
  uint8_t idle;                 // the queue has been empty since idle_since
  double idle_since;            // slot time it went idle
  int32_t n[kMaxColours];       // packets queued per colour (virtual queues)
  int64_t b[kMaxColours];       // bytes queued per colour
};

enum RedVerdict : uint8_t { kRedAccept = 0, kRedEarly = 1, kRedForced = 2 };

// Functions, all DS_HD inline (defined in this file):
//   void red_init(RedState& s);
//   uint8_t red_arrival(const RedParams& p, RedState& s, uint8_t colour, int bytes,
//                       double now, double u);   // updates the averages, returns RedVerdict
//   void red_enqueued(RedState& s, uint8_t colour, int bytes);
//   void red_dequeued(RedState& s, uint8_t colour, int bytes, double now);  // idle if empty
//   double red_avg_of(const RedParams& p, const RedState& s, uint8_t colour); // for outputs

}  // namespace ds
