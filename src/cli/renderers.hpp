#pragma once
// The registry: for each section an outcome can hold, the command's renderers, each taking the
// whole outcome (a section may read another: expect's HTML shows bench's measured speedup).
// Defined in cli/render.cpp; read by cli/render.cpp (text, Markdown) and cli/render_html.cpp.
#include <string>
#include <vector>

#include "cli/outcome.hpp"
#include "report/html_util.hpp"

namespace tct::cli {

struct Renderers {
  const char* key;                         // the document's section, e.g. "bench"
  bool (*present)(const Outcome& o);       // whether the outcome holds this section
  std::string (*text)(const Outcome& o);   // every detail (-v)
  std::string (*brief)(const Outcome& o);  // the default terminal report; nullptr: text
  std::string (*markdown)(const Outcome& o);
  std::string (*html)(const Outcome& o);                       // nullptr: shown elsewhere on the page
  std::vector<report::html::Card> (*cards)(const Outcome& o);  // nullptr: no card
  const char* toc;                                             // the HTML contents' label
};

// In the order a reader wants the sections: the audit's steps, the environment, then the answers.
const std::vector<Renderers>& renderers();
const Renderers* renderers_of(const std::string& key);

}  // namespace tct::cli
