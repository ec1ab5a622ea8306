#include "job/result.hpp"

#include <cmath>

#include <fmt/format.h>

namespace tct::job {

std::string_view to_string(How h) {
  switch (h) {
    case How::Eager: return "eager";
    case How::Cold: return "cold";
    case How::Warm: return "warm";
    case How::Shipped: return "shipped";
    case How::Aoti: return "aoti";
  }
  return "?";
}

std::optional<How> parse_how(std::string_view s) {
  for (How h : kAllHows)
    if (to_string(h) == s) return h;
  return std::nullopt;
}

std::string_view describe(How h) {
  switch (h) {
    case How::Eager: return "eager";
    case How::Cold: return "compiled, empty caches";
    case How::Warm: return "compiled, warm caches";
    case How::Shipped: return "compiled, shipped cache artifacts";
    case How::Aoti: return "compiled ahead of time with AOTInductor";
  }
  return "?";
}

std::string ModeSpec::label() const {
  std::string out(to_string(how));
  if (shape_fix) out += fmt::format(", {}", to_string(*shape_fix));
  if (threads) out += fmt::format(", {} thread{}", *threads, *threads == 1 ? "" : "s");
  return out;
}

bool Decision::clear() const {
  if (best.empty()) return false;
  for (const auto& c : others)
    if (c.verdict != stats::SpeedupVerdict::Faster) return false;
  return true;
}

const Comparison* Decision::find(const std::string& mode) const {
  for (const auto& c : others)
    if (c.mode == mode) return &c;
  return nullptr;
}

const ModeResult* JobResult::find(const std::string& label) const {
  for (const auto& m : modes)
    if (m.spec.label() == label) return &m;
  return nullptr;
}

double total_at(const RunFigures& run, double calls) {
  if (!run.ok() || run.curve.empty() || !measured(run.wall) || calls < 1) return NAN;
  const double wall = static_cast<double>(run.wall.count());
  const auto& last = run.curve.back();
  const double tail = wall - last.second;  // after the last call: the job's own ending
  if (calls >= last.first) {
    if (calls == last.first) return wall;
    if (!measured(run.loop_per_call)) return NAN;
    return wall + (calls - last.first) * static_cast<double>(run.loop_per_call.count());
  }
  // Within the run: the end of that call, interpolated between the kept points.
  auto prev = run.curve.front();
  if (calls <= prev.first) return prev.second + tail;
  for (const auto& p : run.curve) {
    if (p.first >= calls) {
      const double f = (calls - prev.first) / (p.first - prev.first);
      return prev.second + f * (p.second - prev.second) + tail;
    }
    prev = p;
  }
  return wall;
}

}  // namespace tct::job
