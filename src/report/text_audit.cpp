// The audit headline: which steps ran, how long each took, and which failed or were skipped.
// The sections of the steps themselves follow, rendered by their own files.
#include <fmt/format.h>

#include "report/format.hpp"
#include "report/render.hpp"

namespace tct::report {
namespace {

std::string step_line(const json& s) {
  const std::string status = s.value("status", "?");
  std::string line = fmt::format("{} {}", s.value("name", "?"), status);
  if (status == "ok" || status == "failed") line += " (" + format_duration_ns(number_or_nan(s, "wall_ns")) + ")";
  if (status == "failed" && s.contains("error") && s["error"].is_object())
    line += ": " + s["error"].value("message", "");
  if (status == "skipped") line += ": " + s.value("reason", "");
  return line;
}

}  // namespace

std::string text_audit(const json& doc) {
  const json& a = doc["audit"];
  std::string out = fmt::format("tct audit {}\n", a.value("target", ""));
  for (const auto& s : a.value("steps", json::array())) out += "  " + step_line(s) + "\n";
  return out + "\n";
}

// The verdict first (what a reader takes away), then the steps, one line.
std::string brief_audit(const json& doc) {
  const json& a = doc["audit"];
  std::string verdict = headline(doc);
  std::string out = fmt::format("tct audit {}: {}\n", a.value("target", ""), verdict.empty() ? "no answer" : verdict);
  std::string steps;
  for (const auto& s : a.value("steps", json::array())) steps += (steps.empty() ? "" : "; ") + step_line(s);
  return out + "  steps: " + steps + "\n\n";
}

std::string markdown_audit(const json& doc) {
  const json& a = doc["audit"];
  std::string out = fmt::format("Target `{}`. Steps:\n\n", a.value("target", ""));
  for (const auto& s : a.value("steps", json::array())) out += "- " + step_line(s) + "\n";
  return out + "\n";
}

}  // namespace tct::report
