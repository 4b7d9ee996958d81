// TCP Reno and NewReno with packet-counted windows, after ns-2.35's TcpAgent (tcp.cc),
// RenoTcpAgent (tcp-reno.cc) and NewRenoTcpAgent (tcp-newreno.cc); RFC 5681 (congestion
// control), RFC 6298 (RTO), RFC 6582 (NewReno). Differences from ns-2 are listed in
// docs/model.md ("TCP").
#pragma once
#include <climits>
#include <cmath>

#include "../engine/ops.h"

namespace ds {

// ns-2 keeps smoothed RTT in ticks << 3 and the variance in ticks << 2 (T_SRTT_BITS,
// T_RTTVAR_BITS) and multiplies the variance by 4 (rttvar_exp_ = 2).
constexpr int kSrttBits = 3;
constexpr int kRttvarBits = 2;
constexpr int kRttvarExp = 2;
constexpr int kNumDupacks = 3;  // numdupacks_

DS_HD DS_INLINE size_t ack_slot(const Replica& x, int f, int i) {
  return (size_t)f * x.shape.ack_cap + ((uint32_t)i & (uint32_t)(x.shape.ack_cap - 1));
}

// RTO in slots for a given backoff: TcpAgent::rtt_timeout() with rfc2988_ = true (minrto_
// clamps before the backoff is applied), maxrto_ cap, and the 2-tick floor.
DS_HD inline double rto_slots(const Replica& x, const FlowState& s, int32_t backoff) {
  const double min_rto = x.in->min_rto_slots[x.iR()];
  double t = (s.t_rtxcur < min_rto ? min_rto : s.t_rtxcur) * (double)backoff;
  const double max_rto = x.in->max_rto_slots[x.iR()];
  if (t > max_rto) t = max_rto;
  const double floor2 = 2.0 * x.in->tick_slots[x.iR()];
  if (t < floor2) t = floor2;
  return t;
}

DS_HD DS_INLINE void set_rtx_timer(Replica& x, FlowState& s, uint32_t now) {
  double t = ceil(rto_slots(x, s, s.t_backoff));
  s.rto_due = now + (t < 1.0 ? 1u : (uint32_t)t);
}

// TcpAgent::rtt_update(): integer tick arithmetic of Jacobson/Karels as ns-2 does it.
DS_HD inline void rtt_update(Replica& x, int f, FlowState& s, uint32_t now) {
  const double tick = x.in->tick_slots[x.iR()];
  const double tao = (double)(now - s.rtt_ts);
  int32_t t_rtt = (int32_t)(tao / tick + 0.5);
  if (t_rtt < 1) t_rtt = 1;
  if (s.t_srtt != 0) {
    int32_t delta = t_rtt - (s.t_srtt >> kSrttBits);
    if ((s.t_srtt += delta) <= 0) s.t_srtt = 1;
    if (delta < 0) delta = -delta;
    delta -= (s.t_rttvar >> kRttvarBits);
    if ((s.t_rttvar += delta) <= 0) s.t_rttvar = 1;
  } else {
    s.t_srtt = t_rtt << kSrttBits;
    s.t_rttvar = t_rtt << (kRttvarBits - 1);
  }
  s.t_rtxcur =
      (double)(((s.t_rttvar << (kRttvarExp + (kSrttBits - kRttvarBits))) + s.t_srtt) >> kSrttBits) *
      tick;
  if (x.measuring) {
    x.out.flow_rtt_samples[f] += 1;
    x.out.flow_rtt_sum_slots[f] += tao;
    x.out.flow_rto_sum_slots[f] += rto_slots(x, s, 1);
  }
}

// TcpAgent::rtt_backoff(): double the backoff; past 8, fold srtt into the variance so the
// next sample restarts the estimator.
DS_HD inline void rtt_backoff(const Replica& x, FlowState& s) {
  if ((s.t_backoff < 64 || rto_slots(x, s, s.t_backoff) < x.in->max_rto_slots[x.iR()]) &&
      s.t_backoff < (1 << 20))
    s.t_backoff <<= 1;
  if (s.t_backoff > 8) {
    s.t_rttvar += (s.t_srtt >> kSrttBits);
    s.t_srtt = 0;
  }
}

// RenoTcpAgent::window(): cwnd inflated by dupwnd during fast recovery, capped by the
// receiver's window.
DS_HD DS_INLINE int32_t window(const Replica& x, int f, const FlowState& s) {
  int32_t w = (int32_t)s.cwnd + s.dupwnd;
  const int32_t wnd = x.in->flow_max_window[x.iF(f)];
  return w > wnd ? wnd : w;
}

// TcpAgent::slowdown(): halve to ssthresh (never below 2) and set cwnd to half the window
// (fast retransmit) or to 1 (timeout, wnd_restart_).
DS_HD inline void slowdown(const Replica& x, int f, FlowState& s, bool to_one) {
  const int32_t halfwin = window(x, f, s) / 2;
  s.ssthresh = halfwin < 2 ? 2 : halfwin;
  s.cwnd = to_one ? 1.0 : (double)halfwin;
  if (s.cwnd < 1.0) s.cwnd = 1.0;
}

// TcpAgent::opencwnd() (wnd_option_ 1): slow start below ssthresh, else 1/cwnd per ACK.
// cwnd is kept <= the receiver window so that a later halving starts from the real window.
DS_HD DS_INLINE void opencwnd(const Replica& x, int f, FlowState& s) {
  if (s.cwnd < (double)s.ssthresh)
    s.cwnd += 1.0;
  else
    s.cwnd += 1.0 / s.cwnd;
  const double wnd = (double)x.in->flow_max_window[x.iF(f)];
  if (s.cwnd > wnd) s.cwnd = wnd;
}

// Hands one segment to the access link (TcpAgent::output()): sequence bookkeeping, RTT
// timing and the retransmission timer happen here, as in ns-2, when the segment enters the
// access link's queue; a full access buffer drops it on the spot (drop-tail).
DS_HD inline void output(Replica& x, int f, FlowState& s, int32_t seq, uint32_t now) {
  const size_t i = x.iF(f);
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
    x.out.flow_pkts_sent[f] += 1;
    if (rexmit) x.out.flow_retransmits[f] += 1;
  }
  if (s.rto_due == kNever) set_rtx_timer(x, s, now);
  const int32_t limit = x.in->flow_access_limit[i];
  if (limit > 0 && s.nic_count >= limit) {
    if (x.measuring) {
      x.out.flow_drops[f] += 1;
      x.out.flow_access_drops[f] += 1;
    }
    return;
  }
  if (s.nic_count >= x.shape.nic_cap) {
    x.out.overflow[0] |= kOvfNic;
    return;
  }
  const uint32_t mask = (uint32_t)x.shape.nic_cap - 1;
  x.nicring[(size_t)f * x.shape.nic_cap + (((uint32_t)s.nic_head + (uint32_t)s.nic_count) & mask)] =
      (uint32_t)seq | (rexmit ? kNicRexmit : 0u);
  s.nic_count += 1;
}

