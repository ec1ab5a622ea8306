#pragma once
// `tct expect` as a reusable function: should torch.compile be expected to help this
// workload, and what would raise the gain? Used by `tct expect` and by `tct audit` (which
// passes the agent its probe and explain ran in, saving a process start).
//
// Phases, each followed by a partial result (ExpectSinks) so a crash keeps what was measured:
//   target.load -> machine ceilings (expect.device_info, then the ceilings cache file or
//   expect.ceilings) -> profile + FLOPs -> class, predicted range, suggestions -> optional
//   sweep (per value: target.load, profile, FLOPs, classify, and a bench in fresh
//   processes) -> optional validation (one bench, predicted range against the measured
//   speedup). The decisions live in src/expect/.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/executor.hpp"
#include "bench/result.hpp"
#include "core/progress.hpp"
#include "core/target_options.hpp"
#include "expect/result.hpp"
#include "expect/sweep.hpp"
#include "explain/result.hpp"
#include "report/warning.hpp"

namespace tct::expect {

using json = nlohmann::json;

// Everything `tct expect`'s flags set.
struct ExpectConfig {
  core::TargetOptions target;
  int calls = 30;                    // eager calls profiled (after warm-up), paced over profile_s
  double profile_s = 4.0;            // seconds the profile spreads its calls over (quiet moments)
  std::optional<SweepSpec> sweep;    // --sweep NAME=V1,V2,...
  bool validate = false;             // --validate: bench once, compare with the prediction
  std::string backend = "inductor";  // for the --validate/--sweep benches
  std::string mode = "default";
  double budget_s = 3.0;          // seconds of interleaved sampling per bench
  bool no_cache = false;          // measure the ceilings; neither read nor write the cache
  bool refresh_ceilings = false;  // measure the ceilings and replace the cached entry
};

// Where expect's partial results go (each optional): its own after each phase, and
// --validate's bench's after each of bench's phases (the user gets that bench too).
struct ExpectSinks {
  core::OnPartial<ExpectResult> expect;
  core::OnPartial<tct::bench::BenchResult> validation_bench;
};

// Runs expect and returns what it found, its warnings in result.warnings. After each phase
// the result so far goes to sinks.expect, so a crash keeps what was measured.
//
// shared_agent: null -> run_expect starts its own agent (and closes it before the
// --validate bench). Non-null -> a started, handshaken agent in any state (e.g. the one
// audit's probe and explain ran in); run_expect sends its own target.load with cfg.target
// first, so whatever earlier requests did to the loaded target (explain runs it under
// dynamo) does not reach the profile. The caller keeps ownership and closes it; if it
// hangs or dies during a sweep point, run_expect goes on in an agent of its own.
//
// explained: what the caller's own explain step found (audit), folded into the prediction;
// null -> run_expect runs explain's logged compiled run itself, keeping only its value.
//
// Throws tct::Error for what ends `tct expect` early: bad usage/target, the target failing
// while profiled, a sweep whose every point failed, --validate whose bench measured no
// speedup (the bench's own error, or exit 3).
ExpectResult run_expect(const core::Progress& progress, core::Executor& exec, core::Session* shared_agent,
                        const ExpectConfig& cfg, const explain::ExplainResult* explained = nullptr,
                        const ExpectSinks& sinks = {});

// A sweep point's bench warnings as expect reports them: each message with "label: " before
// it, so a warning says which point it is about and the same warning at two points stays two
// distinct lines; the label is its "row" too, so a brief report names the other points a kind
// of warning touched. Its words are fixed here (AsWritten): the point's label goes before the
// bench row's own.
std::vector<report::Warning> point_warnings(const std::string& label, const std::vector<report::Warning>& warnings);

}  // namespace tct::expect
