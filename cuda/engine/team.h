// A replica's life: init, rounds of (flow side on every lane, then queue side), flush.
// The CPU runs a team as a loop over its lanes (run_replica below); the CUDA kernel runs the
// same two phases on the lanes of a warp tile (backend_cuda.cu). Either way the queue side
// sees the same packets in the same order as the serial engine, so results are bit-identical
// whatever the team size (docs/design.md, "The team of lanes").
#pragma once
#include "features.h"
#include "flow_side.h"
#include "queue_side.h"

namespace ds {

DS_HD inline void init_replica(Replica DS_REF x) {
  const Layout& L = x.L();
  unsigned char* ob = x.block() + L.out_begin;  // this replica's counters
  for (size_t i = 0; i < L.out_end - L.out_begin; ++i) ob[i] = 0;
  ReplicaHdr& h = *x.hdr();
  h.ctr_tie = 0;
  h.ctr_loss = 0;
  h.ctr_mark = 0;
  h.ctr_aqm = 0;
  h.stage_count = 0;
  h.t_queue = 0;
  h.ack_head = 0;
  h.ack_tail = 0;
  h.peak_due = kNeverSlot;
  const int64_t warmup = x.in()->warmup_slot[x.iR()];  // queue-length integrals count from here
  const uint32_t first_measured = warmup <= 0 ? 0u : warmup >= 0xFFFFFFFF ? 0xFFFFFFFFu : (uint32_t)warmup;
  for (int l = 0; l < x.shape().max_links; ++l) {
    link_init(x.links()[l], x.in()->class_weight + x.iLC(l, 0));
    x.links()[l].sched = x.in()->link_sched[x.iL(l)];
    x.links()[l].bytes_per_slot = x.in()->link_bytes_per_slot[x.iL(l)];
    x.links()[l].loss_prob = x.in()->link_loss_prob[x.iL(l)];
    x.links()[l].n_classes = x.in()->link_n_classes[x.iL(l)];
    for (int c = 0; c < kMaxClasses; ++c) {
      ClassQueue& q = x.link_queues(l)[c];
      ring_clear(q.ring);
      q.bytes = 0;
      q.since = first_measured;
      q.wait_adj = 0.0;
      q.pipe = x.in()->link_sched[x.iL(l)] == kSchedCbq ? 1 : 0;
      for (int b = 0; b < 7; ++b) q.pad[b] = 0;
      // (read through BatchInput::shape, not this view's copy: see set_ring_offsets)
      q.ring_off = (int64_t)l * x.in()->shape.ring_link + x.in()->shape.class_off[c];
      q.ring_mask = (uint32_t)x.in()->shape.class_cap[c] - 1u;
      const size_t ik = x.iLC(l, c);
      drop_tail_limits(x.in()->class_limit_kind[ik], x.in()->class_limit[ik], q);
      if (x.shape().aqm_states) {
        red_init(x.red()[(size_t)l * kMaxClasses + c]);
        codel_init(x.codel()[(size_t)l * kMaxClasses + c]);
        PieQueue& pq = x.pie()[(size_t)l * kMaxClasses + c];
        pie_init(pq.st);
        pq.ctr = pq.updates = 0;
      }
    }
    if (x.shape().fq_queues)
      fq_init(x.fq_lists()[l], x.fq_flows() + (size_t)l * x.shape().fq_queues, x.shape().fq_queues);
  }
  for (int m = 0; m < x.shape().max_markers; ++m) marker_init(x.markers()[m]);
  if (x.shape().conn_meters)
    for (int k = 0; k < x.shape().max_flows + x.shape().max_sources; ++k) conn_init(x.conns()[k]);
  x.tree().init_all_never();
  x.rxtree().init_all_never();
  for (int k = 0; k < x.shape().lanes; ++k) {  // every chunk of a lane's pool is free
    const int32_t c0 = k * x.shape().nic_chunks, c1 = c0 + x.shape().nic_chunks;
    for (int32_t c = c0; c < c1; ++c) x.nic_next()[c] = c + 1 < c1 ? c + 1 : -1;
    x.nic_pools()[k].free_head = c0;
  }
  const int nf = x.in()->n_flows[x.iR()];
  uint32_t lookahead = 0xFFFFFFFFu;
  for (int f = 0; f < nf; ++f) {
    TcpSender& s = x.snd(f);
    sender_init(x, f, s);
    x.rcv(f).rcv_next = 0;
    x.rcv(f).delack_due = kNeverSlot;
    for (int w = 0; w < x.shape().rx_bits / 32; ++w) x.rxbits(f)[w] = 0;
    x.tree().set(f, s.start_due);
    const uint32_t loop = (uint32_t)x.in()->flow_loop_slots[x.iF(f)];
    if (loop < lookahead) lookahead = loop;
  }
  h.lookahead = lookahead < 1 ? 1 : lookahead;
  for (int s = 0; s < x.in()->n_sources[x.iR()]; ++s) source_init(x, s);
  for (int k = 0; k < x.shape().lanes; ++k) {
    x.lane_t()[k] = 0;
    ring_clear(x.emit_idx()[k]);
  }
  if (x.shape().flow_ext) init_traffic(x);
  {  // the features the replica uses (ReplicaHdr; engine/features.h)
    const ReplicaFeatures ft = replica_features(*x.in(), (int32_t)x.iR());
    h.f_markers = ft.markers;
    h.f_traffic = ft.traffic;
    h.f_aqm = ft.aqm;
    h.f_app = ft.app;
    h.f_trace = ft.trace;
    h.f_tcp_tag = ft.tcp_tag;
    h.f_colour = ft.colour;
    h.f_hooks = ft.hooks;
    h.f_sack = ft.sack;
    h.f_qtrace = ft.qtrace;
    h.f_cubic = ft.cubic;
    h.f_codel = ft.codel;
    h.f_pie = ft.pie;
    h.f_fqcodel = ft.fqcodel;
    h.f_qhist = ft.qhist;
    h.f_ecn = ft.ecn;
    for (int l = 0; l < x.in()->n_links[x.iR()]; ++l) {
      LinkState& ls = x.links()[l];
      ls.codel = ls.pie = ls.fq = 0;
      for (int c = 0; c < ls.n_classes; ++c) {
        if (x.in()->class_aqm[x.iLC(l, c)] == kAqmCodel) ls.codel |= kLinkTakeCodel;
        if (x.in()->class_aqm[x.iLC(l, c)] == kAqmPie) ls.pie = 1;
        if (x.in()->class_aqm[x.iLC(l, c)] == kAqmFqCodel) {
          ls.fq = (uint8_t)(c + 1);
          ls.codel |= kLinkTakeFq;  // its dequeue step runs where CoDel's does
        }
      }
      ls.deq = (ls.pie ? kDeqPie : 0) | (ft.qhist ? kDeqHist : 0);
      for (int c = 0; c < ls.n_classes; ++c)
        if (aqm_is_red(x.in()->class_aqm[x.iLC(l, c)])) ls.deq |= kDeqRed;
      // a device queue (one class): the class's AQM dequeues into it (devq_fill), not at
      // the wire, so the link's own dequeue and departure steps are devq_fill's
      ls.devq_cap = x.in()->link_devq_pkts[x.iL(l)];
      if (ls.devq_cap) ls.codel = ls.deq = 0;
    }
    h.f_arrive = h.f_colour | h.f_markers | h.f_aqm | h.f_traffic;
    h.f_hops = 0;  // a packet enters a link's delay line only to reach a next hop (depart)
    for (int f = 0; f < x.in()->n_flows[x.iR()]; ++f)
      if (x.in()->flow_n_hops[x.iF(f)] > 1 || x.in()->flow_n_hops2[x.iF(f)] > 1) h.f_hops = 1;
    for (int s = 0; s < x.in()->n_sources[x.iR()]; ++s)
      if (x.in()->src_n_hops[x.iS(s)] > 1) h.f_hops = 1;
    for (int j = 0; j < x.shape().max_traced; ++j) x.trace_next()[j] = 0;
    h.qtrace_next = 0;
    h.qtrace_due = DS_FEAT(h.f_qtrace) ? 0u : kNeverSlot;  // sample 0: before slot 0
    if (((h.f_traffic | h.f_app) && !x.shape().flow_ext) || (h.f_aqm && !x.shape().aqm_states) ||
        (ft.balancing && !x.shape().conn_meters) || (h.f_sack && !x.shape().sack_states) ||
        (h.f_cubic && !x.shape().cubic_states) || (h.f_ecn && !x.shape().ecn_states) ||
        (h.f_qhist && x.shape().qdelay_bins != kQDelayBins) ||
        (h.f_fqcodel && (x.in()->fq_n_queues[x.iR()] < 1 ||
                         x.in()->fq_n_queues[x.iR()] > x.shape().fq_queues))) {
      x.flag(kOvfShape);  // the host raises; touch no state the block lacks (the Balancing
      h.f_traffic = h.f_app = h.f_aqm = h.f_sack = h.f_cubic = 0;  // Marker checks conn_meters
      h.f_codel = h.f_pie = h.f_qhist = h.f_ecn = h.f_fqcodel = 0;
      for (int l = 0; l < x.in()->n_links[x.iR()]; ++l)
        x.links()[l].codel = x.links()[l].deq = x.links()[l].pie = x.links()[l].fq =
            x.links()[l].devq_cap = 0;
    }
    if (DS_FEAT(h.f_sack))
      for (int f = 0; f < nf; ++f) {
        sack_sender_init(x.sack_snds()[f]);
        sack_receiver_init(x.sack_rcvs()[f]);
      }
    for (int f = 0; f < nf; ++f) cubic_sender_init(x, f, x.snd(f));
    if (DS_FEAT_NEW(h.f_ecn))
      for (int f = 0; f < nf; ++f) ecn_flow_init(x.ecns()[f], x.in()->flow_ecn[x.iF(f)]);
#if DS_SLIM_BUILD
    if (ft.any()) x.flag(kOvfShape);  // the host chose the slim kernel for a replica it cannot run
#endif
    h.f_flow_ext = h.f_trace | h.f_traffic | h.f_app;
  }
  const uint64_t first = (uint64_t)h.lookahead;  // the first round's horizon
  const uint64_t end = (uint64_t)x.in()->end_slot[x.iR()];
  if (DS_FEAT(h.f_traffic)) admit_transfers(x, (uint32_t)(first < end ? first : end));
}

// The most packets one flow event can hand to the first link (its access link's output in
// one slot): lanes keep this much room in their emission rings before each event.
DS_HD inline int32_t emit_need(Replica DS_REF x) {
  int32_t need = 1;
  const int nf = x.in()->n_flows[x.iR()];
  for (int f = 0; f < nf; ++f) {
    const size_t i = x.iF(f);
    const double pace = x.in()->flow_pace_bytes_per_slot[i];
    // Unpaced: everything one event hands over, a window plus what its ACKs retransmit.
    const int32_t n = pace > 0.0 ? (int32_t)ceil(pace / (double)x.in()->flow_wire_bytes[i]) + 1
                                 : 2 * x.in()->flow_max_window[i] + 16;
    if (n > need) need = n;
  }
  return need;
}

// The end of the next round: the lookahead past the queue side, clipped to the replica's end.
DS_HD DS_INLINE uint32_t round_horizon(Replica DS_REF x, uint32_t end) {
  const uint64_t h = (uint64_t)x.hdr()->t_queue + x.hdr()->lookahead;
  return h < end ? (uint32_t)h : end;
}

// A live replica's next round horizon when its rounds end at least every `clip` slots: a new
// piece of clip slots (up to `end`) once the queue side reached `stop_at`, the last one's end;
// then round_horizon within it. The schedules' loops of many replicas (backend_cpu.cpp,
// kernel_wave.cuh) keep one stop_at per replica.
DS_HD DS_INLINE uint32_t piece_horizon(Replica DS_REF x, uint32_t& stop_at, uint64_t clip,
                                       uint32_t end) {
  const uint32_t tq = x.hdr()->t_queue;
  if (tq >= stop_at) stop_at = tq + clip < end ? (uint32_t)(tq + clip) : end;
  return round_horizon(x, stop_at);
}

// The queue side's part of a round, after every lane's flow side: the slots every lane has
// finished. Returns false when no lane could move (an emission ring too small: reported).
// In parts for the wavefront's slot phases: queue_round_end, the slots; queue_round_done.
DS_HD DS_INLINE bool queue_round_end(Replica DS_REF x, uint32_t& t_end) {
  t_end = x.lane_t()[0];
  for (int k = 1; k < x.shape().lanes; ++k)
    if (x.lane_t()[k] < t_end) t_end = x.lane_t()[k];
  if (DS_UNLIKELY(t_end <= x.hdr()->t_queue)) {
    x.flag(kOvfStage);
    return false;
  }
  return true;
}

DS_HD DS_INLINE void queue_round_done(Replica DS_REF x, uint32_t t_end) {
  x.hdr()->t_queue = t_end;
  // Transfers that arrive before the next round's horizon start now, between rounds.
  if (DS_FEAT(x.hdr()->f_traffic))
    admit_transfers(x, round_horizon(x, (uint32_t)x.in()->end_slot[x.iR()]));
}

DS_HD inline bool queue_phase(Replica DS_REF x) {
  uint32_t t_end;
  if (!queue_round_end(x, t_end)) return false;
  queue_slots(x, x.hdr()->t_queue, t_end);
  queue_round_done(x, t_end);
  return true;
}

// A slot's start in the slot phases (the parts of queue_slot, engine/queue_side.h): the queue
// trace's samples due, as queue_slots takes them on the device, then slot_front (its sources
// and slot_front_end follow, each a phase).
DS_HD DS_INLINE void slot_begin(Replica DS_REF x, uint32_t now, uint32_t t_end,
                                const SlotInputs& si) {
  if (DS_FEAT(x.hdr()->f_qtrace) && now >= x.hdr()->qtrace_due) queue_trace_until(x, now, t_end);
  slot_view(x, now, si);
  slot_front(x, now, si);
}

// Copies a replica's counters from its block to the batch's output arrays.
DS_HD inline void flush_replica(Replica DS_REF x) {
  x.out_slots_run()[0] = (int64_t)x.hdr()->t_queue;
  const int nl = x.in()->n_links[x.iR()];
  for (int l = 0; l < nl; ++l) {  // the queue lengths since their last change
    const LinkState& ls = x.links()[l];
    ClassQueue* q = x.link_queues(l);
    for (int c = 0; c < ls.n_classes; ++c)
      occupancy_catch_up(x, q[c], x.oLC(l, c), x.hdr()->t_queue, q[c].pipe);
    // and the head still on the wire (the run ended in its measured slots)
    if (ls.sched != kSchedCbq && ls.busy_cls >= 0 &&
        (int64_t)x.hdr()->t_queue > x.in()->warmup_slot[x.iR()])
      wire_end(ls, q[ls.busy_cls], x.hdr()->t_queue);
    for (int c = 0; c < ls.n_classes; ++c) {  // the waiting queue's sums, into the output
      x.out_q_wait_adj_slots()[x.oLC(l, c)] += q[c].wait_adj;
      q[c].wait_adj = 0.0;
    }
  }
  if (!DS_FEAT(x.hdr()->f_colour)) {  // every arrival was green (engine/queue_side.h: arrive)
    const size_t n = per_replica(x.shape(), RLC);
    for (size_t i = 0; i < n; ++i) x.out_q_colour_arrivals()[i * kMaxColours + kGreen] = x.out_q_arrivals()[i];
  }
  if (DS_FEAT(x.hdr()->f_traffic)) flush_traffic(x);
  // A flow's drops: the queue side's and its access link's (each side counts its own: the
  // flow side may be ahead of the queue side by an amount that depends on the rounds).
  for (int f = 0; f < x.in()->n_flows[x.iR()]; ++f) x.out_flow_drops()[f] += x.out_flow_access_drops()[f];
  if (DS_FEAT(x.hdr()->f_trace))
    for (int f = 0; f < x.in()->n_flows[x.iR()]; ++f) trace_until(x, f, x.snd(f), 1e300);
  // the queue trace's samples due at end_slot (k * interval == duration): the final lengths
  if (DS_FEAT(x.hdr()->f_qtrace)) queue_trace_until(x, kNeverSlot - 1, kNeverSlot);
  const size_t r = (size_t)x.r;
  BatchOutput* out = x.rec();
#define DS_FLUSH(name, T, dim)                                               \
  {                                                                          \
    const size_t n = per_replica(x.shape(), dim);                            \
    for (size_t i = 0; i < n; ++i) out->name[r * n + i] = x.out_##name()[i];   \
  }
  DS_OUTPUT_FIELDS(DS_FLUSH)
#undef DS_FLUSH
}

// Runs a replica's rounds on one thread, the team's lanes one after another, until its end
// or `t_stop`. Returns the slots the queue side advanced.
DS_HD inline uint32_t run_rounds(Replica DS_REF x, uint64_t t_stop, int32_t need) {
  const uint32_t end = (uint32_t)x.in()->end_slot[x.iR()];
  const uint32_t stop = t_stop < end ? (uint32_t)t_stop : end;
  const uint32_t t0 = x.hdr()->t_queue;
  while (x.hdr()->t_queue < stop) {
    const uint32_t horizon = round_horizon(x, stop);
    for (int k = 0; k < x.shape().lanes; ++k) flow_phase(x, k, horizon, need);
    if (!queue_phase(x)) {
      x.hdr()->t_queue = end;  // cannot go on; the overflow bit makes the host raise
      break;
    }
  }
  return x.hdr()->t_queue - t0;
}

}  // namespace ds
