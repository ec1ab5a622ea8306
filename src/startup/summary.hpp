#pragma once
// The decisions of `tct startup`, made once on the result: each mode's median time to the
// first output and its interval, the median start's phases, the steady per-call time and the
// break-even against eager; which mode starts fastest; which warm or shipped start missed a
// cache, and why. Pure.
#include "startup/result.hpp"

namespace tct::startup {

// A mode's figures from its starts.
void summarize(ModeResult& mode);

// Break-evens against eager, the verdict and the cache findings, from the summarized modes.
void decide(StartupResult& result);

}  // namespace tct::startup
