// The registry of renderers and the text and Markdown reports built from it. Each command's
// renderers are pure functions of its typed result, and here they read it from the Outcome: the
// live run's, or a saved document's read back by from_document, so both render alike.
#include "cli/render.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "audit/render.hpp"
#include "bench/render.hpp"
#include "cli/renderers.hpp"
#include "core/json_read.hpp"
#include "compare/render.hpp"
#include "errors.hpp"
#include "expect/render.hpp"
#include "explain/render.hpp"
#include "probe/render.hpp"
#include "report/format.hpp"
#include "report/warning.hpp"
#include "run/render.hpp"
#include "startup/render.hpp"
#include "suite/render.hpp"
#include "trace/render.hpp"

namespace tct::cli {

using report::html::Card;

namespace {

probe::Interpreter interpreter_of(const Outcome& o) {
  const json& interp = core::json_read::at(o.environment, "interpreter");
  return {core::json_read::text(interp, "path", "?"), core::json_read::text(interp, "chosen_by", "?")};
}

}  // namespace

const std::vector<Renderers>& renderers() {
  static const std::vector<Renderers> all = {
      // The audit's brief opens with the headline of what every section found.
      {"audit", [](const Outcome& o) { return o.audit.has_value(); },
       [](const Outcome& o) { return audit::text(*o.audit); },
       [](const Outcome& o) { return audit::brief(*o.audit, headline(o)); },
       [](const Outcome& o) { return audit::markdown(*o.audit); },
       [](const Outcome& o) { return audit::html_section(*o.audit); }, nullptr, "Audit"},
      {"probe", [](const Outcome& o) { return o.probe.has_value(); },
       [](const Outcome& o) { return probe::text(*o.probe, interpreter_of(o)); }, nullptr,
       [](const Outcome& o) { return probe::markdown(*o.probe, interpreter_of(o)); }, nullptr,
       [](const Outcome& o) { return probe::html_cards(*o.probe); }, nullptr},
      {"bench", [](const Outcome& o) { return o.bench.has_value(); },
       [](const Outcome& o) { return bench::text(*o.bench); }, [](const Outcome& o) { return bench::brief(*o.bench); },
       [](const Outcome& o) { return bench::markdown(*o.bench); },
       [](const Outcome& o) { return bench::html_section(*o.bench); },
       [](const Outcome& o) { return bench::html_cards(*o.bench); }, "Speed"},
      {"explain", [](const Outcome& o) { return o.explain.has_value(); },
       [](const Outcome& o) { return explain::text(*o.explain); }, nullptr,
       [](const Outcome& o) { return explain::markdown(*o.explain); },
       [](const Outcome& o) { return explain::html_section(*o.explain); },
       [](const Outcome& o) { return explain::html_cards(*o.explain); }, "Graph breaks"},
      {"diff", [](const Outcome& o) { return o.diff.has_value(); },
       [](const Outcome& o) { return explain::text(*o.diff); }, nullptr,
       [](const Outcome& o) { return explain::markdown(*o.diff); },
       [](const Outcome& o) { return explain::html_section(*o.diff); }, nullptr, "Diff"},
      {"expect", [](const Outcome& o) { return o.expect.has_value(); },
       [](const Outcome& o) { return expect::text(*o.expect); },
       [](const Outcome& o) { return expect::brief(*o.expect); },
       [](const Outcome& o) { return expect::markdown(*o.expect); },
       // The HTML shows the prediction beside bench's measured speedup, when the run has one.
       [](const Outcome& o) {
         return expect::html_section(*o.expect, expect::measured_as_is(o.bench ? &*o.bench : nullptr));
       },
       [](const Outcome& o) { return expect::html_cards(*o.expect); }, "Expectation"},
      {"suite", [](const Outcome& o) { return o.suite.has_value(); },
       [](const Outcome& o) { return suite::text(*o.suite); }, nullptr,
       [](const Outcome& o) { return suite::markdown(*o.suite); },
       [](const Outcome& o) { return suite::html_section(*o.suite); },
       [](const Outcome& o) { return suite::html_cards(*o.suite); }, "Suite"},
      {"compare", [](const Outcome& o) { return o.compare.has_value(); },
       [](const Outcome& o) { return compare::text(*o.compare); }, nullptr,
       [](const Outcome& o) { return compare::markdown(*o.compare); },
       [](const Outcome& o) { return compare::html_section(*o.compare); }, nullptr, "Compare"},
      {"trace", [](const Outcome& o) { return o.trace.has_value(); },
       [](const Outcome& o) { return trace::text(*o.trace); }, nullptr,
       [](const Outcome& o) { return trace::markdown(*o.trace); },
       [](const Outcome& o) { return trace::html_section(*o.trace); }, nullptr, "Trace"},
      {"run", [](const Outcome& o) { return o.run.has_value(); },
       [](const Outcome& o) { return run::text(*o.run, false, true); },
       [](const Outcome& o) { return run::text(*o.run, false, false); },
       [](const Outcome& o) { return run::text(*o.run, true, true); },
       [](const Outcome& o) { return run::html_section(*o.run); }, nullptr, "Call sites"},
      {"startup", [](const Outcome& o) { return o.startup.has_value(); },
       [](const Outcome& o) { return startup::text(*o.startup); },
       [](const Outcome& o) { return startup::brief(*o.startup); },
       [](const Outcome& o) { return startup::markdown(*o.startup); },
       [](const Outcome& o) { return startup::html_section(*o.startup); },
       [](const Outcome& o) { return startup::html_cards(*o.startup); }, "Start-up"},
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
std::string sections(const Outcome& o, Style style) {
  std::vector<const Renderers*> order;
  auto add = [&](const std::string& key) {
    const Renderers* r = renderers_of(key);
    if (r && std::find(order.begin(), order.end(), r) == order.end()) order.push_back(r);
  };
  add("audit");
  if (o.audit)
    for (const auto& step : o.audit->steps) add(step.name);
  for (const auto& r : renderers()) add(r.key);
  std::string out;
  for (const Renderers* r : order) {
    if (!r->present(o)) continue;
    auto render = style == Style::Markdown ? r->markdown : style == Style::Brief && r->brief ? r->brief : r->text;
    std::string part = render(o);
    // Markdown needs a blank line between blocks, or a heading runs into the bullet before it.
    if (style == Style::Markdown) {
      while (!part.empty() && part.back() == '\n') part.pop_back();
      if (!part.empty()) part += "\n\n";
    }
    out += part;
  }
  return out;
}

// What the outcome answers, most decisive first: a measured speedup, then graph breaks,
// then the expected class, then whether torch.compile runs here. Each is (question, answer).
std::vector<std::pair<std::string, std::string>> answers(const Outcome& o) {
  using report::format_speedup_interval;
  std::vector<std::pair<std::string, std::string>> out;
  if (o.bench)
    for (const auto& r : o.bench->rows) {
      const std::string label = "speedup, " + (r.label.empty() ? "compiled" : r.label);
      if (!r.ok() || !r.speedup) {
        out.push_back({label, "failed: " + (r.error ? r.error->message : "see details")});
        continue;
      }
      out.push_back({label, fmt::format("{}, {}", format_speedup_interval(r.speedup->interval),
                                        stats::describe(r.speedup->verdict))});
    }
  if (o.suite && !o.suite->listing) {
    const suite::SuiteSummary& s = o.suite->summary;
    out.push_back(
        {"geometric-mean speedup", s.geomean ? fmt::format("{} over {} passing entries",
                                                           format_speedup_interval(s.geomean->interval), s.geomean->n)
                                             : "n/a: no entry passed with a measured speedup"});
  }
  if (o.compare) {
    const compare::CompareResult& cmp = *o.compare;
    using compare::Change;
    out.push_back({"compared with the baseline",
                   fmt::format("{}: {} regressed, {} improved, {} newly failing", cmp.passed ? "pass" : "FAIL",
                               cmp.count(Change::Regression), cmp.count(Change::Improvement),
                               cmp.count(Change::Broken) + cmp.count(Change::NewMismatch))});
  }
  if (o.trace)
    out.push_back(
        {"TORCH_TRACE", fmt::format("{} log(s); {}", o.trace->ranks.size(),
                                    o.trace->ranks_diverge() ? "ranks diverge (see details)" : "no rank diverges")});
  if (o.run) out.push_back({"torch.compile in this job", run::answer(*o.run)});
  if (o.startup) out.push_back({"time to the first output", startup::answer(*o.startup)});
  if (o.explain) out.push_back({"graph breaks", explain::answer(*o.explain)});
  if (o.diff) out.push_back({"graph breaks", explain::answer(*o.diff)});
  if (o.expect && o.expect->analysis) {
    std::string cls(expect::to_string(o.expect->analysis->cls));
    for (auto& c : cls) c = c == '_' ? ' ' : c;
    const expect::SpeedupRange& p = o.expect->analysis->predicted.range;
    out.push_back({"expected", fmt::format("{}, {} to {} predicted", cls, report::format_ratio(p.low),
                                           report::format_ratio(p.high))});
  }
  if (o.probe && o.probe->verdict)
    out.push_back({"torch.compile here", std::string(probe::describe(*o.probe->verdict))});
  return out;
}

std::string error_line(const Outcome& o, bool markdown) {
  if (!o.error) return "";
  std::string hint = o.error->hint.value_or("");
  if (!hint.empty()) hint[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(hint[0])));  // as on stderr
  return fmt::format("{}: {}{}\n", markdown ? "**Error**" : "error", o.error->message, hint.empty() ? "" : ". " + hint);
}

}  // namespace

// Strings from logs and user code may hold invalid UTF-8 (a cut or corrupted TORCH_TRACE):
// written as U+FFFD rather than failing the whole document.
std::string render_json(const json& doc) { return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }
std::string render_json(const Outcome& o) { return render_json(to_document(o)); }

std::string headline(const Outcome& o) {
  auto found = answers(o);
  return found.empty() ? "" : found[0].first + ": " + found[0].second;
}

std::string render_text(const Outcome& o, bool verbose) {
  std::string out = sections(o, verbose ? Style::Verbose : Style::Brief);
  if (verbose) {
    for (const auto& w : o.warnings) out += report::format_warning(w) + "\n";
    return out;
  }
  auto lines = report::brief_warning_lines(o.warnings);
  if (!lines.empty() && !out.empty() && out.back() == '\n' && out.size() > 1 && out[out.size() - 2] != '\n')
    out += "\n";
  for (const auto& l : lines) out += l + "\n";
  // The last line: what bench's intervals mean, and where the rest is.
  const bool intervals = o.command == "bench" || o.command == "audit";
  if (!lines.empty() || intervals)
    out += fmt::format("({}tct {} -v: every detail, and what to do about each warning)\n",
                       intervals ? "95% intervals across fresh processes, as a re-run meets them; " : "", o.command);
  return out;
}

// Verdict first (a pull-request comment is read from the top, often no further), then the
// answers as a compact table, then everything else folded away in <details>.
std::string render_markdown(const Outcome& o) {
  auto found = answers(o);
  std::string verdict = !found.empty() ? found[0].second : o.error ? "error: " + o.error->message : "no result";
  std::string out = fmt::format("## tct {}: {}\n\n", o.command, verdict);
  if (found.size() > 1) {  // one answer is the headline already
    report::Table t({"question", "answer"});
    for (const auto& [q, a] : found) t.add({q, a});
    out += t.markdown() + "\n";
  }
  out += error_line(o, true);
  if (o.error) out += "\n";
  out += "<details><summary>Details</summary>\n\n";
  out += sections(o, Style::Markdown);
  if (!o.warnings.empty()) {
    out += "### Warnings\n\n";
    for (const auto& w : o.warnings) out += "- " + report::format_warning(w) + "\n";
    out += "\n";
  }
  out += "</details>\n";
  out += fmt::format("\n<sub>tct {}, schema {}, {}</sub>\n", o.tct_version, o.schema, o.created);
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

std::vector<std::pair<std::string, std::string>> render_files(const Outcome& o, const std::vector<std::string>& paths) {
  validate_output_paths(paths);
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& p : paths) {
    auto ext = extension(p);
    if (ext == ".json") files.emplace_back(p, render_json(o));
    else if (ext == ".md") files.emplace_back(p, render_markdown(o));
    else files.emplace_back(p, render_html(o));
  }
  return files;
}

}  // namespace tct::cli
