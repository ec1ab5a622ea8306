#pragma once
// Every figure and the decision of `tct job`, made once from its runs: each mode's totals and
// their intervals, the sites' figures, the output check against eager, the best mode as the job
// ran and at the horizon (the project's one interval rule, stats::decide, on the ratio of two
// modes' totals paired by round), and where the fastest mode changes with the number of calls.
#include <string>

#include "job/result.hpp"

namespace tct::job {

// Fills the "decided" fields of `r` and of its modes from their runs. Idempotent.
void decide(JobResult& r);

// A mode's mean total for `calls` calls of `anchor` (its ok runs whose most-called site it
// is); NaN when none has one.
double mean_total_at(const ModeResult& m, double calls, const std::string& anchor);

// Two lines of the job's output match: the same words, numbers equal within 1e-3 relative (a
// compiled graph's float rounding differs from eager's in the last digits, never in the third).
bool same_line(const std::string& a, const std::string& b);

}  // namespace tct::job
