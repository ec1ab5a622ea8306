#include "report/render.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "bench/json.hpp"
#include "compare/compare.hpp"
#include "errors.hpp"
#include "explain/json.hpp"
#include "explain/render.hpp"
#include "probe/json.hpp"
#include "probe/render.hpp"
#include "report/format.hpp"
#include "report/warnings.hpp"
#include "startup/json.hpp"
#include "startup/render.hpp"
#include "suite/json.hpp"
#include "suite/summary.hpp"
#include "trace/json.hpp"

namespace tct::report {
namespace {

std::string extension(const std::string& path) {
  auto dot = path.rfind('.');
  auto slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

enum class Style { Brief, Verbose, Markdown };

// Sections in the order a reader wants them: environment first, then the answers. An audit
// shows its steps' sections in the order they ran.
std::string sections(const json& doc, Style style) {
  struct Section {
    const char* key;
    std::string (*text)(const json&);
    std::string (*md)(const json&);
    std::string (*brief)(const json&);  // the default terminal report, where it is shorter than text
  };
  static const Section all[] = {
      {"audit", text_audit, markdown_audit, brief_audit}, {"probe", text_probe, markdown_probe, nullptr},
      {"bench", text_bench, markdown_bench, brief_bench},  {"explain", text_explain, markdown_explain, nullptr},
      {"diff", text_diff, markdown_diff, nullptr},         {"expect", text_expect, markdown_expect, brief_expect},
      {"suite", text_suite, markdown_suite, nullptr},      {"compare", text_compare, markdown_compare, nullptr},
      {"trace", text_trace, markdown_trace, nullptr},     {"run", text_run, markdown_run, brief_run},
      {"startup", text_startup, markdown_startup, brief_startup},
  };
  std::vector<const Section*> order;
  auto add = [&](const std::string& key) {
    for (const auto& s : all)
      if (key == s.key && std::find(order.begin(), order.end(), &s) == order.end()) order.push_back(&s);
  };
  add("audit");
  for (const auto& step : member(member(doc, "audit"), "steps"))
    if (step.is_object()) add(step.value("name", ""));
  for (const auto& s : all) add(s.key);
  std::string out;
  for (const Section* s : order) {
    if (!doc.contains(s->key) || doc[s->key].is_null()) continue;
    auto render = style == Style::Markdown              ? s->md
                  : style == Style::Brief && s->brief ? s->brief
                                                        : s->text;
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
  std::vector<std::pair<std::string, std::string>> out;
  if (const json& section = doc.value("bench", json()); section.is_object())
    for (const auto& r : bench::from_json(section).rows) {
      const std::string label = "speedup, " + (r.label.empty() ? "compiled" : r.label);
      if (!r.ok() || !r.speedup) {
        out.push_back({label, "failed: " + (r.error ? r.error->message : "see details")});
        continue;
      }
      out.push_back({label, fmt::format("{}, {}", format_speedup_interval(r.speedup->interval),
                                        stats::describe(r.speedup->verdict))});
    }
  const json& suite = doc.value("suite", json());
  if (suite.is_object() && suite.contains("summary") && !suite.value("listing", false)) {
    const suite::SuiteSummary s = suite::summary_from_json(suite["summary"]);
    out.push_back({"geometric-mean speedup", s.geomean ? fmt::format("{} over {} passing entries",
                                                                     format_speedup_interval(s.geomean->interval),
                                                                     s.geomean->n)
                                                       : "n/a: no entry passed with a measured speedup"});
  }
  if (const json& section = doc.value("compare", json()); section.is_object() && section.contains("items")) {
    const compare::CompareResult cmp = compare::compare_from_json(section);
    using compare::Change;
    out.push_back({"compared with the baseline",
                   fmt::format("{}: {} regressed, {} improved, {} newly failing", cmp.passed ? "pass" : "FAIL",
                               cmp.count(Change::Regression), cmp.count(Change::Improvement),
                               cmp.count(Change::Broken) + cmp.count(Change::NewMismatch))});
  }
  if (const json& section = doc.value("trace", json()); section.is_object() && section.contains("ranks")) {
    const trace::TraceResult t = trace::from_json(section);
    out.push_back({"TORCH_TRACE", fmt::format("{} log(s); {}", t.ranks.size(),
                                              t.ranks_diverge() ? "ranks diverge (see details)" : "no rank diverges")});
  }
  const json& run = doc.value("run", json());
  if (run.is_object() && run.contains("processes")) {
    size_t sites = 0, fallbacks = 0;
    std::map<stats::SpeedupVerdict, size_t> verdicts;
    for (const auto& p : run["processes"])
      for (const auto& s : p.value("sites", json::array())) {
        ++sites;
        fallbacks += run_fallbacks(s).size();
        const json& sp = member(member(s, "eager"), "speedup");
        if (sp.is_object())  // decided from the numbers: documents of any version
          ++verdicts[stats::decide(number_or_nan(sp, "estimate"), number_or_nan(sp, "low"), number_or_nan(sp, "high"))];
      }
    std::string answer = fmt::format("{} call site(s) in {} process(es)", sites, run["processes"].size());
    if (fallbacks) answer += fmt::format(", {} SILENT FALLBACK(S) to eager", fallbacks);
    // Every verdict counted, so a count of the faster ones never hides what the others were.
    for (const auto& [v, n] : verdicts)
      answer += fmt::format(", {} {}", n, v == stats::SpeedupVerdict::Faster ? "faster than eager" : std::string(stats::to_string(v)));
    if (!run.value("divergence", json::array()).empty()) answer += ", ranks diverge";
    out.push_back({"torch.compile in this job", answer});
  }
  if (const json& section = doc.value("startup", json()); section.is_object() && section.contains("modes"))
    out.push_back({"time to the first output", startup::answer(startup::from_json(section))});
  const json& explain = doc.value("explain", json());
  if (explain.is_object() && explain.contains("graph_break_count"))
    out.push_back({"graph breaks", explain::answer(explain::from_json(explain))});
  const json& diff = doc.value("diff", json());
  if (diff.is_object() && diff.contains("break_count"))
    out.push_back({"graph breaks", explain::answer(explain::diff_from_json(diff))});
  const json& expect = doc.value("expect", json());
  if (expect.is_object() && expect.contains("class")) {
    std::string cls = text_or(expect, "class");
    for (auto& c : cls) c = c == '_' ? ' ' : c;
    const json& p = expect.value("predicted_speedup", json());
    out.push_back({"expected", p.is_object() ? fmt::format("{}, {} to {} predicted", cls, format_ratio(number_or_nan(p, "low")),
                                                            format_ratio(number_or_nan(p, "high")))
                                             : cls});
  }
  if (const json& section = doc.value("probe", json()); section.is_object() && section.contains("verdict")) {
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
    for (const auto& w : doc.value("warnings", json::array())) out += format_warning(w) + "\n";
    return out;
  }
  auto lines = brief_warning_lines(doc.value("warnings", json::array()));
  if (!lines.empty() && !out.empty() && out.back() == '\n' && out.size() > 1 && out[out.size() - 2] != '\n') out += "\n";
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
  std::string verdict = !found.empty() ? found[0].second
                        : error.is_object() ? "error: " + text_or(error, "message")
                                            : "no result";
  std::string out = fmt::format("## tct {}: {}\n\n", doc.value("command", ""), verdict);
  if (found.size() > 1) {  // one answer is the headline already
    Table t({"question", "answer"});
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
    for (const auto& w : warnings) out += "- " + format_warning(w) + "\n";
    out += "\n";
  }
  out += "</details>\n";
  out += fmt::format("\n<sub>tct {}, schema {}, {}</sub>\n", doc.value("tct_version", ""),
                     doc.value("schema", ""), doc.value("created", ""));
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

std::vector<std::pair<std::string, std::string>> render_files(const json& doc,
                                                              const std::vector<std::string>& paths) {
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

}  // namespace tct::report