// The access link transmits queued segments at its rate; they arrive at the first link of
// the route in this slot (the access delay is folded into the ACK's flight time).
DS_HD inline void nic_transmit(Replica& x, int f, FlowState& s, uint32_t now) {
  const size_t i = x.iF(f);
  const double pace = x.in->flow_pace_bytes_per_slot[i];
  const int32_t wire = x.in->flow_wire_bytes[i];
  const double tx_slots = pace > 0.0 ? (double)wire / pace : 0.0;
  s.wake_due = kNever;
  while (s.nic_count > 0) {
    if (pace > 0.0) {
      const double start = s.nic_free > (double)now ? s.nic_free : (double)now;
      if (start >= (double)now + 1.0) {
        s.wake_due = (uint32_t)start;
        return;
      }
      s.nic_free = start + tx_slots;
    }
    const uint32_t e = x.nicring[(size_t)f * x.shape.nic_cap + (uint32_t)s.nic_head];
    s.nic_head = (int32_t)(((uint32_t)s.nic_head + 1) & ((uint32_t)x.shape.nic_cap - 1));
    s.nic_count -= 1;
    Packet p;
    p.seq = (int32_t)(e & ~kNicRexmit);
    p.t_enq = now;
    p.sender = (uint16_t)f;
    p.bytes = (uint16_t)wire;
    p.hop = 0;
    p.cls = x.in->flow_cls[i];
    p.flags = (e & kNicRexmit) ? kPktRexmit : 0;
    stage_arrival(x, p, x.in->flow_route[i * kMaxHops]);
  }
}

