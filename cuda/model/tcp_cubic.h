// CUBIC congestion control (RFC 9438) as ns-3.44's TcpCubic runs it (src/internet/model/
// tcp-cubic.cc, which follows Linux 3.14's bictcp): the window grows per ACK through a counter
// (cnt: one segment more after cnt segments are acknowledged), not along the RFC's continuous
// W_cubic(t); the TCP-friendly estimate is Linux's ACK-counting one (m_ackCnt, m_tcpCwnd), not
// RFC 9438 section 4.3's W_est; HyStart (Ha & Rhee, "Taming the Elephants", 2008) as ns-3 has
// it, fed with the smoothed RTT as ns-3.44's TcpSocketBase feeds PktsAcked (m_tcb->m_srtt).
// Differences from ns-3 and from the RFC: docs/model.md, "CUBIC".
//
// Only the window changes here: loss detection and recovery stay the sender's (Reno, NewReno
// or SACK, model/tcp_sender.h and tcp_sack.h), which call these at their growth and loss
// points, as ns-3's TcpSocketBase calls its TcpCongestionOps. A flow's state (CubicState)
// is kept only where a replica of the batch has a CUBIC flow (BatchShape::cubic_states); the
// slim CUDA kernel has none of it (engine/features.h, f_cubic).
//
// Windows are in segments (ns-3 keeps bytes and divides by the segment size: GetCwndInSegments;
// CUBIC changes cwnd by whole segments only, so the two agree). Times are in seconds, the slot
// clock times slot_s (docs/model.md, "Time"), as ns-3's Time::GetSeconds().
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "../core/pmath.h"

