#include "cli/suite_entry.hpp"
#include "cli/bench_options.hpp"

#include <chrono>

#include <fmt/format.h>

#include "errors.hpp"
#include "report/error_record.hpp"
#include "report/warning.hpp"
#include "bench/run.hpp"
#include "explain/run.hpp"
#include "core/target_options.hpp"
#include "suite/settings.hpp"
#include "suite/summary.hpp"

namespace tct::cli {
namespace {

using json = nlohmann::json;

// With the exit code the entry would have given alone and the suite's step before the
// error's own stage ("bench: compile").
report::ErrorRecord entry_error(const Error& e, const std::string& stage) {
  report::ErrorRecord r = report::error_record(e);
  if (!stage.empty()) r.stage = e.stage.empty() ? stage : stage + ": " + e.stage;
  return r;
}

}  // namespace

suite::EntryRecord run_suite_entry(const suite::Entry& entry, const CommonOptions& common, double timeout_s) {
  auto t0 = std::chrono::steady_clock::now();
  suite::EntryRecord record;
  record.entry = entry;
  // The entry's own agents (its timeout, the environment they record); no files.
  CommonOptions options = common;
  options.out.clear();
  options.timeout_s = suite::entry_timeout_s(entry.settings, timeout_s);
  RunContext ctx(options, new_outcome("bench"));
  std::string stage = "bench";
  // What the runners returned, or their last partial result when they stopped part way.
  bench::BenchResult bench;
  std::optional<explain::ExplainResult> explained;
  try {
    bench::BenchConfig cfg = suite::bench_config(entry.target, entry.params, entry.settings);
    locate_aoti_runner(ctx, cfg);
    bench = bench::run_bench(ctx.progress_sink(), ctx, cfg, [&](const bench::BenchResult& so_far) { bench = so_far; });
    if (auto err = bench::bench_outcome(bench, cfg)) {
      record.status = err->code() == ExitCode::CheckFailed ? suite::EntryStatus::Mismatch : suite::EntryStatus::Failed;
      record.error = entry_error(*err, "");
    }
    if (suite::entry_explains(entry.settings)) {
      stage = "explain";
      // As `tct explain` does, in a fresh agent.
      auto agent = ctx.start({});
      explained = explain::run_explain(ctx.progress_sink(), *agent, {cfg.target, true, 2, std::nullopt, ""},
                                       [&](const explain::ExplainResult& so_far) { explained = so_far; });
      agent->close();
    }
  } catch (const Error& e) {
    if (e.code() == ExitCode::Interrupted) throw;
    record.status = suite::EntryStatus::Failed;
    record.error = entry_error(e, stage);
  } catch (const std::exception& e) {
    record.status = suite::EntryStatus::Failed;
    record.error = report::ErrorRecord{"internal",
                                       fmt::format("internal error: {}", e.what()),
                                       "this is a bug in tct; please report it with the suite file",
                                       stage,
                                       false,
                                       static_cast<int>(ExitCode::Internal)};
  }
  ctx.end_progress();
  record.wall = std::chrono::steady_clock::now() - t0;
  // The sections as `tct bench` (and `tct explain`) would write them: what was measured, even
  // when a runner stopped part way; the warnings in the order those commands give them.
  if (bench.config) record.bench = bench;
  record.explain = explained;
  record.result = suite::entry_result(bench, explained ? &*explained : nullptr);
  ctx.set_warnings("bench", bench.all_warnings);
  if (explained) ctx.set_warnings("explain", explained->warnings);
  record.warnings = ctx.outcome.warnings;  // the run's list (the agent's start may add its own)
  record.environment = ctx.outcome.environment;
  return record;
}

}  // namespace tct::cli
