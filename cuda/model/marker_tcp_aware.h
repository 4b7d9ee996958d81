// TCP-aware edge conditioners (Habib, Bhargava & Fahmy, "A Round Trip Time and Time-out Aware
// Traffic Conditioner for Differentiated Services Networks", sec. III; Nandy et al., IFIP HPN
// 2000; Feroz et al., IWQoS 2000): markers that read the sending TCP's own state.
//
// The split of work keeps the engine deterministic: a TCP's state is read by its sender, on
// the flow side, when the packet starts on its access link ("the moment it is sent"), and
// condensed into a 4-bit tag that rides in the packet's hop byte (model/packet.h); the
// aggregate's meter (a TSW rate estimate, shared by the aggregate's flows) runs on the queue
// side at the marker's link, in arrival order, like every other conditioner. The queue side
// never reads sender state, which the flow side may have moved on from.
//
// The tag: kTagSmallWindow (15) when small-window protection applies (cwnd < k: DP0, Feroz et
// al.), else the share of out-of-profile packets to mark DP2 rather than DP1, quantised to
// 0..14 (share = tag / 14):
//   basic RTT-aware (Nandy et al.): share = (RTT_ref / RTT)^2, at most 1;
//   RTT-RTO (Habib et al. eq. 9: rho^2 = (RTT_1/RTT_2)^2 x To_1/To_2):
//     share = (RTT_ref / RTT) x sqrt(RTO_ref / RTO); a flow at or below the reference (the
//     flow "with minimum RTT and RTO", whose share would be 1) is marked by the ratio of its
//     own RTT and RTO instead: share = RTT / RTO.
// RTT and RTO are the sender's smoothed RTT and current RTO (ns-2's t_srtt_ and the timer's
// value); before its first RTT sample a sender uses its path's propagation round trip.
// The meter (Habib et al. sec. III, after Nandy et al.): the aggregate's TSW rate estimate;
// at or below the target rate (CIR) a packet is green (DP0); above it, out of profile with
// probability (rate - CIR) / rate, and then red (DP2) with probability `share`, else yellow.
#pragma once
#include <cmath>
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "marker_state.h"
#include "marker_tsw.h"
#include "packet.h"

namespace ds {

static_assert(kMaxHops <= kHopMask, "hop indices must leave the tag bits of the hop byte free");

constexpr uint8_t kTagLevels = 14;        // share = tag / 14
constexpr uint8_t kTagSmallWindow = 15;   // cwnd < k: protect (DP0)

// The tag of a packet sent now by a TCP with congestion window `cwnd` (packets), smoothed RTT
// `srtt` and RTO `rto` (slots; srtt <= 0: no sample yet, `base_rtt` stands in), for a marker
// of `kind` with small-window threshold `sw_k` (0: off) and references `ref_rtt`, `ref_rto`.
DS_HD inline uint8_t tcp_aware_tag(uint8_t kind, int32_t sw_k, double ref_rtt, double ref_rto,
                                   double cwnd, double srtt, double rto, double base_rtt) {
  if (sw_k > 0 && cwnd < (double)sw_k) return kTagSmallWindow;
  const double rtt = srtt > 0.0 ? srtt : base_rtt;
  double share = 1.0;
  if (kind == kMarkRttAware) {
    const double r = rtt > 0.0 ? ref_rtt / rtt : 1.0;
    share = r * r;
  } else if (kind == kMarkRttRto) {
    const double r = (rtt > 0.0 ? ref_rtt / rtt : 1.0) *
                     (rto > 0.0 ? sqrt(ref_rto / rto) : 1.0);  // IEEE sqrt: same bits on every backend
    share = r >= 1.0 ? (rto > 0.0 ? rtt / rto : 1.0) : r;
  }
  if (share > 1.0) share = 1.0;
  if (share < 0.0) share = 0.0;
  return (uint8_t)(share * (double)kTagLevels + 0.5);
}

// The share of DP2 a tag stands for.
DS_HD DS_INLINE double tag_share(uint8_t tag) {
  return tag >= kTagSmallWindow ? 0.0 : (double)tag / (double)kTagLevels;
}

// RTT-aware and RTT-RTO conditioners (the meter side): update the aggregate's TSW estimate with
// this packet, then colour it from its tag and one uniform draw `u`.
DS_HD inline uint8_t mark_tcp_aware(const MarkerParams& m, MarkerState& s, uint8_t tag,
                                    int bytes, double now, double u) {
  tsw_update(s.avg_rate, s.t_front, m.win, bytes, now);
  if (tag == kTagSmallWindow || s.avg_rate <= m.cir) return kGreen;
  const double p_out = 1.0 - m.cir / s.avg_rate;
  if (u < p_out * tag_share(tag)) return kRed;
  if (u < p_out) return kYellow;
  return kGreen;
}

}  // namespace ds
