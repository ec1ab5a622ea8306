#pragma once
// `tct expect` as a reusable function: should torch.compile be expected to help this
// workload, and what would raise the gain? Used by `tct expect` and by `tct audit` (which
// passes the agent its probe and explain ran in, saving a process start).
//
// Phases, each followed by host.checkpoint() so a crash keeps what was measured:
//   target.load -> machine ceilings (expect.device_info, then the ceilings cache file or
//   expect.ceilings) -> profile + FLOPs -> class, predicted range, suggestions -> optional
//   sweep (per value: target.load, profile, FLOPs, classify, and a bench in fresh
//   processes) -> optional validation (one bench, predicted range against the measured
//   speedup). The decisions live in src/expect/.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/executor.hpp"
#include "core/host.hpp"
#include "core/target_options.hpp"
#include "expect/sweep.hpp"

namespace tct::runner {

using json = nlohmann::json;

// Everything `tct expect`'s flags set.
struct ExpectConfig {
  TargetOptions target;
  int calls = 30;                    // eager calls profiled (after warm-up), paced over profile_s
  double profile_s = 4.0;            // seconds the profile spreads its calls over (quiet moments)
  std::optional<SweepSpec> sweep;    // --sweep NAME=V1,V2,...
  bool validate = false;             // --validate: bench once, compare with the prediction
  std::string backend = "inductor";  // for the --validate/--sweep benches
  std::string mode = "default";
  double budget_s = 3.0;             // seconds of interleaved sampling per bench
  bool no_cache = false;             // measure the ceilings; neither read nor write the cache
  bool refresh_ceilings = false;     // measure the ceilings and replace the cached entry
};

// Runs expect, writing the document's "expect" section after each phase (and adding
// warnings to its "warnings"); returns the finished section.
//
// shared_agent: null -> run_expect starts its own agent (and closes it before the
// --validate bench). Non-null -> a started, handshaken agent in any state (e.g. the one
// audit's probe and explain ran in); run_expect sends its own target.load with cfg.target
// first, so whatever earlier requests did to the loaded target (explain runs it under
// dynamo) does not reach the profile. The caller keeps ownership and closes it; if it
// hangs or dies during a sweep point, run_expect goes on in an agent of its own.
//
// Throws tct::Error for what ends `tct expect` early: bad usage/target, the target failing
// while profiled, a sweep whose every point failed, --validate whose bench measured no
// speedup (the bench's own error, or exit 3).
json run_expect(Host& host, Executor& exec, Session* shared_agent, const ExpectConfig& cfg);

// `tct expect`'s exit code for a finished section: 1 when cfg.validate and the predicted
// direction was wrong (expect.validation.direction_right false), else 0.
int expect_exit_code(const json& section, const ExpectConfig& cfg);

}  // namespace tct::runner
