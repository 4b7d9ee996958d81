// NewReno's partial ACK (RFC 6582 section 3.2 step 5, NewRenoTcpAgent::partialnewack):
// retransmit the next hole, deflate the window by the amount acknowledged and add back one
// segment, restart the timer, stay in fast recovery. The caller restarts the timer and
// retransmits ackno + 1 (model/tcp_sender.h).
#pragma once
#include <cstdint>

#include "../core/hd.h"
#include "tcp_rtt.h"

namespace ds {

template <class S>
DS_HD inline void newreno_partial_ack(const RtoParams& rto, S& s, int32_t ackno) {
  const int32_t deflate = ackno - s.highest_ack;
  if (s.dupwnd > deflate) {
    s.dupwnd -= deflate - 1;
  } else {
    s.cwnd -= (double)(deflate - s.dupwnd);
    s.dupwnd = 1;
    if (s.cwnd < 1.0) s.cwnd = 1.0;
  }
  s.highest_ack = ackno;
  s.dupacks = 0;
  if (s.t_seqno < ackno + 1) s.t_seqno = ackno + 1;
  if (s.rtt_active && ackno >= s.rtt_seq) {
    s.rtt_active = 0;
    rtt_reset_backoff(rto, s.rtt);
  }
}

}  // namespace ds
