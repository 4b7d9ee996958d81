// The edge conditioners' parameter and state structs (engine interface, issue 11), apart from
// the models so that each model file (marker_*.h) and the dispatcher (marker.h, the one header
// the engine includes) can use them without an include cycle.
#pragma once
#include <cstdint>

namespace ds {

// One aggregate's conditioner parameters (gathered from the RM input arrays).
struct MarkerParams {
  uint8_t kind;          // MarkerKind
  uint8_t colour_aware;  // srTCM/trTCM: colour-aware mode (RFC 2697/2698 section 3)
  double cir;            // committed rate, bytes per slot
  double cbs;            // committed burst size (bucket depth), bytes
  double pir;            // trTCM/TSW3CM: peak rate, bytes per slot
  double pbs;            // trTCM: peak burst size; srTCM: excess burst size (EBS), bytes
  double win;            // TSW window length, slots (also the Balancing Marker's AR_x window)
  // Balancing Marker (Lee & Jeong, section 3): first bucket per connection, depth b1 bytes, rate
  // R_x_basic = cir / T (T = active connections); second bucket = (cir, cbs) shared.
  double b1;             // depth of each connection's first bucket, bytes
  double w_lo, w_hi;     // P(W_x) = p_max for W_x <= w_lo, 0 for W_x >= w_hi, linear between
  double p_max;          // RED-to-YELLOW re-marking probability at W_x <= w_lo
  double active_slots;   // a connection silent for longer than this is not active
  int32_t sw_k;          // small-window protection (TSW3CM, RTT-aware): a packet whose sender's
                         // cwnd was < sw_k is green; 0 = off (model/marker_tcp_aware.h)
};

// One aggregate's meter state (replica state, sized by shape.max_markers).
struct MarkerState {
  double tc;        // committed bucket tokens, bytes (token bucket, srTCM, trTCM, BMarker 2nd)
  double tp;        // peak/excess bucket tokens, bytes (trTCM: Tp; srTCM: Te)
  double t_last;    // slot time of the last token update
  double avg_rate;  // TSW: estimated rate, bytes per slot
  double t_front;   // TSW: time of the last arrival, slots
  uint8_t started;  // 0 until the first packet (buckets start full, RFC 2697/2698)
  uint8_t pad[7];
};

// Per-connection state of the Balancing Marker's connection table (one per sender).
struct ConnMeter {
  double tokens;    // first bucket, bytes
  double t_last;    // slot time of its last token update
  double avg_rate;  // AR_x, bytes per slot (TSW estimate)
  double t_pre;     // t_x_pre: slot time of the connection's last packet; < 0 = never
};

}  // namespace ds
