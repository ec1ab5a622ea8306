#pragma once
// Rendering a result document: the registry of every command's renderers (cli/render.cpp,
// cli/render_html.cpp). It sits at the top because it knows every command; report/ below it
// holds the formats and primitives and knows none. No I/O here (DESIGN.md: I/O at the edges).
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::cli {

using json = nlohmann::json;

std::string render_json(const json& doc);
// The terminal report: by default the answer and what it rests on; `verbose` (-v) every detail.
std::string render_text(const json& doc, bool verbose = false);
std::string render_markdown(const json& doc);
// The most decisive answer as "question: answer" ("speedup, inductor: 1.73x [1.64, 1.83], faster
// than eager"), "" when the document answers nothing: the first line of an audit.
std::string headline(const json& doc);     // fit for a pull-request comment
std::string render_html(const json& doc);  // one self-contained file (cli/render_html.cpp)

// The files asked for with --out, each rendered by its extension (.json, .md, .html).
// Throws tct::Error (usage) for an unknown extension.
std::vector<std::pair<std::string, std::string>> render_files(const json& doc, const std::vector<std::string>& paths);
// Checks the extensions up front, so a typo is reported before anything runs.
void validate_output_paths(const std::vector<std::string>& paths);

}  // namespace tct::cli
