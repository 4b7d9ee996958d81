// One slot of one replica, in the fixed order of DESIGN "Within a slot":
//   timers -> ACK arrivals at senders -> sources emit -> arrivals at each link (loss element,
//   then the queue's accept/drop) -> service -> deliveries to receivers -> ACKs generated.
// Same-slot arrivals are gathered first and put in the tie-break order (random by default).
#pragma once
#include "../model/queue.h"
#include "../model/source.h"
#include "../model/tcp.h"

namespace ds {

DS_HD inline void init_replica(Replica& x, const Layout& L) {
  unsigned char* ob = (unsigned char*)x.hdr - L.hdr + L.out_begin;  // this replica's counters
  for (size_t i = 0; i < L.out_end - L.out_begin; ++i) ob[i] = 0;
  x.hdr->ctr_tie = 0;
  x.hdr->ctr_loss = 0;
  x.hdr->stage_count = 0;
  for (int l = 0; l < x.shape.max_links; ++l) {
    LinkState& ls = x.links[l];
    ls.credit = 0.0;
    ls.busy_cls = -1;
    ls.wrr_cls = 0;
    ls.idle = 1;
    ls.wrr_left = x.in->class_weight[x.iLC(l, 0)];
    ls.dl_head = 0;
    ls.dl_count = 0;
    for (int c = 0; c < kMaxClasses; ++c) {
      ClassQueue& q = class_queue(x, l, c);
      q.head = 0;
      q.count = 0;
      q.bytes = 0;
    }
  }
  x.tree.init_all_never();
  const int nf = x.in->n_flows[x.iR()];
  for (int f = 0; f < nf; ++f) {
    flow_init(x, f);
    rekey_flow(x, f);
  }
  for (int s = 0; s < x.in->n_sources[x.iR()]; ++s) source_init(x, s);
}

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
// then drop-tail admission.
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
  if (!enqueue(x, l, c, p, now)) {
    if (x.measuring) x.out.q_drops[k] += 1;
    count_flow_drop(x, p);
  }
}

// A packet has left link l: on to the next hop's delay line, or to its receiver.
DS_HD inline void depart(Replica& x, Packet p, int l, uint32_t now) {
  int n_hops = 0;
  route_of(x, p, n_hops);
  if (p.hop + 1 < n_hops) {
    LinkState& ls = x.links[l];
    if (ls.dl_count >= x.shape.delay_cap) {
      x.out.overflow[0] |= kOvfDelayLine;
      return;
    }
    TimedPacket tp;
    tp.due = now + (uint32_t)x.in->link_prop_slots[x.iL(l)];
    tp.pad = 0;
    tp.pkt = p;
    x.dline[(size_t)l * x.shape.delay_cap +
            (((uint32_t)ls.dl_head + (uint32_t)ls.dl_count) & (uint32_t)(x.shape.delay_cap - 1))] = tp;
    ls.dl_count += 1;
    return;
  }
  if (!(p.flags & kPktSource)) receive_segment(x, p.sender, p.seq, now);
}

// Byte-credit service: each slot adds rate*slot bytes; the head packet leaves when the credit
// covers it; an idle link keeps at most one slot's worth (DESIGN: Links).
DS_HD inline void serve_link(Replica& x, int l, uint32_t now) {
  LinkState& ls = x.links[l];
  const double per_slot = x.in->link_bytes_per_slot[x.iL(l)];
  ls.credit += per_slot;
  // An idle link banks no more than one slot of credit: a packet reaching an idle link
  // leaves after its own transmission time, not earlier (DESIGN: Links).
  if (ls.idle && ls.credit > per_slot) ls.credit = per_slot;
  for (;;) {
    const int c = pick_class(x, l);
    if (c < 0) break;
    const int bytes = queue_head(x, l, c).bytes;
    if ((double)bytes > ls.credit) {
      ls.busy_cls = (int8_t)c;
      break;
    }
    ls.credit -= (double)bytes;
    ls.busy_cls = -1;
    Packet p = dequeue(x, l, c);
    wrr_sent(x, l, c);
    if (x.measuring) {
      const size_t k = x.oLC(l, c);
      x.out.q_departures[k] += 1;
      x.out.q_bytes_departed[k] += bytes;
      const int64_t wait = (int64_t)(now - p.t_enq);
      if (wait > x.out.q_max_delay_slots[k]) x.out.q_max_delay_slots[k] = wait;
    }
    depart(x, p, l, now);
  }
  bool idle = ls.busy_cls < 0;
  for (int c = 0; c < kMaxClasses && idle; ++c) idle = class_queue(x, l, c).count == 0;
  ls.idle = idle ? 1 : 0;
}

