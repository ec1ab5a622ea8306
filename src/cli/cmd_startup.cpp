// tct startup: how long a fresh process takes to give its first output, for each way of
// shipping the model. The measurement is startup::run_startup (src/startup/run.hpp), or for
// `tct startup -- CMD` startup::run_command_startup (src/startup/command.hpp); this file is
// flags and exit codes.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "cli/target_options.hpp"
#include "errors.hpp"
#include "core/aoti_runner.hpp"
#include "startup/command.hpp"
#include "startup/run.hpp"

namespace tct::cli {
namespace {

class StartupCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct startup builtin:tiny_ops               time to the first output: eager, cold, warm, shipped caches, "
           "AOTInductor\n"
           "  tct startup -- python serve.py             the same for a command's first compiled call\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("startup",
                                   "Time to the first output of a fresh process: eager, torch.compile "
                                   "cold, warm caches, shipped cache artifacts, an AOTInductor package");
    add_target_options(*cmd, cfg_.target);
    // A command after `--` stands in for the target (run() says when neither or both are given).
    cmd->get_option("target")->required(false);
    cmd->add_option("--modes", modes_,
                    "Start modes, comma-separated: eager, cold, warm, shipped, aoti, aoti-cpp "
                    "(default: all; warm and shipped bring cold, whose caches they start from)")
        ->delimiter(',')
        ->check(CLI::IsMember({"eager", "cold", "warm", "shipped", "aoti", "aoti-cpp"}));
    cmd->add_option("--repeats", cfg_.repeats, "Fresh processes per mode (the interval is over them)")
        ->capture_default_str()
        ->check(CLI::Range(1, 50));
    cmd->add_option("--backend", cfg_.backend, "torch.compile backend")->capture_default_str();
    cmd->add_option("--mode", cfg_.compile_mode, "torch.compile mode")->capture_default_str();
    cmd->add_option("--deploy-env", deploy_env_,
                    "NAME=VALUE set only in the warm and shipped starts: how the deploying machine differs "
                    "(e.g. TORCHINDUCTOR_MAX_AUTOTUNE_POINTWISE=1); the report says which cache it misses")
        ->type_name("NAME=VALUE");
    cmd->add_flag("--build-runner-only", cfg_.build_runner_only,
                  "Only build the C++ AOTInductor runner for this interpreter's torch (once; set-up scripts), "
                  "time nothing");
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct startup builtin:tiny_ops
  tct startup model.py:make_model --modes eager,cold,warm --repeats 5 -o startup.html
  tct startup builtin:mlp --deploy-env TORCHINDUCTOR_MAX_AUTOTUNE_POINTWISE=1
  tct startup --modes eager,cold,warm --repeats 5 -- python serve.py --requests 3
Each start is a new process, launched by tct and timed from launch to its first output (the
device synchronized), with its own cache folders: cold starts from empty ones, warm from the
ones its cold start filled, shipped from empty ones after torch.compiler.load_cache_artifacts
of what the cold start saved, aoti loads a package made once by torch.export and
aoti_compile_and_package, aoti-cpp runs that package from C++ (tct-aoti, built on first use
against the target's libtorch and kept in $XDG_CACHE_HOME/tct/aoti-runner; skipped with its
reason without headers, CMake config or a compiler). Phases come from the agent's marks and from the TORCH_TRACE each
compiled start writes; the interval is the median's, from order statistics over the starts.
`tct startup [OPTIONS] -- CMD ARGS...` starts a command instead, unchanged (as tct job does:
through tct run's bootstrap, the modes interleaved, warm and shipped from one unmeasured
compiled run's caches), timed from launch to the end of the first call of its first compiled
call site (each site's too); a start that fails or times out (--timeout) is recorded. It has
no phases, and no aoti or aoti-cpp (no model to export).
Exit codes: 0 ok; 1 the C++ runner's outputs differ from eager; 2 bad usage or input; 3 every
mode failed; 4 internal error.)");
    return cmd;
  }

  bool takes_job() const override { return true; }

