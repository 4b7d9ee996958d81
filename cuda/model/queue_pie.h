// PIE, Proportional Integral controller Enhanced (RFC 8033), as ns-3's PieQueueDisc does it
// (src/traffic-control/model/pie-queue-disc.cc, read at ns-3.40, whose members equal 3.44's
// header: the same attributes, ActiveThreshold/CeThreshold/UseL4s off by default). The model's
// narrow functions on one queue's state; the engine's queue side calls them (drop decisions at
// enqueue, the delay estimate at dequeue, the probability update every t_update).
//
// ns-3's defaults (PieParams below, docs/model.md "PIE"): QueueDelayReference 15 ms, A 0.125,
// B 1.25, Tupdate 15 ms (first update at Supdate 0), MaxBurstAllowance 150 ms, MeanPktSize
// 1000 B, UseCapDropAdjustment true, UseDerandomization false, UseDequeueRateEstimator false
// (the queue delay is the last departed packet's sojourn time, RFC 8033 section 5.3's
// timestamp method), MarkEcnThreshold 0.1, MaxSize 25 packets.
//
// Where ns-3 and the RFC's pseudocode differ this follows ns-3:
// - the burst allowance is granted at the first early-drop test after the NO_BURST state
//   (DropEarly), not at initialisation, and that very packet is then tested for a drop;
// - the auto-tuning of the update (the divisions by 2048 ... 2 of RFC 8033 section 4.2) keys
//   on the probability before the update, and the cap of section 5.5 (at most +0.02 a step
//   once p >= 0.1) applies only to an increase;
// - the decay by 0.98 applies when both the current and the previous delay are exactly 0.
#pragma once
#include <cstdint>

#include "../core/hd.h"