// TcpAgent::send_much(): new segments while the window allows; then the access link sends
// what it can this slot.
DS_HD inline void send_much(Replica& x, int f, uint32_t now) {
  FlowState& s = x.flows[f];
  if (s.start_due != kNever) return;
  if (!s.finished) {
    while (s.t_seqno <= s.highest_ack + window(x, f, s) && s.t_seqno < s.curseq) {
      output(x, f, s, s.t_seqno, now);
      s.t_seqno += 1;
    }
  }
  nic_transmit(x, f, s, now);
}

// RenoTcpAgent::dupack_action() / NewRenoTcpAgent::dupack_action(): fast retransmit and
// enter fast recovery, unless bugFix_ forbids a second one within the same window.
DS_HD inline void dupack_action(Replica& x, int f, FlowState& s, uint32_t now) {
  const size_t i = x.iF(f);
  const bool recovered = s.highest_ack > s.recover;
  const bool reno = x.in->flow_variant[i] == kReno;
  const bool allow = reno && s.last_cwnd_action == kActDupack;
  if (!(recovered || !x.in->flow_bugfix[i] || allow || s.highest_ack == 0)) return;
  s.recover = s.maxseq;
  s.last_cwnd_action = kActDupack;
  slowdown(x, f, s, false);
  set_rtx_timer(x, s, now);  // reset_rtx_timer(1, 0): mild, no backoff
  s.rtt_active = 0;
  if (x.measuring) x.out.flow_fast_retransmits[f] += 1;
  output(x, f, s, s.highest_ack + 1, now);  // from the top of the window
}

// TcpAgent::newack() + the timer reset of newtimer(): slide the window, take an RTT sample
// (Karn: only for a segment timed before any retransmission), restart or stop the timer.
DS_HD inline void newack(Replica& x, int f, FlowState& s, int32_t ackno, uint32_t now) {
  s.dupacks = 0;
  s.highest_ack = ackno;
  if (s.t_seqno < ackno + 1) s.t_seqno = ackno + 1;
  if (s.rtt_active && ackno >= s.rtt_seq) {
    s.t_backoff = 1;
    s.rtt_active = 0;
    rtt_update(x, f, s, now);
  }
  if (s.maxseq > ackno)
    set_rtx_timer(x, s, now);
  else
    s.rto_due = kNever;
}

DS_HD inline void check_finished(Replica& x, int f, FlowState& s, uint32_t now) {
  if (s.curseq != INT32_MAX && s.highest_ack >= s.curseq - 1 && !s.finished) {
    s.finished = 1;
    s.rto_due = kNever;
    x.out.flow_finish_slot[f] = (int64_t)now;
  }
}

