// The queue side of a round: one lane runs the slots [t_queue, t_end) one by one, in the
// fixed order of DESIGN "Within a slot" as the serial engine did:
//   delayed-ACK timers -> the flows' packets of this slot (from the lanes' emission rings,
//   in flow order) -> sources -> delay lines -> tie-break order -> arrivals (loss element,
//   queue admission) -> service -> deliveries to receivers -> ACKs.
#pragma once
#include "replica.h"

namespace ds {

DS_HD DS_INLINE const int8_t* route_of(const Replica& x, const Packet& p, int& n_hops) {
  if (p.flags & kPktSource) {
    const size_t i = x.iS(p.sender - x.shape.max_flows);
    n_hops = x.in->src_n_hops[i];
    return x.in->src_route + i * kMaxHops;
  }
  const size_t i = x.iF(p.sender);
  n_hops = x.in->flow_n_hops[i];
  return x.in->flow_route + i * kMaxHops;
}

DS_HD DS_INLINE void count_flow_drop(Replica& x, const Packet& p) {
  if (!(p.flags & kPktSource) && x.measuring) x.out.flow_drops[p.sender] += 1;
}

// A packet arrives at link p.link: the validation hooks (injected drops, Bernoulli loss),
// then the class queue's admission.
DS_HD inline void arrive(Replica& x, Packet p, uint32_t now) {
  const int l = p.link, c = p.cls;
  const size_t k = x.oLC(l, c);
  if (x.measuring) x.out.q_arrivals[k] += 1;
  bool lost = false;
  if (!(p.flags & (kPktSource | kPktRexmit)) && p.hop == 0) {
    const int32_t* drops = x.in->flow_drop_seq + x.iF(p.sender) * kMaxInjectedDrops;
    for (int d = 0; d < kMaxInjectedDrops && drops[d] >= 0; ++d) lost |= drops[d] == p.seq;
  }
  const double loss = x.in->link_loss_prob[x.iL(l)];
  if (!lost && loss > 0.0) lost = draw_u01(x.seed, kFamLoss, (uint32_t)l, x.hdr->ctr_loss) < loss;
  if (lost) {
    if (x.measuring) x.out.q_random_drops[k] += 1;
    count_flow_drop(x, p);
    return;
  }
  ClassQueue& q = x.link_queues(l)[c];
  const size_t ik = x.iLC(l, c);
  if (!drop_tail_accepts(x.in->class_limit_kind[ik], x.in->class_limit[ik], q.ring.count, q.bytes,
                         p.bytes)) {
    if (x.measuring) x.out.q_drops[k] += 1;
    count_flow_drop(x, p);
    return;
  }
  Ring<Packet> ring = x.queue_ring(l, c);
  if (ring.full()) {  // only an unlimited class can get here
    x.flag(kOvfQueueRing);
    if (x.measuring) x.out.q_drops[k] += 1;
    count_flow_drop(x, p);
    return;
  }
  p.t_enq = now;
  ring.push(p);
  q.bytes += p.bytes;
}

// A packet has left link l: on to the next hop's delay line, or to its receiver.
DS_HD inline void depart(Replica& x, const Packet& p, int l, uint32_t now) {
  int n_hops = 0;
  route_of(x, p, n_hops);
  if (p.hop + 1 < n_hops) {
    Ring<TimedPacket> dl = x.dline_ring(l);
    if (dl.full()) {
      x.flag(kOvfDelayLine);
      return;
    }
    TimedPacket tp;
    tp.due = now + (uint32_t)x.in->link_prop_slots[x.iL(l)];
    tp.pad = 0;
    tp.pkt = p;
    dl.push(tp);
    return;
  }
  if (!(p.flags & kPktSource)) receive_segment(x, p.sender, p.seq, now);
}

// Byte-credit service of link l for one slot (model/link.h).
DS_HD inline void serve_link(Replica& x, int l, uint32_t now) {
  LinkState& ls = x.links[l];
  const size_t il = x.iL(l);
  link_add_credit(ls, x.in->link_bytes_per_slot[il]);
  ClassQueue* q = x.link_queues(l);
  const int nc = x.in->link_n_classes[il];
  const uint8_t sched = x.in->link_sched[il];
  const int32_t* weight = x.in->class_weight + x.iLC(l, 0);
  for (;;) {
    const int c = link_pick(ls, sched, q, nc, weight);
    if (c < 0) break;
    Ring<Packet> ring = x.queue_ring(l, c);
    const int bytes = ring.front().bytes;
    if ((double)bytes > ls.credit) {
      ls.busy_cls = (int8_t)c;
      break;
    }
    ls.credit -= (double)bytes;
    ls.busy_cls = -1;
    const Packet p = ring.pop();
    q[c].bytes -= p.bytes;
    if (sched == kSchedWrr) wrr_sent(ls.wrr, c, nc, weight);
    if (x.measuring) {
      const size_t k = x.oLC(l, c);
      x.out.q_departures[k] += 1;
      x.out.q_bytes_departed[k] += bytes;
      const int64_t wait = (int64_t)(now - p.t_enq);
      if (wait > x.out.q_max_delay_slots[k]) x.out.q_max_delay_slots[k] = wait;
    }
    depart(x, p, l, now);
  }
  link_end_slot(ls, q);
}

DS_HD inline void order_arrivals(Replica& x) {
  const uint32_t n = x.hdr->stage_count;
  if (n < 2) return;
  Packet* a = x.stage;
  if (x.in->tie_break[x.iR()] == kTieRandom) {
    // Timing noise between senders, not within one: a sender's packets left its access link
    // in order, so after the shuffle each sender's packets are put back in their arrival
    // order, in the positions the shuffle gave that sender.
    bool repeated = false;
    for (uint32_t i = 1; i < n && !repeated; ++i)
      for (uint32_t j = 0; j < i && !repeated; ++j) repeated = a[j].sender == a[i].sender;
    if (repeated)
      for (uint32_t i = 0; i < n; ++i) x.stage2[i] = a[i];
    for (uint32_t i = n - 1; i > 0; --i) {  // Fisher-Yates
      const double u = draw_u01(x.seed, kFamTie, 0u, x.hdr->ctr_tie);
      uint32_t j = (uint32_t)(u * (double)(i + 1));
      if (j > i) j = i;
      Packet t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    if (repeated) {
      for (uint32_t i = 0; i < n; ++i) {
        const uint16_t s = a[i].sender;
        uint32_t before = 0;  // this sender's packets in earlier positions
        for (uint32_t j = 0; j < i; ++j) before += a[j].sender == s;
        for (uint32_t k = 0;; ++k) {  // its arrival number `before`
          if (x.stage2[k].sender != s) continue;
          if (before-- == 0) {
            a[i] = x.stage2[k];
            break;
          }
        }
      }
    }
  } else {  // by time within the slot, then sender index and sequence: as in ns-2, which
            // adds no timing noise of its own (DESIGN: Phase effects); biased on purpose
    for (uint32_t i = 1; i < n; ++i) {
      Packet t = a[i];
      uint32_t j = i;
      while (j > 0 && (a[j - 1].t_enq > t.t_enq ||
                       (a[j - 1].t_enq == t.t_enq &&
                        (a[j - 1].sender > t.sender ||
                         (a[j - 1].sender == t.sender && a[j - 1].seq > t.seq))))) {
        a[j] = a[j - 1];
        --j;
      }
      a[j] = t;
    }
  }
}

DS_HD inline void queue_slot(Replica& x, uint32_t now) {
  x.measuring = (int64_t)now >= x.in->warmup_slot[x.iR()];
  while (x.rxtree.min_key() <= now) {  // delayed-ACK timers
    const int f = x.rxtree.min_index();
    x.rcv(f).delack_due = kNeverSlot;
    x.rxtree.set(f, kNeverSlot);
    x.push_ack(f, x.rcv(f).rcv_next - 1, now);
  }
  for (int k = 0; k < x.shape.lanes; ++k) {  // lanes own ascending blocks: flow order
    Ring<Packet> e = x.emit_ring(k);
    while (!e.empty() && e.front().t_enq == now) x.stage_emitted(k);
  }
  const int ns = x.in->n_sources[x.iR()];
  for (int s = 0; s < ns; ++s) source_step(x, s, now);
  const int nl = x.in->n_links[x.iR()];
  for (int l = 0; l < nl; ++l) {
    Ring<TimedPacket> dl = x.dline_ring(l);
    while (!dl.empty() && dl.front().due <= now) {
      Packet p = dl.pop().pkt;
      int n_hops = 0;
      const int8_t* route = route_of(x, p, n_hops);
      p.hop += 1;
      p.link = (uint8_t)route[p.hop];
      p.t_enq = 0;  // at the slot's start
      x.stage_arrival(p);
    }
  }
  order_arrivals(x);
  for (uint32_t i = 0; i < x.hdr->stage_count; ++i) arrive(x, x.stage[i], now);
  x.hdr->stage_count = 0;
  for (int l = 0; l < nl; ++l) serve_link(x, l, now);
  if (x.measuring) {
    for (int l = 0; l < nl; ++l) {
      const int nc = x.in->link_n_classes[x.iL(l)];
      const ClassQueue* q = x.link_queues(l);
      for (int c = 0; c < nc; ++c) {
        const size_t k = x.oLC(l, c);
        x.out.q_pkt_slots[k] += (double)q[c].ring.count;
        x.out.q_byte_slots[k] += (double)q[c].bytes;
      }
    }
  }
}

}  // namespace ds
