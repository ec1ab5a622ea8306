#pragma once
// The JSON fields of stats' values as the documents write them (core/fields.hpp): an interval's
// three bounds, a summary's figures.
#include "core/fields.hpp"
#include "stats/bootstrap.hpp"
#include "stats/summary.hpp"

namespace tct::stats {

constexpr auto json_fields(const Interval*) {
  using core::fields::field;
  return std::tuple{field("estimate", &Interval::estimate), field("low", &Interval::low),
                    field("high", &Interval::high)};
}
constexpr auto json_fields(const Summary*) {
  using core::fields::field;
  using S = Summary;
  return std::tuple{field("n", &S::n),       field("non_finite", &S::non_finite),
                    field("min", &S::min),   field("max", &S::max),
                    field("mean", &S::mean), field("median", &S::median),
                    field("p05", &S::p05),   field("p25", &S::p25),
                    field("p75", &S::p75),   field("p95", &S::p95),
                    field("mad", &S::mad),   field("robust_cv", &S::robust_cv)};
}

}  // namespace tct::stats
