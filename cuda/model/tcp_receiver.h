// The TCP receiver (ns-2 TCPSink / DelAckSink): cumulative ACKs, an out-of-order bitmap,
// optional delayed ACKs. A segment is processed when it leaves its last link: every later
// delay is constant per flow and folded into the ACK's flight time (docs/model.md,
// "Delays"). Runs on the queue side (engine/queue_side.h); the replica view X gives the
// flow's parameters (its sender's copy, x.snd(f).flow), counters, bitmap (x.rxbits),
// x.push_ack and x.set_delack.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "tcp_ecn.h"
#include "tcp_sack.h"
#include "tcp_sender.h"  // FlowInputs: the flow's inputs, kept in its sender

namespace ds {

struct TcpReceiver {
  int32_t rcv_next;     // next in-order seq expected
  uint32_t delack_due;  // delayed-ACK timer; 0xFFFFFFFF = none
};

// The bitmap is a ring of `nbits` (BatchShape::rx_bits, a power of two): bit seq mod nbits.
DS_HD DS_INLINE bool rx_bit(const uint32_t* bits, int32_t seq, int32_t nbits) {
  const uint32_t b = (uint32_t)seq & (uint32_t)(nbits - 1);
  return (bits[b >> 5] >> (b & 31)) & 1u;
}
DS_HD DS_INLINE void rx_set(uint32_t* bits, int32_t seq, bool on, int32_t nbits) {
  const uint32_t b = (uint32_t)seq & (uint32_t)(nbits - 1);
  if (on)
    bits[b >> 5] |= 1u << (b & 31);
  else
    bits[b >> 5] &= ~(1u << (b & 31));
}

// Accepts one segment; returns the number of segments it made deliverable in order.
// A segment beyond the bitmap is refused (returns -1: the caller reports the overflow).
DS_HD inline int32_t rx_accept(TcpReceiver& r, uint32_t* bits, int32_t seq, int32_t nbits) {
  const int32_t before = r.rcv_next;
  if (seq == r.rcv_next) {
    r.rcv_next += 1;
    while (rx_bit(bits, r.rcv_next, nbits)) {
      rx_set(bits, r.rcv_next, false, nbits);
      r.rcv_next += 1;
    }
  } else if (seq > r.rcv_next) {
    if (seq - r.rcv_next >= nbits) return -1;
    rx_set(bits, seq, true, nbits);
  }
  return r.rcv_next - before;
}

// A SACK sink's ACK for segment `seq` (model/tcp_sack.h): its blocks written in place beside
// pool entry `a` (no local copy: on the GPU a block array indexed at run time lives in local
// memory). When the pool overflowed (a < 0, reported: the host raises) entry 0 takes them, so
// that the sink's stack still moves as it would.
template <class X>
DS_HD DS_SACK_CALL void sack_sink_ack(X DS_REF x, int f, int32_t seq, int32_t a) {
  const uint32_t* bits = x.rxbits(f);
  const int32_t next = x.rcv(f).rcv_next;
  const int32_t nbits = x.shape().rx_bits;
  sack_sink_blocks(x.sack_rcvs()[f], seq, next,
                   [&](int32_t i) { return i < next || rx_bit(bits, i, nbits); },
                   x.ack_sacks()[a >= 0 ? a : 0]);
}

// Inlined on the host (DS_FLATTEN): with the queue side's slot inlined in its loop
// (engine/queue_side.h, queue_slots), g++ made this a call per delivered segment.
// ECN (model/tcp_ecn.h): `ecn` holds the segment's kPktCe / kPktCwr bits. A DCTCP receiver
// whose CE state changes while it holds a delayed ACK sends that ACK at once with the old state
// (RFC 8257 3.2); every ACK carries the echo state when it is sent.
template <class X>
DS_HD DS_RARE void ecn_receive(X DS_REF x, int f, uint8_t ecn, uint32_t now) {
  EcnFlow& e = x.ecns()[f];
  TcpReceiver& r = x.rcv(f);
  const bool ce = (ecn & kPktCe) != 0;
  if (e.mode == kEcnDctcp && (e.rx_ece != 0) != ce && r.delack_due != 0xFFFFFFFFu) {
    r.delack_due = 0xFFFFFFFFu;
    x.set_delack(f, 0xFFFFFFFFu);
    const int32_t a = x.push_ack(f, r.rcv_next - 1, now);
    if (a >= 0) x.acks()[a].ece = e.rx_ece;
    if (x.snd(f).flow.variant == kSack && DS_FEAT(x.hdr()->f_sack))
      sack_sink_ack(x, f, r.rcv_next - 1, a);
  }
  ecn_rx_segment(e, ce, (ecn & kPktCwr) != 0);
}

template <class X>
DS_HD DS_FLATTEN void receive_segment(X DS_REF x, int f, int32_t seq, uint32_t now,
                                      uint8_t ecn = 0) {
  if (DS_FEAT_NEW(x.hdr()->f_ecn) && x.ecns()[f].mode != kEcnOff) ecn_receive(x, f, ecn, now);
  TcpReceiver& r = x.rcv(f);
  const FlowInputs& flow = x.snd(f).flow;  // its flow's inputs (model/tcp_sender.h)
  const size_t i = x.iF(f);
  const int32_t before = r.rcv_next;
  int32_t advanced = rx_accept(r, x.rxbits(f), seq, x.shape().rx_bits);
  if (DS_UNLIKELY(advanced < 0)) {
    x.flag(kOvfRxWindow);
    advanced = 0;
  }
  if (advanced > 0 && x.measuring) {
    // with syn_ the SYN (seq 0) carries no data: it is acknowledged, not delivered
    const int32_t data = advanced - (before == 0 && x.in()->flow_syn[i] ? 1 : 0);
    const int64_t bytes = (int64_t)data * flow.payload_bytes;
    x.out_flow_delivered_bytes()[f] += bytes;
    const int64_t iv = x.in()->interval_slots[x.iR()];
    if (iv > 0) {
      const int64_t k = (int64_t)now / iv;
      if (k < x.shape().max_intervals) x.out_interval_bytes()[(size_t)f * x.shape().max_intervals + k] += bytes;
    }
  }
  // Delayed ACK: hold the ACK of a lone in-order segment until the next one or the timer;
  // anything out of order, filling a hole or duplicate is acknowledged at once.
  if (flow.delack && advanced == 1 && r.delack_due == 0xFFFFFFFFu) {
    r.delack_due = now + (uint32_t)x.in()->delack_slots[x.iR()];
    x.set_delack(f, r.delack_due);
    return;
  }
  if (r.delack_due != 0xFFFFFFFFu) {
    r.delack_due = 0xFFFFFFFFu;
    x.set_delack(f, 0xFFFFFFFFu);
  }
  const int32_t a = x.push_ack(f, r.rcv_next - 1, now);
  if (DS_FEAT_NEW(x.hdr()->f_ecn) && a >= 0) x.acks()[a].ece = x.ecns()[f].rx_ece;
  if (flow.variant == kSack && DS_FEAT(x.hdr()->f_sack)) sack_sink_ack(x, f, seq, a);
}

}  // namespace ds
