// The queue side of a round: one lane runs the slots [t_queue, t_end) one by one, in the
// fixed order of DESIGN "Within a slot" as the serial engine did:
//   delayed-ACK timers -> the flows' packets of this slot (from the lanes' emission rings,
//   in flow order) -> sources -> delay lines -> tie-break order -> arrivals (loss element,
//   queue admission) -> service -> deliveries to receivers -> ACKs.
#pragma once
#include "replica.h"
#include "traffic.h"

namespace ds {

DS_HD DS_INLINE const int8_t* route_of(Replica DS_REF x, const Packet& p, int& n_hops) {
  if (p.flags & kPktSource) {
    const size_t i = x.iS(p.sender - x.shape().max_flows);
    n_hops = x.in()->src_n_hops[i];
    return x.in()->src_route + i * kMaxHops;
  }
  const size_t i = x.iF(p.sender);
  if (on_path2(p)) {
    n_hops = x.in()->flow_n_hops2[i];
    return x.in()->flow_route2 + i * kMaxHops;
  }
  n_hops = x.in()->flow_n_hops[i];
  return x.in()->flow_route + i * kMaxHops;
}

// The links of a packet's route (route_of without the route: a flow's from its sender's copy,
// for a departure). route_of keeps its own reads: taking its n_hops from here too made ptxas
// spill 16 (slim) and 38 (full) bytes, the delay-line loop then reading the sender's line.
DS_HD DS_INLINE int hops_of(Replica DS_REF x, const Packet& p) {
  if (p.flags & kPktSource) return x.in()->src_n_hops[x.iS(p.sender - x.shape().max_flows)];
  const FlowInputs& flow = x.snd(p.sender).flow;
  return on_path2(p) ? flow.n_hops2 : flow.n_hops1;
}

DS_HD DS_INLINE void count_flow_drop(Replica DS_REF x, const Packet& p) {
  if (!(p.flags & kPktSource) && x.measuring && !stale(x, p)) x.out_flow_drops()[p.sender] += 1;
}

DS_HD DS_INLINE int sender_marker(Replica DS_REF x, const Packet& p) {
  return (p.flags & kPktSource) ? x.in()->src_marker[x.iS(p.sender - x.shape().max_flows)]
                                : x.in()->flow_marker[x.iF(p.sender)];
}

// The edge conditioner of marker m colours packet p arriving at `t` (slot time with its
// sub-slot part). The Balancing Marker counts the aggregate's active connections first: a
// scan of its members (Lee & Jeong section 3 keeps a connection table and scans it the same
// way), so its cost grows with the aggregate's size.
DS_HD inline void condition(Replica DS_REF x, Packet& p, int m, double t) {
  const size_t im = x.iM(m);
  MarkerParams mp;
  mp.kind = x.in()->marker_kind[im];
  mp.colour_aware = x.in()->marker_colour_aware[im];
  mp.cir = x.in()->marker_cir[im];
  mp.cbs = x.in()->marker_cbs[im];
  mp.pir = x.in()->marker_pir[im];
  mp.pbs = x.in()->marker_pbs[im];
  mp.win = x.in()->marker_win[im];
  mp.b1 = x.in()->marker_b1[im];
  mp.w_lo = x.in()->marker_w_lo[im];
  mp.w_hi = x.in()->marker_w_hi[im];
  mp.p_max = x.in()->marker_p_max[im];
  mp.active_slots = x.in()->marker_active_slots[im];
  mp.sw_k = x.in()->marker_sw_k[im];
  ConnMeter* conn = mp.kind == kMarkBalancing && x.shape().conn_meters ? &x.conns()[p.sender] : nullptr;
  int n_active = 1;
  if (conn) {
    const int nf = x.in()->n_flows[x.iR()], ns = x.in()->n_sources[x.iR()];
    for (int f = 0; f < nf; ++f)
      if (f != p.sender && x.in()->flow_marker[x.iF(f)] == m &&
          conn_active(x.conns()[f], t, mp.active_slots))
        n_active += 1;
    for (int s = 0; s < ns; ++s) {
      const int k = x.shape().max_flows + s;
      if (k != p.sender && x.in()->src_marker[x.iS(s)] == m &&
          conn_active(x.conns()[k], t, mp.active_slots))
        n_active += 1;
    }
  }
  // only the probabilistic markers draw (TSW2CM/TSW3CM, the Balancing Marker's P(W_x), the
  // TCP-aware conditioners)
  const bool draws = mp.kind == kMarkTsw2cm || mp.kind == kMarkTsw3cm ||
                     mp.kind == kMarkBalancing || mp.kind == kMarkRttAware ||
                     mp.kind == kMarkRttRto;
  const double u = draws ? draw_u01(x.seed(), kFamMarker, (uint32_t)m, x.hdr()->ctr_mark) : 0.0;
  const uint8_t c = mark_packet(mp, x.markers()[m], conn, n_active, p.bytes, t, colour_of(p), u,
                                tag_of(p));
  set_colour(p, c);
  if (x.measuring) {
    x.out_marker_pkts()[(size_t)m * kMaxColours + c] += 1;
    x.out_marker_bytes()[(size_t)m * kMaxColours + c] += p.bytes;
  }
}

DS_HD inline RedParams red_params(Replica DS_REF x, size_t ik) {
  RedParams rp;
  rp.aqm = x.in()->class_aqm[ik];
  rp.gentle = x.in()->red_gentle[ik];
  rp.wait = x.in()->red_wait[ik];
  rp.bytes = x.in()->red_bytes[ik];
  rp.qib = x.in()->red_queue_in_bytes[ik];
  rp.w_q = x.in()->red_w_q[ik];
  rp.ptc = x.in()->red_ptc[ik];
  rp.mean_pkt_bytes = x.in()->red_mean_pkt_bytes[ik];
  rp.min_th = x.in()->red_min_th + ik * kMaxColours;
  rp.max_th = x.in()->red_max_th + ik * kMaxColours;
  rp.max_p = x.in()->red_max_p + ik * kMaxColours;
  return rp;
}

DS_HD DS_INLINE void count_aqm_drop(Replica DS_REF x, const Packet& p, size_t k, uint8_t colour,
                                    bool early) {
  if (!x.measuring) return;
  const size_t kc = k * kMaxColours + colour;
  if (early) x.out_q_early_drops()[kc] += 1;
  else x.out_q_forced_drops()[kc] += 1;
  if (!(p.flags & kPktSource) && !stale(x, p)) {
    const size_t fc = (size_t)p.sender * kMaxColours + colour;
    if (early) x.out_flow_early_drops()[fc] += 1;
    else x.out_flow_forced_drops()[fc] += 1;
  }
}

// ECN (model/tcp_ecn.h): is the packet ECT (a data packet of an ECN flow)? Sources' are not.
DS_HD DS_INLINE bool ecn_capable(Replica DS_REF x, const Packet& p) {
  // (RFC 3168 6.1.5: a retransmission is not ECT; ns-3 TcpSocketBase::SendDataPacket)
  return !(p.flags & (kPktSource | kPktRexmit)) && x.in()->flow_ecn[x.iF(p.sender)] != kEcnOff;
}

// The class marks p (CE) instead of discarding it: counted per class and colour, and per flow.
DS_HD DS_RARE void ecn_mark(Replica DS_REF x, Packet& p, size_t k, uint8_t colour) {
  p.cls = (uint8_t)(p.cls | kPktCe);
  if (!x.measuring) return;
  x.out_q_marks()[k * kMaxColours + colour] += 1;
  if (!stale(x, p)) x.out_flow_ce_marks()[p.sender] += 1;
}

// RED/RIO/WRED's verdict on an arrival at class c of link l (k its output index): false when
// it drops the packet (counted). A call, so that arrive() stays small for drop-tail replicas.
// ns-2's RED and dsRED queues count the packets waiting; the one on the wire has left its
// queue. Here a packet stays at the head of its queue until it has been sent: is class c's
// head the packet on link l's wire? (The class the link is sending; on a one-class link any
// head; under "cbq" every class is its own pipe, its head on that pipe's wire.)
DS_HD DS_INLINE bool head_on_wire(Replica DS_REF x, int l, int c, const Ring<Packet>& ring) {
  return !ring.empty() && (x.links()[l].busy_cls == c ||
                           (x.links()[l].busy_cls < 0 && x.in()->link_n_classes[x.iL(l)] == 1) ||
                           x.in()->link_sched[x.iL(l)] == kSchedCbq);
}

// `wire`: the class's head when it is on the link's wire (head_on_wire), else null: RED's
// count leaves it out.
DS_HD DS_RARE bool aqm_admits(Replica DS_REF x, Packet& p, int l, int c, size_t k,
                              uint8_t colour, bool fits, double t, const Packet* wire) {
  const size_t ik = x.iLC(l, c);
  const RedParams rp = red_params(x, ik);
  ReplicaHdr* h = x.hdr();
  const uint64_t seed = x.seed();
  RedState& rs = x.red()[k];
  const bool on_wire = wire != nullptr;
  const uint8_t head_colour = on_wire ? colour_of(*wire) : 0;
  const int head_bytes = on_wire ? wire->bytes : 0;
  if (on_wire) {
    rs.n[head_colour] -= 1;
    rs.b[head_colour] -= head_bytes;
  }
  const uint8_t v = red_arrival(rp, rs, colour, p.bytes, t, [h, seed, k]() {
    return draw_u01(seed, kFamAqm, (uint32_t)k, h->ctr_aqm);
  });
  if (on_wire) {
    rs.n[head_colour] += 1;
    rs.b[head_colour] += head_bytes;
  }
  if (v == kRedAccept && !fits) red_overflow(rp, x.red()[k], colour);
  // ECN: an ECT packet is marked instead of an early drop (and of a forced one where the class
  // has no hard drop: ns-3 RedQueueDisc UseHardDrop false); it then meets the buffer limit
  if (v != kRedAccept && DS_FEAT_NEW(h->f_ecn) &&
      ecn_verdict(x.in()->class_ecn[ik], ecn_capable(x, p), v == kRedEarly) == kEcnMarkIt) {
    ecn_mark(x, p, k, colour);
    return true;
  }
  if (v != kRedAccept) {
    DS_EV(ev_drop(x, v == kRedEarly ? kEvDropEarly : kEvDropForced));
    count_aqm_drop(x, p, k, colour, v == kRedEarly);
    count_flow_drop(x, p);
    return false;
  }
  return true;
}

// PIE's parameters of input class ik (model/queue_pie.h); byte mode when the limit is in bytes
// (ns-3's MaxSize in bytes).
DS_HD DS_INLINE PieParams pie_params(Replica DS_REF x, size_t ik) {
  PieParams pp;
  pp.qdelay_ref_s = x.in()->pie_qdelay_ref_s[ik];
  pp.a = x.in()->pie_alpha[ik];
  pp.b = x.in()->pie_beta[ik];
  pp.t_update_ns = x.in()->pie_t_update_ns[ik];
  pp.max_burst_ns = x.in()->pie_max_burst_ns[ik];
  pp.mean_pkt_bytes = x.in()->pie_mean_pkt_bytes[ik];
  pp.bytes_mode = x.in()->class_limit_kind[ik] == kLimitBytes ? 1 : 0;
  pp.cap_drop_adjustment = x.in()->pie_cap_drop_adjustment[ik];
  pp.derandomize = x.in()->pie_derandomize[ik];
  return pp;
}

// PIE's admission (ns-3 PieQueueDisc::DoEnqueue): a packet over the buffer is a forced drop
// (the caller's buffer_drop; PIE resets its accumulator), else DropEarly with one uniform draw
// of the class's own stream (kFamPie), an early drop counted as RED's are. `waiting`: the
// packets (bytes in byte mode) in the queue less the one on the wire, ns-3's queue disc size.
// True when the packet may go on to the buffer check and the queue.
DS_HD DS_RARE bool pie_admits(Replica DS_REF x, Packet& p, size_t ik, size_t k,
                              uint8_t colour, bool fits, int64_t waiting) {
  PieQueue& s = x.pie()[k];
  if (!fits) {
    pie_dropped(s.st);
    return true;
  }
  const PieParams pp = pie_params(x, ik);
  const double u = draw_u01(x.seed(), kFamPie, (uint32_t)k, s.ctr);
  if (!pie_drop_early(pp, s.st, waiting, p.bytes, u)) return true;
  pie_dropped(s.st);
  if (DS_FEAT_NEW(x.hdr()->f_ecn) &&
      pie_ecn_verdict(x.in()->class_ecn[ik], ecn_capable(x, p), s.st.drop_prob) == kEcnMarkIt) {
    ecn_mark(x, p, k, colour);  // ns-3 PieQueueDisc UseEcn: marked, then the buffer check
    return true;
  }
  DS_EV(ev_drop(x, kEvDropEarly));
  count_aqm_drop(x, p, k, colour, true);
  count_flow_drop(x, p);
  return false;
}

// PIE's updates due at slot `now` (model/queue_pie.h, pie_update): update u of a PIE class at
// the first slot whose start is at or after u x t_update, as ns-3 schedules CalculateP from
// Supdate 0 (the slotted engine's resolution: one slot). Only for replicas with PIE (f_pie).
DS_HD DS_RARE void pie_updates(Replica DS_REF x, uint32_t now) {
  const double start_ns = (double)now * x.in()->slot_ns[x.iR()];
  const int nl = x.in()->n_links[x.iR()];
  for (int l = 0; l < nl; ++l) {
    if (!x.links()[l].pie) continue;
    for (int c = 0; c < x.links()[l].n_classes; ++c) {
      const size_t ik = x.iLC(l, c);
      if (x.in()->class_aqm[ik] != kAqmPie) continue;
      PieQueue& s = x.pie()[x.oLC(l, c)];
      const PieParams pp = pie_params(x, ik);
      while ((double)s.updates * (double)pp.t_update_ns <= start_ns) {
        pie_update(pp, s.st);
        s.updates += 1;
      }
    }
  }
}

// PIE's delay estimate as class c of link l's packet leaves (link_send): its sojourn, whole
// slots (as CoDel's), and the bytes left (0: the delay is 0, ns-3 PieQueueDisc::DoDequeue
// without the rate estimator).
DS_HD DS_RARE void pie_depart(Replica DS_REF x, int l, int c, uint32_t sojourn_slots,
                                  int64_t bytes_left) {
  pie_departed(x.pie()[x.oLC(l, c)].st,
               (double)sojourn_slots * x.in()->slot_ns[x.iR()] * 1e-9, bytes_left);
}

// The validation hooks of an arrival: an injected drop of the flow's first transmission of
// this sequence number at its first link, or the link's Bernoulli loss element (a loss is
// counted here). Only for a replica that has one (f_hooks, a rare model: no paper's
// families use them, and the slim kernel has no code for them), since its two tests were
// ~20 SASS instructions of every arrival (hot_sass.py).
DS_HD DS_INLINE bool hook_lost(Replica DS_REF x, const Packet& p, int l, size_t k) {
  bool lost = false;
  if (!(p.flags & (kPktSource | kPktRexmit)) && hop_index(p) == 0 &&
      x.snd(p.sender).flow.has_drops) {
    const int32_t* drops = x.in()->flow_drop_seq + x.iF(p.sender) * kMaxInjectedDrops;
    for (int d = 0; d < kMaxInjectedDrops && drops[d] >= 0; ++d) lost |= drops[d] == p.seq;
  } else if (DS_FEAT(x.hdr()->f_sack) && (p.flags & kPktRexmit) && !(p.flags & kPktSource) &&
             hop_index(p) == 0 && x.snd(p.sender).flow.has_drops &&
             x.snd(p.sender).flow.variant == kSack) {
    // a SACK flow's segment listed twice loses its first retransmission too (a lost
    // retransmission: tests/test_tcp_sack.py); the sink's state remembers which were lost
    const int32_t* drops = x.in()->flow_drop_seq + x.iF(p.sender) * kMaxInjectedDrops;
    uint32_t& done = x.sack_rcvs()[p.sender].rexmit_lost;
    int seen = 0;
    for (int d = 0; d < kMaxInjectedDrops && drops[d] >= 0; ++d)
      if (drops[d] == p.seq && ++seen == 2 && !(done >> d & 1u)) {
        done |= 1u << d;
        lost = true;
      }
  }
  const double loss = x.links()[l].loss_prob;
  if (!lost && loss > 0.0)  // (a line of its own: benchmarks/gpu/hot_sass.py counts the draws)
    lost = draw_u01(x.seed(), kFamLoss, (uint32_t)l, x.hdr()->ctr_loss) < loss;
  if (lost) {  // counted at link class k
    DS_EV(ev_drop(x, kEvDropLoss));
    if (x.measuring) x.out_q_random_drops()[k] += 1;
    count_flow_drop(x, p);
  }
  return lost;
}

// The buffer refuses a packet of `colour` at link class k: a forced drop.
DS_HD DS_INLINE void buffer_drop(Replica DS_REF x, const Packet& p, size_t k, uint8_t colour) {
  DS_EV(ev_drop(x, kEvDropBuffer));
  if (x.measuring) x.out_q_drops()[k] += 1;
  count_aqm_drop(x, p, k, colour, false);
  count_flow_drop(x, p);
}

// The queue-length integrals (q_pkt_slots, q_byte_slots: over the measured slots, the length at
// each slot's end) are added when a length is about to change, for the slots it held since its
// last change: count x slots instead of a sum per slot, the same numbers exactly (integers in
// doubles, far below 2^53) without a pass over every queue in every slot. flush_replica adds
// the slots since the last change.
// `since` starts at the first measured slot (init_replica), so slots of the warm-up are never
// counted. Under "cbq" a class's head is on its own pipe's wire whenever the class holds a
// packet (head_on_wire), so the waiting queue's slots on the wire (q_wait_adj_slots, below)
// are taken off here too; on the other links the wire changes without the length (another
// class's packet ends): wire_start/wire_end.
// `pipe`: q.pipe, or false where the caller knows the link is not "cbq" (serve_link).
DS_HD DS_INLINE void occupancy_catch_up(Replica DS_REF x, ClassQueue& q, size_t k, uint32_t now,
                                        bool pipe) {
  if (now <= q.since) return;  // within the warm-up, or a second change in the same slot
  if ((q.ring.count | q.bytes) != 0) {
    const double n = (double)(now - q.since);
    x.out_q_pkt_slots()[k] += (double)q.ring.count * n;
    x.out_q_byte_slots()[k] += (double)q.bytes * n;
    if (pipe && q.ring.count > 0) q.wait_adj -= n;
  }
  q.since = now;
}

// The waiting queue (queues.mean_waiting_pkts = (q_pkt_slots + q_wait_adj_slots) / slots):
// what ns-2's queue monitor integrates, the packets in the queue less the one on the wire,
// over continuous time. The slot-end lengths less the head on the wire count a waiting packet
// from the end of its arrival slot to the end of the slot its transmission starts in; its
// wait in time runs from its arrival (its place within the slot is not modelled: the random
// order draws same-slot arrivals' order, not their times, so the middle, 1/2) to its start,
// the place in that slot at which the packet before it ended (1 - the credit left / the
// slot's credit). So q_wait_adj_slots takes off each slot end at which a head was on the wire
// and adds, for each packet that started behind another, (start place - 1/2), not below 0 for
// one that arrived in that same slot (it cannot have waited less than nothing). At the
// default slot, one packet time, every start is at a slot's end: -1 + 1/2 per packet that
// waited. Measures only: nothing the engine decides reads them.
// `credited`: slot_credit > 0 is known (a link's own credit, from which a packet was sent in
// this slot); a cbq class's share may be 0, its credit borrowed.
DS_HD DS_INLINE double start_phase(const Packet& head, double credit_left, double slot_credit,
                                   uint32_t now, bool credited = false) {
  if (credit_left <= 0.0) return 0.5;  // at a slot's end (every start at the default slot)
  double v = credited || slot_credit > 0.0 ? 1.0 - credit_left / slot_credit : 1.0;
  v = v < 0.0 ? 0.0 : v;
  const double add = v - 0.5;
  return add < 0.0 && head.t_enq == now ? 0.0 : add;
}

// Class c's head goes on link l's wire (not "cbq") at the end of slot `now`; `behind`: a
// packet of the link ended in this slot, so this one started where it ended. A head that goes
// on the wire within the warm-up is counted from the first measured slot's end (wire_since
// the warm-up's end, phase 0), so that wire_end needs no test of it.
DS_HD DS_INLINE void wire_start(Replica DS_REF x, LinkState& ls, const Packet& head, bool behind,
                                uint32_t now) {
  if (DS_UNLIKELY(!x.measuring)) {
    ls.wire_since = (uint32_t)x.in()->warmup_slot[x.iR()];
    ls.wire_phase = 0.0;
    return;
  }
  ls.wire_since = now;
  // (behind: a packet was sent from the link's credit, so bytes_per_slot > 0)
  ls.wire_phase = behind ? start_phase(head, ls.credit, ls.bytes_per_slot, now, true) : 0.0;
}

// The head on link l's wire (class queue q) ends in slot `now` (measured): it was on the wire
// at the slot ends from wire_since to now - 1.
DS_HD DS_INLINE void wire_end(const LinkState& ls, ClassQueue& q, uint32_t now) {
  q.wait_adj += ls.wire_phase - (double)((int64_t)now - (int64_t)ls.wire_since);
}

// The packet joins class c's ring at link l; false (lost, flagged) when the ring of an
// unlimited class is full (a limited class's buffer check comes first).
DS_HD DS_INLINE bool enqueue(Replica DS_REF x, const Packet& p, int l, int c, size_t k, uint32_t now) {
  Ring<Packet> qring = x.queue_ring(l, c);
  if (DS_UNLIKELY(qring.full())) {
    x.flag(kOvfQueueRing);
    DS_EV(ev_drop(x, kEvDropRing));
    if (x.measuring) x.out_q_drops()[k] += 1;
    count_flow_drop(x, p);
    return false;
  }
  ClassQueue& q = x.link_queues(l)[c];
  occupancy_catch_up(x, q, k, now, q.pipe);
  Packet& d = qring.push_slot();  // copied whole, then stamped in place
  d = p;
  d.t_enq = now;
  q.bytes += p.bytes;
  DS_EV(ev_enqueued(x, l, c));
  return true;
}

}  // namespace ds
#include "fq_side.h"  // FQ-CoDel's arrival and choice (after enqueue(): it calls it)

