// tct merge A.json B.json ... -o ALL.json: joins the documents of `tct suite --shard I/N`
// runs into one suite document, refusing shards of different suites, an entry in two files
// or an entry in none (src/suite/doc.cpp). Needs no agent or torch.
#include "cli/command.hpp"
#include "cli/read_json_file.hpp"
#include "suite/doc.hpp"

namespace tct::cli {
namespace {

class MergeCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("merge",
                                   "Join the JSON documents of 'tct suite --shard I/N' runs into one "
                                   "(refuses overlapping or missing entries)");
    cmd->add_option("shards", paths_, "Suite documents, one per shard (tct suite ... --shard I/N -o FILE.json)")
        ->required();
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct suite zoo.toml --shard 1/2 -o s1.json     (on one machine)
  tct suite zoo.toml --shard 2/2 -o s2.json     (on another)
  tct merge s1.json s2.json -o all.json -o all.html
  tct merge s*.json --markdown                  the suite's summary for a pull request
Exit codes: 0 merged; 2 a file is missing or not a suite document, the shards come from
different suites, an entry is in two files or in none.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    std::vector<std::pair<std::string, json>> shards;
    for (const auto& p : paths_)
      shards.emplace_back(p, read_json_file(p, "pass the files written by 'tct suite ... --shard I/N -o FILE.json'"));
    json merged = suite::merge_shards(shards);
    // The merged document keeps the shards' envelope (environment, tct version); this run
    // only adds its own time and exit code.
    merged["command"] = "suite";
    merged["created"] = ctx.outcome.created;
    ctx.outcome = from_document(merged);
    return 0;
  }

 private:
  std::vector<std::string> paths_;
};

}  // namespace

std::unique_ptr<Command> make_merge_command() { return std::make_unique<MergeCommand>(); }

}  // namespace tct::cli
