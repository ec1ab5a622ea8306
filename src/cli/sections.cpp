#include "cli/sections.hpp"

#include "bench/json.hpp"
#include "expect/json.hpp"
#include "explain/json.hpp"
#include "probe/json.hpp"
#include "startup/json.hpp"

namespace tct::cli {

void write_section(RunContext& ctx, const probe::ProbeResult& result) { ctx.write("probe", probe::to_json(result)); }

void write_section(RunContext& ctx, const explain::ExplainResult& result) {
  ctx.write("explain", explain::to_json(result));
  ctx.set_warnings("explain", result.warnings);
}

void write_section(RunContext& ctx, const expect::ExpectResult& result) {
  ctx.write("expect", expect::to_json(result));
  ctx.set_warnings("expect", result.warnings);
}

// Bench's warnings are decided afresh after each phase (bench/run.cpp): the last list replaces
// the one before.
void write_section(RunContext& ctx, const bench::BenchResult& result) {
  ctx.write("bench", bench::to_json(result));
  ctx.set_warnings("bench", result.all_warnings);
}

void write_section(RunContext& ctx, const startup::StartupResult& result) {
  ctx.write("startup", startup::to_json(result));
}

}  // namespace tct::cli
