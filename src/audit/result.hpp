#pragma once
// `tct audit`: probe, explain, expect and bench of one target in one go. The result holds the
// steps (how each ended, how long it took) and what each step found, as the values its runner
// returned; the document gets each of those in its own command's section, and the steps in
// the "audit" section (audit/json.cpp).
#include <optional>
#include <string>
#include <vector>

#include "bench/result.hpp"
#include "core/units.hpp"
#include "expect/result.hpp"
#include "explain/result.hpp"
#include "probe/result.hpp"

namespace tct::audit {

enum class StepStatus { Ok, Failed, Skipped, Unknown };  // Unknown: a document's status this version does not know

std::string to_string(StepStatus status);
StepStatus parse_step_status(const std::string& text);

// A failed step's error, as the document's error holds one.
struct StepError {
  std::string kind;
  std::string message;
  std::string hint;
  std::string stage;  // where inside the step, when the runner said
};

struct Step {
  std::string name;  // probe, explain, expect, bench
  StepStatus status = StepStatus::Ok;
  std::optional<StepError> error;   // a failed step's
  std::string reason;               // a skipped step's: why
  Nanoseconds wall = kNotMeasured;  // a step that ran: how long it took
};

struct AuditResult {
  std::string target;
  std::vector<Step> steps;  // in the order they ran (or were skipped)
  // What the steps found (none: the step did not run, or not that far). A step that failed
  // part way keeps its runner's last partial result.
  std::optional<probe::ProbeResult> probe;
  std::optional<explain::ExplainResult> explain;
  std::optional<expect::ExpectResult> expect;
  std::optional<tct::bench::BenchResult> bench;
};

}  // namespace tct::audit
