#include <fmt/format.h>

#include "audit/render.hpp"
#include "report/format.hpp"

namespace tct::audit {
namespace {

std::string audit_step_line(const Step& s) {
  std::string line = fmt::format("{} {}", s.name, to_string(s.status));
  if (s.status == StepStatus::Ok || s.status == StepStatus::Failed)
    line += " (" + report::format_duration(s.wall) + ")";
  if (s.status == StepStatus::Failed && s.error) line += ": " + s.error->message;
  if (s.status == StepStatus::Skipped) line += ": " + s.reason;
  return line;
}

}  // namespace

std::string text(const AuditResult& result) {
  std::string out = fmt::format("tct audit {}\n", result.target);
  for (const auto& s : result.steps) out += "  " + audit_step_line(s) + "\n";
  return out + "\n";
}

std::string brief(const AuditResult& result, const std::string& headline) {
  std::string out = fmt::format("tct audit {}: {}\n", result.target, headline.empty() ? "no answer" : headline);
  std::string steps;
  for (const auto& s : result.steps) steps += (steps.empty() ? "" : "; ") + audit_step_line(s);
  return out + "  steps: " + steps + "\n\n";
}

std::string markdown(const AuditResult& result) {
  std::string out = fmt::format("Target `{}`. Steps:\n\n", result.target);
  for (const auto& s : result.steps) out += "- " + audit_step_line(s) + "\n";
  return out + "\n";
}

}  // namespace tct::audit
