// The packet-event hooks (engine/events.h) of the CPU engine built with DS_EVENT_TRACE
// (diffsweep._engine_cpu_events). Times in slots; what each means: docs/traces.md.
#include "events.h"

#include <algorithm>

#include "event_recorder.h"
#include "replica.h"

namespace ds {

std::vector<EventRecorder>* g_event_recorders = nullptr;

namespace {

EventRecorder& rec_of(int32_t r) { return (*g_event_recorders)[(size_t)r]; }

uint8_t ev_flags(const Packet& p) {
  return (uint8_t)(((p.flags & kPktSource) ? kEvSource : 0) |
                   ((p.flags & kPktRexmit) ? kEvRexmit : 0));
}

// A packet between two links is found again by what no link changes: its sender, sequence
// number, the hop it arrives at, its source/retransmission flags, its path.
uint64_t between_key(const Packet& p, int hop) {
  return (uint64_t)p.sender << 48 ^ (uint64_t)(uint32_t)p.seq << 12 ^ (uint64_t)(hop & 7) << 4 ^
         (uint64_t)(p.flags & (kPktSource | kPktRexmit)) << 1 ^ (uint64_t)(on_path2(p) ? 1 : 0);
}

PacketEvent event_of(const Packet& p, uint8_t kind, double t, int64_t id, int l) {
  PacketEvent e{};
  e.t_slots = t;
  e.id = id;
  e.seq = p.seq;
  e.sender = p.sender;
  e.bytes = p.bytes;
  e.kind = kind;
  e.cls = (uint8_t)cls_index(p);  // without the ECN bits (CE, CWR) above the index
  e.colour = colour_of(p);
  e.flags = ev_flags(p);
  e.hop = (uint8_t)hop_index(p);
  e.link = (int8_t)l;
  return e;
}

}  // namespace

// A packet arrives at link p.link: '+' at its time within the slot (emitted packets; sources
// and packets from a delay line at the slot's start). Its id: new at the first link, else the
// one it left the link before with.
void ev_arrive(const Replica& x, const Packet& p, uint32_t now) {
  EventRecorder& R = rec_of(x.r);
  const double t = (double)now + (double)p.t_enq / kSubSlot;
  if (!R.live((double)now)) return;
  int64_t id = -1;
  if (hop_index(p) > 0) {
    auto it = R.between.find(between_key(p, hop_index(p)));
    if (it != R.between.end() && !it->second.empty()) {
      id = it->second.front();
      it->second.pop_front();
      if (it->second.empty()) R.between.erase(it);
    }
  }
  if (id < 0) id = R.next_id++;
  R.pending = event_of(p, kEvEnqueue, t, id, p.link);
  R.add(R.pending);
}

void ev_drop(const Replica& x, uint8_t reason) {
  EventRecorder& R = rec_of(x.r);
  if (R.stopped) return;
  PacketEvent e = R.pending;
  e.kind = kEvDrop;
  e.reason = reason;
  R.add(e);
}

void ev_enqueued(const Replica& x, int l, int c) {
  EventRecorder& R = rec_of(x.r);
  if (R.stopped) return;
  R.queued[(size_t)l * 4 + c].emplace_back(R.pending.id, R.pending.t_slots);
}

// The head of class c leaves link l in slot `now`: '-' at the start of its transmission,
// which ends at the slot's end at the class's rate (the model's departure: queue_side.h
// link_send), never before it arrived; at the last link of its route also 'r', at the slot's
// end: the receiver takes it in that slot (docs/model.md, "Delays").
void ev_depart(const Replica& x, const Packet& p, int l, int c, uint32_t now, bool last_hop) {
  EventRecorder& R = rec_of(x.r);
  if (!R.live((double)now)) return;
  auto& q = R.queued[(size_t)l * 4 + c];
  if (q.empty()) return;  // queued before the recorder stopped: not possible while live
  const int64_t id = q.front().first;
  const double arrived = q.front().second;
  q.pop_front();
  const LinkState& ls = x.links()[l];
  double rate = ls.bytes_per_slot;
  if (ls.sched == kSchedCbq) rate *= x.in()->class_share[x.iLC(l, c)];
  const double end = (double)now + 1.0;
  const double start = rate > 0.0 ? std::max(arrived, end - (double)p.bytes / rate) : arrived;
  R.add(event_of(p, kEvDequeue, start, id, l));
  if (last_hop) {
    R.add(event_of(p, kEvReceive, end, id, l));
    if (!(p.flags & kPktSource) && p.sender < R.last_rx.size()) R.last_rx[p.sender] = end;
  } else {
    R.in_delay[(size_t)l].push_back(id);
  }
}

// CoDel drops the head of class c when link l takes the class's next packet in slot `now`
// (queue_side.h: CodelClass::drop_head): 'd' (early) at the place in the slot where the link
// took it, the end of the packet before (what the link's credit left says: 1 - credit / the
// slot's credit; the slot's start when the link came to it with a slot's credit or more),
// never before it arrived.
void ev_drop_head(const Replica& x, const Packet& p, int l, int c, uint32_t now) {
  EventRecorder& R = rec_of(x.r);
  if (!R.live((double)now)) return;
  auto& q = R.queued[(size_t)l * 4 + c];
  if (q.empty()) return;
  const int64_t id = q.front().first;
  const double arrived = q.front().second;
  q.pop_front();
  const LinkState& ls = x.links()[l];
  const double used = ls.bytes_per_slot > 0.0 ? 1.0 - ls.credit / ls.bytes_per_slot : 0.0;
  PacketEvent e = event_of(p, kEvDrop, std::max(arrived, (double)now + std::max(0.0, used)), id, l);
  e.reason = kEvDropEarly;
  R.add(e);
}

// A packet leaves link l's delay line in slot `now`: 'r' at the link's far end; it arrives
// at its next link in this slot ('+', ev_arrive).
void ev_hop(const Replica& x, const Packet& p, int l, uint32_t now) {
  EventRecorder& R = rec_of(x.r);
  if (!R.live((double)now)) return;
  auto& d = R.in_delay[(size_t)l];
  if (d.empty()) return;
  const int64_t id = d.front();
  d.pop_front();
  R.add(event_of(p, kEvReceive, (double)now, id, l));
  R.between[between_key(p, hop_index(p) + 1)].push_back(id);
}

// Flow f's receiver sends an ACK in slot `now` (after the segment that made it, or at its
// delayed-ACK timer); it reaches the sender at `due`. ACKs return unqueued and are never lost
// (docs/model.md, "Delays"): '+' and '-' when sent, 'r' when due, on no link (-1).
void ev_ack(int32_t r, int f, int32_t ackno, uint32_t now, uint32_t due) {
  EventRecorder& R = rec_of(r);
  if (!R.live((double)now)) return;
  const double sent = std::max((double)now, (size_t)f < R.last_rx.size() ? R.last_rx[(size_t)f] : 0.0);
  PacketEvent e{};
  e.id = R.next_id++;
  e.seq = ackno;
  e.sender = (uint16_t)f;
  e.flags = kEvAck;
  e.link = -1;
  e.t_slots = sent;
  e.kind = kEvEnqueue;
  R.add(e);
  e.kind = kEvDequeue;
  R.add(e);
  e.kind = kEvReceive;
  e.t_slots = (double)due;
  R.add(e);
}

}  // namespace ds
