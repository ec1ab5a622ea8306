#pragma once
// explain's and diff's section descriptors: what cli/ needs to hold, write, read and render an
// ExplainResult and a DiffResult in an Outcome (cli/registry.hpp lists them). They only name
// this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "explain/diff.hpp"
#include "explain/json.hpp"
#include "explain/render.hpp"
#include "report/warning.hpp"

namespace tct::explain {

struct Section {
  using Result = ExplainResult;
  static constexpr const char* key = "explain";
  static constexpr int page = 60;    // the HTML page: after bench, before diff
  static constexpr int answer = 80;  // the answers: after startup, before diff
  static constexpr const char* toc = "Graph breaks";

  static nlohmann::json to_json(const Result& r) { return explain::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return explain::from_json(s); }
  static const std::vector<report::Warning>& warnings(const Result& r) { return r.warnings; }

  static std::string text(const Result& r) { return explain::text(r); }
  static std::string markdown(const Result& r) { return explain::markdown(r); }
  static std::string html(const Result& r) { return explain::html_section(r); }
  static std::vector<report::html::Card> cards(const Result& r) { return explain::html_cards(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    return {{"graph breaks", explain::answer(r)}};
  }
};

struct DiffSection {
  using Result = DiffResult;
  static constexpr const char* key = "diff";
  static constexpr int page = 70;    // the HTML page: after explain, before expect
  static constexpr int answer = 90;  // the answers: after explain, before expect
  static constexpr const char* toc = "Diff";

  static nlohmann::json to_json(const Result& r) { return explain::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return explain::diff_from_json(s); }

  static std::string text(const Result& r) { return explain::text(r); }
  static std::string markdown(const Result& r) { return explain::markdown(r); }
  static std::string html(const Result& r) { return explain::html_section(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    return {{"graph breaks", explain::answer(r)}};
  }
};

}  // namespace tct::explain
