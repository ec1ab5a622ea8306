// tct compare BASELINE.json CURRENT.json: bench, audit or suite documents entry by entry;
// regressions and improvements only where the intervals say so (src/compare/compare.cpp).
// --max-regression makes it a CI gate. Needs no agent or torch.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compare/compare.hpp"
#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "core/fraction.hpp"
#include "cli/outcome.hpp"
#include "cli/read_json_file.hpp"
#include "errors.hpp"

namespace tct::cli {
namespace {

// "5%" or "0.05" -> 0.05; "0" -> 0. A bare number >= 1 is read as percent, as --precision.
double parse_max_regression(const std::string& text) {
  double v = core::parse_fraction(text);
  if (!std::isfinite(v) || v < 0 || v >= 1)
    throw usage_error(fmt::format("--max-regression '{}' is not a percentage from 0% to 99%", text),
                      "write --max-regression 5% (or 0.05)");
  return v;
}

// Exit 1, naming the entries that failed the gate (regressed past --max-regression, now
// fail, or now differ from eager) on the error line.
Error gate_failure(const compare::CompareResult& cmp) {
  std::vector<std::string> failed;
  for (const auto& i : cmp.items)
    if (i.gate_failed) failed.push_back(fmt::format("{} ({})", i.id, compare::to_string(i.change)));
  std::string named;
  for (std::size_t k = 0; k < failed.size() && k < 3; ++k) named += (k ? ", " : "") + failed[k];
  if (failed.size() > 3) named += fmt::format(" and {} more", failed.size() - 3);
  return check_failed("gate",
                      fmt::format("{} of {} entries failed the check: {}", failed.size(), cmp.items.size(), named),
                      "the table shows each change with its interval; --max-regression sets how large a confident "
                      "drop fails");
}

class CompareCommand : public Command {
 public:
  const char* examples() const override { return "  tct compare baseline.json current.json --max-regression 5%\n"; }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("compare",
                                   "Baseline against current (bench, audit or suite documents): "
                                   "regressions and improvements only where the intervals say so");
    cmd->add_option("baseline", baseline_, "The document to compare against (tct bench/audit/suite -o FILE.json)")
        ->required();
    cmd->add_option("current", current_, "The new document")->required();
    cmd->add_option("--max-regression", max_regression_,
                    "Exit 1 when an entry's speedup dropped by more than this "
                    "with 95% confidence (0% = any confident drop)")
        ->capture_default_str();
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct compare last-week.json today.json                 suites, entry by entry
  tct compare before.json after.json --markdown         the before/after table for a pull request
  tct compare main.json pr.json --max-regression 5%     CI: fail on a confident drop over 5%
Entries match by id (a suite's entry ids; a bench's rows by backend/mode/dynamic/fullgraph).
A change is called a regression or improvement only when the 95% interval of the ratio
current/baseline excludes 1. An entry that passed and now fails, or whose outputs now
differ from eager, fails the check too.
Exit codes: 0 no regression past --max-regression; 1 at least one; 2 a file is missing,
not a tct document, or the two are of different kinds.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    double max = parse_max_regression(max_regression_);
    const char* hint = "write it with tct bench, audit or suite (--json > FILE or -o FILE.json)";
    // Through the reader `tct report` uses: compare works on the typed results a saved document holds.
    const Outcome baseline = from_document(read_json_file(baseline_, hint));
    const Outcome current = from_document(read_json_file(current_, hint));
    const compare::CompareResult result =
        compare::compare_documents(saved_document(baseline, baseline_), saved_document(current, current_), max);
    write_section(ctx, result);
    if (!result.passed) throw gate_failure(result);
    return 0;
  }

 private:
  std::string baseline_, current_;
  std::string max_regression_ = "0%";
};

}  // namespace

std::unique_ptr<Command> make_compare_command() { return std::make_unique<CompareCommand>(); }

}  // namespace tct::cli
