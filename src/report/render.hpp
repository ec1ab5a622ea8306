#pragma once
// Renderers: one result document in, text out. No I/O here (DESIGN.md: I/O at the edges).
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::report {

using json = nlohmann::json;

std::string render_json(const json& doc);
// The terminal report: by default the answer and what it rests on; `verbose` (-v) every detail.
std::string render_text(const json& doc, bool verbose = false);
std::string render_markdown(const json& doc);
// The most decisive answer as "question: answer" ("speedup, inductor: 1.73x [1.64, 1.83], faster
// than eager"), "" when the document answers nothing: the first line of an audit.
std::string headline(const json& doc);  // fit for a pull-request comment
std::string render_html(const json& doc);      // one self-contained file (report/html.cpp)

// The files asked for with --out, each rendered by its extension (.json, .md, .html).
// Throws tct::Error (usage) for an unknown extension.
std::vector<std::pair<std::string, std::string>> render_files(const json& doc,
                                                              const std::vector<std::string>& paths);
// Checks the extensions up front, so a typo is reported before anything runs.
void validate_output_paths(const std::vector<std::string>& paths);

// Per-command sections, each in its own file (report/text_<command>.cpp). Each takes the
// whole document and renders the command's section (doc[<command>]).
std::string text_probe(const json& doc);
std::string markdown_probe(const json& doc);
std::string text_bench(const json& doc);   // every detail (-v)
std::string brief_bench(const json& doc);  // the default: about 8 lines per configuration
std::string markdown_bench(const json& doc);
std::string text_explain(const json& doc);
std::string markdown_explain(const json& doc);
std::string text_diff(const json& doc);
std::string markdown_diff(const json& doc);
std::string text_expect(const json& doc);
std::string text_audit(const json& doc);
std::string brief_audit(const json& doc);  // the audit's headline: its verdict, then its steps on one line
std::string markdown_audit(const json& doc);
std::string markdown_expect(const json& doc);
std::string brief_expect(const json& doc);  // the class, the range, two reasons, three suggestions
std::string text_suite(const json& doc);
std::string markdown_suite(const json& doc);
std::string text_compare(const json& doc);
std::string markdown_compare(const json& doc);
std::string text_trace(const json& doc);
std::string markdown_trace(const json& doc);
std::string text_run(const json& doc);      // every detail (-v)
std::string brief_run(const json& doc);     // the default
std::string markdown_run(const json& doc);
// A site's silent fallbacks: its "fallbacks" list, or an older document's one "fallback".
json run_fallbacks(const json& site);
std::string text_startup(const json& doc);   // every detail (-v)
std::string brief_startup(const json& doc);  // the default
std::string markdown_startup(const json& doc);

}  // namespace tct::report
