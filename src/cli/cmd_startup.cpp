// tct startup: how long a fresh process takes to give its first output, for each way of
// shipping the model. The measurement is startup::run_startup (src/startup/run.hpp); this
// file is flags and exit codes.
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
#include "startup/run.hpp"

namespace tct::cli {
namespace {

class StartupCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct startup builtin:tiny_ops               time to the first output: eager, cold, warm, shipped caches, "
           "AOTInductor\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("startup",
                                   "Time to the first output of a fresh process: eager, torch.compile "
                                   "cold, warm caches, shipped cache artifacts, an AOTInductor package");
    add_target_options(*cmd, cfg_.target);
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
Each start is a new process, launched by tct and timed from launch to its first output (the
device synchronized), with its own cache folders: cold starts from empty ones, warm from the
ones its cold start filled, shipped from empty ones after torch.compiler.load_cache_artifacts
of what the cold start saved, aoti loads a package made once by torch.export and
aoti_compile_and_package, aoti-cpp runs that package from C++ (tct-aoti, built on first use
against the target's libtorch and kept in $XDG_CACHE_HOME/tct/aoti-runner; skipped with its
reason without headers, CMake config or a compiler). Phases come from the agent's marks and from the TORCH_TRACE each
compiled start writes; the interval is the median's, from order statistics over the starts.
Exit codes: 0 ok; 1 the C++ runner's outputs differ from eager; 2 bad usage or input; 3 every
mode failed; 4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    for (const auto& m : modes_) cfg_.modes.push_back(*startup::parse_mode(m));
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
  startup::StartupConfig cfg_;
  std::vector<std::string> modes_;
  std::vector<std::string> deploy_env_;
};

}  // namespace

std::unique_ptr<Command> make_startup_command() { return std::make_unique<StartupCommand>(); }

}  // namespace tct::cli
