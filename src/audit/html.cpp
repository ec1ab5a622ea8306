#include "audit/render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::audit {

// How the audit ran: each step, its time, and why one failed or was skipped.
std::string html_section(const AuditResult& result) {
  using namespace report::html;
  std::vector<std::vector<std::string>> rows;
  for (const auto& s : result.steps) {
    const std::string status = s.status == StepStatus::Unknown ? "" : to_string(s.status);
    const std::string tone = s.status == StepStatus::Ok ? "good" : s.status == StepStatus::Failed ? "bad" : "warn";
    const std::string why =
        s.error ? esc(s.error->message) +
                      (s.error->hint.empty() ? "" : "<br><span class=\"muted\">" + esc(s.error->hint) + "</span>")
                : esc(s.reason);
    rows.push_back({esc(s.name), "<span class=\"pill " + tone + "\">" + esc(status) + "</span>",
                    esc(report::format_duration(s.wall)), why});
  }
  return R"(<section id="audit"><h2>How this audit ran</h2>)" + table({"Step", "Status", "Time", "Note"}, rows) +
         "</section>";
}

}  // namespace tct::audit
