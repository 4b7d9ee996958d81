// The recorder of one traced replica's packet events (engine/events.h), host-only: the CPU
// engine built with DS_EVENT_TRACE keeps one per replica of the traced batch
// (bindings/module.cpp: run_family_events). It mirrors the engine's FIFOs (class queues,
// delay lines, the hop between them) with packet ids, so that a packet keeps its id from
// link to link and a departure knows when it arrived, without a byte more in the engine's
// 16-byte Packet.
#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <utility>
#include <vector>

#include "events.h"

namespace ds {

struct EventRecorder {
  std::vector<PacketEvent> events;
  size_t max_events = 0;     // the cap (bytes / sizeof(PacketEvent)); then `truncated`
  double until_slots = 0.0;  // events at or after this slot time are not recorded
  bool truncated = false;
  bool stopped = false;      // truncated, or the queue side reached until_slots
  int64_t next_id = 0;
  // the arrival being decided (ev_arrive, then ev_drop or ev_enqueued)
  PacketEvent pending{};
  // per (link, class): ids and arrival times of the packets queued, in queue order
  std::vector<std::deque<std::pair<int64_t, double>>> queued;
  std::vector<std::deque<int64_t>> in_delay;  // per link: ids in its delay line
  // packets between links, by (sender, seq, next hop, flags): a key's ids in FIFO order
  std::unordered_map<uint64_t, std::deque<int64_t>> between;
  std::vector<double> last_rx;  // per flow: its receiver's last data 'r' (an ACK's send time)

  void reset(int n_links, int n_flows, size_t max_ev, double until) {
    events.clear();
    max_events = max_ev;
    until_slots = until;
    truncated = stopped = false;
    next_id = 0;
    queued.assign((size_t)n_links * 4, {});
    in_delay.assign((size_t)n_links, {});
    between.clear();
    last_rx.assign((size_t)n_flows, 0.0);
  }
  // false once stopped: every hook then returns at once
  bool live(double now_slots) {
    if (!stopped && now_slots >= until_slots) stopped = true;
    return !stopped;
  }
  void add(const PacketEvent& e) {
    if (stopped) return;
    if (events.size() >= max_events) {
      truncated = stopped = true;
      return;
    }
    events.push_back(e);
  }
};

// The recorders of the batch being run (null outside run_family_events): row r's is [r].
extern std::vector<EventRecorder>* g_event_recorders;

}  // namespace ds
