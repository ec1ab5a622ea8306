// The audit's own lines: which steps ran, how long each took, and which failed or were
// skipped, under the headline of what they found. The steps' sections follow, rendered by
// their own commands' renderers. Here, beside the registry, because the headline knows every
// command (audit has no folder of its own yet).
#include <fmt/format.h>

#include "cli/render.hpp"
#include "cli/renderers.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::cli {
namespace {

using report::format_duration_ns;
using report::number_or_nan;

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

std::string html_audit(const json& doc) {
  using namespace report::html;
  using report::text_or;
  const json& a = obj_at(doc, "audit");
  if (a.empty()) return "";
  // How the audit ran: each step, its time, and why one failed or was skipped.
  std::vector<std::vector<std::string>> rows;
  for (const auto& s : arr_at(a, "steps")) {
    std::string status = text_or(s, "status");
    std::string tone = status == "ok" ? "good" : status == "failed" ? "bad" : "warn";
    std::string why = s.contains("error") && s["error"].is_object()
                          ? esc(text_or(s["error"], "message")) + (text_or(s["error"], "hint").empty() ? "" : "<br><span class=\"muted\">" + esc(text_or(s["error"], "hint")) + "</span>")
                          : esc(text_or(s, "reason"));
    rows.push_back({esc(text_or(s, "name")), "<span class=\"pill " + tone + "\">" + esc(status) + "</span>",
                    esc(format_duration_ns(number_or_nan(s, "wall_ns"))), why});
  }
  return R"(<section id="audit"><h2>How this audit ran</h2>)" + table({"Step", "Status", "Time", "Note"}, rows) + "</section>";
}

}  // namespace tct::cli
