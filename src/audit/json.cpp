// The audit section: its fields are listed once (audit/json_fields.hpp); here are a step's
// status names and the section's entry points.
#include "audit/json.hpp"

#include "audit/json_fields.hpp"

namespace tct::audit {

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

json to_json(const Step& step) { return core::fields::write(step); }
json to_json(const AuditResult& result) { return core::fields::write(result); }
AuditResult from_json(const json& section) { return core::fields::read_as<AuditResult>(section); }

}  // namespace tct::audit
