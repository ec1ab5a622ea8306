#include "core/fraction.hpp"

#include <cmath>

#include <fmt/format.h>

#include "errors.hpp"

namespace tct::core {

double parse_fraction(const std::string& text) {
  std::string t = text;
  bool percent = !t.empty() && t.back() == '%';
  if (percent) t.pop_back();
  double v = NAN;
  try {
    std::size_t used = 0;
    v = std::stod(t, &used);
    if (used != t.size()) v = NAN;
  } catch (const std::exception&) {}
  if (percent || v >= 1) v /= 100;
  return v;
}

double parse_precision(const std::string& text) {
  double v = parse_fraction(text);
  if (!std::isfinite(v) || v <= 0 || v >= 1)
    throw usage_error(fmt::format("--precision '{}' is not a fraction in (0, 1) or a percentage", text),
                      "write --precision 0.02 or --precision 2%");
  return v;
}

}  // namespace tct::core
