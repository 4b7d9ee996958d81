// DCTCP's sender-side congestion estimate (RFC 8257 section 3.3) as ns-3's TcpDctcp does it
// (src/internet/model/tcp-dctcp.cc, read at ns-3.40; 3.44's attributes are the same:
// DctcpShiftG 0.0625, DctcpAlphaOnInit 1.0, UseEct0 true). Model functions on one flow's
// state, in the engine's packet-counted units (a segment for ns-3's segmentSize bytes); the
// sender calls them once ECN reaches the engine (issue 52: ECE on ACKs, CE marks at the
// queues), so no scenario selects DCTCP yet.
//
// ns-3's estimator: every ACK adds the segments it newly acknowledges to a total, and to the
// ECE total when the sender's ECN state is ECE-received; when the cumulative ACK reaches the
// sequence that was next to send when the window began (m_nextSeq, taken at the first ACK),
// alpha <- (1 - g) alpha + g M with M = ECE bytes / all bytes of that window (RFC 8257 step
// 7-8), and a new window begins at the sequence next to send then. On ECE the window is cut
// once per round trip (the ECN reaction, RFC 3168 section 6.1.2) to ssthresh = (1 - alpha/2)
// x cwnd (step 9), which ns-3 truncates to whole bytes.
#pragma once
#include <cstdint>

#include "../core/hd.h"

namespace ds {

struct DctcpParams {
  double g;           // DctcpShiftG: the estimator's gain (1/16)
  double alpha_init;  // DctcpAlphaOnInit: alpha before the first window (1: cautious)
};

DS_HD DS_INLINE DctcpParams dctcp_ns3_defaults() { return DctcpParams{0.0625, 1.0}; }

struct DctcpState {
  double alpha;          // m_alpha: the estimated fraction of marked bytes
  int64_t acked_total;   // m_ackedBytesTotal, in segments
  int64_t acked_ece;     // m_ackedBytesEcn, in segments
  int32_t next_seq;      // m_nextSeq: the window ends when the cumulative ACK reaches it
  uint32_t cwnd_cnt;     // TcpLinuxReno's m_cWndCnt: the growth's counter (model/tcp_linux_reno.h)
  uint8_t next_seq_set;  // m_nextSeqFlag
};

DS_HD DS_INLINE void dctcp_init(const DctcpParams& p, DctcpState& s) {
  s.alpha = p.alpha_init;
  s.acked_total = 0;
  s.acked_ece = 0;
  s.next_seq = 0;
  s.cwnd_cnt = 0;
  s.next_seq_set = 0;
}

// PktsAcked: an ACK newly acknowledging `acked` segments; `ece`: the sender is in the ECE-
// received state (the ACK carried ECE); `last_acked`: the cumulative ACK's sequence (the next
// segment the receiver expects); `next_tx`: the sequence the sender would send next. Returns
// true when the ACK ended an observation window (alpha updated).
DS_HD inline bool dctcp_pkts_acked(const DctcpParams& p, DctcpState& s, int32_t acked, bool ece,
                                   int32_t last_acked, int32_t next_tx) {
  s.acked_total += acked;
  if (ece) s.acked_ece += acked;
  if (!s.next_seq_set) {
    s.next_seq = next_tx;
    s.next_seq_set = 1;
  }
  if (last_acked < s.next_seq) return false;
  const double m = s.acked_total > 0 ? (double)s.acked_ece / (double)s.acked_total : 0.0;
  s.alpha = (1.0 - p.g) * s.alpha + p.g * m;
  s.next_seq = next_tx;  // Reset
  s.acked_ece = 0;
  s.acked_total = 0;
  return true;
}

// GetSsThresh on entering CWR: (1 - alpha/2) x cwnd, truncated to whole bytes as ns-3's
// uint32_t cast does, in segments of `segment_bytes`.
DS_HD DS_INLINE double dctcp_ssthresh_pkts(const DctcpState& s, double cwnd_pkts,
                                           int32_t segment_bytes) {
  const double bytes = (1.0 - s.alpha / 2.0) * cwnd_pkts * (double)segment_bytes;
  return (double)(uint32_t)bytes / (double)segment_bytes;
}

}  // namespace ds
