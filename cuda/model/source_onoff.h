// Exponential (or periodic) on-off source at a peak rate (EF and best-effort UDP in Kaur & Vin, ns-2's
// Application/Traffic/Exponential) and CBR as its always-on case. Time is continuous inside
// a slot: the source accrues peak_rate * (on-time within the slot) bytes of credit and emits
// whole packets from it, carrying the remainder into the next on-period. The long-run rate is
// then exactly f * peak and on-durations are exactly Exp(T_on) (docs/model.md, "Sources").
// Runs on the queue side; X gives the source's parameters, state, counter and x.stage_slot.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "../core/pmath.h"
#include "../core/random.h"
#include "packet.h"

namespace ds {

struct SourceState {
  double phase_end;  // slot time the current on/off period ends
  double credit;     // bytes accrued while on and not yet sent as whole packets
  int32_t seq;
  uint32_t ctr;      // Philox counter of this source's stream (kFamSource, component = s)
  uint8_t on;
  uint8_t pad[7];
};

DS_HD DS_INLINE double source_exp(uint64_t seed, int s, SourceState& st, double mean) {
  return exponential(draw_u01(seed, kFamSource, (uint32_t)s, st.ctr), mean);
}

// The next on- or off-period: Exp(mean), or exactly the mean for a periodic source (Lee &
// Jeong's UDP on-off "period 0.04 s"; docs/model.md, "Sources").
DS_HD DS_INLINE double source_period(uint64_t seed, int s, SourceState& st, double mean,
                                     uint8_t fixed) {
  return fixed ? mean : source_exp(seed, s, st, mean);
}

template <class X>
DS_HD inline void source_init(X DS_REF x, int s) {
  SourceState& st = x.src(s);
  const size_t i = x.iS(s);
  const double t_on = x.in()->src_t_on_slots[i], t_off = x.in()->src_t_off_slots[i];
  st.ctr = 0;
  st.credit = 0.0;
  st.seq = 0;
  if (t_off <= 0.0) {  // CBR
    st.on = 1;
    st.phase_end = 1e300;
    return;
  }
  // Start in the stationary phase distribution so that no warm-up is needed for the source.
  const double u = draw_u01(x.seed(), kFamSource, (uint32_t)s, st.ctr);
  if (x.in()->src_fixed[i]) {  // periodic: a uniformly random phase within one period
    const double at = u * (t_on + t_off);
    st.on = at < t_on ? 1 : 0;
    st.phase_end = st.on ? t_on - at : t_on + t_off - at;
    return;
  }
  st.on = u < t_on / (t_on + t_off) ? 1 : 0;
  st.phase_end = source_exp(x.seed(), s, st, st.on ? t_on : t_off);
}

// The common idle case of slot [now, now+1): off, and the off period outlasts the slot.
DS_HD DS_INLINE bool source_idle(const SourceState& st, uint32_t now) {
  return !st.on && st.phase_end >= (double)now + 1.0;
}

// Emits the packets of slot [now, now+1) into the arrival buffer.
template <class X>
DS_HD inline void source_step(X DS_REF x, int s, uint32_t now) {
  SourceState& st = x.src(s);
  const double slot_end = (double)now + 1.0;
  if (source_idle(st, now)) return;  // nothing to do
  const size_t i = x.iS(s);
  const double peak = x.in()->src_peak_bytes_per_slot[i];
  double pos = (double)now, on_time = 0.0;
  int64_t bursts = 0;
  for (;;) {
    const double seg_end = st.phase_end < slot_end ? st.phase_end : slot_end;
    if (st.on) on_time += seg_end - pos;
    if (st.phase_end >= slot_end) break;
    pos = st.phase_end;
    st.on = !st.on;
    if (st.on) bursts += 1;
    st.phase_end += source_period(x.seed(), s, st,
                                  st.on ? x.in()->src_t_on_slots[i] : x.in()->src_t_off_slots[i],
                                  x.in()->src_fixed[i]);
  }
  st.credit += on_time * peak;
  if (x.measuring) {
    x.out_src_on_slots()[s] += on_time;
    x.out_src_bursts()[s] += bursts;
  }
  const int32_t bytes = x.in()->src_pkt_bytes[i];
  while (st.credit >= (double)bytes) {
    st.credit -= (double)bytes;
    const int32_t seq = st.seq++;
    if (x.measuring) {
      x.out_src_pkts()[s] += 1;
      x.out_src_bytes()[s] += bytes;
    }
    Packet* p = x.stage_slot();  // written in place (Ring::push_slot)
    if (!p) continue;
    put_packet(p, seq, 0 /* at the slot's start */, (uint16_t)(x.shape().max_flows + s),
               (uint16_t)bytes, 0, x.in()->src_cls[i], kPktSource,
               (uint8_t)x.in()->src_route[i * kMaxHops]);
  }
}

}  // namespace ds