// An ACK reaches the sender (RenoTcpAgent::recv / NewRenoTcpAgent::recv).
DS_HD inline void recv_ack(Replica& x, int f, int32_t ackno, uint32_t now) {
  FlowState& s = x.flows[f];
  const bool newreno = x.in->flow_variant[x.iF(f)] == kNewReno;
  if (ackno > s.highest_ack) {
    if (newreno && s.last_cwnd_action == kActDupack && ackno < s.recover) {
      // Partial ACK (RFC 6582 3.2 step 5): retransmit the next hole, deflate the window by
      // the amount acknowledged and add back one segment, restart the timer, stay in recovery.
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
        s.t_backoff = 1;
      }
      set_rtx_timer(x, s, now);
      output(x, f, s, ackno + 1, now);
      return;
    }
    if (s.last_cwnd_action == kActDupack) {
      s.last_cwnd_action = kActExited;
      // NewReno full ACK: RFC 6582 3.2 step 6 option 2, cwnd = ssthresh. Reno deflates by
      // dropping dupwnd (cwnd was already set to half the window).
      if (newreno) s.cwnd = (double)s.ssthresh;
    }
    s.dupwnd = 0;
    newack(x, f, s, ackno, now);
    opencwnd(x, f, s);
    check_finished(x, f, s, now);
  } else if (ackno == s.highest_ack) {
    s.dupacks += 1;
    if (s.dupacks == kNumDupacks) {
      dupack_action(x, f, s, now);
      s.dupwnd = kNumDupacks;  // ns-2 sets it whether or not a retransmit happened
    } else if (s.dupacks > kNumDupacks) {
      s.dupwnd += 1;  // fast recovery: each further dupack means a segment has left
    }
  }
}

// TcpAgent::timeout() for the retransmission timer, with RenoTcpAgent::timeout()'s reset.
DS_HD inline void rto_fire(Replica& x, int f, uint32_t now) {
  FlowState& s = x.flows[f];
  s.rto_due = kNever;
  s.dupwnd = 0;
  s.dupacks = 0;
  if (s.cwnd < 1.0) s.cwnd = 1.0;
  bool backoff = true;
  s.recover = s.maxseq;
  if (s.highest_ack == s.maxseq) {
    // Nothing outstanding (restart_bugfix_): restart from one segment, keep ssthresh.
    s.cwnd = 1.0;
    backoff = false;
  } else {
    if (x.measuring) x.out.flow_timeouts[f] += 1;
    slowdown(x, f, s, true);
  }
  if (backoff) rtt_backoff(x, s);
  set_rtx_timer(x, s, now);
  s.t_seqno = s.highest_ack + 1;  // go-back-N
  s.rtt_active = 0;
  s.last_cwnd_action = kActTimeout;
}

DS_HD inline void push_ack(Replica& x, int f, int32_t ackno, uint32_t now) {
  FlowState& s = x.flows[f];
  if (s.ack_count >= x.shape.ack_cap) {
    x.out.overflow[0] |= kOvfAckRing;
    return;
  }
  Ack a;
  a.due = now + (uint32_t)x.in->flow_loop_slots[x.iF(f)];
  a.ackno = ackno;
  x.acks[ack_slot(x, f, s.ack_head + s.ack_count)] = a;
  s.ack_count += 1;
  if (s.ack_count == 1) rekey_flow(x, f);
}

DS_HD DS_INLINE bool rx_bit(const Replica& x, int f, int32_t seq) {
  uint32_t b = (uint32_t)seq & (kRxBitmapBits - 1);
  return (x.rxbits[(size_t)f * (kRxBitmapBits / 32) + (b >> 5)] >> (b & 31)) & 1u;
}
DS_HD DS_INLINE void rx_set(Replica& x, int f, int32_t seq, bool on) {
  uint32_t b = (uint32_t)seq & (kRxBitmapBits - 1);
  uint32_t& w = x.rxbits[(size_t)f * (kRxBitmapBits / 32) + (b >> 5)];
  if (on)
    w |= 1u << (b & 31);
  else
    w &= ~(1u << (b & 31));
}

