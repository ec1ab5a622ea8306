#pragma once
// For each section an outcome can hold, its command's renderers, each taking the whole outcome
// (a section may read another: expect's HTML shows bench's measured speedup). Made in
// cli/render.cpp from the registry's descriptors (cli/registry.hpp); read by cli/render.cpp
// (text, Markdown, the answers) and cli/render_html.cpp.
#include <string>
#include <utility>
#include <vector>

#include "cli/outcome.hpp"
#include "report/html_util.hpp"

namespace tct::cli {

struct Renderers {
  const char* key;                         // the document's section, e.g. "bench"
  int page;                                // its place on the HTML page, cards and section (lower first)
  int answer;                              // its place among the answers (lower first)
  bool (*present)(const Outcome& o);       // whether the outcome holds this section
  std::string (*text)(const Outcome& o);   // every detail (-v)
  std::string (*brief)(const Outcome& o);  // the default terminal report; nullptr: text
  std::string (*markdown)(const Outcome& o);
  std::string (*html)(const Outcome& o);                       // nullptr: shown elsewhere on the page
  std::vector<report::html::Card> (*cards)(const Outcome& o);  // nullptr: no card
  // What the section answers, as (question, answer); nullptr: nothing.
  std::vector<std::pair<std::string, std::string>> (*answers)(const Outcome& o);
  const char* toc;  // the HTML contents' label
};

// In the registry's order: the audit's steps, the environment, then the answers.
const std::vector<Renderers>& renderers();
const Renderers* renderers_of(const std::string& key);
// The registry's sections ordered by `page` or by `answer` (stable).
std::vector<const Renderers*> renderers_by(int Renderers::*rank);

}  // namespace tct::cli
