// Short-lived traffic: transfers that arrive over time and take a flow slot from their
// generator's pool (model/traffic_gen.h gives arrival times and sizes). The pool is a block
// of flow slots with the generator's template parameters (python/diffsweep/pack/traffic.py), so
// a replica's memory is set by the transfers alive at once, not by all it will see.
//
// A transfer's life, each step at a fixed simulated time (so results do not depend on how the
// replica's rounds fall, on the team size or on the backend):
//  - admit_transfers (between rounds, one lane): an arrival before the next round's horizon
//    takes a free slot (none free: counted as refused, never silent) and is assigned to it:
//    the sender gets it as pending, the queue side expects its generation. A generator's
//    arrivals are assigned in time order, and every draw belongs to its event (a Poisson
//    generator's n-th arrival, a web session, a sessions slot's n-th transfer), so what is
//    assigned does not depend on where the horizon falls: a slot freed by a completion the
//    queue side has not reached yet is free only from a loop delay after it, past the horizon;
//  - the queue side counts it alive when it reaches its start slot (count_starts);
//  - the flow side starts it when it reaches the arrival time: a new connection (slow start,
//    initial RTO, empty access FIFO); ACKs still due to the slot's last transfer are dropped;
//  - the queue side switches the slot's receiver to it at the first packet of its generation;
//  - its last packet received (queue side) completes it: the record is written then (the
//    paper's completion time: "the time required to completely receive all the flow packets");
//    the sender adds its own counts to the record when the last ACK reaches it;
//  - the slot is free again once that last ACK has surely arrived: a loop delay (and a
//    delayed-ACK interval) after the completion.
// Packets and ACKs of an earlier transfer still in the network carry the old generation: they
// are ignored and not counted.
#pragma once
#include "replica.h"

