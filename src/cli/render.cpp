// The registry of renderers and the text and Markdown reports built from it. Each command's
// renderers are pure functions of its typed result; here the
// document's section is read back into that result, so a live run and a saved document
// render alike.
#include "cli/render.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "audit/json.hpp"
#include "audit/render.hpp"
#include "bench/json.hpp"
#include "bench/render.hpp"
#include "cli/renderers.hpp"
#include "compare/compare.hpp"
#include "compare/render.hpp"
#include "errors.hpp"
#include "expect/json.hpp"
#include "expect/render.hpp"
#include "explain/diff.hpp"
#include "explain/json.hpp"
#include "explain/render.hpp"
#include "probe/json.hpp"
#include "probe/render.hpp"
#include "report/format.hpp"
#include "report/warnings.hpp"
#include "run/json.hpp"
#include "run/render.hpp"
#include "startup/json.hpp"
#include "startup/render.hpp"
#include "suite/json.hpp"
#include "suite/render.hpp"
#include "suite/summary.hpp"
#include "trace/json.hpp"
#include "trace/render.hpp"

namespace tct::cli {

using report::member;
using report::html::Card;

namespace {

probe::Interpreter interpreter_of(const json& doc) {
  const json& interp = member(member(doc, "environment"), "interpreter");
  return {report::text_or(interp, "path", "?"), report::text_or(interp, "chosen_by", "?")};
}

bench::BenchResult bench_of(const json& doc) { return bench::from_json(member(doc, "bench")); }
explain::ExplainResult explain_of(const json& doc) { return explain::from_json(member(doc, "explain")); }
explain::DiffResult diff_of(const json& doc) { return explain::diff_from_json(member(doc, "diff")); }
expect::ExpectResult expect_of(const json& doc) { return expect::from_json(member(doc, "expect")); }
probe::ProbeResult probe_of(const json& doc) { return probe::from_json(member(doc, "probe")); }
suite::SuiteResult suite_of(const json& doc) { return suite::suite_from_json(member(doc, "suite")); }
compare::CompareResult compare_of(const json& doc) { return compare::compare_from_json(member(doc, "compare")); }
trace::TraceResult trace_of(const json& doc) { return trace::from_json(member(doc, "trace")); }
startup::StartupResult startup_of(const json& doc) { return startup::from_json(member(doc, "startup")); }
run::RunResult run_of(const json& doc) { return run::from_json(member(doc, "run")); }
audit::AuditResult audit_of(const json& doc) { return audit::from_json(member(doc, "audit")); }

}  // namespace

const std::vector<Renderers>& renderers() {
  static const std::vector<Renderers> all = {
      // The audit's brief opens with the headline of what every section found.
      {"audit", [](const json& d) { return audit::text(audit_of(d)); },
       [](const json& d) { return audit::brief(audit_of(d), headline(d)); },
       [](const json& d) { return audit::markdown(audit_of(d)); },
       [](const json& d) { return member(d, "audit").empty() ? std::string() : audit::html_section(audit_of(d)); },
       nullptr, "Audit"},
      {"probe", [](const json& d) { return probe::text(probe_of(d), interpreter_of(d)); }, nullptr,
       [](const json& d) { return probe::markdown(probe_of(d), interpreter_of(d)); }, nullptr,
       [](const json& d) { return probe::html_cards(probe_of(d)); }, nullptr},
      {"bench", [](const json& d) { return bench::text(bench_of(d)); },
       [](const json& d) { return bench::brief(bench_of(d)); },
       [](const json& d) { return bench::markdown(bench_of(d)); },
       [](const json& d) { return bench::html_section(bench_of(d)); },
       [](const json& d) { return bench::html_cards(bench_of(d)); }, "Speed"},
      {"explain", [](const json& d) { return explain::text(explain_of(d)); }, nullptr,
       [](const json& d) { return explain::markdown(explain_of(d)); },
       [](const json& d) { return explain::html_section(explain_of(d)); },
       [](const json& d) { return explain::html_cards(explain_of(d)); }, "Graph breaks"},
      {"diff", [](const json& d) { return explain::text(diff_of(d)); }, nullptr,
       [](const json& d) { return explain::markdown(diff_of(d)); },
       [](const json& d) { return explain::html_section(diff_of(d)); }, nullptr, "Diff"},
      {"expect", [](const json& d) { return expect::text(expect_of(d)); },
       [](const json& d) { return expect::brief(expect_of(d)); },
       [](const json& d) { return expect::markdown(expect_of(d)); },
       // The HTML shows the prediction beside bench's measured speedup, when the document has one.
       [](const json& d) { return expect::html_section(expect_of(d), expect::measured_as_is(member(d, "bench"))); },
       [](const json& d) { return expect::html_cards(expect_of(d)); }, "Expectation"},
      {"suite", [](const json& d) { return suite::text(suite_of(d)); }, nullptr,
       [](const json& d) { return suite::markdown(suite_of(d)); },
       [](const json& d) { return suite::html_section(suite_of(d)); },
       [](const json& d) { return suite::html_cards(suite_of(d)); }, "Suite"},
      {"compare", [](const json& d) { return compare::text(compare_of(d)); }, nullptr,
       [](const json& d) { return compare::markdown(compare_of(d)); },
       [](const json& d) { return compare::html_section(compare_of(d)); }, nullptr, "Compare"},
      {"trace", [](const json& d) { return trace::text(trace_of(d)); }, nullptr,
       [](const json& d) { return trace::markdown(trace_of(d)); },
       [](const json& d) { return trace::html_section(trace_of(d)); }, nullptr, "Trace"},
      {"run", [](const json& d) { return run::text(run_of(d), false, true); },
       [](const json& d) { return run::text(run_of(d), false, false); },
       [](const json& d) { return run::text(run_of(d), true, true); },
       [](const json& d) { return run::html_section(run_of(d)); }, nullptr, "Call sites"},
      {"startup", [](const json& d) { return startup::text(startup_of(d)); },
       [](const json& d) { return startup::brief(startup_of(d)); },
       [](const json& d) { return startup::markdown(startup_of(d)); },
       [](const json& d) { return startup::html_section(startup_of(d)); },
       [](const json& d) { return startup::html_cards(startup_of(d)); }, "Start-up"},
  };
  return all;
}

const Renderers* renderers_of(const std::string& key) {
  for (const auto& r : renderers())
    if (key == r.key) return &r;
  return nullptr;
}

namespace {

std::string extension(const std::string& path) {
  auto dot = path.rfind('.');
  auto slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

enum class Style { Brief, Verbose, Markdown };

// The registry's order; an audit shows its steps' sections in the order they ran.
std::string sections(const json& doc, Style style) {
  std::vector<const Renderers*> order;
  auto add = [&](const std::string& key) {
    const Renderers* r = renderers_of(key);
    if (r && std::find(order.begin(), order.end(), r) == order.end()) order.push_back(r);
  };
  add("audit");
  for (const auto& step : member(member(doc, "audit"), "steps"))
    if (step.is_object()) add(step.value("name", ""));
  for (const auto& r : renderers()) add(r.key);
  std::string out;
  for (const Renderers* r : order) {
    if (!doc.contains(r->key) || doc[r->key].is_null()) continue;
    auto render = style == Style::Markdown ? r->markdown : style == Style::Brief && r->brief ? r->brief : r->text;
    std::string part = render(doc);
    // Markdown needs a blank line between blocks, or a heading runs into the bullet before it.
    if (style == Style::Markdown) {
      while (!part.empty() && part.back() == '\n') part.pop_back();
      if (!part.empty()) part += "\n\n";
    }
    out += part;
  }
  return out;
}

// What the document answers, most decisive first: a measured speedup, then graph breaks,
// then the expected class, then whether torch.compile runs here. Each is (question, answer).
std::vector<std::pair<std::string, std::string>> answers(const json& doc) {
  using report::format_speedup_interval;
  std::vector<std::pair<std::string, std::string>> out;
  if (member(doc, "bench").is_object())
    for (const auto& r : bench_of(doc).rows) {
      const std::string label = "speedup, " + (r.label.empty() ? "compiled" : r.label);
      if (!r.ok() || !r.speedup) {
        out.push_back({label, "failed: " + (r.error ? r.error->message : "see details")});
        continue;
      }
      out.push_back({label, fmt::format("{}, {}", format_speedup_interval(r.speedup->interval),
                                        stats::describe(r.speedup->verdict))});
    }
  const json& suite = member(doc, "suite");
  if (suite.is_object() && suite.contains("summary") && !suite.value("listing", false)) {
    const suite::SuiteSummary s = suite::summary_from_json(suite["summary"]);
    out.push_back(
        {"geometric-mean speedup", s.geomean ? fmt::format("{} over {} passing entries",
                                                           format_speedup_interval(s.geomean->interval), s.geomean->n)
                                             : "n/a: no entry passed with a measured speedup"});
  }
  if (const json& section = member(doc, "compare"); section.is_object() && section.contains("items")) {
    const compare::CompareResult cmp = compare::compare_from_json(section);
    using compare::Change;
    out.push_back({"compared with the baseline",
                   fmt::format("{}: {} regressed, {} improved, {} newly failing", cmp.passed ? "pass" : "FAIL",
                               cmp.count(Change::Regression), cmp.count(Change::Improvement),
                               cmp.count(Change::Broken) + cmp.count(Change::NewMismatch))});
  }
  if (const json& section = member(doc, "trace"); section.is_object() && section.contains("ranks")) {
    const trace::TraceResult t = trace::from_json(section);
    out.push_back({"TORCH_TRACE", fmt::format("{} log(s); {}", t.ranks.size(),
                                              t.ranks_diverge() ? "ranks diverge (see details)" : "no rank diverges")});
  }
  if (const json& run = member(doc, "run"); run.is_object() && run.contains("processes"))
    out.push_back({"torch.compile in this job", run::answer(run::from_json(run))});
  if (const json& section = member(doc, "startup"); section.is_object() && section.contains("modes"))
    out.push_back({"time to the first output", startup::answer(startup::from_json(section))});
  if (const json& explain = member(doc, "explain"); explain.is_object() && explain.contains("graph_break_count"))
    out.push_back({"graph breaks", explain::answer(explain::from_json(explain))});
  if (const json& diff = member(doc, "diff"); diff.is_object() && diff.contains("break_count"))
    out.push_back({"graph breaks", explain::answer(explain::diff_from_json(diff))});
  if (const json& expect = member(doc, "expect"); expect.is_object() && expect.contains("class")) {
    std::string cls = report::text_or(expect, "class");
    for (auto& c : cls) c = c == '_' ? ' ' : c;
    const json& p = member(expect, "predicted_speedup");
    out.push_back({"expected", p.is_object() ? fmt::format("{}, {} to {} predicted", cls,
                                                           report::format_ratio(report::number_or_nan(p, "low")),
                                                           report::format_ratio(report::number_or_nan(p, "high")))
                                             : cls});
  }
  if (const json& section = member(doc, "probe"); section.is_object() && section.contains("verdict")) {
    if (const auto verdict = probe::from_json(section).verdict)
      out.push_back({"torch.compile here", std::string(probe::describe(*verdict))});
  }
  return out;
}

std::string error_line(const json& doc, bool markdown) {
  if (!doc.contains("error") || doc["error"].is_null()) return "";
  const auto& e = doc["error"];
  std::string hint = e.value("hint", "");
  if (!hint.empty()) hint[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(hint[0])));  // as on stderr
  std::string line = fmt::format("{}: {}{}", markdown ? "**Error**" : "error", e.value("message", ""),
                                 hint.empty() ? "" : ". " + hint);
  return line + "\n";
}

}  // namespace

// Strings from logs and user code may hold invalid UTF-8 (a cut or corrupted TORCH_TRACE):
// written as U+FFFD rather than failing the whole document.
std::string render_json(const json& doc) { return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }

// What the document answers, most decisive first, as "question: answer": the audit's first line.
std::string headline(const json& doc) {
  auto found = answers(doc);
  return found.empty() ? "" : found[0].first + ": " + found[0].second;
}

std::string render_text(const json& doc, bool verbose) {
  std::string out = sections(doc, verbose ? Style::Verbose : Style::Brief);
  if (verbose) {
    for (const auto& w : doc.value("warnings", json::array())) out += report::format_warning(w) + "\n";
    return out;
  }
  auto lines = report::brief_warning_lines(doc.value("warnings", json::array()));
  if (!lines.empty() && !out.empty() && out.back() == '\n' && out.size() > 1 && out[out.size() - 2] != '\n')
    out += "\n";
  for (const auto& l : lines) out += l + "\n";
  // The last line: what bench's intervals mean, and where the rest is.
  const std::string command = doc.value("command", "");
  const bool intervals = command == "bench" || command == "audit";
  if (!lines.empty() || intervals)
    out += fmt::format("({}tct {} -v: every detail, and what to do about each warning)\n",
                       intervals ? "95% intervals across fresh processes, as a re-run meets them; " : "", command);
  return out;
}

// Verdict first (a pull-request comment is read from the top, often no further), then the
// answers as a compact table, then everything else folded away in <details>.
std::string render_markdown(const json& doc) {
  auto found = answers(doc);
  const json& error = doc.value("error", json());
  std::string verdict = !found.empty()      ? found[0].second
                        : error.is_object() ? "error: " + report::text_or(error, "message")
                                            : "no result";
  std::string out = fmt::format("## tct {}: {}\n\n", doc.value("command", ""), verdict);
  if (found.size() > 1) {  // one answer is the headline already
    report::Table t({"question", "answer"});
    for (const auto& [q, a] : found) t.add({q, a});
    out += t.markdown() + "\n";
  }
  out += error_line(doc, true);
  if (error.is_object()) out += "\n";
  out += "<details><summary>Details</summary>\n\n";
  out += sections(doc, Style::Markdown);
  auto warnings = doc.value("warnings", json::array());
  if (!warnings.empty()) {
    out += "### Warnings\n\n";
    for (const auto& w : warnings) out += "- " + report::format_warning(w) + "\n";
    out += "\n";
  }
  out += "</details>\n";
  out += fmt::format("\n<sub>tct {}, schema {}, {}</sub>\n", doc.value("tct_version", ""), doc.value("schema", ""),
                     doc.value("created", ""));
  return out;
}

void validate_output_paths(const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    auto ext = extension(p);
    if (ext != ".json" && ext != ".md" && ext != ".html")
      throw usage_error(fmt::format("--out {}: unknown report type '{}'", p, ext),
                        "use a file name ending in .json, .md or .html");
  }
}

std::vector<std::pair<std::string, std::string>> render_files(const json& doc, const std::vector<std::string>& paths) {
  validate_output_paths(paths);
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& p : paths) {
    auto ext = extension(p);
    if (ext == ".json") files.emplace_back(p, render_json(doc));
    else if (ext == ".md") files.emplace_back(p, render_markdown(doc));
    else files.emplace_back(p, render_html(doc));
  }
  return files;
}

}  // namespace tct::cli
