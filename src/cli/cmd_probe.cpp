// tct probe: can torch.compile run here, and if not, why and how to fix it.
#include "cli/command.hpp"
#include "runner/probe_run.hpp"

namespace tct::cli {
namespace {

class ProbeCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("probe", "Can torch.compile run here? torch, backends, devices, "
                                            "Triton, the C++ compiler; a verdict with fixes");
    cmd->add_flag("--smoke", cfg_.smoke, "Also compile a small function on each usable device and compare with eager");
    cmd->add_option("--backend", cfg_.smoke_backend, "Backend for --smoke")->capture_default_str();
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct probe                       facts and a verdict
  tct probe --smoke               plus a real compile on each device
  tct probe --json                the versioned JSON document
  tct probe --python ~/venv/bin/python
Exit codes: 0 usable (with or without caveats), 1 not usable, 2 bad usage.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    auto agent = ctx.start({});
    auto verdict = runner::run_probe(ctx, *agent, cfg_);
    agent->close();
    return verdict.verdict == "not_usable" ? 1 : 0;
  }

 private:
  runner::ProbeConfig cfg_;
};

}  // namespace

std::unique_ptr<Command> make_probe_command() { return std::make_unique<ProbeCommand>(); }

}  // namespace tct::cli
