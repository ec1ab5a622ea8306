#pragma once
// A runner's result into the command's outcome: the result itself, and the warnings it carries
// (its descriptor's warnings(), cli/section_list.hpp) into the outcome's list. Each command calls
// these with the result a runner returned, and hands checkpoints() to a runner as its
// partial-result callback, so the --out files are rewritten after each phase (a crash or Ctrl-C
// still leaves what was measured).
#include "cli/context.hpp"
#include "core/progress.hpp"

namespace tct::cli {

template <class Result>
void write_section(RunContext& ctx, const Result& result) {
  using S = SectionOf<Result>;
  ctx.outcome.get<Result>() = result;
  if constexpr (requires { S::warnings(result); }) ctx.set_warnings(S::key, S::warnings(result));
}

// write_section, then the --out files, after each of a runner's phases.
template <class Result>
core::OnPartial<Result> checkpoints(RunContext& ctx) {
  return [&ctx](const Result& so_far) {
    write_section(ctx, so_far);
    ctx.checkpoint();
  };
}

}  // namespace tct::cli
