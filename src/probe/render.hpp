#pragma once
// The renderings of a ProbeResult: pure functions of the value, which print its facts and
// its verdict and never decide them. The registry of renderers (cli/render.cpp) calls them with
// the result read from the document (probe::from_json), so a live run and a saved document
// render alike.
#include <string>
#include <utility>
#include <vector>

#include "probe/result.hpp"
#include "report/html_util.hpp"

namespace tct::probe {

// The interpreter as the document's environment names it (it is not the probe's section).
struct Interpreter {
  std::string path, chosen_by;
};

// "usable", "usable, with caveats", "not usable".
std::string_view describe(Verdict v);

std::string text(const ProbeResult& r, const Interpreter& interpreter);
std::string markdown(const ProbeResult& r, const Interpreter& interpreter);

// The HTML report's card, and its parts of the Environment section: the verdict with its
// reasons, the facts of each check (none without torch 2.x), the variables that were set,
// the smoke compiles.
std::vector<report::html::Card> html_cards(const ProbeResult& r);
std::string html_verdict(const ProbeResult& r);
std::vector<std::pair<std::string, std::string>> html_facts(const ProbeResult& r);
std::vector<std::pair<std::string, std::string>> html_environment_variables(const ProbeResult& r);
std::string html_smoke(const ProbeResult& r);

}  // namespace tct::probe
