#pragma once
// trace's section descriptor: what cli/ needs to hold, write, read and render a TraceResult in
// an Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trace/json.hpp"
#include "trace/render.hpp"

namespace tct::trace {

struct Section {
  using Result = TraceResult;
  static constexpr const char* key = "trace";
  static constexpr int page = 90;    // the HTML page: after expect, before startup
  static constexpr int answer = 40;  // the answers: after compare, before job
  static constexpr const char* toc = "Trace";

  static nlohmann::json to_json(const Result& r) { return trace::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return trace::from_json(s); }

  static std::string text(const Result& r) { return trace::text(r); }
  static std::string brief(const Result& r) { return trace::brief(r); }
  static std::string markdown(const Result& r) { return trace::markdown(r); }
  static std::string html(const Result& r) { return trace::html_section(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    return {{"TORCH_TRACE", fmt::format("{} log(s); {}", r.ranks.size(),
                                        r.ranks_diverge() ? "ranks diverge (see details)" : "no rank diverges")}};
  }
};

}  // namespace tct::trace
