// The words of `tct compare`, shared by its renderings: each change's JSON value and what a
// reader is told, and the cells of the before/after table.
#include <fmt/format.h>

#include "compare/compare.hpp"
#include "report/format.hpp"

namespace tct::compare {
namespace {

// Each change once: its JSON value and what a reader is told.
struct Words {
  Change change;
  std::string_view json, reader;
};
constexpr Words kWords[] = {
    {Change::Broken, "broken", "BROKEN (passed, now fails)"},
    {Change::NewMismatch, "new_mismatch", "OUTPUTS NOW DIFFER"},
    {Change::Regression, "regression", "REGRESSION"},
    {Change::StillFailing, "still_failing", "still failing"},
    {Change::Improvement, "improvement", "improvement"},
    {Change::Fixed, "fixed", "fixed (failed, now passes)"},
    {Change::MismatchFixed, "mismatch_fixed", "outputs match again"},
    {Change::Unchanged, "unchanged", "no change (within noise)"},
    {Change::NoInterval, "no_interval", "not judged (no interval)"},
    {Change::OnlyBaseline, "only_baseline", "only in baseline"},
    {Change::OnlyCurrent, "only_current", "only in current"},
};

const Words& words_of(Change c) {
  for (const auto& w : kWords)
    if (w.change == c) return w;
  return kWords[7];  // unchanged
}

}  // namespace

std::string_view to_string(Change c) { return words_of(c).json; }
std::string_view describe(Change c) { return words_of(c).reader; }
std::optional<Change> parse_change(std::string_view s) {
  for (const auto& w : kWords)
    if (w.json == s) return w.change;
  return std::nullopt;
}

std::string entry_text(const Entry& e) {
  if (e.status == EntryStatus::Failed) return "failed (" + (e.error_kind.empty() ? "?" : e.error_kind) + ")";
  if (e.status == EntryStatus::NotRun) return "not run";
  std::string out = report::format_speedup_interval(e.speedup);
  if (e.status == EntryStatus::Mismatch) out += " (outputs differ)";
  return out;
}

std::string before_after(const Item& item, const std::function<std::string(const Entry&)>& figure,
                         std::string_view arrow) {
  auto one = [&](const std::optional<Entry>& e) { return e ? figure(*e) : std::string("-"); };
  std::string b = one(item.baseline), c = one(item.current);
  return b == c ? b : fmt::format("{} {} {}", b, arrow, c);
}

std::string graph_breaks_text(const Entry& e) { return e.graph_breaks ? std::to_string(*e.graph_breaks) : "-"; }

std::string compile_text(const Entry& e) { return e.compile ? report::format_duration_ns(e.compile->count()) : "-"; }

}  // namespace tct::compare
