#include "cli/suite_entry.hpp"
#include "cli/bench_options.hpp"

#include <chrono>

#include <fmt/format.h>

#include "errors.hpp"
#include "report/document.hpp"
#include "bench/json.hpp"
#include "bench/run.hpp"
#include "explain/run.hpp"
#include "core/target_options.hpp"
#include "suite/settings.hpp"
#include "suite/summary.hpp"

namespace tct::cli {
namespace {

using json = nlohmann::json;

// As a document holds it, with the exit code the entry would have given alone and the
// suite's step before the error's own stage ("bench: compile").
json error_json(const Error& e, const std::string& stage) {
  json j = report::error_json(e);
  j["exit_code"] = static_cast<int>(e.code());
  if (!stage.empty()) j["stage"] = e.stage.empty() ? stage : stage + ": " + e.stage;
  return j;
}

}  // namespace

suite::EntryRecord run_suite_entry(const suite::Entry& entry, const CommonOptions& common, double timeout_s) {
  auto t0 = std::chrono::steady_clock::now();
  suite::EntryRecord record;
  record.entry = entry;
  // The entry's own document: bench writes into it as `tct bench` would; no files.
  CommonOptions options = common;
  options.out.clear();
  options.timeout_s = suite::entry_timeout_s(entry.settings, timeout_s);
  RunContext ctx(options, report::new_document("bench"));
  std::string stage = "bench";
  try {
    bench::BenchConfig cfg = suite::bench_config(entry.target, entry.params, entry.settings);
    locate_aoti_runner(ctx, cfg);
    if (auto err = bench::bench_outcome(bench::run_bench(ctx, ctx, cfg), cfg)) {
      record.status = err->code() == ExitCode::CheckFailed ? suite::EntryStatus::Mismatch : suite::EntryStatus::Failed;
      record.error = error_json(*err, "");
    }
    if (suite::entry_explains(entry.settings)) {
      stage = "explain";
      // As `tct explain` does, in a fresh agent.
      auto agent = ctx.start({});
      explain::run_explain(ctx, *agent, {cfg.target, true, 2, std::nullopt, ""});
      agent->close();
    }
  } catch (const Error& e) {
    if (e.code() == ExitCode::Interrupted) throw;
    record.status = suite::EntryStatus::Failed;
    record.error = error_json(e, stage);
  } catch (const std::exception& e) {
    record.status = suite::EntryStatus::Failed;
    record.error = {{"kind", "internal"}, {"stage", stage}, {"exit_code", static_cast<int>(ExitCode::Internal)},
                       {"message", fmt::format("internal error: {}", e.what())},
                       {"hint", "this is a bug in tct; please report it with the suite file"}};
  }
  ctx.end_progress();
  record.wall = std::chrono::steady_clock::now() - t0;
  // The sections as the entry's document holds them: what bench checkpointed, even when it
  // stopped part way.
  record.bench = ctx.doc.value("bench", json());
  record.explain = ctx.doc.value("explain", json());
  record.result = suite::entry_result(tct::bench::from_json(record.bench), record.explain);
  record.warnings = ctx.doc.value("warnings", json::array());
  record.environment = ctx.doc.value("environment", json::object());
  return record;
}

}  // namespace tct::cli
