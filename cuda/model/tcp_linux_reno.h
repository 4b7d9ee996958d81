// Linux's Reno window growth as ns-3.44's TcpLinuxReno has it (src/internet/model/
// tcp-linux-reno.cc, read at tag ns-3.44; Linux tcp_reno_cong_avoid / tcp_cong_avoid_ai),
// the growth ns-3's TcpDctcp inherits (RFC 8257 leaves the growth to the sender's standard
// TCP, section 3.3). It differs from ns-2's and TcpNewReno's cwnd += 1/cwnd per ACK: in
// congestion avoidance a counter of acknowledged segments adds one whole segment each time it
// reaches w = floor(cwnd) (at least 1), so a window of 1.9 segments grows by one segment per
// ACK, where 1/cwnd would add 0.53. That is what raises ns-3's queue where DCTCP's windows are
// a few segments (32 flows over the benchmarks/ns3 dumbbell).
//
// In the engine's packet units (a segment is 1.0 of cwnd; ns-3 counts bytes, with whole
// segments added to a window that DCTCP's reduction left at a fraction of one):
//   slow start (cwnd < ssthresh): cwnd = min(cwnd + acked, ssthresh)  (SlowStart; the acked
//     segments slow start did not use are dropped, as IncreaseWindow's else-branch does)
//   congestion avoidance:
//     w = floor(cwnd), 1 if 0;
//     if cnt >= w: cnt = 0, cwnd += 1          (a w that a reduction made smaller)
//     cnt += acked; if cnt >= w: cwnd += cnt / w, cnt -= (cnt / w) w
// TcpDctcp::Init turns SuppressIncreaseIfCwndLimited off, so the growth does not depend on
// whether the window limits the flow. cwnd is kept <= the receiver's window as the engine's
// other growths do (ns-3 lets it pass; the window used is the smaller either way).
#pragma once
#include <cstdint>

#include "../core/hd.h"

namespace ds {

DS_HD inline void linux_reno_increase(double& cwnd, int32_t ssthresh, uint32_t& cnt,
                                      uint32_t acked, int32_t max_window) {
  if (cwnd < (double)ssthresh) {
    if (acked >= 1) {
      cwnd += (double)acked;
      if (cwnd > (double)ssthresh) cwnd = (double)ssthresh;
    }
  } else {
    uint32_t w = cwnd >= 1.0 ? (uint32_t)cwnd : 0u;
    if (w == 0) w = 1;
    if (cnt >= w) {
      cnt = 0;
      cwnd += 1.0;
    }
    cnt += acked;
    if (cnt >= w) {
      const uint32_t delta = cnt / w;
      cnt -= delta * w;
      cwnd += (double)delta;
    }
  }
  if (cwnd > (double)max_window) cwnd = (double)max_window;
}

}  // namespace ds
