// Packet events of chosen replicas (issue 53: `diffsweep trace`, docs/traces.md). Only the
// CPU engine built with DS_EVENT_TRACE (the module diffsweep._engine_cpu_events, CMakeLists.txt)
// records them; in every other build (the CPU engine, both CUDA kernels) DS_EV(...) is nothing,
// its argument not even compiled, so that a normal run pays nothing: no test in the hot loop,
// no register on the GPU (ptxas -v of kernel_slim/kernel_full the same before and after).
// Engines are deterministic, so a trace is a rerun of a replica with the hooks compiled in; its
// tables are the stored ones bit for bit (tests/test_packet_trace.py).
//
// The hooks sit on the queue side only (engine/queue_side.h, push_ack in engine/replica.h),
// which one lane runs slot by slot: the events come in the same order whatever the team of
// lanes, the batch or the thread count. What each event's time is: docs/traces.md.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ds {

// One event, 32 bytes (the trace's cap counts these: python/diffsweep/engine/events.py).
enum EventKind : uint8_t { kEvEnqueue = '+', kEvDequeue = '-', kEvDrop = 'd', kEvReceive = 'r' };
// Why a packet was dropped: the queues table's columns it is counted in (engine/tables.py).
enum EventDrop : uint8_t {
  kEvNoDrop = 0,
  kEvDropBuffer = 1,  // the class's buffer full (queues.drops; a forced drop per colour too)
  kEvDropForced = 2,  // RED/RIO/WRED: average beyond max_th (2 max_th gentle) (forced_drops_*)
  kEvDropEarly = 3,   // RED/RIO/WRED's probabilistic drop, PIE's, CoDel's at dequeue (early_drops_*)
  kEvDropLoss = 4,    // the link's Bernoulli loss element or an injected drop (random_drops)
  kEvDropRing = 5,    // an unlimited class's ring full (an engine error: the host raises)
};
enum EventFlag : uint8_t { kEvSource = 1, kEvRexmit = 2, kEvAck = 4 };

struct PacketEvent {
  double t_slots;   // slot time, with its sub-slot part
  int64_t id;       // unique per packet (ns-2's packet id): kept from link to link
  int32_t seq;      // TCP sequence number (packets); an ACK's ack number; a source's count
  uint16_t sender;  // flow index, or max_flows + source index
  uint16_t bytes;   // size on the wire; 0 for an ACK (the host gives it the flow's header)
  uint8_t kind;     // EventKind
  uint8_t reason;   // EventDrop of a 'd'
  uint8_t cls;      // class index
  uint8_t colour;   // Colour (after the edge conditioner)
  uint8_t flags;    // EventFlag
  uint8_t hop;      // hop index on the route
  int8_t link;      // link index; -1: an ACK's return (unqueued, never lost: docs/model.md)
  uint8_t pad;
};
static_assert(sizeof(PacketEvent) == 32, "python/diffsweep/engine/events.py reads this layout");

}  // namespace ds

#ifdef DS_EVENT_TRACE
#if defined(__CUDACC__)
#error "DS_EVENT_TRACE is a CPU build (diffsweep._engine_cpu_events) only"
#endif
namespace ds {
struct Replica;
struct Packet;
// engine/events.cpp: each the recorder of replica row x.r (engine/event_recorder.h).
void ev_arrive(const Replica& x, const Packet& p, uint32_t now);
void ev_drop(const Replica& x, uint8_t reason);
void ev_enqueued(const Replica& x, int l, int c);
void ev_depart(const Replica& x, const Packet& p, int l, int c, uint32_t now, bool last_hop);
void ev_drop_head(const Replica& x, const Packet& p, int l, int c, uint32_t now);
void ev_hop(const Replica& x, const Packet& p, int l, uint32_t now);
void ev_ack(int32_t r, int f, int32_t ackno, uint32_t now, uint32_t due);
}  // namespace ds
#define DS_EV(call) call
#else
#define DS_EV(call) ((void)0)
#endif