  int run(RunContext& ctx) override {
    for (const auto& m : modes_) cfg_.modes.push_back(*startup::parse_mode(m));
    if (!trailing.empty()) return run_command(ctx);
    if (cfg_.target.target.empty())
      throw usage_error("tct startup: no target and no command",
                        "give FILE.py:FACTORY (or builtin:NAME), or a command after `--`: tct startup -- python "
                        "serve.py");
    if (cfg_.build_runner_only) cfg_.modes = {startup::Mode::AotiCpp};
    for (const auto& kv : deploy_env_) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw usage_error(fmt::format("--deploy-env {}: expected NAME=VALUE", kv),
                          "e.g. --deploy-env TORCHINDUCTOR_FREEZING=1");
      cfg_.deploy_env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    // tools/aoti_runner ships beside the agent's folder (python/ in a checkout, share/tct/python installed).
    cfg_.runner_source = core::runner_source_beside(ctx.agent_options().agent_dir);
    cfg_.cache_root = core::default_cache_root(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
    cfg_.timeout = ctx.timeout();
    const startup::StartupResult result =
        startup::run_startup(ctx.progress_sink(), ctx, cfg_, checkpoints<startup::StartupResult>(ctx));
    write_section(ctx, result);
    const startup::ModeResult* failed = nullptr;
    bool any_ok = false;
    for (const auto& m : result.modes) {
      any_ok = any_ok || m.ok();
      if (!m.error.empty() && failed == nullptr) failed = &m;
    }
    if (cfg_.build_runner_only) {
      const startup::ModeResult* cpp = result.find(startup::Mode::AotiCpp);
      if (cpp && cpp->skipped.rfind("nothing timed", 0) != 0)
        throw Error(ExitCode::Usage, "unsupported", "the C++ AOTInductor runner cannot be built: " + cpp->skipped);
      return 0;
    }
    if (!any_ok && failed != nullptr)
      throw Error(ExitCode::TargetFailed, "target_failed",
                  fmt::format("no start mode ran: {} failed: {}", startup::to_string(failed->mode), failed->error),
                  "rerun with -v for each mode's reason");
    if (const auto* cpp = result.find(startup::Mode::AotiCpp); cpp && cpp->check && !cpp->check->match)
      throw check_failed("mismatch", "the AOTInductor package's outputs from C++ differ from eager",
                         "see the aoti-cpp row; rerun with -v for the differences");
    return 0;
  }

 private:
  // tct startup -- CMD: the command's starts; every start failing is the command failing.
  int run_command(RunContext& ctx) {
    if (!cfg_.target.target.empty())
      throw usage_error(fmt::format("tct startup: both a target ({}) and a command after `--`", cfg_.target.target),
                        "give one: FILE.py:FACTORY, or -- CMD ARGS...");
    if (!deploy_env_.empty() || cfg_.build_runner_only)
      throw usage_error("tct startup -- CMD: --deploy-env and --build-runner-only are for FILE:FACTORY");
    startup::CommandConfig c;
    c.command = trailing;
    c.modes = cfg_.modes;
    c.repeats = cfg_.repeats;
    c.timeout = ctx.timeout();
    const startup::StartupResult result =
        startup::run_command_startup(c, ctx.progress_sink(), checkpoints<startup::StartupResult>(ctx));
    write_section(ctx, result);
    const bool any_ok =
        std::any_of(result.modes.begin(), result.modes.end(), [](const startup::ModeResult& m) { return m.ok(); });
    if (!any_ok)
      throw Error(ExitCode::TargetFailed, "target_failed",
                  fmt::format("no start of the command ran to its first compiled call{}",
                              result.modes.empty() ? "" : ": " + result.modes.front().error),
                  "rerun with -v for each mode's reason; each run's stderr is in its folder");
    return 0;
  }

  startup::StartupConfig cfg_;
  std::vector<std::string> modes_;
  std::vector<std::string> deploy_env_;
};

}  // namespace

std::unique_ptr<Command> make_startup_command() { return std::make_unique<StartupCommand>(); }

}  // namespace tct::cli
