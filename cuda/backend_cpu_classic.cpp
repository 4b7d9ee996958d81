// The CPU engine as the CUDA classic kernel is built (kernel_classic.cu): DS_HOST_CLASSIC,
// every DS_FEAT_NEW test (CUBIC, CoDel, PIE, FQ-CoDel, ECN and DCTCP, the device queue)
// compiled out, for the families whose replicas use none of those models (run_family_cpu in
// backend_cpu.cpp chooses: cpu_engine_name). Issue 52's rule: such a replica's slot must cost
// no more than at the last release; with the tests in, they were ~15 of the 1-flow Kaur & Vin
// replica's ~796 engine instructions a slot (callgrind, benchmarks/cpu/slot_cost.py).
// The same source as backend_cpu.cpp, in its own namespace (ds_classic), so that its inline
// functions, built with other flags, are not merged with the full build's; the batch's
// types (batch.h) stay ds's, shared by both.
#define DS_HOST_CLASSIC 1
#define DS_CPU_CLASSIC_TU 1
#include "batch.h"

namespace ds_classic {
using namespace ds;  // BatchInput, BatchOutput, ... (batch.h)
}  // namespace ds_classic

#define ds ds_classic
#include "backend_cpu.cpp"
#undef ds
