// Edge conditioners (meters + markers), one per aggregate of senders: the colour a packet
// leaves the edge with. Plain state structs (marker_state.h) and pure functions of (parameters,
// state, packet, time, one uniform draw), one model per file (marker_*.h); this is the header
// the engine includes; the engine (engine/queue_side.h) calls mark_packet() when a packet
// of a marked sender arrives at its marker's link, before the queue's admission.
// Units: bytes, slots, bytes per slot (converted on the host, python/diffsweep/pack/markers.py).
// Semantics follow ns-2.35's DiffServ policies (dsPolicy.cc) and the RFCs cited per model file.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "marker_balancing.h"
#include "marker_srtcm.h"
#include "marker_state.h"  // MarkerParams, MarkerState, ConnMeter
#include "marker_tcp_aware.h"
#include "marker_token_bucket.h"
#include "marker_trtcm.h"
#include "marker_tsw.h"
#include "packet.h"

namespace ds {

// A fresh meter (replica start). Buckets are filled at the first packet (marker_start), which
// knows the parameters. t_front = 0 is the start of the run: ns-2 sets a TSW policy's
// arrivalTime to 0 when the policy is created, so its first estimate spans [0, first arrival].
DS_HD inline void marker_init(MarkerState& s) {
  s.tc = 0.0;
  s.tp = 0.0;
  s.t_last = 0.0;
  s.avg_rate = 0.0;
  s.t_front = 0.0;
  s.started = 0;
  for (int i = 0; i < 7; ++i) s.pad[i] = 0;
}

// A connection not yet seen by its Balancing Marker (t_pre < 0 = never).
DS_HD inline void conn_init(ConnMeter& c) {
  c.tokens = 0.0;
  c.t_last = 0.0;
  c.avg_rate = 0.0;
  c.t_pre = -1.0;
}

// For the engine's count of a Balancing Marker's active connections (n_active).
DS_HD inline bool conn_active(const ConnMeter& c, double now, double active_slots) {
  return balancing_active(c, now, active_slots);
}

// The first packet at a meter: buckets start full (RFC 2697/2698 section 3: "initially full";
// ns-2 sets cBucket = CBS, eBucket = EBS, pBucket = PBS when the policy is added) and the TSW
// estimate starts at the CIR (ns-2: avgRate = CIR). The bucket clock starts at this packet,
// which is the same as starting it at 0 since a full bucket stays full.
DS_HD DS_INLINE void marker_start(const MarkerParams& m, MarkerState& s, double now) {
  s.started = 1;
  s.tc = m.cbs;
  s.tp = m.pbs;
  s.t_last = now;
  s.avg_rate = m.cir;
}

// The colour a packet of `bytes` bytes, arriving with colour `colour_in` at slot time `now`
// (fractional), leaves with. `u` is a uniform draw in [0, 1) used by the probabilistic markers
// (TSW2CM/TSW3CM, the Balancing Marker's P(W_x)); others ignore it. For the Balancing Marker,
// `conn` is the sender's ConnMeter and `n_active` the number of active connections of the
// aggregate counting this one (conn_active() over the aggregate's members; < 1 is taken as 1).
// Only srTCM and trTCM look at colour_in (and only in colour-aware mode); the others are
// colour-blind as in ns-2. `tag` is the TCP-aware tag the sender put in the packet
// (marker_tcp_aware.h): the RTT-aware and RTT-RTO conditioners read it, and TSW3CM with
// small-window protection (sw_k > 0) greens a packet tagged kTagSmallWindow after metering
// it. An unknown kind, or a Balancing Marker without a ConnMeter, leaves the colour unchanged.
DS_HD inline uint8_t mark_packet(const MarkerParams& m, MarkerState& s, ConnMeter* conn,
                                 int n_active, int bytes, double now, uint8_t colour_in,
                                 double u, uint8_t tag = 0) {
  if (!s.started) marker_start(m, s, now);
  switch (m.kind) {
    case kMarkTokenBucket: return mark_token_bucket(m, s, bytes, now);
    case kMarkTsw2cm: return mark_tsw2cm(m, s, bytes, now, u);
    case kMarkTsw3cm: {
      const uint8_t c = mark_tsw3cm(m, s, bytes, now, u);
      return (m.sw_k > 0 && tag == kTagSmallWindow) ? (uint8_t)kGreen : c;
    }
    case kMarkRttAware:
    case kMarkRttRto: return mark_tcp_aware(m, s, tag, bytes, now, u);
    case kMarkSrtcm: return mark_srtcm(m, s, bytes, now, colour_in);
    case kMarkTrtcm: return mark_trtcm(m, s, bytes, now, colour_in);
    case kMarkBalancing:
      if (conn == nullptr) return colour_in;
      return mark_balancing(m, s, *conn, n_active, bytes, now, u);
    default: return colour_in;
  }
}

}  // namespace ds
