// tct audit: probe, explain, expect and bench of one target in one go, written as one
// document (one report: -o report.html -o report.md). The steps themselves are
// audit::run_audit (src/audit/run.hpp); this file is flags, exit codes and the sections.
//
// A step that fails is recorded in audit.steps (with its error) and the other steps still
// run; the audit then ends with the first failure's exit code. A probe verdict of
// not_usable skips the other steps (exit 1).
#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "audit/json.hpp"
#include "audit/result.hpp"
#include "audit/run.hpp"
#include "cli/bench_options.hpp"
#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "cli/usage.hpp"
#include "cli/target_options.hpp"
#include "errors.hpp"
#include "report/warning.hpp"
#include "bench/plan.hpp"
#include "bench/run.hpp"
#include "probe/run.hpp"

namespace tct::cli {
namespace {

using Clock = std::chrono::steady_clock;

class AuditCommand : public Command {
 public:
  const char* examples() const override { return "  tct audit builtin:transformer_block -o report.html\n"; }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("audit",
                                   "Everything at once: probe, graph breaks, expectation and benchmark "
                                   "of one target, in one report (-o report.html)");
    add_target_options(*cmd, bench_.base.target);
    bench_.add_to(*cmd);  // bench's flags, for its step; expect takes the first backend and mode
    cmd->add_option("--sweep", sweep_, "NAME=V1,V2,...: expect's sweep of a factory parameter (speedup against it)");
    cmd->add_option("--trace", trace_dir_,
                    "Keep the TORCH_TRACE logs in DIR: explain's compiled run in DIR/explain, "
                    "bench's measured compiles in DIR/bench (read each with `tct trace`)")
        ->type_name("DIR");
    cmd->add_option("--skip", skip_, "Steps to leave out: explain, expect, bench (comma-separated)")
        ->delimiter(',')
        ->check(CLI::IsMember({"explain", "expect", "bench"}));
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct audit builtin:transformer_block -o report.html -o report.md
  tct audit model.py:make_model --param batch=64 --device cuda --json > audit.json
  tct audit builtin:tiny_ops --backend aot_eager --budget 2 --no-compile-time --sweep batch=1,8,64
  tct audit model.py:make_model --trace traces && tct trace traces/explain
Steps: probe, explain and expect share one agent process; bench then runs as `tct bench`
does (in fresh processes). Re-render a saved document with `tct report audit.json`.
Exit codes: 0 ok; 1 torch.compile not usable here (the rest is skipped) or compiled outputs
differ; 2 bad usage or input; 3 the target failed in a step (the other steps still run and
are reported); 4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    audit::AuditConfig cfg;
    cfg.target = bench_.base.target;
    auto backends = bench::split_list(bench_.backend);
    auto modes = bench::split_list(bench_.mode);
    if (!backends.empty()) cfg.expect_backend = backends[0];
    if (!modes.empty()) cfg.expect_mode = modes[0];
    cfg.budget_s = bench_.base.budget_s;
    cfg.sweep = sweep_;
    cfg.trace_dir = trace_dir_;
    cfg.skip = skip_;
    cfg.start_probe_agent = [&ctx] {
      audit::ProbeAgent started;
      started.session = ctx.start_for_probe();
      started.python_path = ctx.outcome.environment["interpreter"].value("path", "");
      return started;
    };
    cfg.bench_config = [this, &ctx] { return bench_config(ctx); };

    audit::AuditResult empty;
    empty.target = cfg.target.target;
    write_section(ctx, empty);
    std::size_t steps_seen = 0;
    const audit::AuditRun run = audit::run_audit(ctx.progress_sink(), ctx, cfg, [&](const audit::AuditResult& so_far) {
      for (; steps_seen < so_far.steps.size(); ++steps_seen) warn_if_failed(ctx, so_far.steps[steps_seen]);
      write_sections(ctx, so_far);
      ctx.checkpoint();
    });
    const audit::AuditResult& result = run.result;
    if (result.probe && !result.steps.empty() && result.steps[0].status == audit::StepStatus::Ok &&
        !result.probe->usable())
      throw probe::not_usable_error(*result.probe);
    if (run.first_failure) throw *run.first_failure;
    if (result.bench)
      if (auto mismatch = bench::bench_outcome(*result.bench, bench_config(ctx))) throw *mismatch;  // outputs differ
    return 0;
  }

 private:
  // Audit's bench defaults: a shorter budget than `tct bench` (audit does four things).
  static BenchOptions default_bench() {
    BenchOptions options;
    options.base.budget_s = 5.0;
    return options;
  }

  // Every section the audit has so far: each step's as its command writes it, and the steps'.
  static void write_sections(RunContext& ctx, const audit::AuditResult& result) {
    if (result.probe) write_section(ctx, *result.probe);
    if (result.explain) write_section(ctx, *result.explain);
    if (result.expect) write_section(ctx, *result.expect);
    if (result.bench) write_section(ctx, *result.bench);
    write_section(ctx, result);
  }

  static void warn_if_failed(RunContext& ctx, const audit::Step& step) {
    if (step.status != audit::StepStatus::Failed || !step.error) return;
    const audit::StepError& e = *step.error;
    ctx.warn({report::kind::AuditStepFailed{step.name, e.message, e.hint}, ""});
  }

  bench::BenchConfig bench_config(const RunContext& ctx) const {
    bench::BenchConfig cfg = bench_.config();
    locate_aoti_runner(ctx, cfg);  // --backend aoti
    return cfg;
  }

  BenchOptions bench_ = default_bench();
  std::optional<std::string> sweep_;
  std::string trace_dir_;
  std::vector<std::string> skip_;
};

}  // namespace

std::unique_ptr<Command> make_audit_command() { return std::make_unique<AuditCommand>(); }

}  // namespace tct::cli
