#pragma once
// The audit section's JSON fields (core/fields.hpp): its target and steps, each listed once; the
// steps' results are in their own commands' sections.
#include "audit/result.hpp"
#include "core/fields.hpp"

namespace tct::audit {

using json = nlohmann::json;
using namespace core::fields::declare;

constexpr auto json_fields(const StepError*) {
  return std::tuple{TCT_FIELDS(StepError, kind, message, hint),
                    TCT_FIELDS_WITH(StepError, core::fields::Empty::Absent, stage)};  // where the runner said
}
// A missing name or status reads as not known ("?", Unknown); a skipped step has a reason, one
// that ran its wall time.
constexpr auto json_fields(const Step*) {
  return std::tuple{
      custom<Step>(
          "name", [](const Step& s) -> json { return s.name; },
          [](const json& j, Step& s) { s.name = j.is_string() ? j.get<std::string>() : "?"; }),
      custom<Step>(
          "status", [](const Step& s) -> json { return to_string(s.status); },
          [](const json& j, Step& s) { s.status = parse_step_status(j.is_string() ? j.get<std::string>() : ""); }),
      TCT_FIELDS(Step, error),
      custom<Step>(
          "reason", [](const Step& s) { return s.status == StepStatus::Skipped ? json(s.reason) : kLeftOut; },
          [](const json& j, Step& s) { core::fields::decode(j, s.reason); }),
      custom<Step>(
          "wall_ns",
          [](const Step& s) {
            return s.status == StepStatus::Skipped ? kLeftOut : core::fields::encode(s.wall, core::fields::Empty::Keep);
          },
          [](const json& j, Step& s) { core::fields::decode(j, s.wall); })};
}
constexpr auto json_fields(const AuditResult*) { return std::tuple{TCT_FIELDS(AuditResult, target, steps)}; }

}  // namespace tct::audit
