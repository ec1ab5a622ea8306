// After how many calls does compiling pay for itself?
//
// Running N calls costs N * eager eagerly, and extra + N * compiled compiled, where `extra`
// is the one-off cost of compiling: the time of the warm-up (first) compiled call(s) minus
// what the same number of steady compiled calls would have cost. The two are equal at
//     N* = extra / (eager - compiled).
#pragma once

#include <optional>

namespace tct::stats {

// Returns N* as a real number of calls (callers round up to whole calls for display).
//  - nullopt when compiled is not faster (compiled >= eager): it never pays off;
//  - nullopt when any input is not finite, or a per-call time is negative;
//  - 0 when extra <= 0 (compiling cost nothing extra) and compiled is faster.
std::optional<double> break_even_calls(double first_call_extra_ns, double eager_per_call_ns,
                                       double compiled_per_call_ns);

}  // namespace tct::stats
