// TCP SACK as ns-2.35 runs it: the sender Agent/TCP/Sack1 (tcp-sack1.cc) with its
// reassembly-queue scoreboard (ScoreBoardRQ, scoreboard-rq.cc over rq.cc), and the SACK sink
// Agent/TCPSink/Sack1 (tcp-sink.cc, Sacker::append_ack) with maxSackBlocks_ 3, no D-SACK.
// ns-2.35's defaults: partial_ack_ false, bugFix_ true, bugfix_ss_ 1, LimTransmitFix_ false,
// oldCode_ false, aggressive_maxburst_ 1, maxburst_ 0, sfrto_enabled_ 0 (docs/model.md, "SACK").
//
// SACK is a rare model (engine/features.h, f_sack): its state lives apart from TcpSender and
// TcpReceiver (SackSender, SackReceiver, and the SACK blocks of each ACK in flight, SackBlocks,
// beside the ACK pool), kept only when a replica of the batch has a SACK flow
// (BatchShape::sack_states), so that Reno and NewReno replicas neither carry it nor run its code;
// the slim CUDA kernel has none of it (DS_FEAT).
#pragma once
#include <cstdint>

#include "../core/hd.h"
#include "tcp_sender.h"

namespace ds {

constexpr int kSackBlocks = 3;       // the sink's maxSackBlocks_ (ns-default.tcl)
constexpr int kScoreboardMax = 16;   // scoreboard intervals kept per sender (ns-2: unbounded)

// The SACK blocks an ACK carries, most recent first as the sink writes them: [left, right)
// in segment numbers (RFC 2018 edges, ns-2's sa_left / sa_right).
struct SackBlocks {
  int32_t left[kSackBlocks];
  int32_t right[kSackBlocks];
  int32_t n;
  int32_t pad;
};
static_assert(sizeof(SackBlocks) == 32, "SackBlocks: 32 bytes per ACK in flight");

// Sack1TcpAgent's own state beside TcpSender's (whose highest_ack is ns-2's highest_ack_,
// updated by partial ACKs; last_ack_ moves only outside fast recovery).
struct SackSender {
  // ScoreBoardRQ: the SACKed intervals [l, r), sorted, disjoint, never adjacent (rq.cc merges
  // them); total: the segments they cover (rq_.total())
  int32_t sb_l[kScoreboardMax];
  int32_t sb_r[kScoreboardMax];
  int32_t sb_n;
  int32_t sb_total;
  int32_t h_seqno;    // h_seqno_: where the next retransmission search starts
  int32_t sack_min;   // sack_min: cumulative ACK + 1 at the last update
  int32_t pipe;       // pipe_: segments estimated in flight during fast recovery
  int32_t last_ack;   // last_ack_
  uint8_t fastrecov;  // fastrecov_
  uint8_t timeout;    // timeout_: no duplicate ACK counts until a new ACK after a timeout
  uint8_t changed;    // the scoreboard's changed_ (CheckUpdate)
  uint8_t pad;
};

// The SACK sink's state beside TcpReceiver: the highest segment seen and its stack of the most
// recent blocks (SackStack of maxSackBlocks_ entries, most recent on top).
struct SackReceiver {
  int32_t maxseen;  // maxseen_ (-1: none)
  int32_t st_n;
  int32_t st_l[kSackBlocks];
  int32_t st_r[kSackBlocks];
  uint32_t rexmit_lost;  // validation hook: the injected drops (flow_drop_seq entries) whose
                         // retransmission was lost (engine/queue_side.h, hook_lost)
};

DS_HD DS_INLINE bool sack_in_recovery(const SackSender& k) { return k.fastrecov != 0; }

// ---------------------------------------------------------------- the scoreboard (sender)

DS_HD inline void sb_clear(SackSender& k) {  // ClearScoreBoard(): sack_min stays
  k.sb_n = 0;
  k.sb_total = 0;
  k.h_seqno = -1;
}

// rq_.add(l, r): the union with [l, r); a new interval past the capacity drops the highest
// one (its segments are reported again by later ACKs while they stay above a hole).
DS_HD inline void sb_add(SackSender& k, int32_t l, int32_t r) {
  if (r <= l) return;
  int a = 0;  // the first interval that ends at or after l (may touch [l, r))
  while (a < k.sb_n && k.sb_r[a] < l) ++a;
  int b = a;  // past the last interval that starts at or before r
  while (b < k.sb_n && k.sb_l[b] <= r) ++b;
  if (b > a) {  // merge [a, b) with [l, r) into slot a
    int32_t nl = k.sb_l[a] < l ? k.sb_l[a] : l;
    int32_t nr = k.sb_r[b - 1] > r ? k.sb_r[b - 1] : r;
    for (int j = a; j < b; ++j) k.sb_total -= k.sb_r[j] - k.sb_l[j];
    k.sb_l[a] = nl;
    k.sb_r[a] = nr;
    k.sb_total += nr - nl;
    const int gone = b - a - 1;
    if (gone > 0) {
      for (int j = a + 1; j + gone < k.sb_n; ++j) {
        k.sb_l[j] = k.sb_l[j + gone];
        k.sb_r[j] = k.sb_r[j + gone];
      }
      k.sb_n -= gone;
    }
    return;
  }
  if (k.sb_n == kScoreboardMax) {
    if (a == kScoreboardMax) return;  // above everything kept: forgotten
    k.sb_n -= 1;                      // the highest interval makes room
    k.sb_total -= k.sb_r[k.sb_n] - k.sb_l[k.sb_n];
  }
  for (int j = k.sb_n; j > a; --j) {
    k.sb_l[j] = k.sb_l[j - 1];
    k.sb_r[j] = k.sb_r[j - 1];
  }
  k.sb_l[a] = l;
  k.sb_r[a] = r;
  k.sb_n += 1;
  k.sb_total += r - l;
}

// rq_.clearto(seq): drop what lies below seq, trim an interval that straddles it.
DS_HD inline void sb_clear_to(SackSender& k, int32_t seq) {
  int a = 0;
  while (a < k.sb_n && k.sb_r[a] <= seq) {
    k.sb_total -= k.sb_r[a] - k.sb_l[a];
    ++a;
  }
  if (a > 0) {
    for (int j = 0; j + a < k.sb_n; ++j) {
      k.sb_l[j] = k.sb_l[j + a];
      k.sb_r[j] = k.sb_r[j + a];
    }
    k.sb_n -= a;
  }
  if (k.sb_n > 0 && k.sb_l[0] <= seq) {
    k.sb_total -= seq - k.sb_l[0];
    k.sb_l[0] = seq;
  }
}

// ScoreBoardRQ::UpdateScoreBoard(last_ack, tcph): changed when the cumulative ACK cleared
// intervals or the blocks covered new segments.
DS_HD inline void sb_update(SackSender& k, int32_t last_ack, const SackBlocks& b) {
  const int32_t old_total = k.sb_total;
  k.changed = 0;
  if (k.sack_min <= last_ack) {
    k.sack_min = last_ack + 1;
    if (k.sb_n > 0) {
      sb_clear_to(k, k.sack_min);
      k.changed = 1;
    }
  }
  for (int j = 0; j < b.n; ++j) sb_add(k, b.left[j], b.right[j]);
  if (old_total != k.sb_total) k.changed = 1;
}

// rq_.nexthole(seq): seq itself if no interval covers it, else the end of the interval that
// does (or touches it); `above`: whether an interval lies beyond that hole.
DS_HD inline int32_t sb_next_hole(const SackSender& k, int32_t seq, bool& above) {
  above = false;
  for (int j = 0; j < k.sb_n; ++j) {
    if (k.sb_l[j] > seq) {
      above = true;
      return seq;
    }
    if (k.sb_r[j] >= seq) {
      above = j + 1 < k.sb_n;
      return k.sb_r[j];
    }
  }
  return -1;
}

// ScoreBoardRQ::GetNextRetran(): the lowest hole not yet retransmitted in this recovery with
// a SACKed interval above it; -1: none.
DS_HD inline int32_t sb_next_retran(SackSender& k) {
  if (k.h_seqno < k.sack_min) k.h_seqno = k.sack_min;
  bool above;
  const int32_t seq = sb_next_hole(k, k.h_seqno, above);
  if (seq <= 0 || !above) return -1;
  if (seq > k.h_seqno) k.h_seqno = seq;
  return seq;
}

DS_HD DS_INLINE void sb_mark_retran(SackSender& k, int32_t seq) {  // MarkRetran()
  if (seq >= k.h_seqno) k.h_seqno = seq + 1;
}

// ---------------------------------------------------------------- the sink

// Sacker::append_ack(): the blocks of the ACK for segment `seq` (just accepted; rcv_next is
// the receiver's next expected segment, bits its out-of-order bitmap). The first block holds
// the segment just received (none when it was in order), then the blocks of earlier ACKs from
// the stack that it does not cover; it is pushed on the stack.
template <class Seen>
DS_HD inline void sack_sink_blocks(SackReceiver& k, int32_t seq, int32_t rcv_next, Seen seen,
                                   SackBlocks& out) {
  out.n = 0;
  const int32_t cum = rcv_next - 1;  // Seqno(): the last in-order segment
  if (seq > k.maxseen) k.maxseen = seq;
  if (cum >= k.maxseen) {  // nothing out of order: the stack is emptied
    k.st_n = 0;
    return;
  }
  int32_t right = -1;
  for (int32_t i = seq; i <= k.maxseen; ++i)
    if (!seen(i)) {
      right = i;
      break;
    }
  if (right == -1) right = k.maxseen + 1;
  int32_t left = 0;  // an in-order (or old) segment records no block of its own
  if (seq > cum) {
    for (int32_t i = right - 1; i > cum; --i)
      if (!seen(i)) {
        left = i + 1;
        break;
      }
    out.left[0] = left;
    out.right[0] = right;
    out.n = 1;
  }
  int j = 0;
  while (out.n < kSackBlocks && j < k.st_n) {
    const int32_t l = k.st_l[j], r = k.st_r[j];
    if (r > k.maxseen + 1) break;
    if (left <= l && right >= r) {  // covered by the newest block: popped
      for (int m = j; m + 1 < k.st_n; ++m) {
        k.st_l[m] = k.st_l[m + 1];
        k.st_r[m] = k.st_r[m + 1];
      }
      k.st_n -= 1;
      continue;
    }
    out.left[out.n] = l;
    out.right[out.n] = r;
    out.n += 1;
    ++j;
  }
  if (seq > cum) {  // the newest block goes on top; a full stack loses its bottom entry
    if (k.st_n >= kSackBlocks) k.st_n = kSackBlocks - 1;
    for (int m = k.st_n; m > 0; --m) {
      k.st_l[m] = k.st_l[m - 1];
      k.st_r[m] = k.st_r[m - 1];
    }
    k.st_l[0] = left;
    k.st_r[0] = right;
    k.st_n += 1;
  }
}

DS_HD inline void sack_receiver_init(SackReceiver& k) {
  k.maxseen = -1;
  k.st_n = 0;
  k.rexmit_lost = 0;
}

DS_HD inline void sack_sender_init(SackSender& k) {
  sb_clear(k);
  k.sack_min = -1;
  k.pipe = -1;
  k.last_ack = -1;
  k.fastrecov = 0;
  k.timeout = 0;
  k.changed = 0;
  k.pad = 0;
}

// ---------------------------------------------------------------- the sender

// Sack1TcpAgent::send_much(): outside fast recovery new segments while the window allows;
// in it, while pipe_ < cwnd_, the scoreboard's next hole, else new data within the receiver's
// window of highest_ack_. With a send jitter (ns-2 overhead_) the send is held as in
// send_much (model/tcp_sender.h).
template <class X>
DS_HD DS_SACK_CALL void sack_send_much(X DS_REF x, int f, TcpSender& s, SackSender& k, uint32_t now,
                                  bool force) {
  if (!force && s.delsnd_due != kNeverSlot) return;  // the delayed send is pending
  const int32_t wnd = s.flow.max_window;
  const double jitter = s.flow.send_jitter_slots;
  if (force && s.nic.nic_free < s.delsnd_at) s.nic.nic_free = s.delsnd_at;
  int32_t win = window(s, wnd);
  bool found = true;
  while (((!k.fastrecov && s.t_seqno <= k.last_ack + win) ||
          (k.fastrecov && k.pipe < (int32_t)s.cwnd)) &&
         k.last_ack + 1 < s.curseq && found) {
    if (jitter > 0.0 && !force) {
      s.delsnd_at = (double)now + draw_u01(x.seed(), kFamJitter, (uint32_t)f, s.jit_ctr) * jitter;
      s.delsnd_due = (uint32_t)s.delsnd_at;
      if (s.delsnd_due != now) return;
      s.delsnd_due = kNeverSlot;  // fires within this slot: sent now, from its time on
      force = true;
      if (s.nic.nic_free < s.delsnd_at) s.nic.nic_free = s.delsnd_at;
    }
    found = false;
    int32_t seq = sb_next_retran(k);
    if (seq == -1) {
      if ((!k.fastrecov && s.t_seqno <= s.highest_ack + win) ||
          (k.fastrecov && s.t_seqno <= s.highest_ack + wnd)) {
        if (s.t_seqno < s.curseq) {
          found = true;
          seq = s.t_seqno++;
        }
      }
    } else if (s.recover > 0 && seq <= s.highest_ack + wnd) {
      found = true;
      sb_mark_retran(k, seq);
      win = window(s, wnd);
    }
    if (found) {
      output(x, f, s, seq, now);
      if (s.t_seqno <= seq) s.t_seqno = seq + 1;
      k.pipe += 1;
    }
  }
}

// TcpFlow.ssthresh_from "flight": ns-3.44's reduction at a fast retransmit instead of ns-2's
// half window (TcpSocketBase::EnterRecovery: ssthresh = TcpNewReno::GetSsThresh(BytesInFlight)
// = max(2 segments, BytesInFlight / 2), then TcpClassicRecovery's cwnd = ssthresh).
// BytesInFlight is RFC 6675's pipe with the head marked lost (EnterRecovery's MarkHeadAsLost):
// here pipe_ at entry (maxseq_ - highest_ack_ - the 3 duplicate ACKs' SACKed segments) less
// that head. ns-3 halves bytes, so a half segment stays in cwnd (ssthresh is whole segments).
DS_HD DS_INLINE void sack_flight_ssthresh(TcpSender& s, const SackSender& k) {
  double half = 0.5 * (double)(k.pipe - 1);
  if (half < 2.0) half = 2.0;
  s.ssthresh = (int32_t)half;
  s.cwnd = half;
}

// Sack1TcpAgent::dupack_action(): fast retransmit and enter fast recovery with
// pipe_ = maxseq_ - highest_ack_ - numdupacks_, unless bugFix_ forbids a second one before
// the ACKs pass recover_ (or, with bugfix_ss_, the first segment was lost).
// TcpFlow.rto_restart "new_ack": ns-3.44's timer runs on (TcpSocketBase::EnterRecovery's
// SendDataPacket schedules one only when none is pending), and of the recovery's partial ACKs
// only the first restarts it (first_partial, unused by SACK otherwise: sack_recv_ack).
template <class X>
DS_HD inline void sack_dupack_action(X DS_REF x, int f, TcpSender& s, SackSender& k, uint32_t now) {
  const bool recovered = s.highest_ack > s.recover;
  if (!(recovered || !x.in()->flow_bugfix[x.iF(f)] || s.highest_ack == 0)) return;
  s.recover = s.maxseq;
  k.pipe = s.maxseq - s.highest_ack - kNumDupacks;
  if (x.in()->flow_rto_new_ack[x.iF(f)])
    s.first_partial = 0;
  else
    set_rtx_timer(x, s, now);  // reset_rtx_timer(1, 0)
  s.rtt_active = 0;
  k.fastrecov = 1;
  sb_mark_retran(k, s.highest_ack + 1);
  s.last_cwnd_action = kActDupack;
  cc_slowdown(x, f, s, false, now);
  if (x.in()->flow_ssthresh_flight[x.iF(f)] && x.in()->flow_cc[x.iF(f)] == kCcNewReno)
    sack_flight_ssthresh(s, k);
  if (x.measuring) x.out_flow_fast_retransmits()[f] += 1;
  output(x, f, s, k.last_ack + 1, now);
}

// Sack1TcpAgent::recv(): an ACK with its SACK blocks. Sends what it opens at once, as ns-2
// does after each ACK (the scoreboard chooses what to retransmit ACK by ACK).
template <class X>
DS_HD DS_SACK_CALL void sack_recv_ack(X DS_REF x, int f, TcpSender& s, SackSender& k, int32_t ackno,
                                 const SackBlocks& b, uint32_t now) {
  const size_t i = x.iF(f);
  if (!k.fastrecov) {
    if (ackno > k.last_ack) {  // recv_newack_helper(): a new ACK outside fast recovery
      const int32_t acked = ackno - s.highest_ack;
      newack(x, f, s, ackno, now);
      k.last_ack = ackno;
      if (!ecn_cwr_holds(x, f))  // (ECN's CWR holds the window: model/tcp_sender.h)
        cc_opencwnd(x, f, s, acked, now);
      else
        cc_ack_seen(x, f, s, now);
      check_finished(x, f, s, now);
      k.timeout = 0;
      sb_clear(k);
      if (ackno == 0 && x.in()->flow_delay_growth[i])
        s.cwnd = s.iw_one ? 1.0 : (double)x.in()->flow_init_window[i];
    } else if (ackno == k.last_ack && !k.timeout) {
      if (!ecn_cwr_holds(x, f)) cc_ack_seen(x, f, s, now);  // (ns-3: PktsAcked(1) on a duplicate ACK)
      sb_update(k, s.highest_ack, b);
      // a duplicate ACK counts only when its blocks tell something new (and not in ECN's
      // CWR, where ns-3.44's DupAck starts no recovery: model/tcp_sender.h ecn_cwr_holds)
      if (k.changed && !ecn_cwr_holds(x, f)) {
        s.dupacks += 1;
        if (s.dupacks == kNumDupacks) {
          sack_dupack_action(x, f, s, k, now);
        } else if (s.dupacks < kNumDupacks && x.in()->flow_limited_transmit[i]) {
          // TcpAgent::send_one() (singledup_, limited transmit)
          if (s.t_seqno <= s.highest_ack + s.flow.max_window && s.t_seqno < s.curseq &&
              s.t_seqno <= s.highest_ack + (int32_t)s.cwnd + s.dupacks) {
            output(x, f, s, s.t_seqno, now);
            s.t_seqno += 1;
          }
        }
      }
    }
    if (s.dupacks == 0) sack_send_much(x, f, s, k, now, false);
    return;
  }
  k.pipe -= 1;
  cc_ack_seen(x, f, s, now);  // (ns-3: PktsAcked on each ACK of a recovery)
  if (ackno >= s.recover) {  // the recovery is over: cwnd stays at half the window
    const int32_t acked = ackno - s.highest_ack;
    s.recover = 0;
    k.fastrecov = 0;
    newack(x, f, s, ackno, now);
    k.last_ack = ackno;
    // CUBIC: ns-3's IncreaseWindow with the whole advance (model/tcp_sender.h
    // cubic_recovery_exit); ns-2's NewReno grows nothing on this ACK. ECN's CWR holds the window.
    if (!ecn_cwr_holds(x, f)) cc_recovery_exit(x, f, s, acked, now);
    check_finished(x, f, s, now);
    k.timeout = 0;
    sb_clear(k);
  } else if (ackno > s.highest_ack) {
    // a partial ACK (partial_ack_ false): one more segment has left the pipe, the timer
    // restarts (newtimer()) and its backoff ends; with rto_restart "new_ack" the timer
    // restarts at the recovery's first partial ACK only, as ns-3.44's ProcessAck does
    // (NewAck(ackNumber, m_isFirstPartialAck)), and otherwise runs on (it runs whenever data
    // is outstanding: output() arms it, newack() stops it only when none is)
    s.highest_ack = ackno;
    // t_seqno_ never below the cumulative ACK, as TcpAgent::newack() and NewReno's
    // partialnewack() keep it (RFC 6675 NextSeg() never picks data at or below HighACK).
    // ns-2.35's Sack1 leaves it, and after a go-back-N (a timeout, then a fast recovery before
    // the resent segments reach recover_) a partial ACK can pass it: newtimer()'s test
    // t_seqno_ > ackno then cancelled the timer with data outstanding (ackno < recover_ <=
    // maxseq_), and a pipe_ that counts SACKed segments kept send_much() from sending, so no
    // output() armed it again: the sender stalled for good (tests/test_sack_stall.py). With
    // t_seqno_ past the ACK the timer always restarts here, as RFC 6298 5.3 asks.
    if (s.t_seqno < ackno + 1) s.t_seqno = ackno + 1;
    sb_update(k, s.highest_ack, b);
    k.pipe -= 1;
    if (!x.in()->flow_rto_new_ack[i]) {
      set_rtx_timer(x, s, now);
    } else if (!s.first_partial) {
      s.first_partial = 1;
      set_rtx_timer(x, s, now);
    }
    rtt_reset_backoff(x.rto(), s.rtt);
  } else if (!k.timeout) {
    sb_update(k, s.highest_ack, b);
  }
  sack_send_much(x, f, s, k, now, false);
}

// Sack1TcpAgent::timeout(): leave fast recovery, forget the scoreboard and ignore duplicate
// ACKs until a new one; TcpAgent::timeout() (rto_fire) does the rest.
template <class X>
DS_HD DS_SACK_CALL void sack_rto_fire(X DS_REF x, int f, TcpSender& s, SackSender& k, uint32_t now) {
  k.fastrecov = 0;
  k.timeout = 1;
  if (s.highest_ack > k.last_ack) k.last_ack = s.highest_ack;
  sb_clear(k);
  rto_fire(x, f, s, now);
}

}  // namespace ds
