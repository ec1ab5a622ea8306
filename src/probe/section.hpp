#pragma once
// probe's section descriptor: what cli/ needs to hold, write, read and render a ProbeResult in
// an Outcome (cli/registry.hpp lists it; cli/section_list.hpp iterates the list). It only names
// this folder's functions: the codec is json.cpp's, the renderings render.hpp's.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_read.hpp"
#include "probe/json.hpp"
#include "probe/render.hpp"

namespace tct::probe {

struct Section {
  using Result = ProbeResult;
  static constexpr const char* key = "probe";  // the document's section
  // Its place on the HTML page (its cards; the Environment section shows its facts, after every
  // section) and among the answers a report leads with: the last of both.
  static constexpr int page = 120;
  static constexpr int answer = 110;
  static constexpr const char* toc = nullptr;  // no section of its own on the page

  static nlohmann::json to_json(const Result& r) { return probe::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return probe::from_json(s); }

  // The interpreter is the document's environment, not the section.
  template <class Outcome>
  static Interpreter interpreter(const Outcome& o) {
    // not a reply: the interpreter tct started, as cli/context.cpp records it, not the agent
    const nlohmann::json& interp = core::json_read::at(o.environment, "interpreter");
    // not a reply: its path and how tct chose it (--python, a venv, PATH), tct's own
    return {core::json_read::text(interp, "path", "?"), core::json_read::text(interp, "chosen_by", "?")};
  }
  template <class Outcome>
  static std::string text(const Result& r, const Outcome& o) {
    return probe::text(r, interpreter(o));
  }
  template <class Outcome>
  static std::string markdown(const Result& r, const Outcome& o) {
    return probe::markdown(r, interpreter(o));
  }
  static std::vector<report::html::Card> cards(const Result& r) { return probe::html_cards(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    if (!r.verdict) return {};
    return {{"torch.compile here", std::string(probe::describe(*r.verdict))}};
  }
};

}  // namespace tct::probe
