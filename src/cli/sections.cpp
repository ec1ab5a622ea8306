#include "cli/sections.hpp"

namespace tct::cli {

void write_section(RunContext& ctx, const probe::ProbeResult& result) { ctx.outcome.probe = result; }

void write_section(RunContext& ctx, const explain::ExplainResult& result) {
  ctx.outcome.explain = result;
  ctx.set_warnings("explain", result.warnings);
}

void write_section(RunContext& ctx, const expect::ExpectResult& result) {
  ctx.outcome.expect = result;
  ctx.set_warnings("expect", result.warnings);
}

// Bench's warnings are decided afresh after each phase (bench/run.cpp): the last list replaces
// the one before.
void write_section(RunContext& ctx, const bench::BenchResult& result) {
  ctx.outcome.bench = result;
  ctx.set_warnings("bench", result.all_warnings);
}

void write_section(RunContext& ctx, const startup::StartupResult& result) { ctx.outcome.startup = result; }

void write_section(RunContext& ctx, const job::JobResult& result) { ctx.outcome.job = result; }

}  // namespace tct::cli
