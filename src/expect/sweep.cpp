#include "expect/sweep.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "expect/json.hpp"

namespace tct::expect {
namespace {

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
  return s;
}

const char* kHint = "write --sweep NAME=V1,V2,..., e.g. --sweep batch=1,8,64";

}  // namespace

SweepSpec parse_sweep(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos) throw usage_error(fmt::format("--sweep '{}' has no '='", text), kHint);
  SweepSpec spec;
  spec.param = trim(text.substr(0, eq));
  if (spec.param.empty()) throw usage_error(fmt::format("--sweep '{}' has an empty name", text), kHint);
  std::string rest = text.substr(eq + 1);
  std::size_t start = 0;
  while (true) {
    auto comma = rest.find(',', start);
    std::string v = trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (v.empty()) throw usage_error(fmt::format("--sweep '{}' has an empty value", text), kHint);
    // Like --param: a JSON literal when it parses as one, else the string as typed.
    json parsed = json::parse(v, nullptr, false);
    if (parsed.is_structured())
      throw usage_error(fmt::format("--sweep '{}': the value {} is a list or an object", text, v),
                        "sweep one parameter over single values (a number, a word, true, false or null)");
    spec.values.push_back(parsed.is_discarded() ? SweepValue(v) : sweep_value_from_json(parsed));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return spec;
}

std::vector<SweepPoint> run_sweep(const SweepSpec& spec, const std::function<SweepPoint(const SweepValue&)>& measure,
                                  const std::function<void(const std::vector<SweepPoint>&)>& on_point) {
  std::vector<SweepPoint> points;
  for (const auto& value : spec.values) {
    SweepPoint point;
    try {
      point = measure(value);
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      point = {};
      point.error = report::error_record(e);
      point.error->null_stage = !point.error->stage;
    }
    point.value = value;
    points.push_back(std::move(point));
    if (on_point) on_point(points);
  }
  return points;
}

}  // namespace tct::expect
