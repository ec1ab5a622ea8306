#pragma once
// audit's section descriptor: what cli/ needs to hold, write, read and render an AuditResult in
// an Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>

#include <nlohmann/json.hpp>

#include "audit/json.hpp"
#include "audit/render.hpp"

namespace tct::audit {

struct Section {
  using Result = AuditResult;
  static constexpr const char* key = "audit";
  static constexpr int page = 110;  // the HTML page: how the audit ran, after every answer
  static constexpr int answer = 0;  // answers nothing itself
  static constexpr const char* toc = "Audit";

  static nlohmann::json to_json(const Result& r) { return audit::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return audit::from_json(s); }

  static std::string text(const Result& r) { return audit::text(r); }
  // The brief opens with the headline of what every section found: the registry's headline(),
  // found through the Outcome's namespace.
  template <class Outcome>
  static std::string brief(const Result& r, const Outcome& o) {
    return audit::brief(r, headline(o));
  }
  static std::string markdown(const Result& r) { return audit::markdown(r); }
  static std::string html(const Result& r) { return audit::html_section(r); }
};

}  // namespace tct::audit
