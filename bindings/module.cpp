// pybind11 module: numpy arrays in, numpy arrays out, nothing else. Compiled twice: as
// diffsweep._engine_cpu (DS_BACKEND_CUDA undefined) and diffsweep._engine_cuda.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <tuple>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "batch.h"

namespace py = pybind11;

#ifdef DS_BACKEND_CUDA
constexpr int DEFAULT_SLOTS_PER_LAUNCH = 1024;  // lockstep width on the GPU
#else
constexpr int DEFAULT_SLOTS_PER_LAUNCH = 0;  // CPU: each replica runs to its end in one launch
#endif
using namespace ds;

namespace {

template <class T>
std::string dtype_name() { return py::str(py::dtype::of<T>()); }

const char* dim_name(Dim d) {
  switch (d) {
    case R: return "R"; case RL: return "RL"; case RLC: return "RLC"; case RF: return "RF";
    case RFH: return "RFH"; case RFD: return "RFD"; case RS: return "RS"; case RSH: return "RSH";
    case RFI: return "RFI";
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
  b.queue_cap = s["queue_cap"].cast<int32_t>();
  b.ack_cap = s["ack_cap"].cast<int32_t>();
  b.delay_cap = s["delay_cap"].cast<int32_t>();
  b.nic_cap = s["nic_cap"].cast<int32_t>();
  b.stage_cap = s["stage_cap"].cast<int32_t>();
  auto pow2 = [](int32_t v) { return v > 0 && (v & (v - 1)) == 0; };
  if (b.n_replicas < 0 || b.max_flows < 1 || b.max_flows > 65000 || b.max_links < 1 ||
      b.max_links > 127 || b.max_sources < 1 || b.max_intervals < 1 || b.stage_cap < 1 ||
      !pow2(b.queue_cap) || !pow2(b.ack_cap) || !pow2(b.delay_cap) || !pow2(b.nic_cap))
    throw py::value_error("invalid batch shape");
  return b;
}

// Runs one batch; returns a dict of output arrays.
py::dict run(const py::dict& shape, const py::dict& arrays, int threads, int slots_per_launch,
             py::object control) {
  int64_t* ctl = nullptr;
  if (!control.is_none()) {
    auto c = py::array_t<int64_t, py::array::c_style>::ensure(control);
    if (!c || c.size() < kCtlWords || !c.writeable() || c.ptr() != control.ptr())
      throw py::value_error("control must be a writeable C-contiguous int64 array of " +
                            std::to_string((int)kCtlWords) + " words");
    ctl = c.mutable_data();
  }
  BatchInput in{};
  in.shape = shape_from(shape);
  std::vector<py::object> keep;
#define DS_GET(name, T, dim) in.name = input_array<T>(arrays, #name, dim_size(in.shape, dim), keep);
  DS_INPUT_FIELDS(DS_GET)
#undef DS_GET
  BatchOutput out{};
  py::dict result;
#define DS_ALLOC(name, T, dim)                                       \
  {                                                                  \
    py::array_t<T> a((py::ssize_t)dim_size(in.shape, dim));          \
    std::fill(a.mutable_data(), a.mutable_data() + a.size(), T(0));  \
    out.name = a.mutable_data();                                     \
    result[#name] = a;                                               \
  }
  DS_OUTPUT_FIELDS(DS_ALLOC)
#undef DS_ALLOC
  {
    py::gil_scoped_release release;
#ifdef DS_BACKEND_CUDA
    (void)threads;
    run_batch_cuda(in, out, slots_per_launch, ctl);
#else
    run_batch_cpu(in, out, threads, slots_per_launch, ctl);
#endif
  }
  return result;
}

template <class T>
std::tuple<std::string, std::string, std::string> field(const char* name, Dim d) {
  return {name, dtype_name<T>(), dim_name(d)};
}

}  // namespace

#ifdef DS_BACKEND_CUDA
#define DS_MODULE_NAME _engine_cuda
#else
#define DS_MODULE_NAME _engine_cpu
#endif

PYBIND11_MODULE(DS_MODULE_NAME, m) {
  m.doc() = "diffsweep engine (one backend); see cuda/batch.h for every array";
  m.def("run", &run, py::arg("shape"), py::arg("arrays"), py::arg("threads") = 0,
        py::arg("slots_per_launch") = DEFAULT_SLOTS_PER_LAUNCH, py::arg("control") = py::none(),
        "Run one batch of replicas to their end; returns a dict of output arrays.");
  m.def("input_fields", [] {
    std::vector<std::tuple<std::string, std::string, std::string>> v;
#define DS_F(name, T, dim) v.push_back(field<T>(#name, dim));
    DS_INPUT_FIELDS(DS_F)
    return v;
  });
  m.def("output_fields", [] {
    std::vector<std::tuple<std::string, std::string, std::string>> v;
    DS_OUTPUT_FIELDS(DS_F)
#undef DS_F
    return v;
  });
  m.def("state_bytes", [](const py::dict& shape) { return replica_state_bytes(shape_from(shape)); },
        "Engine state per replica, in bytes, for a batch shape.");
  m.def("limits", [] {
    py::dict d;
    d["max_hops"] = kMaxHops;
    d["max_classes"] = kMaxClasses;
    d["max_injected_drops"] = kMaxInjectedDrops;
    d["rx_bitmap_bits"] = kRxBitmapBits;
    return d;
  });
#ifdef DS_BACKEND_CUDA
  m.attr("backend") = "cuda";
  m.def("device_count", &cuda_device_count);
  m.def("device_name", [] {
    char buf[256];
    cuda_device_name(buf, sizeof buf);
    return std::string(buf);
  });
#else
  m.attr("backend") = "cpu";
  m.def("device_count", [] { return 0; });
  m.def("device_name", [] { return std::string(""); });
#endif
  m.def("max_threads", [] {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
  });
}
