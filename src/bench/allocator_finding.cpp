#include "bench/allocator_finding.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/allocator.hpp"

namespace tct::bench {
namespace {

struct State {
  std::string name;
  bool headline = false;
  double eager = NAN, compiled = NAN, speedup = NAN, low = NAN, high = NAN;
  std::string library;
};

std::vector<State> measured_states(const AllocatorComparison& allocator, const Speedup& headline) {
  std::vector<State> out;
  for (const auto& s : allocator.states) {
    if (s.status != AllocatorStateStatus::Measured && s.status != AllocatorStateStatus::Headline) continue;
    State st;
    st.name = s.state;
    st.headline = s.status == AllocatorStateStatus::Headline;
    if (s.figures) {
      st.eager = s.figures->eager_ns;
      st.compiled = s.figures->compiled_ns;
    }
    if (st.headline) {
      st.speedup = headline.interval.estimate;
      st.low = headline.interval.low;
      st.high = headline.interval.high;
    } else if (s.figures && s.figures->speedup) {
      st.speedup = s.figures->speedup->estimate;
      st.low = s.figures->speedup->low;
      st.high = s.figures->speedup->high;
    }
    st.library = s.library.value_or("");
    if (std::isfinite(st.speedup)) out.push_back(st);
  }
  return out;
}

// The per-process speedups of the headline, when it ran in more than one process, with the
// range of each process's segments (its stretches between looks).
struct Process {
  double speedup, low, high;
};
std::vector<Process> process_speedups(const Speedup& headline) {
  std::vector<Process> out;
  if (!headline.per_process) return out;
  for (const auto& p : *headline.per_process) {
    const double s = p.speedup;
    if (!(std::isfinite(s) && s > 0)) continue;
    Process proc{s, s, s};
    for (double seg : p.segment_speedups)
      if (std::isfinite(seg)) proc.low = std::min(proc.low, seg), proc.high = std::max(proc.high, seg);
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

std::string_view to_string(AllocatorStateStatus s) {
  switch (s) {
    case AllocatorStateStatus::Headline: return "headline";
    case AllocatorStateStatus::Measured: return "measured";
    case AllocatorStateStatus::Skipped: return "skipped";
    case AllocatorStateStatus::Failed: return "failed";
  }
  return "measured";
}

std::optional<AllocatorStateStatus> parse_allocator_state_status(std::string_view s) {
  for (auto v : {AllocatorStateStatus::Headline, AllocatorStateStatus::Measured, AllocatorStateStatus::Skipped,
                 AllocatorStateStatus::Failed})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

AllocatorFinding find_allocator_effect(const AllocatorComparison& allocator, const Speedup& headline) {
  AllocatorFinding f;
  const auto states = measured_states(allocator, headline);
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
  const auto per_process = process_speedups(headline);
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
