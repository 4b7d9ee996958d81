// The TCP sender, Reno with NewReno's partial-ACK rule as a variant, after ns-2.35's TcpAgent
// (tcp.cc), RenoTcpAgent (tcp-reno.cc) and NewRenoTcpAgent (tcp-newreno.cc); RFC 5681
// (congestion control), RFC 6298 (RTO), RFC 6582 (NewReno). Packet-counted windows.
// Differences from ns-2 are listed in docs/model.md ("TCP").
//
// The functions take the replica view X (engine/replica.h), which gives this flow's
// parameters (x.in(), x.iF), counters (x.out, x.measuring), its sender state (x.snd), its
// access-link FIFO (x.nic_fifo) and x.rto(). They run on the flow side (engine/flow_side.h): nothing here
// touches a queue or another flow.
#pragma once
#include <climits>
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "../core/pmath.h"
#include "../core/random.h"
#include "../core/ring.h"
#include "access_link.h"
#include "app_telnet.h"
#include "marker_tcp_aware.h"
#include "tcp_cubic.h"
#include "tcp_ecn.h"
#include "tcp_linux_reno.h"
#include "tcp_newreno.h"
#include "tcp_rtt.h"

namespace ds {

constexpr int kNumDupacks = 3;  // numdupacks_
constexpr uint32_t kNeverSlot = 0xFFFFFFFFu;

enum CwndAction : uint8_t { kActNone = 0, kActDupack = 1, kActExited = 2, kActTimeout = 3 };

// An ACK in flight to its sender; ACKs are never queued or lost (all five papers). A
// replica keeps every ACK in flight in one pool, each flow's in a list in arrival order
// (engine/replica.h): ACKs in flight are bounded by the departures of one loop delay, which
// is far less than a ring per flow sized for the flow's worst case.
struct Ack {
  uint32_t due;
  int32_t ackno;     // highest in-order seq received (ns-2 TCPSink convention)
  int32_t next;      // the flow's next ACK in the pool; -1 = none
  uint8_t consumed;  // the sender has taken it (the pool reclaims it)
  uint8_t ece;       // ECN-Echo (RFC 3168 6.1.3; the receiver's EcnFlow::rx_ece when sent)
  uint16_t gen;      // the receiver's transfer generation (engine/traffic.h): a reused slot's
                     // sender ignores ACKs of its predecessor
};

// The flow's inputs that its packets and ACKs read, copied into its sender once
// (sender_init), as LinkState keeps its link's: one load from a line the event has just
// touched instead of a walk through the batch's arrays (an input array's address, then the
// flow's row) per use; on the GPU each walk is a chain of dependent global loads. Read on
// both sides (the receiver and the ACK pool take theirs here too); written only at init.
// 32 bytes (a 64-flow replica's state stays within 64 KiB, tests/test_pack.py): sizes fit
// 16 bits (scenario/checks.py: at most 65,535 bytes on the wire); inputs read only at a
// flow's first segment or ACK (syn, delay_growth) stay where they are.
struct FlowInputs {
  double send_jitter_slots;  // flow_send_jitter_slots (ns-2 overhead_)
  int32_t max_window;        // flow_max_window (window_)
  int32_t access_limit;      // flow_access_limit (packets; 0: unlimited)
  int32_t loop_slots;        // flow_loop_slots: an ACK's flight back to the sender
  uint16_t wire_bytes;       // flow_wire_bytes: a data segment on the wire
  uint16_t payload_bytes;    // flow_payload_bytes
  uint8_t cls;               // flow_cls
  uint8_t link1, link2;      // the first link of path 1 and of path 2 (flow_route, flow_route2)
  uint8_t n_hops1, n_hops2;  // the links of path 1 and of path 2 (flow_n_hops, flow_n_hops2;
                             // 0: no second path)
  uint8_t variant;           // flow_variant
  uint8_t delack;            // flow_delack
  uint8_t has_drops;         // flow_drop_seq names a segment to drop (a validation hook)
};
static_assert(sizeof(FlowInputs) == 32, "FlowInputs: 32 bytes per flow");

struct TcpSender {
  FlowInputs flow;      // its flow's inputs (above)
  double cwnd;          // cwnd_ (packets)
  RttEstimator rtt;
  AccessLink nic;
  int32_t ssthresh;     // ssthresh_
  int32_t dupwnd;       // dupwnd_: Reno window inflation during fast recovery
  int32_t dupacks;      // dupacks_
  int32_t t_seqno;      // t_seqno_: next sequence number to send
  int32_t highest_ack;  // highest_ack_ == last_ack_: -1 before the first ACK
  int32_t maxseq;       // maxseq_: highest sequence number sent
  int32_t recover;      // recover_
  int32_t curseq;       // packets the application has to send (INT32_MAX = backlogged)
  int32_t rtt_seq;      // rtt_seq_: seq being timed (Karn)
  uint32_t rtt_ts;      // slot it was sent
  uint32_t rto_due;     // retransmission timer; kNeverSlot = not pending
  uint32_t wake_due;    // access link free again while data waits; kNeverSlot = none
  uint32_t start_due;   // flow start; kNeverSlot once started
  uint32_t delsnd_due;  // ns-2 delsnd_timer_ (send jitter): slot it fires; kNeverSlot = idle
  double delsnd_at;     // the time within that slot it fires (slots)
  uint32_t jit_ctr;     // Philox counter of the flow's jitter stream (kFamJitter)
  int32_t ack_first;    // ACKs in flight to this sender: pool indices of the first and last
  int32_t ack_last;     // (-1 = none); pushed by the receiver side, taken by the sender
  uint8_t last_cwnd_action;
  uint8_t rtt_active;
  uint8_t finished;
  uint8_t gen;          // transfer generation of a pool slot (engine/traffic.h); stamped on
                        // its packets so that a reused slot ignores its predecessor's
  uint8_t path2;        // random/size split: this connection's packets take path 2
  uint8_t iw_one;       // a timeout before any ACK made ns-2's initial window 1 (bugfix_ss_;
                        // read only by delay_growth)
  uint8_t first_partial;  // firstpartial_: NewReno's recovery has had a partial ACK (only the
                          // first restarts the timer: ns-2.35's newreno_changes1_ 1)
};

// A sender's rarely used state, apart from TcpSender so that plain TCP keeps its state small
// (engine/replica.h: one per flow; read only by replicas that use these features).
struct SenderExt {
  double app_next;      // telnet-like application: slot time of its next segment
  int64_t rec_k;        // the record its last ACK completes (-1: none)
  // A pool slot's next transfer, assigned between rounds, started by the flow side when it
  // reaches pend_at (so at the same simulated time whatever the rounds): engine/traffic.h.
  int32_t pend_size;
  uint32_t pend_at;
  int32_t base[4];      // its counters when the transfer started: sent, rexmits, timeouts,
                        // access-link drops (engine/traffic.h, sender_counters)
  uint32_t app_ctr;     // Philox counter of a telnet-like application (kFamApp)
  uint8_t pending;
  uint8_t pend_gen;
  uint8_t pad[2];
  // Telnet-like application: the write time of segment highest_ack + 1, replayed from the
  // application's own draws (ack_ctr), so that each segment's delay from its write to its
  // delivery is measured when the ACK covering it arrives (recv_app_delays).
  double ack_w;
  uint32_t ack_ctr;
  uint32_t pad2;
};

// RenoTcpAgent::window(): cwnd inflated by dupwnd during fast recovery, capped by the
// receiver's window.
DS_HD DS_INLINE int32_t window(const TcpSender& s, int32_t max_window) {
  int32_t w = (int32_t)s.cwnd + s.dupwnd;
  return w > max_window ? max_window : w;
}

// TcpAgent::slowdown() with ns-2.35's default precisionReduce_ true (ns-default.tcl: "default
// changed on 2006/1/24"): halfwin = windowd() / 2, the window as a double (RenoTcpAgent::
// windowd(): cwnd_ + dupwnd_, capped by wnd_), not the whole packets of window(). ssthresh is
// (int) halfwin, never below 2 (the same as window() / 2); cwnd is halfwin itself at a fast
// retransmit (CLOSE_CWND_HALF) or 1 at a timeout (CLOSE_CWND_RESTART, wnd_restart_ 1).
DS_HD inline void slowdown(TcpSender& s, int32_t max_window, bool to_one) {
  double windowd = s.cwnd + (double)s.dupwnd;
  if (windowd > (double)max_window) windowd = (double)max_window;
  const double halfwin = windowd / 2.0;
  s.ssthresh = halfwin < 2.0 ? 2 : (int32_t)halfwin;
  s.cwnd = to_one ? 1.0 : halfwin;
  if (s.cwnd < 1.0) s.cwnd = 1.0;
}

// TcpAgent::opencwnd() (wnd_option_ 1): slow start below ssthresh, else 1/cwnd per ACK.
// cwnd is kept <= the receiver window so that a later halving starts from the real window.
DS_HD DS_INLINE void opencwnd(TcpSender& s, int32_t max_window) {
  if (s.cwnd < (double)s.ssthresh)
    s.cwnd += 1.0;
  else
    s.cwnd += 1.0 / s.cwnd;
  if (s.cwnd > (double)max_window) s.cwnd = (double)max_window;
}

template <class X>
DS_HD DS_INLINE void set_rtx_timer(X DS_REF x, TcpSender& s, uint32_t now) {
  s.rto_due = rto_due_slot(s.rtt, now);
}

// CUBIC (model/tcp_cubic.h) where the flow runs it: its growth and loss points, called where
// ns-2's opencwnd() and slowdown() are. A replica without CUBIC flows tests one header flag
// (f_cubic; the slim CUDA kernel none); a CUBIC replica's NewReno flows read their state's
// `on` too.
template <class X>
DS_HD DS_INLINE CubicParams cubic_params_of(X DS_REF x, const CubicState& c) {
  return CubicParams{x.in()->cubic_params + ((size_t)x.iR() * kMaxCubicSets + c.set) * kCubicParams};
}

// The smoothed RTT in seconds that ns-3.44 hands CUBIC's PktsAcked (m_tcb->m_srtt): the
// sender's own (ns-2's integer ticks << 3, model/tcp_rtt.h); 0 before the first sample.
template <class X>
DS_HD DS_INLINE double cubic_srtt_s(X DS_REF x, const TcpSender& s, const CubicParams& p) {
  return (double)s.rtt.t_srtt / (double)(1 << kSrttBits) * x.rto().tick * p.slot_s();
}

// An ACK that acknowledges nothing new (a duplicate, or a partial ACK in recovery): ns-3 still
// calls PktsAcked (delay_min, HyStart).
template <class X>
DS_HD DS_RARE void cubic_ack_seen(X DS_REF x, CubicState& c, TcpSender& s, uint32_t now) {
  const CubicParams p = cubic_params_of(x, c);
  cubic_pkts_acked(c, p, s.cwnd, s.ssthresh, cubic_srtt_s(x, s, p), now);
}

// A new ACK of `acked` segments, after its RTT sample: PktsAcked, then IncreaseWindow with
// at most kCubicAckedMax of them. ns-3 counts the segments the ACK newly delivers, and with its
// default SACK those a hole's retransmission releases are not among them; the engine's
// cumulative ACK after a recovery or a go-back-N covers every segment the receiver held, and
// counted whole it let slow start open by hundreds of segments in one ACK (docs/model.md,
// "CUBIC"). RFC 3465's limit L = 2 segments per ACK keeps what ns-3's byte counting is for:
// an ACK of two segments (a delayed ACK) counts two.
constexpr int32_t kCubicAckedMax = 2;
template <class X>
DS_HD DS_RARE void cubic_new_ack(X DS_REF x, CubicState& c, TcpSender& s, int32_t acked,
                                 uint32_t now) {
  const CubicParams p = cubic_params_of(x, c);
  cubic_pkts_acked(c, p, s.cwnd, s.ssthresh, cubic_srtt_s(x, s, p), now);
  const int32_t n = acked < kCubicAckedMax ? acked : kCubicAckedMax;
  cubic_increase(c, p, s.cwnd, s.ssthresh, n > 0 ? (uint32_t)n : 0u, s.highest_ack, s.maxseq,
                 s.flow.max_window, now);
}

// The new ACK that ends a fast recovery, of `acked` segments (the whole cumulative advance,
// segments the receiver held included). ns-3.44's TcpSocketBase::ProcessAck on leaving
// CA_RECOVERY (src/internet/model/tcp-socket-base.cc, ns-3.44 lines 2199-2215 and 2244-2254)
// recomputes segsAcked as that advance,
//     segsAcked = static_cast<uint32_t>(ackNumber - oldHeadSequence) / m_tcb->m_segmentSize;
// (the SACKed segments the hole's retransmission releases count, unlike on any other ACK,
// where currentDelivered counts the newly delivered alone), sets cwnd = ssthresh and calls
// IncreaseWindow(m_tcb, segsAcked): with cwnd = ssthresh no slow start, so all of them go to
// TcpCubic::IncreaseWindow's m_cWndCnt and Update's m_ackCnt (tcp-cubic.cc, ns-3.44 lines
// 216-229 and 253-258; the epoch starts at this ACK). The counter keeps what exceeds cnt, and
// the ACKs that follow grow cwnd by a segment each until it is spent: after a loss at a
// window of W, about W more segments counted towards the first increments of the epoch. Not
// capped at kCubicAckedMax (that cap is for slow start, which cwnd = ssthresh rules out);
// PktsAcked for this ACK is the caller's (cc_ack_seen, or cubic_new_ack's own).
template <class X>
DS_HD DS_RARE void cubic_recovery_exit(X DS_REF x, CubicState& c, TcpSender& s, int32_t acked,
                                       uint32_t now) {
  const CubicParams p = cubic_params_of(x, c);
  cubic_increase(c, p, s.cwnd, s.ssthresh, acked > 0 ? (uint32_t)acked : 0u, s.highest_ack,
                 s.maxseq, s.flow.max_window, now);
}

// A loss: ns-3's GetSsThresh (W_max, beta * cwnd), then cwnd = ssthresh at a fast retransmit
// (recovery inflates from there as the sender's variant does) or one segment and CubicReset
// after a timeout. A timeout with no ACK since the last one keeps ssthresh, as ns-3 does once
// the head has been retransmitted.
template <class X>
DS_HD DS_RARE void cubic_loss(X DS_REF x, CubicState& c, TcpSender& s, bool timeout,
                              uint32_t now) {
  const CubicParams p = cubic_params_of(x, c);
  const bool again = timeout && s.last_cwnd_action == kActTimeout && s.highest_ack == c.rto_ack;
  if (!again) s.ssthresh = cubic_ssthresh(c, p, (uint32_t)window(s, s.flow.max_window));
  if (timeout) {
    s.cwnd = 1.0;
    c.rto_ack = s.highest_ack;
    cubic_timeout_reset(c, s.maxseq, now);
  } else {
    s.cwnd = (double)s.ssthresh;
  }
}

template <class X>
DS_HD DS_INLINE CubicState* cubic_of(X DS_REF x, int f) {
  if (!DS_FEAT_NEW(x.hdr()->f_cubic)) return nullptr;
  CubicState* c = &x.cubics()[f];
  return c->on ? c : nullptr;
}

// `cubic(state)` where the flow runs CUBIC, else `ns2()`: ns-2's step.
template <class X, class Cubic, class Ns2>
DS_HD DS_INLINE void cc_step(X DS_REF x, int f, Cubic cubic, Ns2 ns2) {
  CubicState* c = cubic_of(x, f);
  if (c)
    cubic(*c);
  else
    ns2();
}

// A DCTCP flow's estimator state (its growth's counter with it), null for any other flow; a
// replica without ECN tests one header flag (the slim and classic kernels none).
template <class X>
DS_HD DS_INLINE DctcpState* dctcp_of(X DS_REF x, int f) {
  if (!DS_FEAT_NEW(x.hdr()->f_ecn)) return nullptr;
  EcnFlow& e = x.ecns()[f];
  return e.mode == kEcnDctcp ? &e.dctcp : nullptr;
}

// DCTCP's growth, ns-3's TcpLinuxReno::IncreaseWindow (model/tcp_linux_reno.h) with `acked`
// segments.
DS_HD DS_INLINE void dctcp_increase(TcpSender& s, DctcpState& d, int32_t acked) {
  linux_reno_increase(s.cwnd, s.ssthresh, d.cwnd_cnt, acked > 0 ? (uint32_t)acked : 0u,
                      s.flow.max_window);
}

// The window's growth on a new ACK of `acked` segments: ns-2's opencwnd(), CUBIC's, or
// DCTCP's (TcpLinuxReno's) with at most kCubicAckedMax of them (RFC 3465's L: the engine's
// cumulative ACK after a go-back-N covers every segment the receiver held; cubic_new_ack).
template <class X>
DS_HD DS_INLINE void cc_opencwnd(X DS_REF x, int f, TcpSender& s, int32_t acked, uint32_t now) {
  cc_step(x, f, [&](CubicState& c) { cubic_new_ack(x, c, s, acked, now); },
          [&] {
            if (DctcpState* d = dctcp_of(x, f))
              dctcp_increase(s, *d, acked < kCubicAckedMax ? acked : kCubicAckedMax);
            else
              opencwnd(s, s.flow.max_window);
          });
}

// The window's reduction at a loss: ns-2's slowdown(), or CUBIC's.
template <class X>
DS_HD DS_INLINE void cc_slowdown(X DS_REF x, int f, TcpSender& s, bool timeout, uint32_t now) {
  cc_step(x, f, [&](CubicState& c) { cubic_loss(x, c, s, timeout, now); },
          [&] { slowdown(s, s.flow.max_window, timeout); });
}

// The new ACK that ends a fast recovery (`acked`: its whole cumulative advance): ns-3's
// IncreaseWindow with all of them, CUBIC's (cubic_recovery_exit) or DCTCP's (ns-3.44's
// ProcessAck recomputes segsAcked as the whole advance for any congestion control); ns-2's
// flows grow nothing here.
template <class X>
DS_HD DS_INLINE void cc_recovery_exit(X DS_REF x, int f, TcpSender& s, int32_t acked,
                                      uint32_t now) {
  cc_step(x, f, [&](CubicState& c) { cubic_recovery_exit(x, c, s, acked, now); },
          [&] {
            if (DctcpState* d = dctcp_of(x, f)) dctcp_increase(s, *d, acked);
          });
}

// An ACK that acknowledges nothing new: CUBIC's PktsAcked only.
template <class X>
DS_HD DS_INLINE void cc_ack_seen(X DS_REF x, int f, TcpSender& s, uint32_t now) {
  cc_step(x, f, [&](CubicState& c) { cubic_ack_seen(x, c, s, now); }, [] {});
}

// ECN at the sender (model/tcp_ecn.h; RFC 3168 6.1.2 as ns-3.44's TcpSocketBase::ReceivedAck
// and EnterCwr have it): an ACK of `ackno` carrying `ece`, before its own processing. DCTCP's
// estimator counts every ACK's newly acknowledged segments (RFC 8257 3.3, TcpDctcp::PktsAcked,
// called in CA_CWR too). Entering CWR: the congestion control's GetSsThresh (TcpNewReno: half
// the flight; CUBIC: beta, cubic_loss; DCTCP: (1 - alpha/2) cwnd) and cwnd = ssthresh
// (TcpClassicRecovery::EnterRecovery); no retransmission; the timer is left as it is. The
// window is then held until CWR ends (ecn_cwr_holds).
template <class X>
DS_HD DS_RARE void ecn_sender_ack(X DS_REF x, int f, TcpSender& s, int32_t ackno, bool ece,
                                  bool in_recovery, uint32_t now) {
  EcnFlow& e = x.ecns()[f];
  if (e.mode == kEcnOff) return;
  if (e.mode == kEcnDctcp && ackno > s.highest_ack)
    dctcp_pkts_acked(dctcp_ns3_defaults(), e.dctcp, ackno - s.highest_ack, ece, ackno + 1,
                     s.t_seqno);
  if (!ecn_should_reduce(e, ece, ackno, s.highest_ack, in_recovery)) return;
  if (e.mode == kEcnDctcp) {
    // TcpDctcp::GetSsThresh: (1 - alpha/2) m_cWnd, whole bytes (the window unrounded), with
    // no floor: below one segment the window sends nothing (ns-3's silly-window check in
    // SendPendingData) until the retransmission timer fires (ecn_keep_timer)
    const double ss = dctcp_ssthresh_pkts(e.dctcp, s.cwnd, s.flow.payload_bytes);
    s.ssthresh = (int32_t)ss;
    s.cwnd = ss;
  } else if (CubicState* c = cubic_of(x, f)) {
    cubic_loss(x, *c, s, false, now);
  } else {
    // the flight's top: maxseq, or after a timeout's go-back-N the last segment resent
    const double ss = ecn_newreno_ssthresh(s.t_seqno - 1 < s.maxseq ? s.t_seqno - 1 : s.maxseq,
                                           ackno);
    s.ssthresh = (int32_t)ss;
    s.cwnd = ss;
  }
  ecn_reduced(e, s.maxseq);
  if (x.measuring) x.out_flow_ecn_reductions()[f] += 1;
}

// A window below one segment (DCTCP's reduction has no floor) sends nothing, and ns-3's NewAck
// restarts the retransmission timer on every new ACK while the send buffer holds data (it
// stops it only when that is empty), so a flow with nothing in flight and such a window waits
// for the timer: after an ACK that stopped the timer (model/tcp_sender.h newack: nothing
// outstanding), it is started again. Only an ECN flow's window can be below one segment.
template <class X>
DS_HD DS_RARE void ecn_keep_timer(X DS_REF x, TcpSender& s, uint32_t now) {
  if (s.rto_due == kNeverSlot && s.cwnd < 1.0 && !s.finished && s.t_seqno < s.curseq)
    set_rtx_timer(x, s, now);
}

// The sender is in ns-3's CA_CWR (model/tcp_ecn.h): its new ACKs grow no window
// (TcpSocketBase::ProcessAck calls PktsAcked alone there) and its duplicate ACKs start no
// fast retransmit nor limited transmit (TcpSocketBase::DupAck acts in CA_DISORDER and
// CA_RECOVERY only). False without ECN.
template <class X>
DS_HD DS_INLINE bool ecn_cwr_holds(X DS_REF x, int f) {
  return DS_FEAT_NEW(x.hdr()->f_ecn) && x.ecns()[f].cwr;
}

// A flow's CUBIC state at its (or its transfer's) start.
template <class X>
DS_HD DS_INLINE void cubic_sender_init(X DS_REF x, int f, const TcpSender& s) {
  if (!DS_FEAT_NEW(x.hdr()->f_cubic)) return;
  const size_t i = x.iF(f);
  cubic_init(x.cubics()[f], x.in()->flow_cc[i] == kCcCubic ? 1 : 0, x.in()->flow_cubic_set[i],
             s.start_due);
}

// Hands one segment to the access link (TcpAgent::output()): sequence bookkeeping, RTT
// timing and the retransmission timer happen here, as in ns-2, when the segment enters the
// access link's queue; a full access buffer drops it on the spot (drop-tail).
template <class X>
DS_HD DS_HOST_INLINE void output(X DS_REF x, int f, TcpSender& s, int32_t seq, uint32_t now) {
  const bool rexmit = seq <= s.maxseq;
  if (!rexmit) {
    if (!s.rtt_active) {
      s.rtt_active = 1;
      if (seq > s.rtt_seq) {
        s.rtt_seq = seq;
        s.rtt_ts = now;
      }
    }
    s.maxseq = seq;
  }
  if (x.measuring) {
    x.out_flow_pkts_sent()[f] += 1;
    if (rexmit) x.out_flow_retransmits()[f] += 1;
  }
  if (s.rto_due == kNeverSlot) set_rtx_timer(x, s, now);
  const int32_t limit = s.flow.access_limit;
  const NicFifo fifo = x.nic_fifo(f, s);
  if (limit > 0 && fifo.size() >= limit) {
    // Counted here only: flow_drops belongs to the queue side, which may be behind this
    // sender's slot; flush_replica adds these to it (engine/team.h).
    if (x.measuring) x.out_flow_access_drops()[f] += 1;
    return;
  }
  if (DS_UNLIKELY(!access_push(fifo, seq, rexmit))) x.flag(kOvfNic);
}

// The edge classifier (batch.h Split): at a connection's start (a fixed flow's start, or a
// pool slot's transfer), random and size splits fix the connection's path. `size`: its
// packets (< 0: backlogged or telnet-like, i.e. unbounded). The random draw is Philox family
// kFamPath, component the flow slot, counter the connection's start slot: one draw per
// connection, no shared stream advanced (a slot's connections start at different slots).
template <class X>
DS_HD inline void pick_path(X DS_REF x, int f, TcpSender& s, int64_t size, uint32_t at) {
  const size_t i = x.iF(f);
  s.path2 = 0;
  if (x.in()->flow_n_hops2[i] == 0) return;
  const uint8_t split = x.in()->flow_split[i];
  if (split == kSplitRandom) {
    uint32_t ctr = at;
    s.path2 = draw_u01(x.seed(), kFamPath, (uint32_t)f, ctr) < 0.5 ? 1 : 0;
  } else if (split == kSplitSize) {
    s.path2 = (size < 0 || size >= (int64_t)x.in()->flow_split_pkts[i]) ? 1 : 0;
  }
}

// The path of segment `seq` as it leaves the access link: the connection's (random, size), or
// by its sequence number (lifetime: a retransmission of an early segment goes on path 1).
template <class X>
DS_HD DS_INLINE bool seg_on_path2(X DS_REF x, size_t i, const TcpSender& s, int32_t seq) {
  if (s.flow.n_hops2 == 0) return false;
  const uint8_t split = x.in()->flow_split[i];
  if (split == kSplitLifetime) return seq >= x.in()->flow_split_pkts[i];
  return split != kSplitNone && s.path2;
}

// The TCP-aware tag of the packets this sender starts on its access link now
// (model/marker_tcp_aware.h), for its first conditioner that reads one (its own domain's, else
// a later domain's): from its cwnd, smoothed RTT (ns-2's t_srtt_, in ticks << 3) and current
// RTO (with the backoff). 0 when neither of its conditioners reads a tag.
template <class X>
DS_HD DS_RARE uint8_t sender_tag(X DS_REF x, int f, const TcpSender& s) {
  const size_t i = x.iF(f);
  int m = x.in()->flow_marker[i];
  for (int k = 0; k < 2; ++k, m = x.in()->flow_marker2[i]) {
    if (m < 0) continue;
    const size_t im = x.iM(m);
    const uint8_t kind = x.in()->marker_kind[im];
    const int32_t sw_k = x.in()->marker_sw_k[im];
    if (kind != kMarkRttAware && kind != kMarkRttRto && sw_k <= 0) continue;
    const double srtt = (double)s.rtt.t_srtt / (double)(1 << kSrttBits) * x.rto().tick;
    const double rto = rto_slots(x.rto(), s.rtt, s.rtt.t_backoff);
    return tcp_aware_tag(kind, sw_k, x.in()->marker_ref_rtt[im], x.in()->marker_ref_rto[im], s.cwnd,
                         srtt, rto, x.in()->flow_base_rtt_slots[i]);
  }
  return 0;
}

// ns-2's SYN (syn_, TcpAgent::output() for seqno 0): a header-only packet of
// tcpip_base_hdr_size_ bytes (here the flow's header_bytes). Returns its size; its access link
// is free again after its own transmission time, not a data packet's.
template <class X>
DS_HD DS_RARE int32_t syn_sent(X DS_REF x, size_t i, TcpSender& s, double start) {
  const int32_t wire = x.in()->flow_wire_bytes[i];
  const int32_t hdr = wire - x.in()->flow_payload_bytes[i];
  if (s.nic.tx_slots > 0.0) s.nic.nic_free = start + s.nic.tx_slots * (double)hdr / (double)wire;
  return hdr;
}

struct SackSender;  // model/tcp_sack.h
DS_HD DS_INLINE bool sack_in_recovery(const SackSender& k);
template <class X>
DS_HD DS_SACK_CALL void sack_send_much(X DS_REF x, int f, TcpSender& s, SackSender& k, uint32_t now,
                                  bool force);

// TcpAgent::send_much(): new segments while the window allows; then the access link sends
// what it can this slot. With a send jitter (ns-2 overhead_ > 0), a send the window allows
// is not made at once: ns-2 arms its delayed-send timer for U(0, overhead_) and, when it
// fires (`force`), sends everything the window then allows. Retransmissions made by
// output() directly (fast retransmit, partial ACKs) are not delayed, as in ns-2; those after
// a timeout go through here and are. The burst starts on the access link at the timer's
// time within its slot, so jitter below one slot still shifts packets across slot bounds.
template <class X>
DS_HD inline void send_much(X DS_REF x, int f, TcpSender& s, uint32_t now, bool force) {
  if (s.start_due != kNeverSlot) return;
  const size_t i = x.iF(f);
  if (s.flow.variant == kSack && DS_FEAT(x.hdr()->f_sack)) {
    // SACK sends after each ACK itself (sack_recv_ack); here what a timeout, the delayed send
    // or a start opens. Outside fast recovery ns-2 sends nothing on a duplicate ACK.
    SackSender& k = x.sack_snds()[f];
    if (!s.finished && (force || s.dupacks == 0 || sack_in_recovery(k)))
      sack_send_much(x, f, s, k, now, force);
  } else if (!s.finished) {
    const int32_t wnd = s.flow.max_window;
    const double jitter = s.flow.send_jitter_slots;
    if (jitter > 0.0 && !force && s.delsnd_due == kNeverSlot &&
        s.t_seqno <= s.highest_ack + window(s, wnd) && s.t_seqno < s.curseq) {
      s.delsnd_at = (double)now + draw_u01(x.seed(), kFamJitter, (uint32_t)f, s.jit_ctr) * jitter;
      s.delsnd_due = (uint32_t)s.delsnd_at;
      force = s.delsnd_due == now;  // fires within this slot
      if (force) s.delsnd_due = kNeverSlot;
    }
    if (jitter <= 0.0 || force) {
      if (force && s.nic.nic_free < s.delsnd_at) s.nic.nic_free = s.delsnd_at;
      while (s.t_seqno <= s.highest_ack + window(s, wnd) && s.t_seqno < s.curseq) {
        output(x, f, s, s.t_seqno, now);
        s.t_seqno += 1;
      }
    }
  }
  const int32_t wire = s.flow.wire_bytes;
  const uint8_t cls = s.flow.cls;
  const uint8_t tag = DS_FEAT(x.hdr()->f_tcp_tag) ? (uint8_t)(sender_tag(x, f, s) << kHopTagShift) : 0;
  const uint8_t link1 = s.flow.link1;
  const uint8_t link2 = s.flow.link2;
  // ECN (model/tcp_ecn.h): the segment that carries CWR (-1: none; never without ECN)
  const int32_t cwr_seq = DS_FEAT_NEW(x.hdr()->f_ecn) ? x.ecns()[f].cwr_seq : -1;
  s.wake_due = access_transmit(s.nic, x.nic_fifo(f, s), now,
                               [&](int32_t seq, bool rexmit, double start) {
                                 Packet* p = x.emit_slot(now);
                                 if (!p) return;
                                 const bool two = seg_on_path2(x, i, s, seq);
                                 int32_t bytes = wire;
                                 if (seq == 0 && x.in()->flow_syn[i]) bytes = syn_sent(x, i, s, start);
                                 // ECN: the first new segment after a reduction carries CWR
                                 // (cwr_seq -1 without ECN: no sequence number matches; the
                                 // slim and classic kernels have no code for it)
                                 const uint8_t cwr =
                                     !DS_CLASSIC_BUILD && seq == cwr_seq && !rexmit ? kPktCwr : 0;
                                 put_packet(p, seq, sub_slot(start, now), (uint16_t)f,
                                            (uint16_t)bytes,
                                            (uint8_t)((two ? kHopPath2 : 0) | tag),
                                            (uint8_t)(cls | cwr),
                                            (uint8_t)((rexmit ? kPktRexmit : 0) |
                                                      (s.gen << kPktGenShift)),
                                            two ? link2 : link1);
                               });
}

// RenoTcpAgent::dupack_action() / NewRenoTcpAgent::dupack_action(): fast retransmit and
// enter fast recovery, unless bugFix_ forbids a second one within the same window.
// TcpFlow.rto_restart "new_ack" (flow_rto_new_ack): ns-3.44's timer, which the fast
// retransmit leaves running (TcpSocketBase::EnterRecovery sends through SendDataPacket, which
// schedules ReTxTimeout only when none is pending); only new ACKs restart it (NewAck).
template <class X>
DS_HD inline void dupack_action(X DS_REF x, int f, TcpSender& s, uint32_t now) {
  const size_t i = x.iF(f);
  const bool recovered = s.highest_ack > s.recover;
  const bool reno = s.flow.variant == kReno;
  const bool allow = reno && s.last_cwnd_action == kActDupack;
  if (!(recovered || !x.in()->flow_bugfix[i] || allow || s.highest_ack == 0)) return;
  s.recover = s.maxseq;
  s.last_cwnd_action = kActDupack;
  cc_slowdown(x, f, s, false, now);
  // reset_rtx_timer(1, 0): mild, no backoff (not with rto_restart "new_ack")
  if (!x.in()->flow_rto_new_ack[i]) set_rtx_timer(x, s, now);
  s.rtt_active = 0;
  if (x.measuring) x.out_flow_fast_retransmits()[f] += 1;
  output(x, f, s, s.highest_ack + 1, now);  // from the top of the window
  s.dupwnd = kNumDupacks;
}

// TcpAgent::newack() + the timer reset of newtimer(): slide the window, take an RTT sample
// (Karn: only for a segment timed before any retransmission), restart or stop the timer.
template <class X>
DS_HD DS_HOST_INLINE void newack(X DS_REF x, int f, TcpSender& s, int32_t ackno, uint32_t now) {
  s.dupacks = 0;
  if (DS_FEAT(x.hdr()->f_app) && x.in()->flow_app_iat_slots[x.iF(f)] != 0.0)
    recv_app_delays(x, f, s, ackno, now);
  s.highest_ack = ackno;
  if (s.t_seqno < ackno + 1) s.t_seqno = ackno + 1;
  if (s.rtt_active && ackno >= s.rtt_seq) {
    s.rtt.t_backoff = 1;  // rtt_sample refreshes the RTO
    s.rtt_active = 0;
    const double tao = (double)(now - s.rtt_ts);
    rtt_sample(x.rto(), s.rtt, tao);
    if (x.measuring) {
      x.out_flow_rtt_samples()[f] += 1;
      x.out_flow_rtt_sum_slots()[f] += tao;
      x.out_flow_rto_sum_slots()[f] += rto_slots(x.rto(), s.rtt, 1);
    }
  }
  if (s.maxseq > ackno)
    set_rtx_timer(x, s, now);
  else
    s.rto_due = kNeverSlot;
}

template <class X>
DS_HD inline void check_finished(X DS_REF x, int f, TcpSender& s, uint32_t now) {
  if (s.finished || s.curseq == INT32_MAX) return;  // (a backlogged flow never finishes)
  // an interactive application ends only when it has written a finite session's last segment
  if (DS_FEAT(x.hdr()->f_app) && x.in()->flow_app_iat_slots[x.iF(f)] != 0.0 &&
      (x.in()->flow_size_pkts[x.iF(f)] < 0 || s.curseq < x.in()->flow_size_pkts[x.iF(f)]))
    return;
  if (s.highest_ack >= s.curseq - 1) {
    s.finished = 1;
    s.rto_due = kNeverSlot;
    x.out_flow_finish_slot()[f] = (int64_t)now;
  }
}

// An ACK reaches the sender (RenoTcpAgent::recv / NewRenoTcpAgent::recv). kCubic: the
// replica has CUBIC or ECN flows (f_cubic, f_ecn: ns-3's congestion controls, DCTCP's among
// them; the caller tests it once per flow event), so that a replica without them runs ns-2's
// code alone (benchmarks/cpu/ab.py: a test per ACK inside
// cost the 1-flow case ~4%).
template <bool kCubic, class X>
DS_HD inline void recv_ack(X DS_REF x, int f, TcpSender& s, int32_t ackno, uint32_t now) {
  const size_t i = x.iF(f);
  const bool newreno = s.flow.variant == kNewReno;
  if (ackno > s.highest_ack) {
    if (newreno && s.last_cwnd_action == kActDupack && ackno < s.recover) {
      if (kCubic) cc_ack_seen(x, f, s, now);  // (ns-3: PktsAcked(1) on a partial ACK)
      newreno_partial_ack(x.rto(), s, ackno);
      // NewRenoTcpAgent::partialnewack_helper with ns-2.35's default newreno_changes1_ 1:
      // only the first partial ACK of a recovery restarts the retransmission timer, "so
      // that, in the worst case, we don't have to wait for one packet retransmitted per
      // RTT" (a long recovery ends in a timeout instead); ns-3.44 the same (ProcessAck:
      // NewAck(ackNumber, m_isFirstPartialAck)), so rto_restart changes nothing here
      if (!s.first_partial) {
        s.first_partial = 1;
        set_rtx_timer(x, s, now);
      }
      output(x, f, s, ackno + 1, now);
      return;
    }
    s.first_partial = 0;
    // The full ACK that ends fast recovery deflates the window by dropping dupwnd and keeps
    // cwnd: half the window from slowdown(), less any partial ACK's deflation past dupwnd.
    // NewRenoTcpAgent::recv() sets cwnd_ again only with exit_recovery_fix_, 0 in ns-2.35
    // (tcp-newreno.cc), so RFC 6582's "cwnd = ssthresh" (3.2 step 6) is not done; Reno's
    // recv() keeps cwnd_ too. ns-3's congestion controls (CUBIC, DCTCP) end it as ns-3.44's
    // TcpClassicRecovery::ExitRecovery does, cwnd = ssthresh (a test at each recovery's end).
    const bool exited = s.last_cwnd_action == kActDupack;  // this ACK ends a fast recovery
    if (exited) {
      s.last_cwnd_action = kActExited;
      if (newreno && x.in()->flow_cc[i] != kCcNewReno) s.cwnd = (double)s.ssthresh;
    }
    s.dupwnd = 0;
    const int32_t acked = ackno - s.highest_ack;
    newack(x, f, s, ackno, now);
    if (ecn_cwr_holds(x, f)) {
      if (kCubic) cc_ack_seen(x, f, s, now);  // ECN's CWR: PktsAcked, the window held
    } else if (kCubic) {
      CubicState* c = exited ? cubic_of(x, f) : nullptr;
      if (c) {  // ns-3: PktsAcked, then IncreaseWindow with the whole advance
        cubic_ack_seen(x, *c, s, now);
        cubic_recovery_exit(x, *c, s, acked, now);
      } else if (DctcpState* d = exited ? dctcp_of(x, f) : nullptr) {
        dctcp_increase(s, *d, acked);  // DCTCP: the same IncreaseWindow (cc_recovery_exit's)
      } else {
        cc_opencwnd(x, f, s, acked, now);
      }
    } else {
      opencwnd(s, s.flow.max_window);
    }
    check_finished(x, f, s, now);
    // ns-2 delay_growth_ (tcp.cc / tcp-reno.cc / tcp-newreno.cc recv(), after
    // recv_newack_helper): `if (last_ack_ == 0 && delay_growth_) cwnd_ = initial_window();`
    // the ACK of seq 0 (the SYN's, or without syn_ the first data packet's) does not grow cwnd.
    if (ackno == 0 && x.in()->flow_delay_growth[i])
      s.cwnd = s.iw_one ? 1.0 : (double)x.in()->flow_init_window[i];
  } else if (ackno == s.highest_ack) {
    if (ecn_cwr_holds(x, f)) return;  // ECN's CWR: a duplicate ACK does nothing (ns-3 DupAck)
    if (kCubic) cc_ack_seen(x, f, s, now);  // (ns-3: PktsAcked(1) on a duplicate ACK)
    s.dupacks += 1;
    // ns-2.35's exitFastRetrans_ (default true, ns-default.tcl): the window is inflated only
    // in a fast recovery that a fast retransmit opened (dupack_action sets dupwnd then);
    // duplicate ACKs that bugFix_ keeps from a fast retransmit (after a timeout, or within
    // the window of the last recovery) inflate nothing
    if (s.dupacks == kNumDupacks) {
      dupack_action(x, f, s, now);
    } else if (s.dupacks > kNumDupacks) {
      if (s.last_cwnd_action == kActDupack) s.dupwnd += 1;  // each further dupack: a segment left
    } else if (x.in()->flow_limited_transmit[i]) {
      // Limited transmit (RFC 3042; ns-2 singledup_ and TcpAgent::send_one()): on the first
      // and second duplicate ACK, one new segment if the receiver's window and cwnd plus the
      // duplicate ACKs allow it, so that a small window can still reach three dupacks.
      const int32_t wnd = s.flow.max_window;
      if (s.t_seqno <= s.highest_ack + wnd && s.t_seqno < s.curseq &&
          s.t_seqno <= s.highest_ack + (int32_t)s.cwnd + s.dupacks) {
        output(x, f, s, s.t_seqno, now);
        s.t_seqno += 1;
      }
    }
  }
}

// TcpAgent::timeout() for the retransmission timer, with RenoTcpAgent::timeout()'s reset.
template <class X>
DS_HD inline void rto_fire(X DS_REF x, int f, TcpSender& s, uint32_t now) {
  s.rto_due = kNeverSlot;
  s.dupwnd = 0;
  s.dupacks = 0;
  // ECN: a window below one segment waited for this timer (ecn_keep_timer), which ns-3
  // counts as a timeout (ReTxTimeout, CA_LOSS) though nothing is outstanding
  const bool ecn_wait = DS_FEAT_NEW(x.hdr()->f_ecn) && s.cwnd < 1.0;
  if (s.cwnd < 1.0) s.cwnd = 1.0;
  bool backoff = true;
  s.recover = s.maxseq;
  if (s.highest_ack == s.maxseq) {
    // Nothing outstanding (restart_bugfix_): restart from one segment, keep ssthresh.
    if (x.measuring && ecn_wait) x.out_flow_timeouts()[f] += 1;
    s.cwnd = 1.0;
    backoff = false;
  } else {
    if (x.measuring) x.out_flow_timeouts()[f] += 1;
    // ns-2 bugfix_ss_ (default 1): "First packet dropped, so don't use larger initial
    // windows": wnd_init_ = 1 (only delay_growth reads the initial window again)
    if (s.highest_ack == -1) s.iw_one = 1;
    cc_slowdown(x, f, s, true, now);
  }
  if (backoff) rtt_backoff(x.rto(), s.rtt);
  set_rtx_timer(x, s, now);
  s.t_seqno = s.highest_ack + 1;  // go-back-N
  s.rtt_active = 0;
  s.last_cwnd_action = kActTimeout;
}

// A telnet-like application (ns-2 Application/Telnet): it hands TCP one segment after each gap
// (exponential, or tcplib's telnet distribution: model/app_telnet.h); each goes out as soon as
// the window allows.
// A session of size_pkts segments (>= 0) stops writing after the last one.
template <class X>
DS_HD DS_INLINE void app_writes(X DS_REF x, int f, TcpSender& s, uint32_t now) {
  const size_t i = x.iF(f);
  const double iat = x.in()->flow_app_iat_slots[i];
  const int64_t size = x.in()->flow_size_pkts[i];
  SenderExt& e = x.sx(f);
  while (e.app_next < (double)now + 1.0) {
    s.curseq += 1;
    e.app_next += telnet_gap_slots(iat, draw_u01(x.seed(), kFamApp, (uint32_t)f, e.app_ctr));
    if (size >= 0 && s.curseq >= size) {
      e.app_next = 1e300;
      break;
    }
  }
}

// Segments highest_ack + 1 .. ackno of a telnet-like application are delivered: each one's
// delay from its write to its delivery at the receiver is (now - loop + 1) + (the constant delays
// after the last link and the access delay, added on the host) - its write time, since the
// ACK left the receiver when the segment was delivered and took the loop delay back
// (docs/model.md, "Telnet"). The write times are replayed from the application's own draws.
template <class X>
DS_HD DS_RARE void recv_app_delays(X DS_REF x, int f, const TcpSender& s, int32_t ackno,
                                   uint32_t now) {
  const size_t i = x.iF(f);
  const double iat = x.in()->flow_app_iat_slots[i];
  SenderExt& e = x.sx(f);
  // the segment left the last link in slot now - loop: delivered at that slot's end, as a
  // transfer's last packet (engine/traffic.h)
  const double dep = (double)now - (double)x.in()->flow_loop_slots[i] + 1.0;
  for (int32_t k = s.highest_ack + 1; k <= ackno; ++k) {
    if (x.measuring) {
      x.out_flow_app_delay_sum_slots()[f] += dep - e.ack_w;
      x.out_flow_app_delivered()[f] += 1;
    }
    e.ack_w += telnet_gap_slots(iat, draw_u01(x.seed(), kFamApp, (uint32_t)f, e.ack_ctr));
  }
}

// Sequence numbers before the data: 1 with syn_ (the SYN is seq 0; ns-2: curseq_ += 1 on the
// first SYN), else 0.
template <class X>
DS_HD DS_INLINE int32_t syn_seqs(X DS_REF x, size_t i) {
  return x.in()->flow_syn[i] ? 1 : 0;
}

template <class X>
DS_HD inline void sender_init(X DS_REF x, int f, TcpSender& s) {
  const size_t i = x.iF(f);
  FlowInputs& c = s.flow;
  c.send_jitter_slots = x.in()->flow_send_jitter_slots[i];
  c.max_window = x.in()->flow_max_window[i];
  c.access_limit = x.in()->flow_access_limit[i];
  c.loop_slots = x.in()->flow_loop_slots[i];
  c.wire_bytes = (uint16_t)x.in()->flow_wire_bytes[i];
  c.payload_bytes = (uint16_t)x.in()->flow_payload_bytes[i];
  c.cls = x.in()->flow_cls[i];
  c.link1 = (uint8_t)x.in()->flow_route[i * kMaxHops];
  c.link2 = (uint8_t)x.in()->flow_route2[i * kMaxHops];
  c.n_hops1 = (uint8_t)x.in()->flow_n_hops[i];
  c.n_hops2 = (uint8_t)x.in()->flow_n_hops2[i];
  c.variant = x.in()->flow_variant[i];
  c.delack = x.in()->flow_delack[i] ? 1 : 0;
  c.has_drops = flow_has_injected_drops(*x.in(), i) ? 1 : 0;
  // TcpAgent::set_initial_window(): with syn_ and delay_growth_ the SYN goes alone (cwnd 1);
  // else the initial window (with syn_ alone, ns-2 sends the SYN and data at once).
  const bool syn = x.in()->flow_syn[i];
  s.cwnd = syn && x.in()->flow_delay_growth[i] ? 1.0 : (double)x.in()->flow_init_window[i];
  rtt_init(x.rto(), s.rtt, x.in()->init_rto_slots[x.iR()]);
  access_init(s.nic, x.in()->flow_pace_bytes_per_slot[i], x.in()->flow_wire_bytes[i]);
  // No threshold until the first loss unless one is given (ns-2's settable ssthresh_).
  const int32_t ss0 = x.in()->flow_init_ssthresh[i];
  s.ssthresh = ss0 > 0 ? ss0 : INT32_MAX;
  s.dupwnd = 0;
  s.dupacks = 0;
  s.t_seqno = 0;
  s.highest_ack = -1;
  s.maxseq = -1;
  s.recover = -1;
  const int64_t size = x.in()->flow_size_pkts[i];
  s.curseq = size < 0 ? INT32_MAX : (int32_t)size + syn_seqs(x, i);
  const double iat = x.in()->flow_app_iat_slots[i];
  if (x.shape().flow_ext) {  // else plain TCP: no application state (engine/replica.h)
    SenderExt& e = x.sx(f);
    e.app_ctr = 0;
    e.app_next = 1e300;  // no application writes (bulk data)
    e.ack_w = 0.0;
    e.ack_ctr = 0;
    if (iat != 0.0) {  // telnet-like: nothing to send until the application writes
      s.curseq = 0;
      e.app_next = (double)x.in()->flow_start_slot[i] +
                   telnet_gap_slots(iat, draw_u01(x.seed(), kFamApp, (uint32_t)f, e.app_ctr));
      e.ack_w = e.app_next;  // segment 0's write; the cursor replays the same draws
      e.ack_ctr = e.app_ctr;
    }
  }
  s.rtt_seq = -1;
  s.rtt_ts = 0;
  s.rto_due = kNeverSlot;
  s.wake_due = kNeverSlot;
  s.start_due = (uint32_t)x.in()->flow_start_slot[i];
  s.delsnd_due = kNeverSlot;
  s.delsnd_at = 0.0;
  s.jit_ctr = 0;
  s.ack_first = -1;
  s.ack_last = -1;
  s.last_cwnd_action = kActNone;
  s.rtt_active = 0;
  s.finished = 0;
  s.gen = 0;
  s.iw_one = 0;
  s.first_partial = 0;
  pick_path(x, f, s, iat != 0.0 ? -1 : size, s.start_due);
  x.out_flow_finish_slot()[f] = -1;
}

}  // namespace ds