namespace ds {

DS_HD DS_INLINE GenParams gen_params(Replica DS_REF x, int g) {
  const size_t i = x.iG(g);
  GenParams p;
  p.size_kind = x.in()->gen_size_kind[i];
  p.size_mean = x.in()->gen_size_mean[i];
  p.size_min = x.in()->gen_size_min[i];
  p.size_max = x.in()->gen_size_max[i];
  p.size_alpha = x.in()->gen_size_alpha[i];
  p.size_n = x.in()->gen_size_n[i];
  p.size_set = x.in()->gen_size_set + i * kMaxSizeSet;
  return p;
}

// A packet of flow slot f from one of its earlier transfers (queue side).
DS_HD DS_INLINE bool stale(Replica DS_REF x, const Packet& p) {
  return DS_FEAT(x.hdr()->f_traffic) && !(p.flags & kPktSource) &&
         gen_of(p) != (x.xfers()[p.sender].gen & 15u);
}

DS_HD DS_INLINE void queue_counters(Replica DS_REF x, int f, int32_t* c) {
  c[0] = (int32_t)x.out_flow_drops()[f];
  int32_t early = 0;
  for (int k = 0; k < kMaxColours; ++k)
    early += (int32_t)x.out_flow_early_drops()[(size_t)f * kMaxColours + k];
  c[1] = early;
  c[2] = (int32_t)x.out_flow_colour_pkts()[(size_t)f * kMaxColours + kRed];
}

// The flow side's counters (each side reads only what it writes: the flow side runs ahead of
// the queue side by up to a loop delay, by how much depending on the rounds).
DS_HD DS_INLINE void sender_counters(Replica DS_REF x, int f, int32_t* c) {
  c[0] = (int32_t)x.out_flow_pkts_sent()[f];
  c[1] = (int32_t)x.out_flow_retransmits()[f];
  c[2] = (int32_t)x.out_flow_timeouts()[f];
  c[3] = (int32_t)x.out_flow_access_drops()[f];
}

// The sender's part of record k: what it sent up to now (its last ACK, or the end), and the
// drops at its access link, added to the queue side's drops of the record.
DS_HD DS_INLINE void record_sender(Replica DS_REF x, int f, int64_t k) {
  const SenderExt& s = x.sx(f);
  int32_t c[4];
  sender_counters(x, f, c);
  const size_t i = (size_t)x.r * x.shape().max_transfers + (size_t)k;
  x.rec()->tr_pkts_sent[i] = c[0] - s.base[0];
  x.rec()->tr_retransmits[i] = c[1] - s.base[1];
  x.rec()->tr_timeouts[i] = c[2] - s.base[2];
  x.rec()->tr_drops[i] += c[3] - s.base[3];
}

// Queue side: the record of the transfer in slot f, ending at `end` (-1: running at the end).
// Returns its index, or -1 when the replica's records are full (counted).
DS_HD inline int64_t write_record(Replica DS_REF x, int f, double end) {
  const int g = x.in()->flow_gen[x.iF(f)];
  int64_t& n = x.out_n_records()[0];
  if (n >= x.shape().max_transfers) {
    x.out_gen_records_lost()[g] += 1;
    return -1;
  }
  const int64_t k = n;
  n += 1;
  const Transfer& t = x.xfers()[f];
  // The queue side's counters since the transfer started (0 if no packet of it was seen yet).
  // Differences taken here, not through a pointer to a local array or t.base: that put the
  // array in the GPU's local memory.
  int32_t c[3] = {0, 0, 0};
  if (t.gen == t.next_gen) {
    queue_counters(x, f, c);
    for (int j = 0; j < 3; ++j) c[j] -= t.base[j];
  }
  const size_t i = (size_t)x.r * x.shape().max_transfers + (size_t)k;
  BatchOutput* o = x.rec();
  o->tr_gen[i] = g;
  o->tr_slot[i] = f - x.in()->gen_first_flow[x.iG(g)];
  o->tr_size_pkts[i] = t.size;
  o->tr_start_slot[i] = t.start;
  o->tr_end_slot[i] = end;
  o->tr_first_slot[i] = t.gen == t.next_gen ? t.first_at : -1.0;
  o->tr_drops[i] = c[0];
  o->tr_early_drops[i] = c[1];
  o->tr_pkts_red[i] = c[2];
  return k;
}

// Queue side, at a packet's first link: the first packet of the slot's assigned transfer
// switches its receiver to it.
DS_HD inline void transfer_switch(Replica DS_REF x, const Packet& p) {
  if (p.flags & kPktSource) return;
  const int f = p.sender;
  Transfer& t = x.xfers()[f];
  if (t.gen == t.next_gen || gen_of(p) != t.next_gen) return;
  t.gen = t.next_gen;
  x.rcv(f).rcv_next = 0;
  if (x.rcv(f).delack_due != kNeverSlot) {
    x.rcv(f).delack_due = kNeverSlot;
    x.set_delack(f, kNeverSlot);
  }
  for (int w = 0; w < x.shape().rx_bits / 32; ++w) x.rxbits(f)[w] = 0;
  if (DS_FEAT(x.hdr()->f_sack)) sack_receiver_init(x.sack_rcvs()[f]);  // a new SACK sink too
  queue_counters(x, f, t.base);
}

// Queue side, at the start of slot `now` once hdr->peak_due <= now: assigned transfers whose
// start slot has come are alive from now on (the generator's gen_peak_active). Counted here,
// at a fixed simulated time, not when they are assigned: assignment runs up to a loop delay
// ahead, by an amount that depends on where the rounds fall.
DS_HD DS_COLD void count_starts(Replica DS_REF x, uint32_t now) {
  uint32_t due = kNeverSlot;
  const int ng = x.in()->n_gens[x.iR()];
  for (int g = 0; g < ng; ++g) {
    GenState& st = x.gens()[g];
    bool started = false;
    while (st.pend_head >= 0) {
      Transfer& t = x.xfers()[st.pend_head];
      const uint32_t s = (uint32_t)t.start;
      if (s > now) {
        if (s < due) due = s;
        break;
      }
      t.counted = 1;
      st.live += 1;
      started = true;
      st.pend_head = t.next_pending;
      t.next_pending = -1;
      if (st.pend_head < 0) st.pend_tail = -1;
    }
    // Every start of slot `now` is counted before its completions (they end at now + 1).
    if (started && st.live > x.out_gen_peak_active()[g]) x.out_gen_peak_active()[g] = st.live;
  }
  x.hdr()->peak_due = due;
}

// Between rounds: transfer f joins its generator's list of transfers not yet counted alive,
// in start order. Poisson and web arrivals are assigned in time order (an append); a sessions
// generator's slots in slot order (an insertion).
DS_HD inline void pend_insert(Replica DS_REF x, GenState& st, int f) {
  Transfer& t = x.xfers()[f];
  t.counted = 0;
  t.next_pending = -1;
  if (st.pend_tail < 0) {
    st.pend_head = st.pend_tail = f;
  } else if (x.xfers()[st.pend_tail].start <= t.start) {
    x.xfers()[st.pend_tail].next_pending = f;
    st.pend_tail = f;
  } else {  // before the tail: somewhere from the head on
    int32_t* link = &st.pend_head;
    while (x.xfers()[*link].start <= t.start) link = &x.xfers()[*link].next_pending;
    t.next_pending = *link;
    *link = f;
  }
  const uint32_t s = (uint32_t)t.start;
  if (s < x.hdr()->peak_due) x.hdr()->peak_due = s;
}

// Queue side: flow slot f's receiver has everything in order up to rcv_next.
DS_HD inline void transfer_progress(Replica DS_REF x, int f, uint32_t now) {
  Transfer& t = x.xfers()[f];
  // Only the assigned transfer's own packets count: until its first packet has switched the
  // receiver (transfer_switch), late packets of the slot's last transfer (retransmissions
  // still in the network) reach the old receiver and must not complete the new transfer.
  if (!t.active || t.gen != t.next_gen) return;
  if (t.first_at < 0.0) t.first_at = (double)now + 1.0;  // its first packet: at the slot's end
  if (t.rx_done || x.rcv(f).rcv_next < t.size + syn_seqs(x, x.iF(f))) return;
  t.rx_done = 1;
  t.active = 0;
  const int g = x.in()->flow_gen[x.iF(f)];
  const size_t i = x.iF(f);
  // The last packet left the last link in slot `now`: done at the slot's end (the delays
  // after the last link are added on the host, python/diffsweep/engine.py).
  const int64_t k = write_record(x, f, (double)now + 1.0);
  x.sx(f).rec_k = k;  // the sender adds its counts when the last ACK reaches it
  x.out_gen_completed()[g] += 1;
  if (!t.counted) count_starts(x, now);  // (started in an earlier slot: counted already)
  x.gens()[g].live -= 1;
  // The last (cumulative) ACK leaves now, or within a delayed-ACK interval, and is at the
  // sender a loop delay later: the slot is free from then on.
  t.free_at = (double)now + 2.0 + (double)x.in()->flow_loop_slots[i] +
              (x.in()->flow_delack[i] ? (double)x.in()->delack_slots[x.iR()] : 0.0);
  if (x.in()->gen_kind[x.iG(g)] == kGenSessions)  // the think time after the slot's n-th transfer
    t.next_start = (double)now + 1.0 +
                   exponential(event_u01(x.seed(), kFamSession, (uint32_t)f, 2u * t.n_assigned - 1u),
                               x.in()->gen_think_slots[x.iG(g)]);
}

// Flow side: flow slot f's sender has its transfer's last ACK.
DS_HD inline void transfer_sender_done(Replica DS_REF x, int f) {
  SenderExt& e = x.sx(f);
  if (e.rec_k >= 0) record_sender(x, f, e.rec_k);
  e.rec_k = -1;
}

// Flow side, at its pend_at: the slot's assigned transfer starts as a new connection.
DS_HD inline void transfer_start(Replica DS_REF x, int f, TcpSender& s) {
  SenderExt& e = x.sx(f);
  if (e.rec_k >= 0) transfer_sender_done(x, f);
  for (int32_t a = s.ack_first; a >= 0; a = x.acks()[a].next) x.acks()[a].consumed = 1;
  const uint8_t gen = e.pend_gen;
  const int32_t size = e.pend_size;
  const uint32_t at = e.pend_at;
  x.nic_fifo(f, s).clear();  // what the last connection left at the access link is dropped
  sender_init(x, f, s);
  if (DS_FEAT(x.hdr()->f_sack)) sack_sender_init(x.sack_snds()[f]);  // a new scoreboard too
  s.curseq = size + syn_seqs(x, x.iF(f));
  s.start_due = at;
  cubic_sender_init(x, f, s);  // a new connection: CUBIC starts over
  if (DS_FEAT_NEW(x.hdr()->f_ecn)) ecn_sender_reset(x.ecns()[f]);  // (its receiver half: queue side)
  pick_path(x, f, s, size, at);  // the edge classifier sees the transfer's drawn size
  s.gen = gen;
  e.pending = 0;
  sender_counters(x, f, e.base);
}

DS_HD DS_INLINE bool slot_free(Replica DS_REF x, int f, double at) {
  const Transfer& t = x.xfers()[f];
  return !t.active && t.free_at <= at;
}

// Between rounds (one lane): transfer of `size` packets assigned to free slot f at `at`.
DS_HD inline void assign_transfer(Replica DS_REF x, int f, int g, double at, int32_t size) {
  Transfer& t = x.xfers()[f];
  t.start = at;
  t.first_at = -1.0;
  t.size = size;
  t.next_gen = (uint8_t)((t.next_gen + 1u) & 15u);
  t.active = 1;
  t.rx_done = 0;
  t.n_assigned += 1;
  SenderExt& s = x.sx(f);
  s.pending = 1;
  s.pend_gen = t.next_gen;
  s.pend_size = size;
  s.pend_at = (uint32_t)at;
  // The arrival is past everything the slot's lane has done (it is at or past the previous
  // round's horizon, or a loop delay after the slot's last completion): no clamping needed.
  if (s.pend_at < x.tree().key[f]) {
    MinTree tree = x.tree();
    tree.set(f, s.pend_at, x.lane_root(f));
  }
  pend_insert(x, x.gens()[g], f);
  x.out_gen_started()[g] += 1;
}

// Next-fit search of generator g's pool for a slot free at `at`; -1 if none.
DS_HD inline int free_slot(Replica DS_REF x, int g, double at) {
  const size_t i = x.iG(g);
  const int first = x.in()->gen_first_flow[i], pool = x.in()->gen_pool[i];
  GenState& st = x.gens()[g];
  for (int n = 0; n < pool; ++n) {
    const int f = first + (st.scan + n) % pool;
    if (slot_free(x, f, at)) {
      st.scan = (st.scan + n + 1) % pool;
      return f;
    }
  }
  return -1;
}

// Between rounds: a transfer of `size` packets arriving at `at` takes a free slot of
// generator g's pool, or is refused (counted) when the pool has none.
DS_HD inline void start_transfer(Replica DS_REF x, int g, double at, int32_t size) {
  const int f = free_slot(x, g, at);
  if (f < 0)
    x.out_gen_refused()[g] += 1;
  else
    assign_transfer(x, f, g, at, size);
}

// ns-2 WebTraf-like sessions (kGenWeb): a session's pages come at exponential intervals
// (gen_think_slots; the next page is scheduled when a page starts, as ns-2 does, whatever its
// objects' progress); a page asks for gen_objects objects at exponential intervals
// (gen_inter_obj_slots) from its start; each object is a transfer from the pool. Each session
// draws from its own stream (kFamWeb), so its times and sizes do not depend on the others.

// A session's next event: its next page or its current page's next object (1e300: none).
DS_HD DS_INLINE double web_next(const WebSession& w) {
  const double page = w.pages_left > 0 ? w.next_page : 1e300;
  const double obj = w.objs_left > 0 ? w.next_obj : 1e300;
  return page <= obj ? page : obj;
}

DS_HD DS_INLINE double web_exp(uint64_t seed, int k, WebSession& w, double mean) {
  return exponential(event_u01(seed, kFamWeb, (uint32_t)k, w.ctr++), mean);
}

// Every event of generator g's sessions before `horizon`, in time order across sessions (ties:
// the lower session first), so that objects take pool slots in the order they arrive, however
// the rounds fall.
DS_HD inline void admit_web(Replica DS_REF x, int g, uint32_t horizon, double t_stop,
                            const GenParams& gp) {
  const size_t i = x.iG(g);
  const int first = x.in()->gen_first_session[i], n = x.in()->gen_sessions[i];
  const double h = (double)horizon < t_stop ? (double)horizon : t_stop;
  for (;;) {
    int k = -1;
    double at = h;
    for (int j = first; j < first + n; ++j) {
      const double tj = web_next(x.websess()[j]);
      if (tj < at) {
        at = tj;
        k = j;
      }
    }
    if (k < 0) return;
    WebSession& w = x.websess()[k];
    // A page that starts before the last one's objects have all been asked for adds its
    // objects to those left, from its start time on (ns-2 keeps one schedule per page; here
    // they share one: the same number of objects, at most an inter-object gap apart from
    // ns-2's times).
    if (w.pages_left > 0 && (w.objs_left == 0 || w.next_page <= w.next_obj)) {
      w.pages_left -= 1;
      if (w.objs_left == 0 || w.next_page < w.next_obj) w.next_obj = w.next_page;
      w.objs_left += x.in()->gen_objects[i];
      w.next_page += web_exp(x.seed(), k, w, x.in()->gen_think_slots[i]);
    } else {
      w.objs_left -= 1;
      w.next_obj += web_exp(x.seed(), k, w, x.in()->gen_inter_obj_slots[i]);
      start_transfer(x, g, at, size_of(event_u01(x.seed(), kFamWeb, (uint32_t)k, w.ctr++), gp));
    }
  }
}

// Between rounds (one lane): every transfer that arrives before `horizon` is assigned.
DS_HD DS_COLD void admit_transfers(Replica DS_REF x, uint32_t horizon) {
  const int ng = x.in()->n_gens[x.iR()];
  for (int g = 0; g < ng; ++g) {
    const size_t i = x.iG(g);
    GenState& st = x.gens()[g];
    const double t_stop = x.in()->gen_t_stop_slot[i];
    const GenParams gp = gen_params(x, g);
    if (x.in()->gen_kind[i] == kGenPoisson) {
      while (st.next_arrival < (double)horizon && st.next_arrival < t_stop) {
        const double at = st.next_arrival;
        st.next_arrival += gen_exp(x.seed(), g, st, x.in()->gen_mean_iat_slots[i]);
        start_transfer(x, g, at, gen_size(x.seed(), g, st, gp));
      }
      continue;
    }
    if (x.in()->gen_kind[i] == kGenWeb) {
      admit_web(x, g, horizon, t_stop, gp);
      continue;
    }
    // Sessions: each pool slot starts its next transfer when its think time is over.
    const int first = x.in()->gen_first_flow[i], pool = x.in()->gen_pool[i];
    for (int f = first; f < first + pool; ++f) {
      Transfer& t = x.xfers()[f];
      if (t.active) continue;
      const double at = t.next_start > t.free_at ? t.next_start : t.free_at;
      if (at < (double)horizon && at < t_stop) {
        t.next_start = 1e300;  // set again when this transfer completes
        const double u = event_u01(x.seed(), kFamSession, (uint32_t)f, 2u * t.n_assigned);
        assign_transfer(x, f, g, at, size_of(u, gp));
      }
    }
  }
}

// init_replica: generators and their pools (every pool slot idle until a transfer comes).
DS_HD DS_COLD void init_traffic(Replica DS_REF x) {
  const int nf = x.in()->n_flows[x.iR()];
  for (int f = 0; f < nf; ++f) {
    Transfer& t = x.xfers()[f];
    t.start = 0.0;
    t.next_start = 1e300;
    t.free_at = 0.0;
    t.first_at = -1.0;
    t.size = 0;
    for (int k = 0; k < 3; ++k) t.base[k] = 0;
    t.gen = 0;
    t.next_gen = 0;
    t.active = 0;
    t.rx_done = 0;
    t.counted = 0;
    for (int k = 0; k < 3; ++k) t.pad[k] = 0;
    t.n_assigned = 0;
    t.next_pending = -1;
    TcpSender& s = x.snd(f);
    x.sx(f).pending = 0;
    x.sx(f).rec_k = -1;
    if (x.in()->flow_gen[x.iF(f)] >= 0) {  // a pool slot: no connection until assigned
      s.start_due = kNeverSlot;
      s.finished = 1;
      x.tree().set(f, kNeverSlot);
    }
  }
  const int ng = x.in()->n_gens[x.iR()];
  for (int g = 0; g < ng; ++g) {
    const size_t i = x.iG(g);
    GenState& st = x.gens()[g];
    st.ctr = 0;
    st.scan = 0;
    st.live = 0;
    st.pend_head = -1;
    st.pend_tail = -1;
    st.pad = 0;
    st.next_arrival = 1e300;
    if (x.in()->gen_kind[i] == kGenPoisson) {
      st.next_arrival = gen_exp(x.seed(), g, st, x.in()->gen_mean_iat_slots[i]);
    } else if (x.in()->gen_kind[i] == kGenWeb) {  // each session's first page after a gap
      const int first = x.in()->gen_first_session[i], n = x.in()->gen_sessions[i];
      for (int k = first; k < first + n; ++k) {
        WebSession& w = x.websess()[k];
        w.ctr = 0;
        w.pad = 0;
        w.next_page = web_exp(x.seed(), k, w, x.in()->gen_think_slots[i]);
        w.next_obj = 1e300;
        w.pages_left = x.in()->gen_pages[i];
        w.objs_left = 0;
      }
    } else {  // sessions start after a first think time each, or at a uniform time
      const int first = x.in()->gen_first_flow[i], pool = x.in()->gen_pool[i];
      const double spread = x.in()->gen_first_start_slots[i];
      for (int f = first; f < first + pool; ++f)
        x.xfers()[f].next_start = spread > 0.0 ? spread * gen_u01(x.seed(), g, st)
                                             : gen_exp(x.seed(), g, st, x.in()->gen_think_slots[i]);
    }
  }
}

// flush: transfers still running get a record with end -1, and senders whose last ACK had
// not arrived add their counts so far.
DS_HD DS_COLD void flush_traffic(Replica DS_REF x) {
  const int nf = x.in()->n_flows[x.iR()];
  for (int f = 0; f < nf; ++f) {
    if (x.in()->flow_gen[x.iF(f)] < 0) continue;
    const SenderExt& s = x.sx(f);
    if (x.xfers()[f].active) {
      const int64_t k = write_record(x, f, -1.0);
      if (k >= 0 && !s.pending) record_sender(x, f, k);
    } else if (s.rec_k >= 0) {
      record_sender(x, f, s.rec_k);
    }
  }
}

}  // namespace ds
