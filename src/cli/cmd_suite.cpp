// tct suite SUITE.toml: many targets and settings, each entry benched in agent processes of
// its own (cli/suite_entry.cpp), recorded as it finishes; --shard I/N runs a
// deterministic share for schedulers (docs/scaling-out.md). The suite logic is in src/suite/;
// this file is flags, files and exit codes.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "cli/read_json_file.hpp"
#include "cli/suite_entry.hpp"
#include "errors.hpp"
#include "report/warning.hpp"
#include "suite/shard.hpp"
#include "suite/doc.hpp"
#include "suite/file.hpp"
#include "suite/json.hpp"

namespace tct::cli {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw usage_error(fmt::format("cannot read {}", path), "pass the path of a suite file (TOML)");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The -o FILE.json of this run (what --resume reads back), or nullptr.
const std::string* json_output(const CommonOptions& options) {
  for (const auto& p : options.out)
    if (p.size() > 5 && p.compare(p.size() - 5, 5, ".json") == 0) return &p;
  return nullptr;
}

class SuiteCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct suite zoo.toml --shard 1/2 -o s1.json     many models; shard, merge, compare\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("suite",
                                   "Bench many targets and settings from a TOML file, each entry in its "
                                   "own processes; shard it over machines, merge, compare");
    cmd->add_option("file", file_, "Suite file (TOML): [defaults] and [[target]] tables")->required();
    cmd->add_flag("--list", list_, "Print the entries and their ids (and shards with --shard); run nothing");
    cmd->add_option("--shard", shard_, "Run share I of N (1-based), e.g. --shard 2/4; join the files with tct merge")
        ->type_name("I/N");
    cmd->add_option("--costs", costs_,
                    "A suite document from an earlier run: balance the shards by its entries' "
                    "wall times instead of round robin (every shard must pass the same file)")
        ->type_name("FILE.json");
    cmd->add_flag("--resume", resume_, "Skip entries already in the -o FILE.json (after a crash or preemption)");
    add_common_options(*cmd, common);
    cmd->footer(R"(Suite file:
  [defaults]
  budget = 5                      # any tct bench option, by its long name
  backend = ["inductor", "aot_eager"]   # a list is a matrix axis
  [[target]]
  spec = "models.py:make"
  params = { batch = [1, 8] }
  [[target]]
  spec = "builtin:mlp"
  explain = true                  # also find graph breaks
  timeout = 120                   # seconds per step before the entry counts as hung
Examples:
  tct suite zoo.toml --list
  tct suite zoo.toml -o zoo.json -o zoo.html
  tct suite zoo.toml --shard 2/4 -o shard2.json      (then: tct merge shard*.json -o all.json)
  tct suite zoo.toml -o zoo.json --resume            skip what zoo.json already holds
  tct compare last-week.json zoo.json --max-regression 5%
Each entry runs in processes of its own: a crash, hang (--timeout) or mismatch is recorded
in that entry and the suite goes on. -o FILE.json is rewritten after each entry.
Exit codes: 0 every entry ran and passed; 1 compiled outputs differ in an entry; 2 bad
usage or suite file; 3 an entry failed (raised, hung, crashed, compile failed); 4 internal.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    if (resume_ && !json_output(ctx.options))
      throw usage_error("--resume needs the run's -o FILE.json",
                        "add -o FILE.json (the file the interrupted run wrote)");
    suite::Suite s = suite::parse_suite(read_text(file_), file_);
    suite::ShardSpec shard = shard_ ? suite::parse_shard(*shard_) : suite::ShardSpec{};
    std::vector<std::string> ids;
    for (const auto& e : s.entries) ids.push_back(e.id);
    std::map<std::string, double> costs;
    if (costs_) costs = suite::costs_from(read_json_file(*costs_, "pass a document written by tct suite -o FILE.json"));
    if (costs_ && costs.empty())
      throw usage_error(fmt::format("{} records no entry times", *costs_), "pass a suite document from an earlier run");
    auto assignment = suite::assign_shards(ids, shard.count, costs);

    suite::SuiteResult result = suite::plan_suite(s, file_, shard, assignment, costs_.value_or(""));
    result.listing = list_;
    if (resume_ && !list_) resume(ctx, result);
    write_section(ctx, result);
    ctx.checkpoint();  // the plan is in the files before the first entry starts
    if (list_) return 0;

    auto pending = suite::pending_ids(result);
    std::size_t done = result.selected.size() - pending.size();
    for (const auto& id : pending) {
      const suite::Entry& entry =
          *std::find_if(s.entries.begin(), s.entries.end(), [&](auto& e) { return e.id == id; });
      ctx.progress(fmt::format("entry {}/{}: {}", ++done, result.selected.size(), id));
      suite::EntryRecord record = run_suite_entry(entry, ctx.options, ctx.options.timeout_s);
      if (ctx.outcome.environment.empty() && record.environment.contains("python"))
        ctx.outcome.environment = record.environment;
      suite::record_entry(result, std::move(record));
      write_section(ctx, result);
      ctx.checkpoint();
    }
    if (auto err = suite::suite_outcome(result)) throw *err;
    return 0;
  }

 private:
  void resume(RunContext& ctx, suite::SuiteResult& result) {
    const std::string* json_out = json_output(ctx.options);
    if (!std::filesystem::exists(*json_out)) return;  // nothing ran yet: start from the beginning
    json previous = read_json_file(*json_out, "delete it to start afresh, or drop --resume");
    std::size_t dropped = 0;
    auto keep = suite::resumable_entries(previous, result, dropped);
    result.resumed = suite::Resumed{*json_out, keep.size(), dropped};
    for (auto& e : keep) suite::record_entry(result, std::move(e));
    if (previous.contains("environment") && previous["environment"].is_object())
      ctx.outcome.environment = previous["environment"];
    if (dropped > 0) ctx.warn({report::kind::ResumeLeftOut{dropped, *json_out}, ""});
  }

  std::string file_;
  bool list_ = false, resume_ = false;
  std::optional<std::string> shard_, costs_;
};

}  // namespace

std::unique_ptr<Command> make_suite_command() { return std::make_unique<SuiteCommand>(); }

}  // namespace tct::cli
