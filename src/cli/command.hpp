#pragma once
// A subcommand: it declares its flags, then runs with a RunContext and fills in its
// outcome. It never prints results, writes files or exits: main.cpp does (I/O at the edges).
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/context.hpp"
#include "cli/registry.hpp"  // the factories, make_<command>_command()

namespace tct::cli {

class Command {
 public:
  virtual ~Command() = default;
  // Adds the subcommand and its flags to `app`; returns the subcommand.
  virtual CLI::App* define(CLI::App& app) = 0;
  // Sets its results in ctx.outcome; returns 0, or 1 when the check asked for failed. Throws
  // tct::Error for anything that ends the run early (ctx.outcome keeps what was measured).
  virtual int run(RunContext& ctx) = 0;
  // The terminal report goes to stderr (tct run: stdout belongs to the job it ran).
  virtual bool report_on_stderr() const { return false; }
  // Takes the job's command line after its own options (tct run, tct job).
  virtual bool takes_job() const { return report_on_stderr(); }
  // Its lines of `tct --help`'s examples ("  tct probe --smoke    can torch.compile run here?\n"),
  // listed in the registry's order (cli/registry.hpp); "" for none.
  virtual const char* examples() const { return ""; }
  CommonOptions common;
  // tct run, tct job: the job's command line, split off before parsing (cli/run_args.hpp).
  std::vector<std::string> trailing;
};

}  // namespace tct::cli
