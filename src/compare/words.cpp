// The words of `tct compare`, shared by its renderings: each change's JSON value and what a
// reader is told, and the cells of the before/after table.
#include <fmt/format.h>

#include "compare/compare.hpp"
#include "report/format.hpp"

namespace tct::compare {
namespace {

// What a reader is told of each change (its JSON value is kChangeNames', result.hpp).
struct Words {
  Change change;
  std::string_view reader;
};
constexpr Words kWords[] = {
    {Change::Broken, "BROKEN (passed, now fails)"},
    {Change::NewMismatch, "OUTPUTS NOW DIFFER"},
    {Change::Regression, "REGRESSION"},
    {Change::StillFailing, "still failing"},
    {Change::Improvement, "improvement"},
    {Change::Fixed, "fixed (failed, now passes)"},
    {Change::MismatchFixed, "outputs match again"},
    {Change::Unchanged, "no change (within noise)"},
    {Change::NoInterval, "not judged (no interval)"},
    {Change::OnlyBaseline, "only in baseline"},
    {Change::OnlyCurrent, "only in current"},
};

const Words& words_of(Change c) {
  for (const auto& w : kWords)
    if (w.change == c) return w;
  return kWords[7];  // unchanged
}

}  // namespace

std::string_view to_string(Change c) { return kChangeNames[static_cast<std::size_t>(c)]; }
std::string_view describe(Change c) { return words_of(c).reader; }
std::optional<Change> parse_change(std::string_view s) {
  for (std::size_t k = 0; k < std::size(kChangeNames); ++k)
    if (kChangeNames[k] == s) return static_cast<Change>(k);
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
