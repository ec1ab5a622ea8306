#pragma once
// The agent's raw timings for `tct expect` (python/tct_agent/ops/expect.py sends every one it
// took) -> the figures the classifier uses. Each is a lower envelope: other processes only
// ever add time, so the fastest repeat is the workload's own. Pure: no I/O.
#include <cstddef>
#include <vector>

#include "expect/reply.hpp"

namespace tct::expect {

// The fastest finite value of `ns`; NaN when there is none.
double fastest_ns(const std::vector<double>& ns);

// The op floor from profiled runs of 1-element adds ([[ns of each add], ...] per run): each
// run's median add, then the fastest run; the first `skip` runs left out (the profiler's first
// use in a process costs more per event: up to 2x). NaN when no run has an add.
double op_floor_ns_of_runs(const std::vector<std::vector<double>>& runs, std::size_t skip = 0);

// expect.profile's fixed costs timed beside its calls: the fastest round of the compiled add
// (compiled_call_rounds_ns) and the op floor of the profiler runs (op_floor_adds_ns). A reply
// of an older agent carries the figure itself (compiled_call_ns, op_floor_ns): read as is.
double profile_compiled_call_ns(const reply::Profile& profile);
double profile_op_floor_ns(const reply::Profile& profile);

// expect.ceilings' figures from its timings: bytes/s of the copy (2 x the bytes copied: read
// and written, over the fastest copy), FLOP/s of the n x n matmul (2 n^3 over the fastest),
// the op floor (its first profiled round left out) and the compiled call (the fastest round).
double ceiling_bandwidth(const reply::CeilingTimings& measurement);
double ceiling_flops(const reply::CeilingTimings& measurement);
double ceiling_op_floor_ns(const reply::CeilingTimings& measurement);
double ceiling_compiled_call_ns(const reply::CeilingTimings& measurement);

}  // namespace tct::expect
