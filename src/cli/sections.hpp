#pragma once
// A runner's result into the command's outcome: the result itself, and the warnings it carries
// into the outcome's list. Each command calls these with the result a runner returned, and
// hands checkpoints() to a runner as its partial-result callback, so the --out files are
// rewritten after each phase (a crash or Ctrl-C still leaves what was measured).
#include "bench/result.hpp"
#include "cli/context.hpp"
#include "core/progress.hpp"
#include "expect/result.hpp"
#include "explain/result.hpp"
#include "job/result.hpp"
#include "probe/result.hpp"
#include "startup/result.hpp"

namespace tct::cli {

void write_section(RunContext& ctx, const probe::ProbeResult& result);
void write_section(RunContext& ctx, const explain::ExplainResult& result);
void write_section(RunContext& ctx, const expect::ExpectResult& result);
void write_section(RunContext& ctx, const bench::BenchResult& result);
void write_section(RunContext& ctx, const startup::StartupResult& result);
void write_section(RunContext& ctx, const job::JobResult& result);

// write_section, then the --out files, after each of a runner's phases.
template <class Result>
core::OnPartial<Result> checkpoints(RunContext& ctx) {
  return [&ctx](const Result& so_far) {
    write_section(ctx, so_far);
    ctx.checkpoint();
  };
}

}  // namespace tct::cli