DS_HD inline void order_arrivals(Replica& x) {
  const uint32_t n = x.hdr->stage_count;
  if (n < 2) return;
  Packet* a = x.stage;
  if (x.in->tie_break[x.iR()] == kTieRandom) {
    for (uint32_t i = n - 1; i > 0; --i) {  // Fisher-Yates
      const double u = draw_u01(x.seed, kFamTie, 0u, x.hdr->ctr_tie);
      uint32_t j = (uint32_t)(u * (double)(i + 1));
      if (j > i) j = i;
      Packet t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  } else {  // by sender index, then sequence: deterministic and deliberately biased
    for (uint32_t i = 1; i < n; ++i) {
      Packet t = a[i];
      uint32_t j = i;
      while (j > 0 && (a[j - 1].sender > t.sender ||
                       (a[j - 1].sender == t.sender && a[j - 1].seq > t.seq))) {
        a[j] = a[j - 1];
        --j;
      }
      a[j] = t;
    }
  }
}

DS_HD inline void step_slot(Replica& x, uint32_t now) {
  x.measuring = (int64_t)now >= x.in->warmup_slot[x.iR()];
  while (x.tree.min_key() <= now) flow_events(x, x.tree.min_index(), now);
  const int ns = x.in->n_sources[x.iR()];
  for (int s = 0; s < ns; ++s) source_step(x, s, now);
  const int nl = x.in->n_links[x.iR()];
  for (int l = 0; l < nl; ++l) {
    LinkState& ls = x.links[l];
    while (ls.dl_count > 0) {
      TimedPacket& tp = x.dline[(size_t)l * x.shape.delay_cap + (uint32_t)ls.dl_head];
      if (tp.due > now) break;
      Packet p = tp.pkt;
      ls.dl_head = (int32_t)(((uint32_t)ls.dl_head + 1) & (uint32_t)(x.shape.delay_cap - 1));
      ls.dl_count -= 1;
      int n_hops = 0;
      const int8_t* route = route_of(x, p, n_hops);
      p.hop += 1;
      stage_arrival(x, p, route[p.hop]);
    }
  }
  order_arrivals(x);
  for (uint32_t i = 0; i < x.hdr->stage_count; ++i) arrive(x, x.stage[i], now);
  x.hdr->stage_count = 0;
  for (int l = 0; l < nl; ++l) serve_link(x, l, now);
  if (x.measuring) {
    for (int l = 0; l < nl; ++l) {
      const int nc = x.in->link_n_classes[x.iL(l)];
      for (int c = 0; c < nc; ++c) {
        const ClassQueue& q = class_queue(x, l, c);
        const size_t k = x.oLC(l, c);
        x.out.q_pkt_slots[k] += (double)q.count;
        x.out.q_byte_slots[k] += (double)q.bytes;
      }
    }
  }
}

// Advance replica r over slots [t0, t1) clipped to its own end.
DS_HD inline void advance_replica(Replica& x, int64_t t0, int64_t t1) {
  const int64_t end = x.in->end_slot[x.iR()];
  if (t1 > end) t1 = end;
  for (int64_t t = t0; t < t1; ++t) step_slot(x, (uint32_t)t);
  if (t1 > t0) x.out.slots_run[0] = t1;
}

}  // namespace ds
