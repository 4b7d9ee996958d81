// TCP's retransmission timer, as ns-2.35's TcpAgent computes it (tcp.cc: rtt_update,
// rtt_timeout, rtt_backoff): Jacobson/Karels in integer ticks (RFC 6298 with ns-2's
// clock granularity), minrto_ clamping before the backoff (rfc2988_), maxrto_ cap.
#pragma once
#include <cmath>
#include <cstdint>

#include "../core/hd.h"

namespace ds {

// ns-2 keeps smoothed RTT in ticks << 3 and the variance in ticks << 2 (T_SRTT_BITS,
// T_RTTVAR_BITS) and multiplies the variance by 4 (rttvar_exp_ = 2).
constexpr int kSrttBits = 3;
constexpr int kRttvarBits = 2;
constexpr int kRttvarExp = 2;

struct RtoParams {  // all in slots
  double tick;      // tcpTick_
  double min_rto;   // minrto_
  double max_rto;   // maxrto_
};

struct RttEstimator {
  double t_rtxcur;    // t_rtxcur_ in slots (RTO before backoff and clamping)
  int32_t t_srtt;     // t_srtt_ (ticks << 3)
  int32_t t_rttvar;   // t_rttvar_ (ticks << 2)
  int32_t t_backoff;  // t_backoff_
  uint32_t rto_ceil;  // ceil(RTO) in slots with this backoff, at least 1 (rtt_refresh): a timer
                      // is armed on every ACK, the RTO changes once per RTT sample at most
};



// RTO in slots for a given backoff: TcpAgent::rtt_timeout() with rfc2988_ = true (minrto_
// clamps before the backoff is applied), the maxrto_ cap, and the 2-tick floor.
DS_HD inline double rto_slots(const RtoParams& p, const RttEstimator& e, int32_t backoff) {
  double t = (e.t_rtxcur < p.min_rto ? p.min_rto : e.t_rtxcur) * (double)backoff;
  if (t > p.max_rto) t = p.max_rto;
  const double floor2 = 2.0 * p.tick;
  if (t < floor2) t = floor2;
  return t;
}

// After t_rtxcur or t_backoff changed: the whole slots a timer armed now runs, ceil(RTO) and
// at least one. The ceiling in integers (exact for an RTO below 2^32 slots, which maxrto_ caps
// far below). Kept in the estimator because the RTO's chain of operations sat on the flow
// side's critical path when it was computed on every ACK.
DS_HD DS_INLINE void rtt_refresh(const RtoParams& p, RttEstimator& e) {
  const double t = rto_slots(p, e, e.t_backoff);
  uint32_t c = (uint32_t)t;  // t > 0: truncation is the floor
  if ((double)c < t) c += 1;
  e.rto_ceil = c < 1u ? 1u : c;
}

// The slot at which a timer armed at `now` with the current backoff fires.
DS_HD DS_INLINE uint32_t rto_due_slot(const RttEstimator& e, uint32_t now) {
  return now + e.rto_ceil;
}

// A new RTT sample resets the backoff (TcpAgent::newack, NewReno's partial ACK).
DS_HD DS_INLINE void rtt_reset_backoff(const RtoParams& p, RttEstimator& e) {
  e.t_backoff = 1;
  rtt_refresh(p, e);
}

DS_HD DS_INLINE void rtt_init(const RtoParams& p, RttEstimator& e, double init_rto) {
  e.t_rtxcur = init_rto;
  e.t_srtt = 0;
  e.t_rttvar = 0;
  e.t_backoff = 1;
  rtt_refresh(p, e);
}

// TcpAgent::rtt_update() for a sample of `tao` slots: integer tick arithmetic as ns-2 does it.
DS_HD inline void rtt_sample(const RtoParams& p, RttEstimator& e, double tao) {
  int32_t t_rtt = (int32_t)(tao / p.tick + 0.5);
  if (t_rtt < 1) t_rtt = 1;
  if (e.t_srtt != 0) {
    int32_t delta = t_rtt - (e.t_srtt >> kSrttBits);
    if ((e.t_srtt += delta) <= 0) e.t_srtt = 1;
    if (delta < 0) delta = -delta;
    delta -= (e.t_rttvar >> kRttvarBits);
    if ((e.t_rttvar += delta) <= 0) e.t_rttvar = 1;
  } else {
    e.t_srtt = t_rtt << kSrttBits;
    e.t_rttvar = t_rtt << (kRttvarBits - 1);
  }
  e.t_rtxcur =
      (double)(((e.t_rttvar << (kRttvarExp + (kSrttBits - kRttvarBits))) + e.t_srtt) >> kSrttBits) *
      p.tick;
  rtt_refresh(p, e);
}

// TcpAgent::rtt_backoff(): double the backoff; past 8, fold srtt into the variance so the
// next sample restarts the estimator.
DS_HD inline void rtt_backoff(const RtoParams& p, RttEstimator& e) {
  if ((e.t_backoff < 64 || rto_slots(p, e, e.t_backoff) < p.max_rto) && e.t_backoff < (1 << 20))
    e.t_backoff <<= 1;
  if (e.t_backoff > 8) {
    e.t_rttvar += (e.t_srtt >> kSrttBits);
    e.t_srtt = 0;
  }
  rtt_refresh(p, e);
}

}  // namespace ds
