#include "startup/start.hpp"

#include <algorithm>
#include <optional>

#include "core/json_read.hpp"
#include "startup/json.hpp"

namespace tct::startup {
namespace {

using json = nlohmann::json;
using namespace core::json_read;

std::optional<double> mark(const json& marks, const char* name) { return opt_num<double>(marks, name); }

}  // namespace

Start make_start(const json& reply, Nanoseconds launch, Nanoseconds replied, const TraceFacts& trace) {
  Start s;
  const json& marks = at(reply, "marks_ns");
  s.steady_ns = doubles(reply, "steady_ns");
  if (const json& c = at(reply, "counters"); c.is_object() && !c.empty()) s.counters = counters_from_json(c);
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
