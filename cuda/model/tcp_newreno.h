// NewReno's partial ACK (RFC 6582 section 3.2 step 5, NewRenoTcpAgent::partialnewack):
// retransmit the next hole, deflate the window by the amount acknowledged and add back one
// segment, stay in fast recovery. The caller retransmits ackno + 1 and restarts the timer on
// the first partial ACK of the recovery only (model/tcp_sender.h: newreno_changes1_).
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
  // dupacks_ is kept (ns-2.35's partialnewack() leaves it; only newack() clears it): the
  // duplicate ACKs that follow still inflate the window (dupacks > numdupacks) instead of
  // counting again from one into limited transmit and a second fast retransmit
  if (s.t_seqno < ackno + 1) s.t_seqno = ackno + 1;
  if (s.rtt_active && ackno >= s.rtt_seq) {
    s.rtt_active = 0;
    rtt_reset_backoff(rto, s.rtt);
  }
}

}  // namespace ds
