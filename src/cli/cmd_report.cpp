// tct report: re-render a saved JSON document (from --json or -o FILE.json) as a terminal
// report, Markdown or a self-contained HTML file. Nothing runs: the document is read back,
// checked to be a tct/1 document, and rendered.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/read_json_file.hpp"
#include "errors.hpp"
#include "report/document.hpp"
#include "cli/render.hpp"

namespace tct::cli {
namespace {

class ReportCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct report audit.json -o audit.html           re-render a saved JSON document\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("report",
                                   "Re-render a saved JSON document as text, Markdown (--markdown) or "
                                   "HTML (-o report.html)");
    cmd->add_option("document", path_, "A document written by tct ... --json or -o FILE.json")->required();
    add_output_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct audit builtin:transformer_block -o audit.json
  tct report audit.json -o audit.html -o audit.md
  tct report bench.json --markdown           for a pull-request comment
The files written with -o hold the document exactly as saved (its own exit code and time).
Exit codes: 0 ok, 2 the file is missing, not JSON, or not a tct/1 document.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    json doc = read_json_file(path_, "save one with tct COMMAND --json or -o FILE.json");
    if (!doc.is_object())
      throw usage_error(fmt::format("{} is not a tct document", path_), "save one with --json or -o FILE.json");
    if (doc.value("schema", json()).is_string() && doc["schema"] != report::kSchema)
      throw usage_error(fmt::format("{} has schema '{}'; this tct reads '{}'", path_, doc["schema"].get<std::string>(),
                                    report::kSchema),
                        "re-render it with the tct version that wrote it");
    if (!doc.contains("schema") || !doc.contains("command"))
      throw usage_error(fmt::format("{} is not a tct document (no schema or command field)", path_),
                        "save one with tct COMMAND --json or -o FILE.json");
    ctx.outcome = from_document(doc);
    // Write the -o files now, the .json one the document exactly as saved (an older version's
    // fields too), and leave none for the final checkpoint (which would stamp this command's
    // exit code into them).
    auto files = render_files(ctx.outcome, ctx.options.out);
    for (auto& [path, content] : files)
      if (path.ends_with(".json")) content = render_json(doc);
    ctx.write_files(files);
    ctx.options.out.clear();
    return 0;
  }

 private:
  std::string path_;
};

}  // namespace

std::unique_ptr<Command> make_report_command() { return std::make_unique<ReportCommand>(); }

}  // namespace tct::cli
