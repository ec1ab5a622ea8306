// tct expect: should torch.compile be expected to help this workload, and what would raise
// the gain? Profile + FLOPs/bytes + the machine's ceilings -> class (overhead, memory or
// compute bound), predicted speedup range, ranked suggestions; optionally a sweep over one
// factory parameter and a validation against a real bench. The orchestration lives in
// src/expect/run.cpp, the decisions in src/expect/; this file is flags
// and the exit code.
#include <fmt/format.h>

#include "expect/calibration.hpp"
#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "cli/usage.hpp"
#include "cli/target_options.hpp"
#include "expect/run.hpp"
#include "expect/sweep.hpp"

namespace tct::cli {
namespace {

class ExpectCommand : public Command {
 public:
  const char* examples() const override { return "  tct expect builtin:tiny_ops --sweep batch=1,8,64\n"; }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("expect",
                                   "Should torch.compile help? Overhead, memory or compute bound, a "
                                   "predicted speedup range and what to try; --sweep a parameter");
    add_target_options(*cmd, cfg_.target);
    cmd->add_option("--sweep", sweep_,
                    "NAME=V1,V2,...: profile, classify and bench at each value of a factory "
                    "parameter (values read like --param)");
    cmd->add_flag("--validate", cfg_.validate,
                  "Also run bench once and compare the predicted range with the "
                  "measured speedup (exit 1 when the direction is wrong)");
    cmd->add_option("--backend", cfg_.backend, "Backend for --validate/--sweep benches")->capture_default_str();
    cmd->add_option("--mode", cfg_.mode, "Inductor mode for --validate/--sweep benches")->capture_default_str();
    cmd->add_option("--budget", cfg_.budget_s, "Seconds of interleaved sampling per bench")
        ->capture_default_str()
        ->check(kPositive);
    cmd->add_option("--calls", cfg_.calls, "Eager calls profiled (after warm-up)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--profile-seconds", cfg_.profile_s,
                    "Seconds the profiled calls spread over: a lower envelope over a longer stretch finds the "
                    "machine's quiet moments (shorter: quicker, moves more with load)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 600.0));
    cmd->add_flag("--no-cache", cfg_.no_cache, "Measure the machine's ceilings now; do not read or write the cache");
    cmd->add_flag("--refresh-ceilings", cfg_.refresh_ceilings, "Measure the ceilings now and replace the cached entry");
    add_common_options(*cmd, common);
    namespace cal = expect::calibration;
    cmd->footer(
        fmt::format(R"(Examples:
  tct expect builtin:tiny_ops                       class, predicted gain, suggestions
  tct expect builtin:mlp --sweep batch=8,64,512     speedup against batch size, class changes
  tct expect model.py:make --param batch=32 --validate
The predicted speedup is a point (1 / the compiled share of each part of the eager time) and
an interval from that model's errors on a calibration set (bench/calibration/), wider the
more of the compiled time is generated kernels (fused elementwise code, the hardest part to
predict) and for a function without matmul/conv/attention ops; on our validation set, {} of
{} measured speedups fell inside (CPU, {}); the interval spans a factor of {:.2f} (median
high/low).
)",
                    cal::kValidationInside, cal::kValidationCases, cal::kFittedOn, cal::kValidationMedianWidth) +
        R"(Ceilings (bandwidth, FLOP/s, per-op floor, one compiled call's cost) are cached in $XDG_CACHE_HOME/tct/ceilings.json
(or ~/.cache/tct), per device, dtype, torch version and thread count. The profile spreads
its calls over --profile-seconds and times the per-op floor and a compiled call again beside
them (a shared machine's speed moves from one second to the next); it warns when the machine
ran slow throughout or when its load moved during the profile.
Exit codes: 0 ok, 1 --validate: predicted direction wrong, 2 bad usage or input (also a
--sweep with no valid point because of bad input), 3 the target failed (raised, crashed, hung),
4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    expect::ExpectConfig cfg = cfg_;
    if (sweep_) cfg.sweep = expect::parse_sweep(*sweep_);
    const expect::ExpectResult result =
        expect::run_expect(ctx.progress_sink(), ctx, nullptr, cfg, nullptr,
                           {checkpoints<expect::ExpectResult>(ctx), checkpoints<bench::BenchResult>(ctx)});
    write_section(ctx, result);
    return expect::exit_code(result, cfg.validate);
  }

 private:
  expect::ExpectConfig cfg_;          // filled by the flags (all but --sweep)
  std::optional<std::string> sweep_;  // parsed when the command runs (a bad spec: exit 2)
};

}  // namespace

std::unique_ptr<Command> make_expect_command() { return std::make_unique<ExpectCommand>(); }

}  // namespace tct::cli
