#include "startup/start.hpp"

#include <algorithm>
#include <optional>

#include "startup/json.hpp"

namespace tct::startup {
namespace {

// A mark by name; none when it is missing or null.
std::optional<double> mark(const reply::Marks& marks, const std::string& name) {
  const auto it = marks.find(name);
  return it != marks.end() && !std::isnan(it->second) ? std::optional<double>(it->second) : std::nullopt;
}

}  // namespace

Start make_start(const reply::FirstOutput& reply, Nanoseconds launch, Nanoseconds replied, const TraceFacts& trace) {
  Start s;
  const reply::Marks& marks = reply.marks_ns;
  s.steady_ns = reply.steady_ns;
  if (reply.counters.is_object() && !reply.counters.empty()) s.counters = counters_from_json(reply.counters);
  s.trace_read = trace.read;
  for (const auto& l : trace.lookups) s.lookups.push_back(l.lookup);

  const auto first = mark(marks, "first_output");
  const bool same_clock = first && *first >= launch.count() && *first <= replied.count();
  if (!same_clock) {
    s.first_output = replied - launch;
    return s;
  }
  s.first_output = Nanoseconds(*first) - launch;
  // Consecutive marks, each phase from the one before it (a missing mark: that phase did not happen).
  const std::pair<const char*, Phase> order[] = {
      {"op_start", Phase::Interpreter},           {"torch_imported", Phase::ImportTorch},
      {"artifacts_loaded", Phase::LoadArtifacts}, {"built", Phase::BuildModel},
      {"inputs_loaded", Phase::LoadInputs},       {"package_loaded", Phase::LoadPackage},
      {"compile_wrapped", Phase::CompileSetup},   {"first_output", Phase::FirstCall}};
  double prev = launch.count();
  for (auto [name, phase] : order)
    if (auto t = mark(marks, name); t && *t >= prev) {
      s.phases[phase] = Nanoseconds(*t - prev);
      prev = *t;
    }
  // The first call of a torch.compile start: what the trace says it compiled, the rest is
  // the call. (An AOTInductor start compiles nothing; its trace splits nothing.)
  if (trace.read && s.phases.count(Phase::CompileSetup) && s.phases.count(Phase::FirstCall)) {
    const Nanoseconds call = s.phases[Phase::FirstCall];
    const double scale = trace.compiling > call && trace.compiling.count() > 0 ? call / trace.compiling : 1.0;
    Nanoseconds used{0};
    for (const auto& [phase, d] : trace.phases)
      if (d.count() > 0) {
        s.phases[phase] = d * scale;
        used += d * scale;
      }
    s.phases[Phase::FirstCall] = std::max(Nanoseconds(0), call - used);
  }
  return s;
}

}  // namespace tct::startup
