// tct probe: can torch.compile run here, and if not, why and how to fix it.
#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "probe/run.hpp"

namespace tct::cli {
namespace {

class ProbeCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct probe --smoke                          can torch.compile run here?\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("probe",
                                   "Can torch.compile run here? torch, backends, devices, "
                                   "Triton, the C++ compiler; a verdict with fixes");
    cmd->add_flag("--smoke", cfg_.smoke, "Also compile a small function on each usable device and compare with eager");
    cmd->add_option("--backend", cfg_.smoke_backend, "Backend for --smoke")->capture_default_str();
    cmd->add_flag("--no-cache", no_cache_,
                  "Check backends, Triton and the C++ compiler again instead of reading "
                  "them from the cache ($XDG_CACHE_HOME/tct/probe.json)");
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
    cfg_.use_cache = !no_cache_;
    auto agent = ctx.start_for_probe();
    cfg_.python_path = ctx.outcome.environment["interpreter"].value("path", "");
    const probe::ProbeResult result =
        probe::run_probe(ctx.progress_sink(), *agent, cfg_, checkpoints<probe::ProbeResult>(ctx));
    write_section(ctx, result);
    agent->close();
    if (!result.usable()) throw probe::not_usable_error(result);
    return 0;
  }

 private:
  probe::ProbeConfig cfg_;
  bool no_cache_ = false;
};

}  // namespace

std::unique_ptr<Command> make_probe_command() { return std::make_unique<ProbeCommand>(); }

}  // namespace tct::cli
