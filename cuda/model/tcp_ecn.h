// ECN (RFC 3168) end to end, as ns-3.44 has it (TcpSocketBase's ECN states, tcp-socket-state.h;
// RedQueueDisc / CoDelQueueDisc / PieQueueDisc UseEcn). Plain state and pure functions; the
// engine calls them behind the replica's f_ecn flag (engine/features.h), so a replica without
// ECN runs none of this.
//
//  * Packet bits (model/packet.h): a flow with flow_ecn != 0 sends ECT data packets (ECT is a
//    property of the flow, read from its inputs where a queue decides; a retransmission is not
//    ECT, RFC 3168 6.1.5, as in ns-3); a queue that marks sets
//    kPktCe in the packet's cls byte, and the sender sets kPktCwr on the first new data packet
//    after a reduction (RFC 3168 6.1.2). Class indices are < kMaxClasses (4), so the top bits
//    of cls are free; every reader of p.cls masks it (cls_index).
//  * Queues (ecn_verdict): a class with class_ecn & kClassEcnMark marks an ECT packet where it
//    would drop it early (RED/RIO/WRED's early drop, CoDel's drop at dequeue, PIE's early drop
//    while its drop probability is below MarkEcnThreshold 0.1, ns-3 PieQueueDisc); RED's
//    forced drop (average above max_th, 2 max_th gentle) stays a drop unless
//    class_ecn & kClassEcnNoHardDrop (ns-3 RedQueueDisc UseHardDrop, default true); the buffer
//    limit always drops. A non-ECT packet is dropped as before.
//  * Receiver (ecn_rx_segment, RFC 3168 6.1.3): a CE data packet sets the echo state; ACKs carry
//    ECE while it is set; a data packet with CWR clears it (a CWR packet that is also CE sets it
//    again). DCTCP's receiver (RFC 8257 3.2) echoes the CE bit of the last data packet instead.
//  * Sender (ecn_sender_ack, RFC 3168 6.1.2 as ns-3.44's TcpSocketBase has it; the rules and
//    their places in ns-3's source are in docs/model.md, "ECN"): a new ACK with ECE, outside
//    loss recovery and outside CWR, enters CWR (TcpSocketBase::EnterCwr): ssthresh by the
//    congestion control's GetSsThresh (TcpNewReno: half the flight after the ACK, at least 2
//    segments; CUBIC: beta; DCTCP: (1 - alpha/2) cwnd), cwnd = ssthresh (TcpClassicRecovery::
//    EnterRecovery), no retransmission, and the next new data segment (maxseq + 1) carries
//    CWR. In CWR the window is held (ProcessAck's CA_CWR branch: PktsAcked, no
//    IncreaseWindow) and duplicate ACKs start no fast retransmit (DupAck leaves CA_CWR alone)
//    until the cumulative ACK passes the highest sequence sent at the entry (ReceivedAck:
//    ackNumber > m_recover, CA_CWR -> CA_OPEN), where the same ACK may enter CWR again; a
//    retransmission timeout leaves CWR (ReTxTimeout: CA_LOSS).
#pragma once
#include <cstdint>

#include "../core/hd.h"
#include "tcp_dctcp.h"

