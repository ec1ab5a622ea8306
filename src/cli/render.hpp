#pragma once
// Rendering a command's outcome through the registry (cli/registry.hpp: each section's
// descriptor names its command's renderers; cli/render.cpp, cli/render_html.cpp walk them).
// It sits at the top because it reaches every command; report/ below it
// holds the formats and primitives and knows none. A live run renders its Outcome; a saved
// document renders through from_document, into the same functions. No I/O here (DESIGN.md:
// I/O at the edges).
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/outcome.hpp"

namespace tct::cli {

using json = nlohmann::json;

// The document (to_document), as `--json` prints it and a .json file holds it.
std::string render_json(const Outcome& outcome);
std::string render_json(const json& doc);
// The terminal report: by default the answer and what it rests on; `verbose` (-v) every detail.
std::string render_text(const Outcome& outcome, bool verbose = false);
std::string render_markdown(const Outcome& outcome);
// The most decisive answer as "question: answer" ("speedup, inductor: 1.73x [1.64, 1.83], faster
// than eager"), "" when the outcome answers nothing: the first line of an audit.
std::string headline(const Outcome& outcome);     // fit for a pull-request comment
std::string render_html(const Outcome& outcome);  // one self-contained file (cli/render_html.cpp)

// The files asked for with --out, each rendered by its extension (.json, .md, .html).
// Throws tct::Error (usage) for an unknown extension.
std::vector<std::pair<std::string, std::string>> render_files(const Outcome& outcome,
                                                              const std::vector<std::string>& paths);
// Checks the extensions up front, so a typo is reported before anything runs.
void validate_output_paths(const std::vector<std::string>& paths);

}  // namespace tct::cli
