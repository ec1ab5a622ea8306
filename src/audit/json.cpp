#include "audit/json.hpp"

#include "core/json_number.hpp"

namespace tct::audit {

using json = nlohmann::json;

std::string to_string(StepStatus status) {
  switch (status) {
    case StepStatus::Ok: return "ok";
    case StepStatus::Failed: return "failed";
    case StepStatus::Skipped: return "skipped";
    case StepStatus::Unknown: break;
  }
  return "?";
}

StepStatus parse_step_status(const std::string& text) {
  if (text == "ok") return StepStatus::Ok;
  if (text == "failed") return StepStatus::Failed;
  if (text == "skipped") return StepStatus::Skipped;
  return StepStatus::Unknown;
}

json to_json(const Step& step) {
  json j = {{"name", step.name}, {"status", to_string(step.status)}, {"error", nullptr}};
  if (step.error) {
    j["error"] = {{"kind", step.error->kind}, {"message", step.error->message}, {"hint", step.error->hint}};
    if (!step.error->stage.empty()) j["error"]["stage"] = step.error->stage;
  }
  if (step.status == StepStatus::Skipped) j["reason"] = step.reason;
  else j["wall_ns"] = step.wall.count();
  return j;
}

json to_json(const AuditResult& result) {
  json steps = json::array();
  for (const auto& s : result.steps) steps.push_back(to_json(s));
  return {{"target", result.target}, {"steps", steps}};
}

namespace {

std::string string_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

}  // namespace

AuditResult from_json(const json& section) {
  AuditResult r;
  r.target = string_at(section, "target");
  if (!section.is_object() || !section.contains("steps") || !section["steps"].is_array()) return r;
  for (const auto& s : section["steps"]) {
    if (!s.is_object()) continue;
    Step step;
    step.name = s.contains("name") && s["name"].is_string() ? s["name"].get<std::string>() : "?";
    step.status = parse_step_status(string_at(s, "status"));
    if (s.contains("error") && s["error"].is_object()) {
      const json& e = s["error"];
      step.error =
          StepError{string_at(e, "kind"), string_at(e, "message"), string_at(e, "hint"), string_at(e, "stage")};
    }
    step.reason = string_at(s, "reason");
    step.wall = Nanoseconds(core::number_or_nan(s, "wall_ns"));
    r.steps.push_back(std::move(step));
  }
  return r;
}

}  // namespace tct::audit
