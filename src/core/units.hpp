#pragma once
// Durations carry their unit in their type: a result's field is a Nanoseconds, not a double
// named _ns. A duration not measured is NaN (null in a document: core/json_number.hpp), so
// kNotMeasured is the default and measured() the test. Sample vectors that feed stats:: stay
// plain doubles in ns.
#include <chrono>
#include <cmath>
#include <limits>

namespace tct {

using Nanoseconds = std::chrono::duration<double, std::nano>;

inline constexpr Nanoseconds kNotMeasured{std::numeric_limits<double>::quiet_NaN()};

inline bool measured(Nanoseconds d) { return std::isfinite(d.count()); }

}  // namespace tct