namespace ds {

// The burst states of ns-3's PieQueueDisc (BurstStateT)
enum PieBurst : uint8_t { kPieNoBurst = 0, kPieInBurstProtecting = 1, kPieInBurst = 2 };

constexpr double kPieBurstResetTimeoutS = 1.5;  // pie-queue-disc.h BURST_RESET_TIMEOUT

struct PieParams {
  double qdelay_ref_s;   // QueueDelayReference (target delay)
  double a;              // A: the weight of the delay's distance to the reference (1/s)
  double b;              // B: the weight of the delay's change since the last update (1/s)
  int64_t t_update_ns;   // Tupdate; the burst allowance counts down in integer nanoseconds, as
  int64_t max_burst_ns;  // ns-3's Time does (150 ms - 10 x 15 ms is exactly 0), MaxBurstAllowance
  double mean_pkt_bytes; // MeanPktSize (byte mode scales p by a packet's size over this)
  uint8_t bytes_mode;    // the limit counts bytes (MaxSize in bytes)
  uint8_t cap_drop_adjustment;  // UseCapDropAdjustment (RFC 8033 section 5.5)
  uint8_t derandomize;   // UseDerandomization (RFC 8033 section 5.1)
};

DS_HD DS_INLINE PieParams pie_ns3_defaults() {
  PieParams p{};
  p.qdelay_ref_s = 0.015;
  p.a = 0.125;
  p.b = 1.25;
  p.t_update_ns = 15000000;
  p.max_burst_ns = 150000000;
  p.mean_pkt_bytes = 1000.0;
  p.bytes_mode = 0;
  p.cap_drop_adjustment = 1;
  p.derandomize = 0;
  return p;
}

struct PieState {
  double drop_prob;      // m_dropProb
  double qdelay_s;       // m_qDelay: the last departure's sojourn (0 when it left the queue empty)
  double qdelay_old_s;   // m_qDelayOld: qdelay_s at the last update
  int64_t burst_allowance_ns;  // m_burstAllowance
  double accu_prob;      // m_accuProb (derandomisation)
  uint32_t burst_reset;  // m_burstReset: updates spent in IN_BURST with the queue quiet
  uint8_t burst_state;   // PieBurst
};

DS_HD DS_INLINE void pie_init(PieState& s) {  // InitializeParams (and m_burstAllowance's 0)
  s.drop_prob = 0.0;
  s.qdelay_s = 0.0;
  s.qdelay_old_s = 0.0;
  s.burst_allowance_ns = 0;
  s.accu_prob = 0.0;
  s.burst_reset = 0;
  s.burst_state = kPieNoBurst;
}

// DropEarly: would an arriving packet of `pkt_bytes` be dropped early, with `q_size` packets
// (bytes in byte mode) already queued and `u` a uniform draw in [0, 1)? Mutates the burst
// state and the derandomisation accumulator as ns-3 does. The caller drops the packet (and
// calls pie_dropped) when it returns true; a packet over the limit is the caller's forced drop
// (pie_dropped too: ns-3 resets the accumulator on both).
DS_HD inline bool pie_drop_early(const PieParams& p, PieState& s, int64_t q_size,
                                 int32_t pkt_bytes, double u) {
  if (s.burst_allowance_ns > 0) return false;  // still inside the allowed burst
  if (s.burst_state == kPieNoBurst) {
    s.burst_state = kPieInBurstProtecting;
    s.burst_allowance_ns = p.max_burst_ns;
  }
  double prob = s.drop_prob;
  if (p.bytes_mode) prob = prob * (double)pkt_bytes / p.mean_pkt_bytes;
  // work conserving (RFC 8033 section 4.1): no early drop while the delay was under half the
  // reference and p small, nor with two packets or fewer queued
  if (s.qdelay_old_s < 0.5 * p.qdelay_ref_s && s.drop_prob < 0.2) return false;
  if (p.bytes_mode ? (double)q_size <= 2.0 * p.mean_pkt_bytes : q_size <= 2) return false;
  if (p.derandomize) {  // RFC 8033 section 5.1
    if (s.drop_prob == 0.0) s.accu_prob = 0.0;
    s.accu_prob += s.drop_prob;
    if (s.accu_prob < 0.85) return false;
    if (s.accu_prob >= 8.5) return true;
  }
  return u <= prob;
}

DS_HD DS_INLINE void pie_dropped(PieState& s) { s.accu_prob = 0.0; }

// DoDequeue without the rate estimator: the departing packet's sojourn is the queue delay;
// 0 when the queue is left empty.
DS_HD DS_INLINE void pie_departed(PieState& s, double sojourn_s, int64_t bytes_left) {
  s.qdelay_s = bytes_left == 0 ? 0.0 : sojourn_s;
}

// CalculateP: the update every t_update (RFC 8033 section 4.2, with ns-3's choices above).
DS_HD inline void pie_update(const PieParams& p, PieState& s) {
  const double qdelay = s.qdelay_s;
  double prob = 0.0;
  if (s.burst_allowance_ns > 0) {
    s.drop_prob = 0.0;
  } else {
    prob = p.a * (qdelay - p.qdelay_ref_s) + p.b * (qdelay - s.qdelay_old_s);
    // auto-tuning: small probabilities move in small steps
    if (s.drop_prob < 0.000001) prob /= 2048.0;
    else if (s.drop_prob < 0.00001) prob /= 512.0;
    else if (s.drop_prob < 0.0001) prob /= 128.0;
    else if (s.drop_prob < 0.001) prob /= 32.0;
    else if (s.drop_prob < 0.01) prob /= 8.0;
    else if (s.drop_prob < 0.1) prob /= 2.0;
    if (p.cap_drop_adjustment && s.drop_prob >= 0.1 && prob > 0.02) prob = 0.02;
  }
  prob += s.drop_prob;
  if (qdelay == 0.0 && s.qdelay_old_s == 0.0) prob *= 0.98;  // decay while the queue is idle
  s.drop_prob = prob < 0.0 ? 0.0 : (prob > 1.0 ? 1.0 : prob);
  s.burst_allowance_ns =
      s.burst_allowance_ns < p.t_update_ns ? 0 : s.burst_allowance_ns - p.t_update_ns;
  // back to NO_BURST after BURST_RESET_TIMEOUT of quiet updates (section 4.4)
  // (ns-3's Time::GetSeconds divides the nanoseconds by 1e9: 15 ms is the double 0.015, and
  // 1.5 / 0.015 is 100; multiplying by 1e-9 would give 99)
  const uint32_t reset_limit = (uint32_t)(kPieBurstResetTimeoutS / ((double)p.t_update_ns / 1e9));
  const bool quiet = qdelay < 0.5 * p.qdelay_ref_s && s.qdelay_old_s < 0.5 * p.qdelay_ref_s &&
                     s.drop_prob == 0.0;
  if (quiet && s.burst_allowance_ns == 0) {
    if (s.burst_state == kPieInBurstProtecting) {
      s.burst_state = kPieInBurst;
      s.burst_reset = 0;
    } else if (s.burst_state == kPieInBurst) {
      s.burst_reset += 1;
      if (s.burst_reset > reset_limit) {
        s.burst_reset = 0;
        s.burst_state = kPieNoBurst;
      }
    }
  } else if (s.burst_state == kPieInBurst) {
    s.burst_reset = 0;
  }
  s.qdelay_old_s = qdelay;
}

}  // namespace ds
