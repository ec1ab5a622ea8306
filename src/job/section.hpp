#pragma once
// job's section descriptor: what cli/ needs to hold, write, read and render a JobResult in an
// Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "job/json.hpp"
#include "job/render.hpp"

namespace tct::job {

struct Section {
  using Result = JobResult;
  static constexpr const char* key = "job";
  static constexpr int page = 10;    // the HTML page: first (the decision a user asked for)
  static constexpr int answer = 50;  // the answers: after trace, before run
  static constexpr const char* toc = "The job, each way";

  static nlohmann::json to_json(const Result& r) { return job::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return job::from_json(s); }

  static std::string text(const Result& r) { return job::text(r); }
  static std::string brief(const Result& r) { return job::brief(r); }
  static std::string markdown(const Result& r) { return job::markdown(r); }
  static std::string html(const Result& r) { return job::html_section(r); }
  static std::vector<report::html::Card> cards(const Result& r) { return job::html_cards(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    return {{"how to run this job", job::answer(r)}};
  }
};

}  // namespace tct::job
