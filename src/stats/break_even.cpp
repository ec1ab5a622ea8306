#include "stats/break_even.hpp"

#include <cmath>

namespace tct::stats {

std::optional<double> break_even_calls(double first_call_extra_ns, double eager_per_call_ns,
                                       double compiled_per_call_ns) {
  if (!std::isfinite(first_call_extra_ns) || !std::isfinite(eager_per_call_ns) || !std::isfinite(compiled_per_call_ns))
    return std::nullopt;
  if (eager_per_call_ns < 0.0 || compiled_per_call_ns < 0.0) return std::nullopt;
  const double saving = eager_per_call_ns - compiled_per_call_ns;
  if (saving <= 0.0) return std::nullopt;
  if (first_call_extra_ns <= 0.0) return 0.0;
  return first_call_extra_ns / saving;
}

}  // namespace tct::stats
