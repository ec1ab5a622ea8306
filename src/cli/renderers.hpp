#pragma once
// The registry: for each section a document can hold, the command's renderers, each taking the
// whole document (a section may read another: expect's HTML shows bench's measured speedup).
// Defined in cli/render.cpp; read by cli/render.cpp (text, Markdown) and cli/render_html.cpp.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/html_util.hpp"

namespace tct::cli {

struct Renderers {
  const char* key;                                  // the document's section, e.g. "bench"
  std::string (*text)(const nlohmann::json& doc);   // every detail (-v)
  std::string (*brief)(const nlohmann::json& doc);  // the default terminal report; nullptr: text
  std::string (*markdown)(const nlohmann::json& doc);
  std::string (*html)(const nlohmann::json& doc);                       // nullptr: shown elsewhere on the page
  std::vector<report::html::Card> (*cards)(const nlohmann::json& doc);  // nullptr: no card
  const char* toc;                                                      // the HTML contents' label
};

// In the order a reader wants the sections: the audit's steps, the environment, then the answers.
const std::vector<Renderers>& renderers();
const Renderers* renderers_of(const std::string& key);

}  // namespace tct::cli