namespace ds {

// flow_ecn: what the flow's endpoints do
enum FlowEcn : uint8_t { kEcnOff = 0, kEcnClassic = 1, kEcnDctcp = 2 };
// class_ecn bits
constexpr uint8_t kClassEcnMark = 1;        // ns-3 UseEcn: mark ECT packets instead of early drops
constexpr uint8_t kClassEcnNoHardDrop = 2;  // ns-3 RedQueueDisc UseHardDrop false: mark forced too

// What a queue does with a packet its AQM would discard.
enum EcnVerdict : uint8_t { kEcnDrop = 0, kEcnMarkIt = 1 };

// `early`: an early (probabilistic / control-law) discard; else a forced one (RED above max_th).
DS_HD DS_INLINE uint8_t ecn_verdict(uint8_t class_ecn, bool ect, bool early) {
  if (!ect || !(class_ecn & kClassEcnMark)) return kEcnDrop;
  if (!early && !(class_ecn & kClassEcnNoHardDrop)) return kEcnDrop;
  return kEcnMarkIt;
}

// PIE (ns-3 PieQueueDisc::DoEnqueue): an early drop becomes a mark only while the drop
// probability is at or below MarkEcnThreshold (0.1): "if (!m_useEcn || m_dropProb >
// m_markEcnTh || !Mark(...)) drop".
constexpr double kPieMarkEcnThreshold = 0.1;
DS_HD DS_INLINE uint8_t pie_ecn_verdict(uint8_t class_ecn, bool ect, double drop_prob) {
  if (drop_prob > kPieMarkEcnThreshold) return kEcnDrop;
  return ecn_verdict(class_ecn, ect, true);
}

// One flow's ECN state, sender and receiver halves (replica state, one per flow).
struct EcnFlow {
  DctcpState dctcp;   // DCTCP's alpha estimator (model/tcp_dctcp.h)
  int32_t recover;    // no new reduction until the cumulative ACK passes this (maxseq at the last)
  int32_t cwr_seq;    // the new data segment that carries CWR (-1: none pending)
  uint8_t rx_ece;     // receiver: the ECE bit its ACKs carry now
  uint8_t mode;       // FlowEcn
  uint8_t cwr;        // sender: in ns-3's CA_CWR (a reduction's window not yet acknowledged)
  uint8_t pad;
};

DS_HD DS_INLINE void ecn_flow_init(EcnFlow& e, uint8_t mode) {
  dctcp_init(dctcp_ns3_defaults(), e.dctcp);
  e.recover = -1;
  e.cwr_seq = -1;
  e.rx_ece = 0;
  e.mode = mode;
  e.cwr = 0;
  e.pad = 0;
}

// A new connection of a reused flow slot (engine/traffic.h): the sender's half only (the
// receiver's belongs to the queue side).
DS_HD DS_INLINE void ecn_sender_reset(EcnFlow& e) {
  dctcp_init(dctcp_ns3_defaults(), e.dctcp);
  e.recover = -1;
  e.cwr_seq = -1;
  e.cwr = 0;
}

// The receiver takes a data segment with these bits: RFC 3168 6.1.3 (classic) or RFC 8257 3.2
// (DCTCP: ECE = CE of the last packet). Returns true when the echo state changed.
DS_HD DS_INLINE bool ecn_rx_segment(EcnFlow& e, bool ce, bool cwr) {
  const uint8_t before = e.rx_ece;
  if (e.mode == kEcnDctcp) {
    e.rx_ece = ce ? 1 : 0;
  } else {
    if (cwr) e.rx_ece = 0;  // the sender has reduced: stop echoing ...
    if (ce) e.rx_ece = 1;   // ... unless this packet is congested too
  }
  return e.rx_ece != before;
}

// The sender's reaction to an ACK of `ackno` with `ece`, before the ACK's own processing
// (ns-3.44 TcpSocketBase::ReceivedAck): first the end of CWR, once the cumulative ACK passes
// the highest sequence sent at its entry (ackNumber > m_recover: CA_CWR -> CA_OPEN; the window
// is ssthresh already, held since the entry); then ECE, valid only on an ACK that acknowledges
// something new (ackNumber > SND.UNA, m_ecnEchoSeq < ackNumber: a duplicate ACK's ECE is
// ignored), enters CWR unless the sender is in it (once per window) or in loss recovery
// (`in_recovery`: a reduction already made for this window; ns-3 would enter CWR there too,
// docs/model.md "ECN"). Returns true when the window must be reduced now (the caller applies
// the congestion control's reduction, then ecn_reduced).
DS_HD DS_INLINE bool ecn_should_reduce(EcnFlow& e, bool ece, int32_t ackno, int32_t highest_ack,
                                       bool in_recovery) {
  if (e.cwr && ackno > e.recover) e.cwr = 0;
  return ece && ackno > highest_ack && !e.cwr && !in_recovery;
}

// After the reduction (EnterCwr): CWR until the window sent so far is acknowledged
// (m_recover = m_highTxMark), and the next new data segment carries CWR.
DS_HD DS_INLINE void ecn_reduced(EcnFlow& e, int32_t maxseq) {
  e.recover = maxseq;
  e.cwr_seq = maxseq + 1;
  e.cwr = 1;
}

// A retransmission timeout (ReTxTimeout: CA_LOSS) ends CWR: the next new ACK with ECE enters
// it again from the timeout's window.
DS_HD DS_INLINE void ecn_timeout(EcnFlow& e) { e.cwr = 0; }

// TcpNewReno::GetSsThresh at EnterCwr: max(2 segments, BytesInFlight / 2), the flight counted
// after the ACK's own data left it (TcpTxBuffer::DiscardUpTo runs before EnterCwr): the
// segments above `ackno` up to `top`, the highest one in flight (maxseq; after a timeout's
// go-back-N the last one resent, ns-3's ReTxTimeout marking the rest lost, out of the flight).
// ns-3 halves the byte count, so an odd flight gives a half segment, which the window keeps
// (cwnd = ssthresh).
DS_HD DS_INLINE double ecn_newreno_ssthresh(int32_t top, int32_t ackno) {
  const double half = 0.5 * (double)(top - ackno);
  return half < 2.0 ? 2.0 : half;
}

}  // namespace ds