namespace ds {

constexpr uint32_t kCubicNever = 0xFFFFFFFFu;  // ns-3's Time::Min(): no epoch yet

// HyStart's detection mechanisms (TcpCubic::HybridSSDetectionMode).
enum HystartDetect : uint8_t { kHystartTrain = 1, kHystartDelay = 2, kHystartBoth = 3 };

// One CUBIC flow's state: TcpCubic's members (their names in the comments).
struct CubicState {
  double bic_k_s;         // m_bicK: time from the epoch's start to the origin point (s)
  double delay_min_s;     // m_delayMin: least smoothed RTT seen (s); < 0: none (Time::Min)
  double curr_rtt_s;      // m_currRtt: least of this round's first samples (s); < 0: none
  uint32_t cwnd_cnt;      // m_cWndCnt: segments acknowledged towards the next increment
  uint32_t last_max_cwnd; // m_lastMaxCwnd: W_max (segments)
  uint32_t origin_point;  // m_bicOriginPoint (segments)
  uint32_t epoch_start;   // m_epochStart (slot); kCubicNever: none
  uint32_t round_start;   // m_roundStart (slot)
  uint32_t last_ack;      // m_lastAck: the last ACK of the current ACK train (slot)
  int32_t end_seq;        // m_endSeq: the round ends when an ACK passes this segment
  uint32_t sample_cnt;    // m_sampleCnt
  uint32_t ack_cnt;       // m_ackCnt: segments acknowledged in the epoch (TCP friendliness)
  uint32_t tcp_cwnd;      // m_tcpCwnd: the Reno window estimate (segments)
  int32_t rto_ack;        // highest_ack at the last timeout (-2: none): a timeout that finds no
                          // ACK since the last one keeps ssthresh (ns-3: IsHeadRetransmitted)
  uint8_t on;             // the flow runs CUBIC (a NewReno flow of a CUBIC replica: 0)
  uint8_t found;          // m_found: HyStart found the slow-start exit
  uint8_t set;            // its parameter set (flow_cubic_set)
  uint8_t pad;
};
static_assert(sizeof(CubicState) == 72, "CubicState: 72 bytes per flow");

// A parameter set: row k of cubic_params (batch.h kCub*), TcpCubic's attributes.
struct CubicParams {
  const double* p;
  DS_HD double c() const { return p[kCubC]; }
  DS_HD double beta() const { return p[kCubBeta]; }
  DS_HD double slot_s() const { return p[kCubSlotS]; }
  DS_HD bool on(int k) const { return p[k] != 0.0; }
  DS_HD uint32_t u(int k) const { return (uint32_t)p[k]; }
};

// A double to uint32 as ns-3's implicit conversion does for values in range; out of range
// (a cubic term past 2^32 segments, hours past the origin) it saturates, where C++ leaves the
// conversion undefined (and x86 and the GPU would disagree).
DS_HD DS_INLINE uint32_t cubic_u32(double v) {
  if (!(v > 0.0)) return 0u;
  if (v >= 4294967295.0) return 0xFFFFFFFFu;
  return (uint32_t)v;
}

// K = cbrt((W_max - cwnd) / C) (RFC 9438 eq. 2 with cwnd = beta * W_max at the reduction;
// ns-3 takes the window at the epoch's start): seconds. Portable pow (core/pmath.h) so that the
// CPU and the GPU agree bit for bit; ns-3's std::pow differs from it by ~1e-16 relative.
DS_HD DS_INLINE double cubic_k_s(uint32_t w_max, uint32_t cwnd, double c) {
  const double d = (double)(w_max - cwnd) / c;
  return d > 0.0 ? ppow(d, 1.0 / 3.0) : 0.0;
}

// TcpCubic::HystartReset: a new round starts now; it ends when an ACK passes maxseq.
DS_HD DS_INLINE void hystart_reset(CubicState& c, int32_t maxseq, uint32_t now) {
  c.round_start = c.last_ack = now;
  c.end_seq = maxseq;
  c.curr_rtt_s = -1.0;
  c.sample_cnt = 0;
}

DS_HD inline void cubic_init(CubicState& c, uint8_t on, uint8_t set, uint32_t start) {
  c.bic_k_s = 0.0;
  c.delay_min_s = -1.0;
  c.cwnd_cnt = 0;
  c.last_max_cwnd = 0;
  c.origin_point = 0;
  c.epoch_start = kCubicNever;
  c.sample_cnt = 0;
  c.ack_cnt = 0;
  c.tcp_cwnd = 0;
  c.rto_ack = -2;
  c.on = on;
  c.found = 0;
  c.set = set;
  c.pad = 0;
  hystart_reset(c, -1, start);  // TcpCubic::Init, before anything is sent
}

// The window CUBIC aims at (segments) for an ACK at slot `now` of the current epoch:
// RFC 9438 eq. 1, W_cubic(t) = C (t - K)^3 + W_max, at t = now - epoch start + delay_min (ns-3:
// one least RTT ahead, the RFC's W_cubic(t + RTT)), the cubic term truncated to whole segments
// and added to or taken from the origin in uint32 arithmetic, as ns-3 does.
DS_HD inline uint32_t cubic_target(const CubicState& c, const CubicParams& p, uint32_t now) {
  const double dmin = c.delay_min_s > 0.0 ? c.delay_min_s : 0.0;
  const double t = (double)(now - c.epoch_start) * p.slot_s() + dmin;
  const double offs = t < c.bic_k_s ? c.bic_k_s - t : t - c.bic_k_s;
  const uint32_t delta = cubic_u32(p.c() * (offs * offs * offs));
  return t < c.bic_k_s ? c.origin_point - delta : c.origin_point + delta;
}

// TcpCubic::Update: the counter cnt for a window of seg_cwnd segments at slot `now`: one
// segment more after cnt more are acknowledged. RFC 9438's W_cubic(t + RTT) is the target
// (ns-3: t = now + delay_min - epoch start; the target's cube C * |t - K|^3 truncated to whole
// segments), and the counter spreads the distance to it over one window of ACKs.
DS_HD inline uint32_t cubic_update(CubicState& c, const CubicParams& p, uint32_t seg_cwnd,
                                   uint32_t segs_acked, uint32_t now) {
  c.ack_cnt += segs_acked;
  if (c.epoch_start == kCubicNever) {  // the epoch starts (after a loss, or leaving slow start)
    c.epoch_start = now;
    c.ack_cnt = segs_acked;
    c.tcp_cwnd = seg_cwnd;
    if (c.last_max_cwnd <= seg_cwnd) {
      c.bic_k_s = 0.0;
      c.origin_point = seg_cwnd;
    } else {
      c.bic_k_s = cubic_k_s(c.last_max_cwnd, seg_cwnd, p.c());
      c.origin_point = c.last_max_cwnd;
    }
  }
  const uint32_t target = cubic_target(c, p, now);
  uint32_t cnt = target > seg_cwnd ? seg_cwnd / (target - seg_cwnd) : 100u * seg_cwnd;
  // no loss yet (W_max unknown): at least one segment per cnt_clamp ACKs (Linux's
  // bictcp "cnt = 20" while last_max_cwnd == 0)
  if (c.last_max_cwnd == 0 && cnt > p.u(kCubCntClamp)) cnt = p.u(kCubCntClamp);
  if (p.on(kCubFriendly)) {
    // Linux 3.14's TCP-friendly region (RFC 9438 section 4.3 counted in ACKs): the Reno
    // estimate tcp_cwnd gains a segment per `delta` segments acknowledged, delta = cwnd / alpha
    // with alpha = 3 (1 - beta) / (1 + beta) (RFC 9438 eq. 4) in Linux's fixed point (scale / 8);
    // when the estimate is ahead, CUBIC grows at least as fast
    const double b = p.beta() * 1024.0;
    const uint32_t scale = cubic_u32(8.0 * (1024.0 + b) / 3.0 / (1024.0 - b));
    uint32_t delta = (seg_cwnd * scale) >> 3;
    if (delta == 0) delta = 1;  // (a window of one segment and beta near 0: ns-3 would loop)
    while (c.ack_cnt > delta) {
      c.ack_cnt -= delta;
      c.tcp_cwnd += 1;
    }
    if (c.tcp_cwnd > seg_cwnd) {
      const uint32_t max_cnt = seg_cwnd / (c.tcp_cwnd - seg_cwnd);
      if (cnt > max_cnt) cnt = max_cnt;
    }
  }
  // at most one segment per two acknowledged: 1.5 times the window per RTT
  return cnt > 2u ? cnt : 2u;
}

// TcpCubic::IncreaseWindow for `acked` segments newly acknowledged: slow start by
// appropriate byte counting (RFC 3465, ns-3's stand-in for Linux's QUICKACK) below ssthresh,
// else the counter. cwnd is whole segments, at most max_window (the receiver's window: ns-3's
// m_isCwndLimited keeps a window the receiver limits from growing). maxseq and highest_ack
// (the sender's) mark HyStart's rounds.
DS_HD inline void cubic_increase(CubicState& c, const CubicParams& p, double& cwnd,
                                 int32_t ssthresh, uint32_t acked, int32_t highest_ack,
                                 int32_t maxseq, int32_t max_window, uint32_t now) {
  if (cwnd >= (double)max_window) return;
  if (cwnd < (double)ssthresh) {
    if (p.on(kCubHystart) && highest_ack > c.end_seq) hystart_reset(c, maxseq, now);
    cwnd += (double)acked;
    acked = 0;
  }
  if (cwnd >= (double)ssthresh && acked > 0) {
    c.cwnd_cnt += acked;
    const uint32_t cnt = cubic_update(c, p, (uint32_t)cwnd, acked, now);
    if (c.cwnd_cnt >= cnt) {
      cwnd += 1.0;
      c.cwnd_cnt -= cnt;
    }
  }
  if (cwnd > (double)max_window) cwnd = (double)max_window;
}

// TcpCubic::HystartDelayThresh: the delay increase that ends slow start, within
// [HyStartDelayMin, HyStartDelayMax].
DS_HD DS_INLINE double hystart_delay_thresh(const CubicParams& p, double t) {
  if (t > p.p[kCubDelayMaxS]) return p.p[kCubDelayMaxS];
  if (t < p.p[kCubDelayMinS]) return p.p[kCubDelayMinS];
  return t;
}

// TcpCubic::HystartUpdate with `delay` (s): an ACK train longer than the least delay, or this
// round's least delay (of its first HyStartMinSamples samples) past delay_min plus the
// threshold, ends slow start (ssthresh = cwnd).
DS_HD inline void hystart_update(CubicState& c, const CubicParams& p, double cwnd,
                                 int32_t& ssthresh, double delay, uint32_t now) {
  if (c.found) return;
  const uint32_t detect = p.u(kCubDetect);
  if ((double)(now - c.last_ack) * p.slot_s() <= p.p[kCubAckDeltaS]) {
    c.last_ack = now;
    if ((double)(now - c.round_start) * p.slot_s() > c.delay_min_s && (detect & kHystartTrain))
      c.found = 1;
  }
  if (c.sample_cnt < p.u(kCubMinSamples)) {
    if (c.curr_rtt_s < 0.0 || c.curr_rtt_s > delay) c.curr_rtt_s = delay;
    c.sample_cnt += 1;
  } else if (c.curr_rtt_s > c.delay_min_s + hystart_delay_thresh(p, c.delay_min_s) &&
             (detect & kHystartDelay)) {
    c.found = 1;
  }
  if (c.found) ssthresh = (int32_t)cwnd;
}

// TcpCubic::PktsAcked with the smoothed RTT `srtt_s` (s; <= 0: no sample yet, nothing to
// learn): delay samples right after a reduction (within CubicDelta of the epoch's start) are
// discarded; delay_min follows the least; HyStart runs in slow start from HyStartLowWindow on.
DS_HD inline void cubic_pkts_acked(CubicState& c, const CubicParams& p, double cwnd,
                                   int32_t& ssthresh, double srtt_s, uint32_t now) {
  if (srtt_s <= 0.0) return;
  if (c.epoch_start != kCubicNever &&
      (double)(now - c.epoch_start) * p.slot_s() < p.p[kCubDeltaS])
    return;
  if (c.delay_min_s < 0.0 || c.delay_min_s > srtt_s) c.delay_min_s = srtt_s;
  if (p.on(kCubHystart) && cwnd <= (double)ssthresh && cwnd >= p.p[kCubLowWindow])
    hystart_update(c, p, cwnd, ssthresh, srtt_s, now);
}

// TcpCubic::GetSsThresh at a loss with a window of seg_cwnd segments: W_max (with fast
// convergence, RFC 9438 section 4.7: a window below the last W_max releases bandwidth,
// W_max = cwnd (1 + beta) / 2), the epoch ends, and the new threshold is beta * cwnd
// (at least two segments; section 4.6).
DS_HD inline int32_t cubic_ssthresh(CubicState& c, const CubicParams& p, uint32_t seg_cwnd) {
  if (seg_cwnd < c.last_max_cwnd && p.on(kCubFastConv))
    c.last_max_cwnd = cubic_u32((double)seg_cwnd * (1.0 + p.beta()) / 2.0);
  else
    c.last_max_cwnd = seg_cwnd;
  c.epoch_start = kCubicNever;
  const uint32_t ss = cubic_u32((double)seg_cwnd * p.beta());
  return (int32_t)(ss > 2u ? ss : 2u);
}

// TcpCubic::CongestionStateSet(CA_LOSS): after a timeout CubicReset (W_max is kept in
// ns-3.44, only the origin, K, the Reno estimate, delay_min and HyStart's exit are forgotten)
// and HystartReset.
DS_HD inline void cubic_timeout_reset(CubicState& c, int32_t maxseq, uint32_t now) {
  c.origin_point = 0;
  c.bic_k_s = 0.0;
  c.ack_cnt = 0;
  c.tcp_cwnd = 0;
  c.delay_min_s = -1.0;
  c.found = 0;
  hystart_reset(c, maxseq, now);
}

}  // namespace ds
