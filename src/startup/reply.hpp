#pragma once
// The replies of the agent's startup.* ops that only `tct startup` sends
// (python/tct_agent/ops/startup.py), each declared once as bench/reply.hpp declares bench's
// (startup.libtorch and startup.package, which bench's aoti row sends too: core/reply.hpp).
#include <cmath>
#include <tuple>

#include "core/fields.hpp"

namespace tct::startup::reply {

// startup.compare: the C++ runner's outputs against eager's, as the agent compared them.
struct Compare {
  bool count_equal = false, shape_equal = false;
  double max_abs_diff = NAN, max_abs_expected = NAN;
};
constexpr auto json_fields(const Compare*) {
  using core::fields::field;
  return std::tuple{field("count_equal", &Compare::count_equal), field("shape_equal", &Compare::shape_equal),
                    field("max_abs_diff", &Compare::max_abs_diff),
                    field("max_abs_expected", &Compare::max_abs_expected)};
}

}  // namespace tct::startup::reply
