// The CPU backend: the engine instantiated with Thrust's OpenMP system. Host arrays are used
// in place (no copies); only the replica arena is allocated.
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>

#include <memory>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/run_batch.h"

namespace ds {
namespace {

struct CpuBackend {
  static constexpr bool device_sees_host = true;  // the engine polls the host words itself
  std::vector<std::unique_ptr<unsigned char[]>> owned;

  template <class T>
  T* to_device(const T* host, size_t) { return const_cast<T*>(host); }
  template <class T>
  void to_host(T*, const T*, size_t) {}
  template <class T>
  T* alloc(size_t n) {
    owned.emplace_back(new unsigned char[n * sizeof(T) + 16]);
    return reinterpret_cast<T*>(owned.back().get());
  }
  template <class T>
  T* put(const T& v) {
    T* p = alloc<T>(1);
    *p = v;
    return p;
  }
  template <class F>
  void for_each(int32_t n, F f) {
    thrust::for_each(thrust::omp::par, thrust::counting_iterator<int32_t>(0),
                     thrust::counting_iterator<int32_t>(n), f);
  }
  void sync() {}
  void finish() { owned.clear(); }
};

}  // namespace

void run_batch_cpu(const BatchInput& in, BatchOutput& out, int threads, int slots_per_launch,
                   int64_t* control) {
#ifdef _OPENMP
  const int before = omp_get_max_threads();
  if (threads > 0) omp_set_num_threads(threads);
#endif
  CpuBackend be;
  run_batch_impl(be, in, out, slots_per_launch, control);
#ifdef _OPENMP
  omp_set_num_threads(before);
#endif
}

size_t replica_state_bytes(const BatchShape& shape) { return replica_state_bytes_impl(shape); }

}  // namespace ds