// A data segment reaches the receiver (ns-2 TCPSink / DelAckSink). It is processed when it
// leaves its last link: every later delay is constant per flow and folded into the ACK's
// flight time (docs/model.md, "Delays").
DS_HD inline void receive_segment(Replica& x, int f, int32_t seq, uint32_t now) {
  FlowState& s = x.flows[f];
  const size_t i = x.iF(f);
  const int32_t before = s.rcv_next;
  if (seq == s.rcv_next) {
    s.rcv_next += 1;
    while (rx_bit(x, f, s.rcv_next)) {
      rx_set(x, f, s.rcv_next, false);
      s.rcv_next += 1;
    }
  } else if (seq > s.rcv_next) {
    if (seq - s.rcv_next < kRxBitmapBits)
      rx_set(x, f, seq, true);
    else
      x.out.overflow[0] |= kOvfRxWindow;
  }
  const int32_t advanced = s.rcv_next - before;
  if (advanced > 0 && x.measuring) {
    const int64_t bytes = (int64_t)advanced * x.in->flow_payload_bytes[i];
    x.out.flow_delivered_bytes[f] += bytes;
    const int64_t iv = x.in->interval_slots[x.iR()];
    if (iv > 0) {
      int64_t k = (int64_t)now / iv;
      if (k < x.shape.max_intervals) x.out.interval_bytes[(size_t)f * x.shape.max_intervals + k] += bytes;
    }
  }
  // Delayed ACK: hold the ACK of a lone in-order segment until the next one or the timer;
  // anything out of order, filling a hole or duplicate is acknowledged at once.
  if (x.in->flow_delack[i] && advanced == 1 && s.delack_due == kNever) {
    s.delack_due = now + (uint32_t)x.in->delack_slots[x.iR()];
    rekey_flow(x, f);
    return;
  }
  if (s.delack_due != kNever) {
    s.delack_due = kNever;
    rekey_flow(x, f);
  }
  push_ack(x, f, s.rcv_next - 1, now);
}

// Everything due for flow f at slot `now`, in the fixed order: timers, ACK arrivals, sending.
DS_HD inline void flow_events(Replica& x, int f, uint32_t now) {
  FlowState& s = x.flows[f];
  if (s.start_due != kNever) {
    if (s.start_due > now) return;
    s.start_due = kNever;
  }
  if (s.delack_due <= now) {
    s.delack_due = kNever;
    push_ack(x, f, s.rcv_next - 1, now);
  }
  if (s.rto_due <= now) rto_fire(x, f, now);
  while (s.ack_count > 0) {
    const Ack a = x.acks[ack_slot(x, f, s.ack_head)];
    if (a.due > now) break;
    s.ack_head = (int32_t)(((uint32_t)s.ack_head + 1) & (uint32_t)(x.shape.ack_cap - 1));
    s.ack_count -= 1;
    recv_ack(x, f, a.ackno, now);
  }
  send_much(x, f, now);
  rekey_flow(x, f);
}

DS_HD inline void flow_init(Replica& x, int f) {
  FlowState& s = x.flows[f];
  const size_t i = x.iF(f);
  s.cwnd = (double)x.in->flow_init_window[i];
  s.nic_free = 0.0;
  s.t_rtxcur = x.in->init_rto_slots[x.iR()];
  // No threshold until the first loss unless one is given (ns-2's settable ssthresh_).
  const int32_t ss0 = x.in->flow_init_ssthresh[i];
  s.ssthresh = ss0 > 0 ? ss0 : INT32_MAX;
  s.dupwnd = 0;
  s.dupacks = 0;
  s.t_seqno = 0;
  s.highest_ack = -1;
  s.maxseq = -1;
  s.recover = -1;
  const int64_t size = x.in->flow_size_pkts[i];
  s.curseq = size < 0 ? INT32_MAX : (int32_t)size;
  s.rtt_seq = -1;
  s.rtt_ts = 0;
  s.t_srtt = 0;
  s.t_rttvar = 0;
  s.t_backoff = 1;
  s.nic_head = 0;
  s.nic_count = 0;
  s.rto_due = kNever;
  s.wake_due = kNever;
  s.start_due = (uint32_t)x.in->flow_start_slot[i];
  s.delack_due = kNever;
  s.rcv_next = 0;
  s.ack_head = 0;
  s.ack_count = 0;
  s.last_cwnd_action = kActNone;
  s.rtt_active = 0;
  s.finished = 0;
  x.out.flow_finish_slot[f] = -1;
  for (int w = 0; w < kRxBitmapBits / 32; ++w) x.rxbits[(size_t)f * (kRxBitmapBits / 32) + w] = 0;
}

}  // namespace ds
