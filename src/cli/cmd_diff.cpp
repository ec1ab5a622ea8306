// Placeholder until the diff command lands.
#include "cli/command.hpp"
#include "errors.hpp"

namespace tct::cli {
namespace {
class Cmd : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("diff", "(not built yet)");
    cmd->allow_extras();
    add_common_options(*cmd, common);
    return cmd;
  }
  int run(RunContext&) override { throw Error(ExitCode::Usage, "usage", "tct diff is not built yet"); }
};
}  // namespace
std::unique_ptr<Command> make_diff_command() { return std::make_unique<Cmd>(); }
}  // namespace tct::cli
