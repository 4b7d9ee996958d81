// pybind11 module: numpy arrays in, numpy arrays out, nothing else. Compiled three times: as
// diffsweep._engine_cpu (DS_BACKEND_CUDA undefined), diffsweep._engine_cuda and
// diffsweep._engine_cpu_events (DS_EVENT_TRACE: the CPU engine with its packet-event hooks,
// engine/events.h, and run_events).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mutex>
#include <string>
#include <tuple>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "batch.h"
#include "engine/family.h"
#include "engine/features.h"
#include "engine/replica.h"
#ifdef DS_EVENT_TRACE
#include "engine/event_recorder.h"
#endif

namespace py = pybind11;

using namespace ds;

namespace {

// warp_rounds when the caller does not say: shared rounds on CUDA, where a warp's replicas
// then run a slot's paths together (the full Kaur & Vin family's engine call 82.6 -> 56.8 s on
// an H100, benchmarks/gpu/gpu.md 2026-11-26); on the CPU a task's replicas gain nothing from it
// and its shorter rounds cost 5-7%. A schedule: no result depends on it.
#ifdef DS_BACKEND_CUDA
constexpr int32_t kWarpRoundsDefault = 1;
#else
constexpr int32_t kWarpRoundsDefault = 0;
#endif

template <class T>
std::string dtype_name() { return py::str(py::dtype::of<T>()); }

const char* dim_name(Dim d) {
  switch (d) {
    case R: return "R"; case RL: return "RL"; case RLC: return "RLC"; case RF: return "RF";
    case RFH: return "RFH"; case RFD: return "RFD"; case RS: return "RS"; case RSH: return "RSH";
    case RFI: return "RFI"; case RM: return "RM"; case RLCK: return "RLCK"; case RFK: return "RFK";
    case RMK: return "RMK"; case RG: return "RG"; case RGZ: return "RGZ"; case RT: return "RT";
    case RX: return "RX"; case RY: return "RY"; case RC: return "RC";
    case RLCB: return "RLCB";
  }
  return "?";
}

template <class T>
const T* input_array(const py::dict& d, const char* name, size_t n, std::vector<py::object>& keep) {
  if (!d.contains(name)) throw py::value_error(std::string("batch input '") + name + "' is missing");
  py::array a = py::reinterpret_borrow<py::array>(d[name]);
  auto c = py::array_t<T, py::array::c_style>::ensure(a);
  if (!c || !a.dtype().is(py::dtype::of<T>()))
    throw py::value_error(std::string("batch input '") + name + "' must have dtype " + dtype_name<T>());
  if ((size_t)c.size() != n)
    throw py::value_error(std::string("batch input '") + name + "' has " + std::to_string(c.size()) +
                          " elements, expected " + std::to_string(n));
  keep.push_back(c);
  return c.data();
}

BatchShape shape_from(const py::dict& s) {
  BatchShape b{};
  b.n_replicas = s["n_replicas"].cast<int32_t>();
  b.max_flows = s["max_flows"].cast<int32_t>();
  b.max_links = s["max_links"].cast<int32_t>();
  b.max_sources = s["max_sources"].cast<int32_t>();
  b.max_intervals = s["max_intervals"].cast<int32_t>();
  b.max_markers = s.contains("max_markers") ? s["max_markers"].cast<int32_t>() : 1;
  b.max_gens = s.contains("max_gens") ? s["max_gens"].cast<int32_t>() : 1;
  b.max_transfers = s.contains("max_transfers") ? s["max_transfers"].cast<int32_t>() : 1;
  b.max_sessions = s.contains("max_sessions") ? s["max_sessions"].cast<int32_t>() : 1;
  b.max_trace_samples =
      s.contains("max_trace_samples") ? s["max_trace_samples"].cast<int32_t>() : 1;
  auto opt1 = [&](const char* k) { return s.contains(k) ? s[k].cast<int32_t>() : 1; };
  b.max_traced = opt1("max_traced");
  b.max_qtrace_samples = opt1("max_qtrace_samples");
  b.max_qtrace_links = opt1("max_qtrace_links");
  b.ring_classes = s.contains("ring_classes") ? s["ring_classes"].cast<int32_t>() : kMaxClasses;
  b.ack_cap = s["ack_cap"].cast<int32_t>();
  b.delay_cap = s["delay_cap"].cast<int32_t>();
  b.nic_chunks = s["nic_chunks"].cast<int32_t>();
  b.stage_cap = s["stage_cap"].cast<int32_t>();
  b.lanes = s["lanes"].cast<int32_t>();
  b.emit_cap = s["emit_cap"].cast<int32_t>();
  b.clip_slots = s.contains("clip_slots") ? s["clip_slots"].cast<int32_t>() : (int32_t)kPollSlots;
  b.warp_rounds = s.contains("warp_rounds") ? s["warp_rounds"].cast<int32_t>() : kWarpRoundsDefault;
  auto opt0 = [&](const char* k) { return s.contains(k) ? s[k].cast<int32_t>() : 0; };
  b.wavefront = opt0("wavefront");
  b.wave_cap = opt0("wave_cap");
  b.wave_order = opt0("wave_order");
  b.wave_phases = opt0("wave_phases");
  auto flag01 = [&](const char* k) { return s.contains(k) ? s[k].cast<int32_t>() : 1; };
  b.flow_ext = flag01("flow_ext");
  b.conn_meters = flag01("conn_meters");
  b.aqm_states = flag01("aqm_states");
  b.sack_states = flag01("sack_states");
  b.rx_bits = s.contains("rx_bits") ? s["rx_bits"].cast<int32_t>() : kRxBitmapBits;
  b.cubic_states = flag01("cubic_states");
  b.ecn_states = flag01("ecn_states");
  b.qdelay_bins = s.contains("qdelay_bins") ? s["qdelay_bins"].cast<int32_t>() : 0;
  b.fq_queues = s.contains("fq_queues") ? s["fq_queues"].cast<int32_t>() : 0;
  auto pow2 = [](int32_t v) { return v > 0 && (v & (v - 1)) == 0; };
  auto bad = [](const char* field, int32_t v, const char* allowed) {
    throw py::value_error(std::string("batch shape: ") + field + " = " + std::to_string(v) +
                          " is not allowed (expected " + allowed + ")");
  };
  if (b.n_replicas < 0) bad("n_replicas", b.n_replicas, ">= 0");
  if (b.max_flows < 1 || b.max_flows > kMaxFlows) bad("max_flows", b.max_flows, "1..65000");
  if (b.max_links < 1 || b.max_links > kMaxLinks) bad("max_links", b.max_links, "1..127");
  if (b.max_sources < 1 || b.max_sources > kMaxSources) bad("max_sources", b.max_sources, "1..512");
  if (b.max_intervals < 1) bad("max_intervals", b.max_intervals, ">= 1");
  if (b.max_markers < 1 || b.max_markers > kMaxMarkers) bad("max_markers", b.max_markers, "1..64");
  if (b.max_gens < 1 || b.max_gens > kMaxGens) bad("max_gens", b.max_gens, "1..64");
  if (b.max_transfers < 1) bad("max_transfers", b.max_transfers, ">= 1");
  if (b.max_sessions < 1) bad("max_sessions", b.max_sessions, ">= 1");
  if (b.max_trace_samples < 1) bad("max_trace_samples", b.max_trace_samples, ">= 1");
  if (b.max_traced < 1 || b.max_traced > kMaxFlows) bad("max_traced", b.max_traced, "1..65000");
  if (b.max_qtrace_samples < 1) bad("max_qtrace_samples", b.max_qtrace_samples, ">= 1");
  if (b.max_qtrace_links < 1 || b.max_qtrace_links > kMaxLinks)
    bad("max_qtrace_links", b.max_qtrace_links, "1..127");
  if (b.ring_classes < 1 || b.ring_classes > kMaxClasses)
    bad("ring_classes", b.ring_classes, "in 1..kMaxClasses");
  {
    const auto caps = s["class_caps"].cast<std::vector<int32_t>>();
    if ((int)caps.size() != b.ring_classes)
      bad("len(class_caps)", (int32_t)caps.size(), "ring_classes");
    for (int c = 0; c < kMaxClasses; ++c) b.class_cap[c] = c < (int)caps.size() ? caps[c] : 0;
    set_ring_offsets(b);
  }
  if (b.stage_cap < 1) bad("stage_cap", b.stage_cap, ">= 1");
  if (!pow2(b.lanes) || b.lanes > kMaxLanes) bad("lanes", b.lanes, "a power of two <= 32");
  for (int c = 0; c < b.ring_classes; ++c)
    if (!pow2(b.class_cap[c])) bad("class_caps[c]", b.class_cap[c], "a power of two");
  if (!pow2(b.ack_cap)) bad("ack_cap", b.ack_cap, "a power of two");
  if (!pow2(b.delay_cap)) bad("delay_cap", b.delay_cap, "a power of two");
  if (b.nic_chunks < 1) bad("nic_chunks", b.nic_chunks, ">= 1");
  if (!pow2(b.emit_cap)) bad("emit_cap", b.emit_cap, "a power of two");
  if (b.clip_slots < 0) bad("clip_slots", b.clip_slots, ">= 0 (0: rounds not clipped)");
  if (b.warp_rounds != 0 && b.warp_rounds != 1) bad("warp_rounds", b.warp_rounds, "0 or 1");
  if (b.wavefront != 0 && b.wavefront != 1) bad("wavefront", b.wavefront, "0 or 1");
  if (b.wave_cap < 0) bad("wave_cap", b.wave_cap, ">= 0 (0: the whole round's items at once)");
  if (b.wave_order != 0 && b.wave_order != 1) bad("wave_order", b.wave_order, "0 or 1");
  if (b.wave_phases < 0 || b.wave_phases > 2) bad("wave_phases", b.wave_phases, "0, 1 or 2");
  if (b.wave_phases && !b.wavefront) bad("wave_phases", b.wave_phases, "0 unless wavefront is 1");
  if (b.flow_ext != 0 && b.flow_ext != 1) bad("flow_ext", b.flow_ext, "0 or 1");
  if (b.conn_meters != 0 && b.conn_meters != 1) bad("conn_meters", b.conn_meters, "0 or 1");
  if (b.aqm_states != 0 && b.aqm_states != 1) bad("aqm_states", b.aqm_states, "0 or 1");
  if (b.sack_states != 0 && b.sack_states != 1) bad("sack_states", b.sack_states, "0 or 1");
  if (!pow2(b.rx_bits) || b.rx_bits < kRxBitmapBits)
    bad("rx_bits", b.rx_bits, "a power of two >= 1024");
  if (b.cubic_states != 0 && b.cubic_states != 1) bad("cubic_states", b.cubic_states, "0 or 1");
  if (b.ecn_states != 0 && b.ecn_states != 1) bad("ecn_states", b.ecn_states, "0 or 1");
  if (b.qdelay_bins != 0 && b.qdelay_bins != kQDelayBins)
    bad("qdelay_bins", b.qdelay_bins, "0 or the limit qdelay_bins_on");
  if (b.fq_queues < 0 || b.fq_queues > kMaxFqQueues) bad("fq_queues", b.fq_queues, "0..256");
  return b;
}

int64_t* control_words(py::object control) {
  if (control.is_none()) return nullptr;
  auto c = py::array_t<int64_t, py::array::c_style>::ensure(control);
  if (!c || c.size() < kCtlWords || !c.writeable() || c.ptr() != control.ptr())
    throw py::value_error("control must be a writeable C-contiguous int64 array of " +
                          std::to_string((int)kCtlWords) + " words");
  return c.mutable_data();
}

// A packed batch's inputs (its shape and flat arrays, which `keep` holds while they are used).
BatchInput input_from(const py::dict& shape, const py::dict& arrays, std::vector<py::object>& keep) {
  BatchInput in;
  in.shape = shape_from(shape);
#define DS_GET(name, T, dim) in.name = input_array<T>(arrays, #name, dim_size(in.shape, dim), keep);
  DS_INPUT_FIELDS(DS_GET)
#undef DS_GET
  return in;
}

std::vector<BatchInput> inputs_from(const py::list& shapes, const py::list& arrays,
                                    std::vector<py::object>& keep) {
  if (shapes.size() != arrays.size())
    throw py::value_error("run_family: one dict of arrays per shape");
  std::vector<BatchInput> in;
  for (size_t b = 0; b < shapes.size(); ++b)
    in.push_back(input_from(shapes[b].cast<py::dict>(), arrays[b].cast<py::dict>(), keep));
  return in;
}

// A batch's output arrays, zero-filled, as a dict and as the engine's pointers in `out`.
py::dict output_arrays(const BatchShape& shape, BatchOutput& out) {
  py::dict result;
#define DS_ALLOC(name, T, dim)                                       \
  {                                                                  \
    py::array_t<T> x((py::ssize_t)dim_size(shape, dim));             \
    std::fill(x.mutable_data(), x.mutable_data() + x.size(), T(0));  \
    out.name = x.mutable_data();                                     \
    result[#name] = x;                                               \
  }
  DS_OUTPUT_FIELDS(DS_ALLOC)
  DS_RECORD_FIELDS(DS_ALLOC)
#undef DS_ALLOC
  return result;
}

// Runs several batches (one per shape) as one job; returns a list of dicts of output arrays.
py::list run_family(const py::list& shapes, const py::list& arrays, int threads, py::object control,
                    int replicas_per_task) {
  int64_t* ctl = control_words(control);
  if (replicas_per_task < 0)
    throw py::value_error("replicas_per_task = " + std::to_string(replicas_per_task) +
                          " is not allowed (expected >= 0; 0: the backend's default)");
  std::vector<py::object> keep;
  std::vector<BatchInput> in = inputs_from(shapes, arrays, keep);
  std::vector<BatchOutput> out(shapes.size());
  py::list results;
  for (size_t b = 0; b < shapes.size(); ++b) results.append(output_arrays(in[b].shape, out[b]));
  {
    py::gil_scoped_release release;
#ifdef DS_BACKEND_CUDA
    (void)threads;
    run_family_cuda(in, out, ctl, replicas_per_task);
#else
    run_family_cpu(in, out, threads, ctl, replicas_per_task);
#endif
  }
  return results;
}

// Per replica of a packed batch, whether it uses a rare model (engine/features.h): the CUDA
// engine runs a launch on its slim kernel when none of its replicas does.
std::vector<bool> uses_rare_models(const py::dict& shape, const py::dict& arrays) {
  std::vector<py::object> keep;
  const BatchInput in = input_from(shape, arrays, keep);
  std::vector<bool> v((size_t)in.shape.n_replicas);
  for (int32_t r = 0; r < in.shape.n_replicas; ++r) v[(size_t)r] = replica_features(in, r).any();
  return v;
}

// Runs one batch; returns a dict of output arrays.
py::dict run(const py::dict& shape, const py::dict& arrays, int threads, py::object control) {
  py::list shapes, batches;
  shapes.append(shape);
  batches.append(arrays);
  return run_family(shapes, batches, threads, control, 0)[0].cast<py::dict>();
}

#ifdef DS_EVENT_TRACE
// Runs one batch with every replica's packet events recorded (engine/events.h), at most
// max_event_bytes of them per replica (32 bytes each), those before slot time until_slots;
// returns (the output arrays, [(events as bytes, truncated) per replica]). One thread: the
// recorders are the batch's (g_event_recorders), one call at a time.
py::tuple run_events(const py::dict& shape, const py::dict& arrays, long long max_event_bytes,
                     double until_slots) {
  if (max_event_bytes < (long long)sizeof(PacketEvent))
    throw py::value_error("max_event_bytes = " + std::to_string(max_event_bytes) +
                          " is not allowed (expected >= " + std::to_string(sizeof(PacketEvent)) +
                          ": one event)");
  static std::mutex one_at_a_time;
  std::vector<py::object> keep;
  std::vector<BatchInput> in{input_from(shape, arrays, keep)};
  std::vector<BatchOutput> out(1);
  py::dict result = output_arrays(in[0].shape, out[0]);
  std::vector<EventRecorder> recs((size_t)in[0].shape.n_replicas);
  for (auto& rec : recs)
    rec.reset(in[0].shape.max_links, in[0].shape.max_flows,
              (size_t)max_event_bytes / sizeof(PacketEvent), until_slots);
  {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(one_at_a_time);
    g_event_recorders = &recs;
    run_family_cpu(in, out, 1, nullptr, 1);
    g_event_recorders = nullptr;
  }
  py::list events;
  for (const auto& rec : recs)
    events.append(py::make_tuple(
        py::bytes((const char*)rec.events.data(), rec.events.size() * sizeof(PacketEvent)),
        rec.truncated));
  return py::make_tuple(result, events);
}
#endif

template <class T>
std::tuple<std::string, std::string, std::string> field(const char* name, Dim d) {
  return {name, dtype_name<T>(), dim_name(d)};
}

}  // namespace

#ifdef DS_BACKEND_CUDA
#define DS_MODULE_NAME _engine_cuda
#elif defined(DS_EVENT_TRACE)
#define DS_MODULE_NAME _engine_cpu_events  // CMakeLists.txt: the packet-event build
#elif defined(DS_HOST_SLIM)
#define DS_MODULE_NAME _engine_cpu_slim  // tests/test_slim.py builds it
#else
#define DS_MODULE_NAME _engine_cpu
#endif

PYBIND11_MODULE(DS_MODULE_NAME, m) {
  m.doc() = "diffsweep engine (one backend); see cuda/batch.h for every array";
  m.def("run", &run, py::arg("shape"), py::arg("arrays"), py::arg("threads") = 0,
        py::arg("control") = py::none(),
        "Run one batch of replicas to their end; returns a dict of output arrays.");
  m.def("run_family", &run_family, py::arg("shapes"), py::arg("arrays"), py::arg("threads") = 0,
        py::arg("control") = py::none(), py::arg("replicas_per_task") = 0,
        "Run several batches (one per shape) as one job, longest replicas first; returns a list "
        "of dicts of output arrays. replicas_per_task: replicas one CPU thread steps together "
        "(0 or 1: one at a time; 32: as a GPU warp), or at most per CUDA warp (0: as many as "
        "leave every warp resident); no result depends on it.");
#ifdef DS_EVENT_TRACE
  m.def("run_events", &run_events, py::arg("shape"), py::arg("arrays"),
        py::arg("max_event_bytes"), py::arg("until_slots"),
        "Run one batch recording each replica's packet events (engine/events.h); returns "
        "(output arrays, [(events bytes, truncated)]).");
  m.attr("event_bytes") = (int)sizeof(PacketEvent);
#endif
  m.def("cuda_kernel", [](const py::list& shapes, const py::list& arrays) {
    std::vector<py::object> keep;
    return std::string(family_kernel_name(inputs_from(shapes, arrays, keep)));
  }, py::arg("shapes"), py::arg("arrays"),
        "The CUDA kernel ('slim', 'classic' or 'full') that runs these batches as one job: the CUDA "
        "backend's own choice (engine/features.h), DIFFSWEEP_CUDA_KERNEL=full included.");
#ifndef DS_BACKEND_CUDA
  m.def("cpu_engine", [](const py::list& shapes, const py::list& arrays) {
    std::vector<py::object> keep;
    return std::string(cpu_engine_name(inputs_from(shapes, arrays, keep)));
  }, py::arg("shapes"), py::arg("arrays"),
        "The build of the CPU engine ('classic' or 'full') that runs these batches as one job "
        "(cuda/backend_cpu.cpp: cpu_engine_name), DIFFSWEEP_CPU_ENGINE=full included.");
#endif
  m.def("family_plan", [](const py::list& shapes, long long resident_warps, int replicas_per_task) {
    std::vector<BatchInput> in;
    for (const auto& s : shapes) {
      BatchInput b{};
      b.shape = shape_from(s.cast<py::dict>());
      in.push_back(b);
    }
    const int per_warp = spread_per_warp(in, resident_warps, replicas_per_task);
    return py::dict(py::arg("per_warp") = per_warp,
                    py::arg("warps") = family_warps(in, per_warp));
  }, py::arg("shapes"), py::arg("resident_warps"), py::arg("replicas_per_task") = 0,
        "How the CUDA backend spreads these batches (packed shapes) over the warps: per_warp, "
        "the most replicas a warp takes (a shape's team of lanes allows 32 / lanes), and warps, "
        "the tasks that makes; with resident_warps resident at once (engine/family.h).");
  m.def("uses_rare_models", &uses_rare_models, py::arg("shape"), py::arg("arrays"),
        "Per replica of a packed batch, whether it uses a rare model (edge conditioners, AQM, "
        "traffic generators, applications, traced flows, TCP-aware tags, non-green packets, "
        "validation hooks): the CUDA engine runs a launch whose replicas use none on its slim "
        "kernel.");
  m.def("input_fields", [] {
    std::vector<std::tuple<std::string, std::string, std::string>> v;
#define DS_F(name, T, dim) v.push_back(field<T>(#name, dim));
    DS_INPUT_FIELDS(DS_F)
    return v;
  });
  m.def("output_fields", [] {
    std::vector<std::tuple<std::string, std::string, std::string>> v;
    DS_OUTPUT_FIELDS(DS_F)
    DS_RECORD_FIELDS(DS_F)
#undef DS_F
    return v;
  });
  // The layout is the same on every backend: computed here, on the host, for both modules.
  m.def("state_bytes", [](const py::dict& shape) { return make_layout(shape_from(shape)).stride; },
        "Engine state per replica, in bytes, for a batch shape (the arena holds one such "
        "block per worker, not per replica).");
  m.def("state_sections", [](const py::dict& shape) {
    std::vector<std::pair<std::string, size_t>> v;
    make_layout(shape_from(shape), [&](const char* name, size_t bytes) { v.emplace_back(name, bytes); });
    return v;
  }, "Engine state per replica, part by part: [(name, bytes)] in layout order.");
  m.def("limits", [] {
    py::dict d;
    d["max_hops"] = kMaxHops;
    d["max_classes"] = kMaxClasses;
    d["max_injected_drops"] = kMaxInjectedDrops;
    d["rx_bitmap_bits"] = kRxBitmapBits;
    d["max_flows"] = kMaxFlows;
    d["max_links"] = kMaxLinks;
    d["max_sources"] = kMaxSources;
    d["max_markers"] = kMaxMarkers;
    d["max_colours"] = kMaxColours;
    d["max_gens"] = kMaxGens;
    d["max_size_set"] = kMaxSizeSet;
    d["max_lanes"] = kMaxLanes;
    d["max_cubic_sets"] = kMaxCubicSets;
    d["cubic_params"] = (int)kCubicParams;
    d["max_slots"] = kMaxSlots;
    d["poll_slots"] = kPollSlots;
    d["qdelay_bins_on"] = kQDelayBins;  // shape qdelay_bins when a histogram is kept (batch.h)
    d["qdelay_linear"] = kQDelayLinear;
    d["qdelay_per_octave"] = kQDelayPerOctave;
    d["qdelay_octaves"] = kQDelayOctaves;
    d["max_fq_queues"] = kMaxFqQueues;  // FQ-CoDel flow queues per link (model/queue_fq_codel.h)
    return d;
  });
  m.def("dims", [] {
    // Each dimension as the BatchShape fields (or limits) that give its axes, replica first.
    py::dict d;
    d["R"] = std::vector<std::string>{"n_replicas"};
    d["RL"] = std::vector<std::string>{"n_replicas", "max_links"};
    d["RLC"] = std::vector<std::string>{"n_replicas", "max_links", "max_classes"};
    d["RF"] = std::vector<std::string>{"n_replicas", "max_flows"};
    d["RFH"] = std::vector<std::string>{"n_replicas", "max_flows", "max_hops"};
    d["RFD"] = std::vector<std::string>{"n_replicas", "max_flows", "max_injected_drops"};
    d["RS"] = std::vector<std::string>{"n_replicas", "max_sources"};
    d["RSH"] = std::vector<std::string>{"n_replicas", "max_sources", "max_hops"};
    d["RFI"] = std::vector<std::string>{"n_replicas", "max_flows", "max_intervals"};
    d["RM"] = std::vector<std::string>{"n_replicas", "max_markers"};
    d["RLCK"] = std::vector<std::string>{"n_replicas", "max_links", "max_classes", "max_colours"};
    d["RFK"] = std::vector<std::string>{"n_replicas", "max_flows", "max_colours"};
    d["RMK"] = std::vector<std::string>{"n_replicas", "max_markers", "max_colours"};
    d["RG"] = std::vector<std::string>{"n_replicas", "max_gens"};
    d["RGZ"] = std::vector<std::string>{"n_replicas", "max_gens", "max_size_set"};
    d["RT"] = std::vector<std::string>{"n_replicas", "max_transfers"};
    d["RX"] = std::vector<std::string>{"n_replicas", "max_trace_samples", "max_traced"};
    d["RY"] = std::vector<std::string>{"n_replicas", "max_qtrace_samples", "max_qtrace_links",
                                       "max_classes"};
    d["RC"] = std::vector<std::string>{"n_replicas", "max_cubic_sets", "cubic_params"};
    d["RLCB"] = std::vector<std::string>{"n_replicas", "max_links", "max_classes", "qdelay_bins"};
    return d;
  });
  m.def("enums", [] {
    py::dict d;
    d["tcp_variant"] = py::dict(py::arg("reno") = (int)kReno, py::arg("newreno") = (int)kNewReno,
                                py::arg("sack") = (int)kSack);
    d["congestion_control"] = py::dict(py::arg("newreno") = (int)kCcNewReno,
                                       py::arg("cubic") = (int)kCcCubic,
                                       py::arg("dctcp") = (int)kCcDctcp);
    d["scheduler"] = py::dict(py::arg("priority") = (int)kSchedPriority, py::arg("wrr") = (int)kSchedWrr,
                              py::arg("cbq") = (int)kSchedCbq);
    d["tie_break"] = py::dict(py::arg("random") = (int)kTieRandom, py::arg("index") = (int)kTieIndex);
    d["limit_kind"] = py::dict(py::arg("pkts") = (int)kLimitPkts, py::arg("bytes") = (int)kLimitBytes,
                               py::arg("none") = (int)kLimitNone);
    d["colour"] = py::dict(py::arg("green") = (int)kGreen, py::arg("yellow") = (int)kYellow,
                           py::arg("red") = (int)kRed);
    d["marker_kind"] = py::dict(py::arg("token_bucket") = (int)kMarkTokenBucket,
                                py::arg("tsw2cm") = (int)kMarkTsw2cm, py::arg("tsw3cm") = (int)kMarkTsw3cm,
                                py::arg("srtcm") = (int)kMarkSrtcm, py::arg("trtcm") = (int)kMarkTrtcm,
                                py::arg("balancing") = (int)kMarkBalancing,
                                py::arg("rtt_aware") = (int)kMarkRttAware,
                                py::arg("rtt_rto") = (int)kMarkRttRto);
    d["gen_kind"] = py::dict(py::arg("poisson") = (int)kGenPoisson,
                             py::arg("sessions") = (int)kGenSessions, py::arg("web") = (int)kGenWeb);
    d["size_kind"] = py::dict(py::arg("set") = (int)kSizeSet, py::arg("exponential") = (int)kSizeExp,
                              py::arg("pareto") = (int)kSizePareto,
                              py::arg("paretoII") = (int)kSizeParetoII);
    d["split"] = py::dict(py::arg("none") = (int)kSplitNone, py::arg("random") = (int)kSplitRandom,
                          py::arg("size") = (int)kSplitSize,
                          py::arg("lifetime") = (int)kSplitLifetime);
    d["aqm"] = py::dict(py::arg("droptail") = (int)kAqmDropTail, py::arg("red") = (int)kAqmRed,
                        py::arg("rio-c") = (int)kAqmRioC, py::arg("rio-d") = (int)kAqmRioD,
                        py::arg("wred") = (int)kAqmWred, py::arg("codel") = (int)kAqmCodel,
                        py::arg("pie") = (int)kAqmPie, py::arg("fq_codel") = (int)kAqmFqCodel);
    return d;
  });
  m.def("overflow_bits", [] {
    py::dict d;
    d[py::int_((int)kOvfStage)] = "same-slot arrival buffer or a lane's emission ring";
    d[py::int_((int)kOvfAckRing)] = "ACKs in flight";
    d[py::int_((int)kOvfQueueRing)] = "unlimited class queue";
    d[py::int_((int)kOvfDelayLine)] = "link delay line";
    d[py::int_((int)kOvfRxWindow)] = "receiver window (segment beyond the reorder bitmap)";
    d[py::int_((int)kOvfNic)] = "access-link pool";
    d[py::int_((int)kOvfShape)] = "batch shape without a feature's state";
    return d;
  });
#ifdef DS_BACKEND_CUDA
  m.attr("backend") = "cuda";
  m.def("device_count", &cuda_device_count);
  m.def("memory_info", [] {
    size_t free_b = 0, total_b = 0;
    cuda_memory_info(&free_b, &total_b);
    return std::make_pair(free_b, total_b);
  }, "(free, total) bytes of CUDA device 0; (0, 0) without one.");
  m.def("device_name", [] {
    char buf[256];
    cuda_device_name(buf, sizeof buf);
    return std::string(buf);
  });
  m.def("resident_warps", &cuda_resident_warps, py::arg("full") = true,
        "Warps device 0 keeps resident at once on the full (else slim) kernel; 0 without one.");
#else
  m.attr("backend") = "cpu";
  m.def("device_count", [] { return 0; });
  m.def("device_name", [] { return std::string(""); });
  m.def("resident_warps", [](bool) { return 0LL; }, py::arg("full") = true);
#endif
  m.def("max_threads", [] {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
  });
}
