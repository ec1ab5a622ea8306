// tct diff BEFORE.json AFTER.json: which graph breaks a change fixed, added or left, from
// two `tct explain --json` documents. Reads the files itself; needs no agent or torch.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "cli/read_json_file.hpp"
#include "errors.hpp"
#include "explain/diff.hpp"
#include "explain/json.hpp"

namespace tct::cli {
namespace {

explain::ExplainResult read_audit(const std::string& path) {
  json doc = read_json_file(path, "write it with 'tct explain TARGET --json > FILE'");
  std::string why;
  auto section = explain::explain_section_of(doc, why);
  if (!section)
    throw usage_error(fmt::format("{} is not a tct explain audit: {}", path, why),
                      "write it with 'tct explain TARGET --json > FILE'");
  return explain::from_json(*section);
}

class DiffCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct diff before.json after.json            did the change remove breaks?\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("diff",
                                   "Compare two 'tct explain --json' audits: graph breaks fixed, added and "
                                   "unchanged (tolerant of line shifts), graph and op counts");
    cmd->add_option("before", before_, "Audit before the change (tct explain --json)")->required();
    cmd->add_option("after", after_, "Audit after the change")->required();
    add_output_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct explain model.py:make --json > before.json
  (edit model.py)
  tct explain model.py:make --json > after.json
  tct diff before.json after.json
  tct diff before.json after.json --markdown     for a pull-request comment
Exit codes: 0 breaks did not increase, 1 more breaks after than before, 2 a file is
missing or not a tct explain audit.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    const explain::DiffResult d = explain::diff(read_audit(before_), read_audit(after_), before_, after_);
    write_section(ctx, d);
    if (!d.breaks_increased) return 0;
    if (d.frames_skipped.delta() > 0)  // the breaks may even go down: the skipped frame hides its own
      throw check_failed("breaks_increased",
                         fmt::format("torch.compile skips {} frame(s) now, {} before", d.frames_skipped.after,
                                     d.frames_skipped.before),
                         "see the frames skipped now below, with the break that made Dynamo give up");
    throw check_failed("breaks_increased",
                       fmt::format("graph breaks went up from {} to {}", d.break_count.before, d.break_count.after),
                       "see the added breaks below, with where they are and what to change");
  }

 private:
  std::string before_, after_;
};

}  // namespace

std::unique_ptr<Command> make_diff_command() { return std::make_unique<DiffCommand>(); }

}  // namespace tct::cli