namespace ds {

// The device queue's steps stay calls on the device too, as FQ-CoDel's (engine/fq_side.h):
// one copy of devq_fill's body (CoDel's, FQ-CoDel's, PIE's and RED's dequeue steps) instead
// of one per call site; `inline`: one definition across the kernels' translation units (on
// the host, a rare step's call as every other: DS_RARE).
#if defined(__CUDACC__)
#define DS_DEVQ_CALL inline DS_SACK_CALL
#else
#define DS_DEVQ_CALL DS_RARE
#endif
DS_HD DS_DEVQ_CALL void devq_fill(Replica DS_REF x, int l, int c, int wire, uint32_t now);

// The ring's first n packets' bytes (the wire's and a device queue's: devq_fill).
DS_HD DS_INLINE int64_t ring_bytes_before(const Ring<Packet>& ring, int n) {
  int64_t b = 0;
  for (int j = 0; j < n; ++j) b += ring.at(j).bytes;
  return b;
}

// The ring places of class c of link l before its disc's (the wire's and the device queue's
// packets) and, in `bytes`, their bytes: what its limits leave out (arrive_full).
DS_HD DS_DEVQ_CALL int devq_held(Replica DS_REF x, int l, int c, int64_t& bytes) {
  const LinkState& ls = x.links()[l];
  const int held = (ls.busy_cls == c ? 1 : 0) + ls.devq_n;
  bytes = ring_bytes_before(x.queue_ring(l, c), held);
  return held;
}

// Whether a packet of `bytes` fits class queue q of link l's disc (drop_tail_fits on the
// disc alone: a device queue's limits, arrive_full).
DS_HD DS_DEVQ_CALL bool devq_fits(Replica DS_REF x, const ClassQueue& q, int l, int c,
                                  int bytes) {
  int64_t b = 0;
  const int n = devq_held(x, l, c, b);
  return drop_tail_fits(q, q.ring.count - n, q.bytes - b, bytes);
}

// The packets (bytes in byte mode) in class c of link l's disc: PIE's queue (pie_admits).
DS_HD DS_DEVQ_CALL int64_t devq_waiting(Replica DS_REF x, int l, int c, bool bytes_mode) {
  int64_t b = 0;
  const int n = devq_held(x, l, c, b);
  const ClassQueue& q = x.link_queues(l)[c];
  return bytes_mode ? q.bytes - b : (int64_t)q.ring.count - n;
}


// arrive() for a replica without colours, conditioners, AQM or traffic generators (the
// Kaur & Vin families, multi-hop drop-tail): the same steps and counters as arrive_full()
// takes for such a replica, in fewer instructions (every packet is green, none is stale; the
// per-colour arrival counts are filled from q_arrivals at the end: team.h, flush_replica).
DS_HD DS_FLATTEN void arrive_plain(Replica DS_REF x, const Packet& p, uint32_t now) {
  const int l = p.link, c = cls_index(p);
  const size_t k = x.oLC(l, c);
  if (x.measuring) {
    x.out_q_arrivals()[k] += 1;
    if (!(p.flags & kPktSource) && hop_index(p) == 0)
      x.out_flow_colour_pkts()[(size_t)p.sender * kMaxColours + kGreen] += 1;
  }
  DS_EV(ev_arrive(x, p, now));
  if (DS_FEAT(x.hdr()->f_hooks) && hook_lost(x, p, l, k)) return;
  ClassQueue& q = x.link_queues(l)[c];
  if (!drop_tail_fits(q, q.ring.count, q.bytes, p.bytes)) {
    buffer_drop(x, p, k, kGreen);
    return;
  }
  enqueue(x, p, l, c, k, now);
}

// A packet arrives at link p.link (at sub-slot time p.t_enq of slot `now`): its colour at
// the first link, its edge conditioner, the validation hooks (injected drops, Bernoulli loss),
// then the class queue's admission: RED/RIO/WRED if the class has one, then the buffer.
DS_HD inline void arrive_full(Replica DS_REF x, Packet p, uint32_t now) {
  const int l = p.link, c = cls_index(p);
  const size_t k = x.oLC(l, c);
  if (x.measuring) x.out_q_arrivals()[k] += 1;
  // Time for the conditioners and RED: within the slot only under the index order, which
  // sorts arrivals by it; the random order puts them at the slot's start (a meter's clock
  // must not run backwards between two arrivals).
  const ReplicaHdr& fh = *x.hdr();
  if (DS_FEAT(fh.f_traffic) && hop_index(p) == 0) transfer_switch(x, p);  // a pool slot's next transfer
  const double t = (DS_FEAT(fh.f_markers) || DS_FEAT(fh.f_aqm))
                       ? (double)now + (x.in()->tie_break[x.iR()] == kTieIndex
                                            ? (double)p.t_enq / kSubSlot : 0.0)
                       : 0.0;
  if (DS_FEAT(fh.f_colour) && hop_index(p) == 0)
    set_colour(p, (p.flags & kPktSource) ? x.in()->src_colour[x.iS(p.sender - x.shape().max_flows)]
                                         : x.in()->flow_colour[x.iF(p.sender)]);
  const int m = DS_FEAT(fh.f_markers) ? sender_marker(x, p) : -1;
  const bool marked_here = m >= 0 && x.in()->marker_link[x.iM(m)] == l;
  if (marked_here) {
    condition(x, p, m, t);
  } else if (m >= 0 && !(p.flags & kPktSource)) {  // a later domain's edge re-conditions it
    const int m2 = x.in()->flow_marker2[x.iF(p.sender)];
    if (m2 >= 0 && x.in()->marker_link[x.iM(m2)] == l) condition(x, p, m2, t);
  }
  const uint8_t colour = colour_of(p);
  DS_EV(ev_arrive(x, p, now));  // after its edge conditioner: with the colour it queues with
  if (x.measuring) {
    // without colours every arrival is green: flush_replica copies q_arrivals instead
    if (DS_FEAT(fh.f_colour)) x.out_q_colour_arrivals()[k * kMaxColours + colour] += 1;
    if (!(p.flags & kPktSource) && (marked_here || (m < 0 && hop_index(p) == 0)) && !stale(x, p))
      x.out_flow_colour_pkts()[(size_t)p.sender * kMaxColours + colour] += 1;
  }
  if (DS_FEAT(fh.f_hooks) && hook_lost(x, p, l, k)) return;
  ClassQueue& q = x.link_queues(l)[c];
  const size_t ik = x.iLC(l, c);
  const uint8_t aqm = DS_FEAT(fh.f_aqm) ? x.in()->class_aqm[ik] : (uint8_t)kAqmDropTail;
  // The buffer: a drop-tail limit counts the packet on the wire (ns-2's DropTail holds
  // limit - 1 waiting packets and the one being sent); RED and dsRED count the packets
  // waiting (red.cc: qlen >= qlim is a forced drop; dsredq.cc: q_->length() > qlim - 1), so
  // that they hold limit waiting packets and the one on the wire. So does CoDel (ns-3's
  // queue disc holds MaxSize packets; the one on the wire has left it).
  const Packet* wire = nullptr;
  // a device queue (devq_fill): every limit counts the disc alone, as ns-3's queue disc, and
  // the wire's and the device queue's packets have left RED's and PIE's counts (wire null);
  // its counts through calls (devq_held), so that the path without one keeps its registers
  const bool devq = DS_FEAT_NEW(x.links()[l].devq_cap) != 0;
  if (aqm != kAqmDropTail && !devq) {
    const Ring<Packet> ring = x.queue_ring(l, c);
    if (head_on_wire(x, l, c, ring)) wire = &ring.front();
  }
  const bool fits = devq ? devq_fits(x, q, l, c, p.bytes)
                         : drop_tail_fits(q, q.ring.count - (wire != nullptr),
                                          q.bytes - (wire ? wire->bytes : 0), p.bytes);
  // ns-2's RED (red.cc) updates its average before it sees that the buffer is full; its
  // DiffServ multi-RED (dsredq.cc) refuses an overflowing packet first (model/queue_red.h).
  // CoDel (kAqmCodel) judges at dequeue (codel_take): here only its buffer limit.
  if (DS_FEAT_NEW(fh.f_fqcodel) && aqm == kAqmFqCodel) {  // over the limit: FqCoDelDrop
    int64_t b = 0;
    fq_arrive(x, p, l, c, k, fits, devq ? devq_held(x, l, c, b) : (wire != nullptr), now);
    if (devq) devq_fill(x, l, c, x.links()[l].busy_cls == c ? 1 : 0, now);
    return;
  }
  const bool red = aqm_is_red(aqm);
  if ((aqm == kAqmRed || (red && fits)) && !aqm_admits(x, p, l, c, k, colour, fits, t, wire))
    return;
  if (DS_FEAT_NEW(fh.f_pie) && aqm == kAqmPie &&
      !pie_admits(x, p, ik, k, colour, fits,
                  devq ? devq_waiting(x, l, c, x.in()->class_limit_kind[ik] == kLimitBytes)
                  : x.in()->class_limit_kind[ik] == kLimitBytes
                      ? q.bytes - (wire ? wire->bytes : 0)
                      : (int64_t)q.ring.count - (wire != nullptr)))
    return;
  if (!fits) {
    buffer_drop(x, p, k, colour);
    return;
  }
  if (enqueue(x, p, l, c, k, now) && red) red_enqueued(x.red()[k], colour, p.bytes);
  // into the device queue at once if it has room (ns-3: QueueDisc::Run after the enqueue)
  if (devq) devq_fill(x, l, c, x.links()[l].busy_cls == c ? 1 : 0, now);
}

DS_HD DS_FLATTEN void arrive(Replica DS_REF x, const Packet& p, uint32_t now) {
  if (DS_FEAT(x.hdr()->f_arrive))  // colours, conditioners, AQM or traffic generators
    arrive_full(x, p, now);
  else
    arrive_plain(x, p, now);
}

// A packet has left link l: on to the next hop's delay line, or to its receiver.
DS_HD DS_FLATTEN void depart(Replica DS_REF x, const Packet& p, int l, uint32_t now) {
  if (hop_index(p) + 1 < hops_of(x, p)) {
    Ring<TimedPacket> dl = x.dline_ring(l);
    if (DS_UNLIKELY(dl.full())) {
      x.flag(kOvfDelayLine);
      return;
    }
    TimedPacket& tp = dl.push_slot();  // written in place (Ring::push_slot, put_packet)
    put_packet(&tp.pkt, p.seq, p.t_enq, p.sender, p.bytes, p.hop, p.cls, p.flags, p.link);
    tp.due = now + (uint32_t)x.in()->link_prop_slots[x.iL(l)];
    tp.pad = 0;
    return;
  }
  if (p.flags & kPktSource) {
    if (x.measuring) x.out_src_delivered_bytes()[p.sender - x.shape().max_flows] += p.bytes;
    return;
  }
  if (stale(x, p)) return;  // from an earlier transfer of a reused pool slot
  receive_segment(x, p.sender, p.seq, now, (uint8_t)(p.cls & kPktEcnBits));
  if (DS_FEAT(x.hdr()->f_traffic) && x.in()->flow_gen[x.iF(p.sender)] >= 0)
    transfer_progress(x, p.sender, now);
}

// A departure's rare steps (LinkState::deq), p the packet leaving class queue q (its bytes
// already taken off).
DS_HD DS_INLINE void link_send_rare(Replica DS_REF x, int l, int c, const Packet& p,
                                    const ClassQueue& q, uint32_t now) {
  const uint8_t deq = x.links()[l].deq;
  const uint8_t aqm = x.in()->class_aqm[x.iLC(l, c)];
  // the packet has left at the slot's end, after its transmission time at the link's rate
  // (RED is idle from its end, the multi-RED modes from its start: model/queue_red.h)
  if ((deq & kDeqRed) && aqm_is_red(aqm)) {
    const double end = (double)now + 1.0;
    red_dequeued(x.red()[x.oLC(l, c)], colour_of(p), p.bytes,
                 end - (double)p.bytes / x.links()[l].bytes_per_slot, end);
  }
  if (DS_FEAT_NEW(deq & kDeqPie) && aqm == kAqmPie) pie_depart(x, l, c, now - p.t_enq, q.bytes);
  // the queueing-delay histogram (Scenario.queue_delay_hist): the wait of q_max_delay_slots, binned
  if ((deq & kDeqHist) && x.measuring)
    x.out_q_delay_hist()[x.oLC(l, c) * (size_t)kQDelayBins + qdelay_bin(now - p.t_enq)] += 1;
}

// The head packet of class c leaves link l (its credit has been taken); `pipe`: the link is
// "cbq" (ClassQueue::pipe, known at each call).
DS_HD DS_FLATTEN void link_send(Replica DS_REF x, int l, int c, Ring<Packet> ring, uint32_t now,
                                bool pipe) {
  ClassQueue* q = x.link_queues(l);
  occupancy_catch_up(x, q[c], x.oLC(l, c), now, pipe);
  // Read in place: a packet enqueued in this slot may still be in the store buffer in parts,
  // which a whole copy could not forward from. Its ring place is not reused before this
  // function ends (nothing below enqueues into this class).
  const Packet& p = ring.front();
  ring.pop_front();
  q[c].bytes -= p.bytes;
  // RED's idle time, PIE's delay estimate, the histogram: one test of the link's byte for all
  if (DS_FEAT(x.links()[l].deq)) link_send_rare(x, l, c, p, q[c], now);
  if (x.measuring) {
    const size_t k = x.oLC(l, c);
    x.out_q_departures()[k] += 1;
    x.out_q_bytes_departed()[k] += p.bytes;
    const int64_t wait = (int64_t)(now - p.t_enq);
    if (wait > x.out_q_max_delay_slots()[k]) x.out_q_max_delay_slots()[k] = wait;
  }
  DS_EV(ev_depart(x, p, l, c, now, hop_index(p) + 1 >= hops_of(x, p)));
  depart(x, p, l, now);
}

// Class c of link l as CoDel's dequeue sees it (model/queue_codel.h: codel_dequeue's Q): the
// head's sojourn in CoDel time, the bytes behind it, and a drop of the head at dequeue
// (counted as an early drop of its colour: docs/columns.md). kAfter: the disc's head is ring
// place `pos`, after the wire's and a device queue's packets (devq_fill), else the front (the
// link's own dequeue: codel_take, whose inlined code stays as it was without device queues).
template <bool kAfter>
struct CodelClassAt {
  Replica DS_REF x;
  int l, c;
  size_t k;
  uint32_t now;
  double ns_per_slot;
  int pos = 0;             // kAfter: the disc's head's place in the ring
  int64_t held_bytes = 0;  // kAfter: the bytes before it (the wire's and the device queue's)
  DS_HD DS_INLINE int at() const { return kAfter ? pos : 0; }
  DS_HD DS_INLINE bool head(uint32_t& sojourn, int64_t& bytes_left) {
    const Ring<Packet> ring = x.queue_ring(l, c);
    if (ring.size() <= at()) return false;
    const Packet& h = ring.at(at());
    sojourn = codel_time((double)(now - h.t_enq), ns_per_slot);
    bytes_left = x.link_queues(l)[c].bytes - (kAfter ? held_bytes : 0) - h.bytes;
    return true;
  }
  DS_HD DS_INLINE void drop_head() {
    Ring<Packet> ring = x.queue_ring(l, c);
    ClassQueue& q = x.link_queues(l)[c];
    occupancy_catch_up(x, q, k, now, q.pipe);
    Packet p;
    if (kAfter) {
      p = ring.remove_at(pos);
    } else {
      p = ring.front();
      ring.pop_front();
    }
    q.bytes -= p.bytes;
    DS_EV(ev_drop_head(x, p, l, c, now));
    count_aqm_drop(x, p, k, colour_of(p), true);
    count_flow_drop(x, p);
  }
  // ns-3 CoDelQueueDisc UseEcn: mark the head instead of dropping it when it is ECT and the
  // class marks (model/queue_codel.h); false: drop it
  DS_HD DS_INLINE bool mark_head() {
    if (!DS_FEAT_NEW(x.hdr()->f_ecn) || !(x.in()->class_ecn[x.iLC(l, c)] & kClassEcnMark))
      return false;
    Packet& h = x.queue_ring(l, c).at(at());
    if (!ecn_capable(x, h)) return false;
    ecn_mark(x, h, k, colour_of(h));
    return true;
  }
};
using CodelClass = CodelClassAt<false>;

// Link l takes its next packet, from class c (-1: every class empty): CoDel's dequeue
// (RFC 8289 section 3, ns-3 CoDelQueueDisc::DoDequeue) on c if it is a CoDel class, and every
// empty CoDel class of the link leaves its dropping state, as ns-3's dequeue of an empty
// queue does (a priority scheduler asks each class in turn). True when CoDel emptied class c:
// the scheduler chooses again. Only for replicas with a CoDel class (f_codel). FQ-CoDel's
// dequeue (engine/fq_side.h: fq_take) goes first when the link has an FQ-CoDel class: the
// same step, behind the same flag (LinkState::codel's kLinkTakeFq bit).
DS_HD DS_INLINE CodelParams codel_params(Replica DS_REF x, size_t ik) {
  CodelParams cp;
  cp.target = x.in()->codel_target[ik];
  cp.interval = x.in()->codel_interval[ik];
  cp.min_bytes = x.in()->codel_min_bytes[ik];
  return cp;
}

DS_HD DS_RARE bool codel_take(Replica DS_REF x, int l, int c, uint32_t now) {
  const int nc = x.links()[l].n_classes;
  bool emptied = x.links()[l].fq && fq_take(x, l, c, now);
  if (!(x.links()[l].codel & kLinkTakeCodel)) return emptied;  // no CoDel class
  for (int j = 0; j < nc; ++j) {
    const size_t ik = x.iLC(l, j);
    if (x.in()->class_aqm[ik] != kAqmCodel) continue;
    const size_t k = x.oLC(l, j);
    CodelState& s = x.codel()[k];
    if (j == c) {
      const double ns_per_slot = x.in()->slot_ns[x.iR()];
      CodelClass q{x, l, j, k, now, ns_per_slot};
      codel_dequeue(codel_params(x, ik), s, codel_time((double)now, ns_per_slot), q);
      emptied = emptied || x.queue_ring(l, j).empty();
    } else if (x.queue_ring(l, j).empty()) {
      s.dropping = 0;
    }
  }
  return emptied;
}

// A device queue on link l (Link.device_queue_pkts; LinkState::devq_cap > 0, a link of one
// class c), as ns-3's flow-controlled device transmit queue (PointToPointNetDevice TxQueue):
// whenever it has room the queue disc is asked for its next packet (QueueDisc::Run, after
// every enqueue and when TransmitStart takes the device queue's head onto the wire and wakes
// the queue), so the AQM's dequeue (CoDel's drops and marks, FQ-CoDel's choice, PIE's delay
// estimate, RED's departure and idle time, the sojourn of the queueing-delay histogram)
// happens as a packet moves into it, and a dequeue that finds the disc empty leaves CoDel's
// dropping state as ns-3's does. The packets stay in the class ring, in order: the wire's
// (`wire`: 1 when the front is on it), then the device queue's (devq_n), then the disc's.
DS_HD DS_DEVQ_CALL void devq_fill(Replica DS_REF x, int l, int c, int wire, uint32_t now) {
  LinkState& ls = x.links()[l];
  const size_t ik = x.iLC(l, c), k = x.oLC(l, c);
  const uint8_t aqm = x.in()->class_aqm[ik];
  const Ring<Packet> ring = x.queue_ring(l, c);
  const double ns_per_slot = x.in()->slot_ns[x.iR()];
  while (ls.devq_n < ls.devq_cap) {
    const int pos = wire + ls.devq_n;
    // the wire's and the device queue's bytes (the AQM's steps below act at pos and after)
    const int64_t before = ring_bytes_before(ring, pos);
    if (DS_FEAT_NEW(x.hdr()->f_codel) && aqm == kAqmCodel) {
      CodelClassAt<true> q{x, l, c, k, now, ns_per_slot, pos, before};
      codel_dequeue(codel_params(x, ik), x.codel()[k], codel_time((double)now, ns_per_slot), q);
    } else if (DS_FEAT_NEW(x.hdr()->f_fqcodel) && aqm == kAqmFqCodel) {
      fq_take(x, l, ring.size() > pos ? c : -1, now, pos);
    }
    if (ring.size() <= pos) return;  // the disc is empty
    const Packet& p = ring.at(pos);
    ls.devq_n += 1;
    // the packet has left the disc: RED's count (idle from when the link asks the empty
    // disc again, as ns-3's RedQueueDisc::DoDequeue: when the packets before it have left
    // the wire), PIE's delay estimate (its sojourn, the bytes left), the histogram
    if (aqm_is_red(aqm)) {
      // the next ask: now if the device queue still has room or nothing is on the wire, else
      // when the wire's packet ends (its bytes the credit does not cover yet); at a slot's end
      const double rest = wire && ls.devq_n == ls.devq_cap
                              ? (double)ring.front().bytes - ls.credit : 0.0;
      const double ask = (double)now + 1.0 + (rest > 0.0 ? rest / ls.bytes_per_slot : 0.0);
      red_dequeued(x.red()[k], colour_of(p), p.bytes, ask);
    }
    if (DS_FEAT_NEW(x.hdr()->f_pie) && aqm == kAqmPie)
      pie_depart(x, l, c, now - p.t_enq, x.link_queues(l)[c].bytes - before - p.bytes);
    if (DS_FEAT(x.hdr()->f_qhist) && x.measuring)
      x.out_q_delay_hist()[k * (size_t)kQDelayBins + qdelay_bin(now - p.t_enq)] += 1;
  }
}

// Link l's one class c starts its front packet: it leaves the device queue for the wire, and
// the device queue takes the disc's next (devq_fill).
DS_HD DS_INLINE void devq_start(Replica DS_REF x, LinkState& ls, int l, int c, uint32_t now) {
  if (ls.devq_n == 0) devq_fill(x, l, c, 0, now);  // (an arrival has always filled it)
  ls.devq_n -= 1;
  devq_fill(x, l, c, 1, now);
}

// Class c sends from its own cbq credit while that covers its head packet.
DS_HD inline void cbq_serve_class(Replica DS_REF x, int l, int c, uint32_t now, uint32_t& sent) {
  CbqState& s = x.links()[l].cbq;
  Ring<Packet> ring = x.queue_ring(l, c);
  while (!ring.empty() && (double)ring.front().bytes <= s.credit[c]) {
    s.credit[c] -= (double)ring.front().bytes;
    link_send(x, l, c, ring, now, true);
    sent |= 1u << c;
  }
}

// Class-based isolation (model/sched_cbq.h): each class from its own credit, then (lending)
// the empty classes' leftover to the backlogged ones in class order.
DS_HD inline void serve_link_cbq(Replica DS_REF x, int l, uint32_t now) {
  LinkState& ls = x.links()[l];
  const size_t il = x.iL(l);
  ClassQueue* q = x.link_queues(l);
  const int nc = ls.n_classes;
  cbq_add_credit(ls.cbq, x.in()->class_share + x.iLC(l, 0), ls.bytes_per_slot, nc);
  uint32_t sent = 0;  // the classes that sent in this slot (a bit each)
  for (int c = 0; c < nc; ++c) cbq_serve_class(x, l, c, now, sent);
  if (x.in()->link_cbq_lend[il]) {
    double pool = cbq_collect(ls.cbq, q, nc);
    for (int c = 0; c < nc && pool > 0.0; ++c) {
      if (q[c].ring.count == 0) continue;
      ls.cbq.credit[c] += pool;
      pool = 0.0;
      cbq_serve_class(x, l, c, now, sent);
      if (q[c].ring.count == 0) {  // emptied on borrowed credit: the rest passes on
        pool = ls.cbq.credit[c];
        ls.cbq.credit[c] = 0.0;
      }
    }
  }
  // a class that sent in this slot and still holds a packet: its new head started where the
  // last one ended (start_phase), on its own pipe
  if (x.measuring)
    for (int c = 0; c < nc; ++c)
      if ((sent >> c & 1u) && q[c].ring.count > 0)
        q[c].wait_adj += start_phase(x.queue_ring(l, c).front(), ls.cbq.credit[c],
                                     x.in()->class_share[x.iLC(l, c)] * ls.bytes_per_slot, now);
  cbq_end_slot(ls.cbq, q, nc);
  link_end_slot(ls, q);
}

// Byte-credit service of link l for one slot (model/link.h). The head already on the wire
// (busy_cls) is taken before the loop: it ends here or the slot is done, and its end closes
// its slot-ends on the wire (wire_end). In the loop nothing is on the wire, so the scheduler
// chooses with no test of busy_cls, and CoDel's and the device queue's steps need none; each
// pass sends the packet the one before chose (c >= 0), then chooses the next. The same steps
// in the same order as a loop that tested busy_cls at each pass (callgrind: ~4 instructions
// a bottleneck packet fewer).
// serve_link in two: serve_link_quick, the slot of a link that sends nothing (a busy link's
// packet still on the wire after the slot's credit, or an idle link with every class empty
// and no CoDel step: done, true), else false with the credit added and serve_link_rest to do
// the rest (CBQ's links: all of it). Both quick cases end as serve_link_rest would end them.
// (Both inlined in serve_link on the host too, as one function: as calls they cost the 1-flow
// case 13% of its speed, ab.py.)
DS_HD DS_FLATTEN bool serve_link_quick(Replica DS_REF x, int l) {
  LinkState& ls = x.links()[l];
  if (ls.sched == kSchedCbq) return false;
  link_add_credit(ls, ls.bytes_per_slot);
  if (ls.busy_cls >= 0) {
    if ((double)ls.wire_bytes <= ls.credit) return false;  // it ends in this slot
    ls.idle = 0;
    return true;
  }
  if (DS_FEAT_NEW(ls.codel)) return false;
  const ClassQueue* q = x.link_queues(l);
  for (int c = 0; c < ls.n_classes; ++c)  // (what either scheduler's pick would find)
    if (q[c].ring.count > 0) return false;
  ls.idle = 1;
  return true;
}

DS_HD DS_FLATTEN void serve_link_rest(Replica DS_REF x, int l, uint32_t now) {
  LinkState& ls = x.links()[l];
  const uint8_t sched = (uint8_t)ls.sched;
  if (sched == kSchedCbq) {
    serve_link_cbq(x, l, now);
    return;
  }
  ClassQueue* q = x.link_queues(l);
  int c = ls.busy_cls;  // the class to send from next (-1: none chosen yet)
  Ring<Packet> ring{};
  if (c >= 0) {
    // it ends in this slot (its front is the wire's packet: nothing takes it off the wire)
    ring = x.queue_ring(l, c);
    ls.credit -= (double)ring.front().bytes;
    if (x.measuring) wire_end(ls, q[c], now);
    ls.busy_cls = -1;
  }
  const int nc = ls.n_classes;
  // (WRR's weights read where WRR uses them: kept for the loop, their pointer was a stack
  // slot that every priority link's slot wrote)
  bool sent = false;  // a packet ended in this slot: the next one starts where it ended
  for (;;) {
    if (c >= 0) {  // the packet chosen (its credit taken) leaves
      sent = true;
      if (sched == kSchedWrr) wrr_sent(ls.wrr, c, nc, x.in()->class_weight + x.iLC(l, 0));
      link_send(x, l, c, ring, now, false);
    }
    c = sched == kSchedPriority ? priority_pick(q, nc)
                                : wrr_pick(ls.wrr, q, nc, x.in()->class_weight + x.iLC(l, 0));
    // CoDel acts when the link takes a class's next packet: it may drop heads, and a class it
    // empties leaves the choice to the scheduler again
    if (DS_FEAT_NEW(ls.codel) && codel_take(x, l, c, now)) {
      c = -1;
      continue;
    }
    if (c < 0) {  // nothing on the wire, every class empty: what link_end_slot would find
      ls.idle = 1;  // (a packet's class is one of every link's on its route, scenario.py)
      return;
    }
    if (DS_FEAT_NEW(ls.devq_cap)) devq_start(x, ls, l, c, now);
    ring = x.queue_ring(l, c);
    const int bytes = ring.front().bytes;
    if ((double)bytes > ls.credit) {
      ls.busy_cls = c;
      ls.wire_bytes = bytes;
      ls.idle = 0;
      wire_start(x, ls, ring.front(), sent, now);
      return;
    }
    ls.credit -= (double)bytes;
  }
}

// Inlined on the host as well: called from serve_links and serve_links_from, g++'s link-time
// inliner made it a call (~10 instructions a replica-slot, callgrind).
DS_HD DS_FLATTEN void serve_link(Replica DS_REF x, int l, uint32_t now) {
  if (!serve_link_quick(x, l)) serve_link_rest(x, l, now);
}

// The random tie-break's shuffle of n positions (Fisher-Yates): swap(i, j) for i from n - 1
// down to 1, j uniform on [0, i]; the same draws whatever is swapped (packets or indices).
template <class Swap>
DS_HD DS_INLINE void tie_shuffle(Replica DS_REF x, uint32_t n, Swap swap) {
  for (uint32_t i = n - 1; i > 0; --i) {
    const double u = draw_u01(x.seed(), kFamTie, 0u, x.hdr()->ctr_tie);
    const uint32_t j = (uint32_t)(u * (double)(i + 1));
    swap(i, j > i ? i : j);
  }
}

// (Inlined on the host: slot_front_end's two callers made it a call, 12 instructions a
// replica-slot.)
DS_HD DS_HOST_INLINE void order_arrivals(Replica DS_REF x) {
  const uint32_t n = x.hdr()->stage_count;
  if (n < 2) return;
  Packet* a = x.stage();
  if (x.in()->tie_break[x.iR()] == kTieRandom) {
    // Timing noise between senders, not within one: a sender's packets left its access link
    // in order, so after the shuffle each sender's packets are put back in their arrival
    // order, in the positions the shuffle gave that sender.
    bool repeated = false;
    for (uint32_t i = 1; i < n && !repeated; ++i)
      for (uint32_t j = 0; j < i && !repeated; ++j) repeated = a[j].sender == a[i].sender;
    if (!repeated) {
      tie_shuffle(x, n, [&](uint32_t i, uint32_t j) {
        const Packet t = a[i];
        a[i] = a[j];
        a[j] = t;
      });
      return;
    }
    // A sender with two packets here: the same shuffle on the packets' indices (perm[i]: the
    // packet that goes to position i), each sender's packets then given its positions in
    // their arrival order, and the packets moved once at the end. (A copy of the packets in
    // their arrival order would need a scratch of the buffer's size: 2,240 bytes of a
    // 64-flow replica's state.)
    uint32_t* perm = x.stage_perm();
    for (uint32_t i = 0; i < n; ++i) perm[i] = i;
    tie_shuffle(x, n, [&](uint32_t i, uint32_t j) {
      const uint32_t t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    });
    for (uint32_t i = 0; i < n; ++i) {
      const uint16_t s = a[perm[i]].sender;
      uint32_t before = 0;  // this sender's packets in earlier positions
      for (uint32_t j = 0; j < i; ++j) before += a[perm[j]].sender == s;
      for (uint32_t k = 0;; ++k) {  // its arrival number `before`
        if (a[k].sender != s) continue;
        if (before-- == 0) {
          perm[i] = k;
          break;
        }
      }
    }
    for (uint32_t i = 0; i < n; ++i) {  // position i takes packet perm[i]: cycle by cycle
      if (perm[i] == i) continue;
      const Packet first = a[i];
      uint32_t at = i;
      for (;;) {
        const uint32_t from = perm[at];
        perm[at] = at;  // done
        if (from == i) {
          a[at] = first;
          break;
        }
        a[at] = a[from];
        at = from;
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

// A replica's inputs that every slot reads, loaded once per run of slots: the state's stores
// may alias the inputs for the compiler, so it reloaded each through the view every slot.
struct SlotInputs {
  int64_t warmup_slot;
  int n_sources, n_links, lanes;
};

// A slot of the queue side in parts, each a stage of the wavefront schedule's slot phases
// (docs/design.md, "The slot phases"): slot_front (timers, the lanes' emissions staged),
// slot_sources (only where a source is on or switches: sources_due), slot_front_end (delay
// lines, the arrivals' order), slot_arrivals (only where something arrives), and the
// service: serve_links_quick, then
// serve_links_from where a link needs more than its quick step, then slot_serve_end (RED's
// averages). queue_slot runs them in turn: the replica-major order. Each part takes the view
// with `measuring` set for the slot (slot_view; by reference on the device too, where a view
// is otherwise passed by value).
DS_HD DS_INLINE void slot_view(Replica& x, uint32_t now, const SlotInputs& si) {
  x.measuring = (int64_t)now >= si.warmup_slot;
}

DS_HD DS_FLATTEN void slot_front(Replica DS_REF x, uint32_t now, const SlotInputs& si) {
  DS_TRACE_AT(x, kTrTimers, now);
  if (DS_FEAT_NEW(x.hdr()->f_pie)) pie_updates(x, now);  // at the slot's start, before its arrivals
  if (now >= x.hdr()->peak_due) count_starts(x, now);  // transfers starting now (traffic only)
  while (x.rxtree().min_key() <= now) {  // delayed-ACK timers
    const int f = x.rxtree().min_index();
    x.rcv(f).delack_due = kNeverSlot;
    x.rxtree().set(f, kNeverSlot);
    const int32_t a = x.push_ack(f, x.rcv(f).rcv_next - 1, now);
    if (DS_FEAT_NEW(x.hdr()->f_ecn) && a >= 0) x.acks()[a].ece = x.ecns()[f].rx_ece;
    // the held segment was in order: its ACK carries what the SACK sink's stack still holds
    if (x.snd(f).flow.variant == kSack && DS_FEAT(x.hdr()->f_sack))
      sack_sink_ack(x, f, x.rcv(f).rcv_next - 1, a);
  }
  DS_TRACE_AT(x, kTrStage, now);
  for (int k = 0; k < si.lanes; ++k)  // lanes own ascending blocks: flow order
    x.stage_emitted(k, now);
}

// The sources' emissions of the slot (source_step, model/source_onoff.h), in source order.
// sources_due: whether any of them has more to do than its idle test (an off source whose
// off period outlasts the slot), i.e. whether slot_sources changes anything.
DS_HD DS_INLINE bool sources_due(Replica DS_REF x, uint32_t now, const SlotInputs& si) {
  for (int s = 0; s < si.n_sources; ++s)
    if (!source_idle(x.src(s), now)) return true;
  return false;
}

DS_HD DS_FLATTEN void slot_sources(Replica DS_REF x, uint32_t now, const SlotInputs& si) {
  DS_TRACE_AT(x, kTrSources, now);
  for (int s = 0; s < si.n_sources; ++s) source_step(x, s, now);
}

// The slot's front after the sources: multi-hop delay lines due, then the arrivals' order.
DS_HD DS_FLATTEN void slot_front_end(Replica DS_REF x, uint32_t now, const SlotInputs& si) {
  DS_TRACE_AT(x, kTrDelayLines, now);
  const int nl = si.n_links;
  for (int l = 0; l < (x.hdr()->f_hops ? nl : 0); ++l) {  // (none with single-hop routes)
    if (x.links()[l].dline.count == 0) continue;
    Ring<TimedPacket> dl = x.dline_ring(l);
    while (!dl.empty() && dl.front().due <= now) {
      DS_EV(ev_hop(x, dl.front().pkt, l, now));  // it reaches link l's far end now
      Packet* p = x.stage_slot();  // the next hop's arrival, written whole (put_packet)
      if (!p) {
        dl.pop_front();
        continue;
      }
      const Packet& q = dl.front().pkt;  // (written a link's delay ago)
      int n_hops = 0;
      const int8_t* route = route_of(x, q, n_hops);
      const uint8_t hop = (uint8_t)(q.hop + 1);
      put_packet(p, q.seq, 0 /* at the slot's start */, q.sender, q.bytes, hop, q.cls, q.flags,
                 (uint8_t)route[hop & kHopMask]);
      dl.pop_front();
    }
  }
  DS_TRACE_AT(x, kTrOrder, now);
  if (x.hdr()->stage_count > 1) order_arrivals(x);
}

// The slot's arrivals at their links, in the order slot_front left them.
DS_HD DS_FLATTEN void slot_arrivals(Replica DS_REF x, uint32_t now) {
  DS_TRACE_AT(x, kTrArrive, now);
  for (uint32_t i = 0; i < x.hdr()->stage_count; ++i) arrive(x, x.stage()[i], now);
  x.hdr()->stage_count = 0;
}

// The slot's service in queue_slot: the links in turn, each serve_link (serve_link_quick, else
// serve_link_rest), what serve_links_quick and serve_links_from do in two stages (that split
// in queue_slot made ptxas spill the persistent slim kernel 34 / 40 bytes, sm_90). The parts'
// trace marks come in a slot's order down this file (hot_sass.py, line_profile.py read them).
DS_HD DS_FLATTEN void serve_links(Replica DS_REF x, uint32_t now, const SlotInputs& si) {
  DS_TRACE_AT(x, kTrServe, now);
  for (int l = 0; l < si.n_links; ++l) serve_link(x, l, now);
}

// The service's quick steps, link by link, up to the first link that needs more
// (serve_link_quick): its index, or n_links when every link is done. A quick step touches
// only its own link, so the links after that one may be served after it (serve_links_from)
// in a later stage.
DS_HD DS_INLINE int serve_links_quick(Replica DS_REF x, const SlotInputs& si) {
  for (int l = 0; l < si.n_links; ++l)
    if (!serve_link_quick(x, l)) return l;
  return si.n_links;
}

// The rest of the slot's service from link l0 on, which serve_links_quick left.
DS_HD DS_INLINE void serve_links_from(Replica DS_REF x, int l0, uint32_t now, const SlotInputs& si) {
  serve_link_rest(x, l0, now);
  for (int l = l0 + 1; l < si.n_links; ++l) serve_link(x, l, now);
}

DS_HD DS_FLATTEN void slot_serve_end(Replica DS_REF x, uint32_t now, const SlotInputs& si) {
  const int nl = si.n_links;
  DS_TRACE_AT(x, kTrRedAvg, now);
  if (DS_FEAT(x.hdr()->f_aqm) && x.measuring) {  // RED's average moves every slot; the lengths do not
    for (int l = 0; l < nl; ++l) {
      const int nc = x.links()[l].n_classes;
      for (int c = 0; c < nc; ++c) {
        const size_t k = x.oLC(l, c);
        const size_t ik = x.iLC(l, c);
        if (aqm_is_red(x.in()->class_aqm[ik])) {
          RedParams rp;  // red_avg_of reads only the mode
          rp.aqm = x.in()->class_aqm[ik];
          for (int col = 0; col < kMaxColours; ++col)
            x.out_q_red_avg_slots()[k * kMaxColours + col] += red_avg_of(rp, x.red()[k], (uint8_t)col);
        }
      }
    }
  }
}

DS_HD DS_INLINE SlotInputs slot_inputs(Replica DS_REF x) {
  return SlotInputs{x.in()->warmup_slot[x.iR()], x.in()->n_sources[x.iR()],
                    x.in()->n_links[x.iR()], x.shape().lanes};
}

DS_HD DS_FLATTEN void queue_slot(Replica DS_REF x, uint32_t now, const SlotInputs& si) {
  slot_view(x, now, si);
  slot_front(x, now, si);
  slot_sources(x, now, si);
  slot_front_end(x, now, si);
  slot_arrivals(x, now);
  serve_links(x, now, si);
  slot_serve_end(x, now, si);
}

// The queue side's slots [t0, t1). On the host one call for them all, each slot inlined in
// the loop (DS_FLATTEN): a call per slot cost its prologue, its epilogue and the reloads of
// the view's addresses every slot (callgrind, benchmarks/cpu/slot_cost.py, with receive_segment
// inlined too: 1 flow 802 -> 789 instructions per replica-slot, 64 flows 977 -> 967).
// The queue trace (Scenario.queue_trace_interval_s): the samples due before slot t, each the
// traced links' class queues at the start of slot ceil(k * interval) (the end of the slot
// before: arrivals and service done), which no round boundary can move; the cwnd trace's
// convention (flow_side.h: trace_until), so the two tables line up. Returns the slot before
// which the next sample is due, clipped to t1. Called between runs of slots, never inside the
// slot loop: a replica without the trace pays one test per queue_slots call.
DS_HD DS_RARE uint32_t queue_trace_until(Replica DS_REF x, uint32_t t, uint32_t t1) {
  ReplicaHdr& h = *x.hdr();
  const int32_t n = x.in()->qtrace_samples[x.iR()];
  const double iv = x.in()->qtrace_interval_slots[x.iR()];
  const size_t nq = (size_t)x.shape().max_qtrace_links;
  const int nl = x.in()->n_links[x.iR()];
  while (h.qtrace_next < n && h.qtrace_due <= t) {
    const size_t row = (size_t)h.qtrace_next * nq;
    for (int l = 0; l < nl; ++l) {
      const int j = x.in()->link_qtrace[x.iL(l)];
      if (j < 0) continue;
      for (int c = 0; c < x.links()[l].n_classes; ++c) {
        const size_t o = (row + (size_t)j) * kMaxClasses + c;
        const ClassQueue& q = x.link_queues(l)[c];
        x.out_qtrace_pkts()[o] = (int32_t)q.ring.count;
        x.out_qtrace_bytes()[o] = q.bytes;
        float avg = nanf("");
        if (DS_FEAT(h.f_aqm) && aqm_is_red(x.in()->class_aqm[x.iLC(l, c)])) {
          RedParams rp;  // red_avg_of reads only the mode
          rp.aqm = x.in()->class_aqm[x.iLC(l, c)];
          avg = (float)red_avg_of(rp, x.red()[x.oLC(l, c)], kRed);
        }
        x.out_qtrace_red_avg()[o] = avg;
      }
    }
    h.qtrace_next += 1;
    h.qtrace_due = h.qtrace_next < n ? (uint32_t)ceil((double)h.qtrace_next * iv) : kNeverSlot;
  }
  return h.qtrace_due < t1 ? h.qtrace_due : t1;
}

DS_HD DS_HOST_CALL void queue_slots(Replica DS_REF x, uint32_t t0, uint32_t t1) {
  const SlotInputs si = slot_inputs(x);
  // Without a queue trace one pass over [t0, t1); with one, runs of slots ending where a
  // sample is due (the slot loop itself unchanged: no per-slot test)
#ifdef __CUDA_ARCH__
  // On the device the runs of slots cost the full kernel 52 bytes of spill stores (ptxas,
  // sm_90: 42 -> 94; the outer loop's live values): a test per slot instead, against the
  // header's due slot (a load, no register), the same samples at the same slots.
  for (uint32_t t = t0; t < t1; ++t) {
    if (DS_FEAT(x.hdr()->f_qtrace) && t >= x.hdr()->qtrace_due) queue_trace_until(x, t, t1);
    queue_slot(x, t, si);
  }
#else
  uint32_t t = t0;
  do {
    const uint32_t e = DS_FEAT(x.hdr()->f_qtrace) ? queue_trace_until(x, t, t1) : t1;
    for (; t < e; ++t) queue_slot(x, t, si);
  } while (t < t1);
#endif
}

}  // namespace ds
