#pragma once
// run's section descriptor: what cli/ needs to hold, write, read and render a RunResult in an
// Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/json.hpp"
#include "run/render.hpp"

namespace tct::run {

struct Section {
  using Result = RunResult;
  static constexpr const char* key = "run";
  static constexpr int page = 20;    // the HTML page: after job, before suite
  static constexpr int answer = 60;  // the answers: after job, before startup
  static constexpr const char* toc = "Call sites";

  static nlohmann::json to_json(const Result& r) { return run::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return run::from_json(s); }

  static std::string text(const Result& r) { return run::text(r, false, true); }
  static std::string brief(const Result& r) { return run::text(r, false, false); }
  static std::string markdown(const Result& r) { return run::text(r, true, true); }
  static std::string html(const Result& r) { return run::html_section(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    return {{"torch.compile in this job", run::answer(r)}};
  }
};

}  // namespace tct::run
