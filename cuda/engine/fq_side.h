// FQ-CoDel's side of the queue (model/queue_fq_codel.h) on a link class: the class's ring keeps
// every packet of the class, in arrival order, so the lengths, the integrals, the traces and
// the buffer check read it as for any class; FQ-CoDel's choice of the next packet moves it to
// the ring's front (the packets ahead of it one place back: each flow queue stays in order
// within the ring), and a drop takes a packet out of the middle the same way. The cost is a
// scan of the ring per choice (docs/model.md, "FQ-CoDel": measured there). Included by
// engine/queue_side.h after enqueue(); only replicas with an FQ-CoDel class (f_fqcodel, the
// link's LinkState::fq) reach it, and the slim kernel has no code for it.
#pragma once

// FQ-CoDel's two entry points stay calls on the device as SACK's do (core/hd.h DS_SACK_CALL):
// inlined into arrive_full and serve_link they took the full kernel from 86/96 to 114/296
// bytes of spill stores/loads (ptxas, sm_90); on the host a call as every rare step is.
#define DS_FQ_CALL inline DS_SACK_CALL  // inline: one definition across the kernels' translation units

namespace ds {

// The flow queue of packet p (scenario/fq_hash.py: each sender's bucket, numbered densely).
DS_HD DS_INLINE int fq_queue_of(Replica DS_REF x, const Packet& p) {
  return (p.flags & kPktSource) ? x.in()->src_fq_queue[x.iS(p.sender - x.shape().max_flows)]
                                : x.in()->flow_fq_queue[x.iF(p.sender)];
}

DS_HD DS_INLINE FqParams fq_params(Replica DS_REF x, size_t ik) {
  FqParams fp;
  fp.quantum = x.in()->fq_quantum[ik];
  fp.drop_batch = x.in()->fq_drop_batch[ik];
  fp.codel.target = x.in()->codel_target[ik];
  fp.codel.interval = x.in()->codel_interval[ik];
  fp.codel.min_bytes = x.in()->codel_min_bytes[ik];
  return fp;
}

// Class c of link l as FQ-CoDel sees it (fq_dequeue's and fq_overlimit's Q). `overlimit`: a
// drop is FqCoDelDrop's (a forced drop, counted as the buffer's), else CoDel's (an early drop
// of its colour, as CodelClass counts CoDel's: docs/columns.md).
struct FqClass {
  Replica DS_REF x;
  int l, c;
  size_t k;
  uint32_t now;
  double ns_per_slot;
  int skip;  // the ring's places before the disc's: the wire's (1 when the front is on it) and
             // the device queue's (LinkState::devq_n)
  bool overlimit;
  DS_HD DS_INLINE Packet& at(const Ring<Packet>& r, int j) const { return r.at(j); }
  // flow queue i's head: its place in the ring, -1 when it has none
  DS_HD inline int find(const Ring<Packet>& r, int i) const {
    const int n = r.size();
    for (int j = skip; j < n; ++j)
      if (fq_queue_of(x, at(r, j)) == i) return j;
    return -1;
  }
  DS_HD inline bool head(int i, uint32_t& sojourn, int32_t& bytes) {
    const Ring<Packet> r = x.queue_ring(l, c);
    const int j = find(r, i);
    if (j < 0) return false;
    const Packet& h = at(r, j);
    sojourn = codel_time((double)(now - h.t_enq), ns_per_slot);
    bytes = h.bytes;
    return true;
  }
  DS_HD inline int32_t drop_head(int i) {
    Ring<Packet> r = x.queue_ring(l, c);
    const int j = find(r, i);
    ClassQueue& q = x.link_queues(l)[c];
    occupancy_catch_up(x, q, k, now, q.pipe);
    const Packet p = r.remove_at(j);
    q.bytes -= p.bytes;
    if (overlimit) {
      buffer_drop(x, p, k, colour_of(p));
    } else {  // CoDel's drop (codel_dequeue via FqFlowQueue::drop_head; an ECT head of an
              // ECN class is marked instead: mark_head)
      count_aqm_drop(x, p, k, colour_of(p), true);
      count_flow_drop(x, p);
    }
    return p.bytes;
  }
  // ns-3 FqCoDelQueueDisc UseEcn (its flow queues' CoDel): flow queue i's head marked CE
  // instead of dropped when it is ECT and the class marks (CodelClass::mark_head's test)
  DS_HD inline bool mark_head(int i) {
    if (!DS_FEAT_NEW(x.hdr()->f_ecn) || !(x.in()->class_ecn[x.iLC(l, c)] & kClassEcnMark))
      return false;
    const Ring<Packet> r = x.queue_ring(l, c);
    const int j = find(r, i);
    if (j < 0) return false;
    Packet& h = at(r, j);
    if (!ecn_capable(x, h)) return false;
    ecn_mark(x, h, k, colour_of(h));
    return true;
  }
  // flow queue i's head to the disc's front (ring place skip): the packet the link sends next
  // (with a device queue, the one it takes in next)
  DS_HD inline int32_t take(int i) {
    Ring<Packet> r = x.queue_ring(l, c);
    const int j = find(r, i);
    const Packet p = at(r, j);
    for (int m = j; m > skip; --m) at(r, m) = at(r, m - 1);
    at(r, skip) = p;
    return p.bytes;
  }
};

// An arrival at FQ-CoDel class c of link l (ns-3 FqCoDelQueueDisc::DoEnqueue): it joins the
// ring and its flow queue, then, if the disc is over its limit (`fits` false: the buffer
// counts the packets waiting, the one on the wire left out), FqCoDelDrop drops from the
// fattest flow queue (perhaps the arrival's own). The ring holds the limit + 2 (pack: the
// packet on the wire and this one; and a device queue's). `held`: the ring's places before
// the disc's (FqClass::skip), which FqCoDelDrop never takes.
DS_HD DS_FQ_CALL void fq_arrive(Replica DS_REF x, const Packet& p, int l, int c, size_t k,
                             bool fits, int held, uint32_t now) {
  if (!enqueue(x, p, l, c, k, now)) return;
  const size_t ik = x.iLC(l, c);
  const FqParams fp = fq_params(x, ik);
  const int nq = x.in()->fq_n_queues[x.iR()];
  FqFlow* flows = x.fq_flows() + (size_t)l * x.shape().fq_queues;
  fq_enqueued(fp, x.fq_lists()[l], flows, fq_queue_of(x, p), p.bytes);
  if (fits) return;
  FqClass q{x, l, c, k, now, x.in()->slot_ns[x.iR()], held, true};
  fq_overlimit(fp, flows, nq, q);
}

// Link l takes its next packet, from class c (-1: every class empty): FQ-CoDel's dequeue
// (ns-3 DoDequeue) on the link's FQ-CoDel class if that is c, its chosen head then at the
// ring's front; an empty FQ-CoDel class's lists are walked as ns-3's dequeue of an empty disc
// does (every flow met becomes old, then inactive; their CoDel leave the dropping state).
// True when it emptied class c: the scheduler chooses again. `skip`: the ring's places before
// the disc's (a device queue's: engine/queue_side.h, devq_fill), the chosen head put after them.
DS_HD DS_FQ_CALL bool fq_take(Replica DS_REF x, int l, int c, uint32_t now, int skip = 0) {
  const int j = x.links()[l].fq - 1;
  const bool chosen = c == j;
  if (!chosen && (x.queue_ring(l, j).size() > skip ||
                  (x.fq_lists()[l].new_head < 0 && x.fq_lists()[l].old_head < 0)))
    return false;
  const double ns_per_slot = x.in()->slot_ns[x.iR()];
  FqClass q{x, l, j, x.oLC(l, j), now, ns_per_slot, skip, false};
  FqFlow* flows = x.fq_flows() + (size_t)l * x.shape().fq_queues;
  const int i = fq_dequeue(fq_params(x, x.iLC(l, j)), x.fq_lists()[l], flows,
                           codel_time((double)now, ns_per_slot), q);
  return chosen && i < 0;
}

}  // namespace ds
