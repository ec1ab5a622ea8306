#include "bench/allocator_finding.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/allocator.hpp"
#include "core/json_number.hpp"

namespace tct::bench {
namespace {

using json = nlohmann::json;

struct State {
  std::string name;
  bool headline = false;
  double eager = NAN, compiled = NAN, speedup = NAN, low = NAN, high = NAN;
  std::string library;
};

std::vector<State> measured_states(const json& allocator, const json& headline_speedup) {
  std::vector<State> out;
  for (const auto& s : allocator.value("states", json::array())) {
    if (!s.is_object()) continue;
    const std::string status = s.value("status", "");
    if (status != "measured" && status != "headline") continue;
    State st;
    st.name = s.value("state", "");
    st.headline = status == "headline";
    st.eager = core::number_or_nan(s, "eager_ns");
    st.compiled = core::number_or_nan(s, "compiled_ns");
    const json& sp = st.headline ? headline_speedup : s.value("speedup", json());
    if (sp.is_object()) {
      st.speedup = core::number_or_nan(sp, "estimate");
      st.low = core::number_or_nan(sp, "low");
      st.high = core::number_or_nan(sp, "high");
    }
    st.library = s.value("library", json()).is_string() ? s["library"].get<std::string>() : "";
    if (std::isfinite(st.speedup)) out.push_back(st);
  }
  return out;
}

// The per-process speedups of the headline, when it ran in more than one process, with the
// range of each process's segments (its stretches between looks).
struct Process {
  double speedup, low, high;
};
std::vector<Process> process_speedups(const json& headline_speedup) {
  std::vector<Process> out;
  if (!headline_speedup.is_object()) return out;
  for (const auto& p : headline_speedup.value("per_process", json::array())) {
    const double s = core::number_or_nan(p, "speedup");
    if (!(std::isfinite(s) && s > 0)) continue;
    Process proc{s, s, s};
    for (const auto& seg : p.value("segment_speedups", json::array()))
      if (seg.is_number())
        proc.low = std::min(proc.low, seg.get<double>()), proc.high = std::max(proc.high, seg.get<double>());
    out.push_back(proc);
  }
  return out;
}

std::string state_words(const std::string& name) {
  try {
    return core::describe(core::parse_allocator(name));
  } catch (...) { return name; }
}

}  // namespace

AllocatorFinding find_allocator_effect(const json& allocator, const json& headline_speedup) {
  AllocatorFinding f;
  if (!allocator.is_object()) return f;
  const auto states = measured_states(allocator, headline_speedup);
  auto head = std::find_if(states.begin(), states.end(), [](const State& s) { return s.headline; });
  if (head == states.end()) return f;

  const double lo = head->low, hi = head->high;
  const bool interval = std::isfinite(lo) && std::isfinite(hi);
  for (const auto& s : states) {
    if (s.headline || !interval) continue;
    const bool outside = s.speedup < lo || s.speedup > hi;
    const bool own_apart = !(std::isfinite(s.low) && std::isfinite(s.high)) || s.high < lo || s.low > hi;
    if (outside && own_apart) f.differs = true;
  }
  // Two states, not noise: far apart, and each process steady in its own (its segments'
  // ranges do not overlap). A loaded machine moves every process's segments over time.
  const auto per_process = process_speedups(headline_speedup);
  if (per_process.size() >= 2) {
    auto by = [](const Process& a, const Process& b) { return a.speedup < b.speedup; };
    auto [mn, mx] = std::minmax_element(per_process.begin(), per_process.end(), by);
    f.processes_disagree = mx->speedup / mn->speedup > kProcessDisagreement && mn->high < mx->low;
  }
  auto best = std::min_element(states.begin(), states.end(), [](const State& a, const State& b) {
    const double x = std::isfinite(a.compiled) ? a.compiled : INFINITY,
                 y = std::isfinite(b.compiled) ? b.compiled : INFINITY;
    return x < y;
  });
  if (best != states.end() && std::isfinite(best->compiled)) f.best_state = best->name;
  if (!f.differs && !f.processes_disagree) return f;

  report::kind::AllocatorMovesResult w;
  w.states.push_back({head->name, head->speedup});
  double fastest = INFINITY, slowest = 0;
  for (const auto& s : states) {
    if (std::isfinite(s.compiled)) fastest = std::min(fastest, s.compiled), slowest = std::max(slowest, s.compiled);
    if (!s.headline) w.states.push_back({s.name, s.speedup});
  }
  w.differs = f.differs;
  w.fastest_compiled_ns = fastest;
  w.slowest_compiled_ns = slowest;
  w.processes_disagree = f.processes_disagree;
  if (f.processes_disagree)
    for (const auto& p : per_process) w.process_speedups.push_back(p.speedup);
  if (best != states.end() && !f.best_state.empty())
    w.best = {
        best->name,     state_words(best->name), core::allocator_fix(core::parse_allocator(best->name), best->library),
        best->headline, best->compiled,          best->speedup};
  f.warning = report::Warning{std::move(w), ""};
  return f;
}

}  // namespace tct::bench
