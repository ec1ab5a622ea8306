// tct explain: what stops the compiler, where in the user's code, and what to change.
// The agent gathers raw facts (torch._dynamo.explain, plus a torch.compile run that writes
// torch's TORCH_TRACE log, which explain::run_explain reads with src/trace/ as `tct trace`
// does); src/explain/audit.cpp turns them into the audit (an ExplainResult, which every
// rendering reads). --max-graph-breaks N makes it a CI gate (exit 1 above N breaks in the
// compiled run, or any skipped frame).
#include <optional>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "cli/usage.hpp"
#include "cli/target_options.hpp"
#include "explain/run.hpp"

namespace tct::cli {
namespace {

class ExplainCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct explain model.py:make_model            graph breaks, where, and what to change\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("explain",
                                   "Graph breaks: how many, why, where in your code, and what to "
                                   "change (torch._dynamo.explain plus a logged compiled run)");
    add_target_options(*cmd, target_);
    cmd->add_option("--max-graph-breaks", max_breaks_,
                    "Exit 1 when the compiled run breaks more than N times or skips a frame (a CI gate)")
        ->check(kNonNegative)
        ->type_name("N");
    cmd->add_flag("--no-logged", no_logged_,
                  "Skip the second view (a torch.compile run read from its TORCH_TRACE "
                  "log); only torch._dynamo.explain runs");
    cmd->add_option("--calls", calls_,
                    "How many times the logged compiled run calls the target (recompiles show "
                    "from the second call)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100));
    cmd->add_option("--trace", trace_dir_,
                    "Keep the TORCH_TRACE log of the compiled run in DIR (read it with "
                    "`tct trace DIR`)")
        ->type_name("DIR");
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct explain builtin:graph_breaks                  breaks, locations, hints
  tct explain model.py:make_model --param batch=8 --json > before.json
  tct explain model.py:make_model --max-graph-breaks 0     CI: fail on any break
  tct explain model.py:make_model --markdown               for a pull-request comment
Counts, groups and the gate come from the compiled run (what torch.compile really does,
as torch's own counters count it); explain's own figures are shown beside them where they
differ ("explain alone says N"). A break dynamo could not resume from is not a graph break:
the frame it was in is skipped (it falls back to eager), named by its qualified name, and
fails any --max-graph-breaks limit.
Exit codes: 0 ok, 1 more breaks than --max-graph-breaks or a skipped frame, 2 bad usage or target spec,
3 the target raised, hung past --timeout or failed to trace, 4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    auto agent = ctx.start({});
    explain::ExplainConfig cfg{target_, !no_logged_, calls_, max_breaks_, trace_dir_};
    explain::ExplainResult result =
        explain::run_explain(ctx.progress_sink(), *agent, cfg, checkpoints<explain::ExplainResult>(ctx));
    write_section(ctx, result);
    agent->close();
    if (explain::exit_code(result) == 0) return 0;
    const int limit = result.gate->max_graph_breaks;
    if (!result.skipped_frames.empty())
      throw check_failed("gate",
                         fmt::format("torch.compile skipped {} frame(s) and ran them eagerly, which fails "
                                     "--max-graph-breaks {}",
                                     result.skipped_frames.size(), limit),
                         "fix the break that made Dynamo skip the frame (see SKIPPED FRAME in the report)");
    throw check_failed(
        "gate", fmt::format("{} graph break(s), more than --max-graph-breaks {}", result.graph_break_count, limit),
        "fix the breaks listed in the report, or raise the limit");
  }

 private:
  TargetOptions target_;
  std::optional<int> max_breaks_;
  std::string trace_dir_;
  bool no_logged_ = false;
  int calls_ = 2;
};

}  // namespace

std::unique_ptr<Command> make_explain_command() { return std::make_unique<ExplainCommand>(); }

}  // namespace tct::cli
