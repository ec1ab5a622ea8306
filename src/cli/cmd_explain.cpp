// tct explain: what stops the compiler, where in the user's code, and what to change.
// The agent gathers raw facts (torch._dynamo.explain, plus a torch.compile run with
// graph-break/recompile logging captured); src/analysis/graph_breaks.cpp turns them into
// the audit. --max-graph-breaks N makes it a CI gate (exit 1 above N).
#include <optional>

#include <fmt/format.h>

#include "analysis/graph_breaks.hpp"
#include "cli/command.hpp"
#include "cli/usage.hpp"
#include "cli/target_options.hpp"
#include "report/document.hpp"
#include "report/warnings.hpp"

namespace tct::cli {
namespace {

class ExplainCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("explain", "Graph breaks: how many, why, where in your code, and what to "
                                              "change (torch._dynamo.explain plus a logged compiled run)");
    add_target_options(*cmd, target_);
    cmd->add_option("--max-graph-breaks", max_breaks_, "Exit 1 when explain finds more than N graph breaks (a CI gate)")
        ->check(kNonNegative)
        ->type_name("N");
    cmd->add_flag("--no-logged", no_logged_, "Skip the second view (torch.compile with graph-break and recompile "
                                             "logging captured); only torch._dynamo.explain runs");
    cmd->add_option("--calls", calls_, "How many times the logged compiled run calls the target (recompiles show "
                                       "from the second call)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100));
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct explain builtin:graph_breaks                  breaks, locations, hints
  tct explain model.py:make_model --param batch=8 --json > before.json
  tct explain model.py:make_model --max-graph-breaks 0     CI: fail on any break
  tct explain model.py:make_model --markdown               for a pull-request comment
Exit codes: 0 ok, 1 more breaks than --max-graph-breaks, 2 bad usage or target spec,
3 the target raised, hung past --timeout or failed to trace, 4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    auto agent = ctx.start_agent();
    ctx.progress(fmt::format("loading {}", target_.target));
    json description = agent->call("target.load", to_load_params(target_), ctx.timeout(), ctx.progress_fn());
    ctx.doc["explain"] = {{"target", description}};
    ctx.checkpoint();

    ctx.progress("running torch._dynamo.explain");
    json facts = agent->call("explain.run", {{"logged", !no_logged_}, {"logged_calls", calls_}}, ctx.timeout(),
                             ctx.progress_fn());
    agent->close();

    json section = analysis::build_explain_section(facts, description, max_breaks_);
    ctx.doc["explain"] = section;

    const json& dis = section["disagreements"];
    if (!dis.empty()) {
      std::string first = dis[0].value("message", "");
      report::add_warning(ctx.doc, report::make_warning(
                                       report::WarningCode::ExplainViewsDisagree,
                                       fmt::format("explain and the logged compiled run disagree in {} way(s): {}",
                                                   dis.size(), first),
                                       "the logged run is what torch.compile really does; see 'disagreements'"));
    }
    bool gate_failed = section["gate"].is_object() && !section["gate"].value("passed", true);
    if (gate_failed)
      throw check_failed("gate", fmt::format("{} graph break(s), more than --max-graph-breaks {}",
                                             section.value("graph_break_count", 0), *max_breaks_),
                         "fix the breaks listed in the report, or raise the limit");
    return 0;
  }

 private:
  TargetOptions target_;
  std::optional<int> max_breaks_;
  bool no_logged_ = false;
  int calls_ = 2;
};

}  // namespace

std::unique_ptr<Command> make_explain_command() { return std::make_unique<ExplainCommand>(); }

}  // namespace tct::cli
