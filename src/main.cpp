// tct: does torch.compile make this code faster, by how much, what stops it, what to change.
// parse -> run -> export. The only place that prints results or exits; cli/context.cpp writes
// the documents (probe and expect write only their own caches).
#include <cctype>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "agent/child_process.hpp"
#include "cli/command.hpp"
#include "cli/run_args.hpp"
#include "cli/usage.hpp"
#include "errors.hpp"
#include "cli/render.hpp"
#include "version.hpp"

namespace {

constexpr const char* kExitCodes = R"(
Exit codes: 0 ok, 1 check failed (not usable, mismatch, gate crossed), 2 bad usage or input,
3 the target failed (raised, crashed, hung, compile failed), 4 internal error, 130 interrupted.)";

void print_error(const tct::Error& e, bool verbose) {
  std::string line = fmt::format("tct: error: {}", e.what());
  if (!e.hint().empty()) {
    std::string hint = e.hint();
    hint[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(hint[0])));
    line += fmt::format(". {}", hint);
  }
  fmt::print(stderr, "{}\n", line);
  if (verbose && !e.detail().empty()) fmt::print(stderr, "\n{}\n", e.detail());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tct;
  CLI::App app{fmt::format("tct {}: measure whether torch.compile makes PyTorch code faster, and why", kVersion)};
  app.set_version_flag("-V,--version", std::string(kVersion));
  app.require_subcommand(1);

  // The registry's commands (cli/registry.hpp), and their examples for `tct --help`.
  std::vector<std::unique_ptr<cli::Command>> commands;
  std::string examples = "Examples:\n";
  for (cli::CommandFactory make : cli::kCommands) {
    commands.push_back(make());
    examples += commands.back()->examples();
  }
  app.footer(examples + kExitCodes);
  std::vector<CLI::App*> subs;
  for (auto& c : commands) subs.push_back(c->define(app));

  // tct run's and tct job's job (its command and its flags) is split off before CLI11 sees it.
  auto [own_args, job] = cli::split_run_args(std::vector<std::string>(argv + 1, argv + argc));
  for (auto& c : commands)
    if (c->takes_job()) c->trailing = job;
  try {
    std::vector<std::string> reversed(own_args.rbegin(), own_args.rend());  // CLI11 parses a reversed vector
    app.name(argv[0]);                                                      // as parse(argc, argv) would
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) { return app.exit(e); } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) { return app.exit(e); } catch (const CLI::ParseError& e) {
    print_error(cli::explain_parse_error(app, e, std::vector<std::string>(argv, argv + argc)), false);
    return static_cast<int>(ExitCode::Usage);
  }

  size_t chosen = 0;
  while (chosen < subs.size() && !subs[chosen]->parsed()) ++chosen;
  cli::Command& command = *commands.at(chosen);

  agent::install_interrupt_handlers();
  cli::RunContext ctx(command.common, cli::new_outcome(subs[chosen]->get_name()));
  int code = 0;
  std::optional<Error> failure;
  std::vector<std::string> written;  // the --out files, once their paths passed the checks
  try {
    try {
      cli::validate_common_options(ctx.options);
    } catch (const Error&) {
      ctx.options.out.clear();  // nothing to write to a path that was refused
      throw;
    }
    written = ctx.options.out;
    code = command.run(ctx);
    // Commands throw for every non-zero exit (tct::check_failed for exit 1), so that each one
    // prints its line first; a bare return code still gets one.
    if (code != 0)
      throw Error(static_cast<ExitCode>(code), "check_failed",
                  fmt::format("tct {} failed its check", subs[chosen]->get_name()), "see the report for which");
  } catch (const Error& e) { failure = e; } catch (const std::exception& e) {
    failure = Error(ExitCode::Internal, "internal", fmt::format("internal error: {}", e.what()),
                    "this is a bug in tct; please report it with the command line");
  }
  ctx.end_progress();
  if (failure) {
    code = static_cast<int>(failure->code());
    ctx.outcome.error = cli::run_error(*failure);
    print_error(*failure, ctx.options.verbose > 0);
  }
  ctx.outcome.exit_code = code;
  try {
    ctx.checkpoint();
  } catch (const Error& e) {
    print_error(e, false);
    written.clear();
    if (code == 0) code = static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "tct: error: internal error while writing reports ({}); please report this bug\n", e.what());
    written.clear();
    if (code == 0) code = static_cast<int>(ExitCode::Internal);
  }
  try {
    if (ctx.options.json) std::cout << cli::render_json(ctx.outcome);
    else if (ctx.options.markdown) std::cout << cli::render_markdown(ctx.outcome);
    else (command.report_on_stderr() ? std::cerr : std::cout) << cli::render_text(ctx.outcome, ctx.options.verbose > 0);
  } catch (const std::exception& e) {
    // A renderer bug must not lose the measurement: fall back to the canonical JSON.
    fmt::print(stderr,
               "tct: error: internal error while rendering the report ({}). The JSON document "
               "follows; please report this bug\n",
               e.what());
    std::cout << cli::render_json(ctx.outcome);
    if (code == 0) code = static_cast<int>(ExitCode::Internal);
  }
  std::cout.flush();
  // On a terminal, the last line says where the reports are: a long report scrolls the
  // command line (and its -o) out of sight.
  if (!written.empty() && !ctx.options.quiet && ::isatty(2)) {
    std::string files;
    for (const auto& f : written) files += (files.empty() ? "" : ", ") + f;
    fmt::print(stderr, "tct: wrote {}\n", files);
  }
  return code;
}
