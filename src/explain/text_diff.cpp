// The diff as text and Markdown: counts before -> after first, then breaks fixed, added,
// unchanged. Every count and verdict is a field of the DiffResult.
#include <fmt/format.h>

#include "explain/diff.hpp"
#include "explain/render.hpp"
#include "report/format.hpp"

namespace tct::explain {
namespace {

using core::base_name;
using report::markdown_cell;

std::string change(const Change& c) {
  int d = c.delta();
  return fmt::format("{} -> {} ({}{})", c.before, c.after, d > 0 ? "+" : "", d);
}

std::string where(const DiffBreak& b) {
  return fmt::format("{}:{} in {}  [{}]", b.where.file, b.where.line, b.where.function, core::to_string(b.kind));
}

std::string summary(const DiffResult& d) {
  return fmt::format("graph breaks {}, graphs {}, ops {}: {} fixed, {} added, {} unchanged", change(d.break_count),
                     change(d.graph_count), change(d.op_count), d.fixed.size(), d.added.size(), d.unchanged.size());
}

bool any_skipped(const DiffResult& d) { return d.frames_skipped.before > 0 || d.frames_skipped.after > 0; }

}  // namespace

std::string text(const DiffResult& d) {
  std::string out = fmt::format("tct diff {} -> {}\n", d.before.file, d.after.file);
  out += summary(d) + "\n";
  if (any_skipped(d)) out += fmt::format("frames dynamo skipped (ran eagerly) {}\n", change(d.frames_skipped));
  for (const auto& name : d.skipped_fixed) out += fmt::format("  compiles now {}\n", name);
  for (const auto& name : d.skipped_added) out += fmt::format("  skipped now {}\n", name);
  if (d.skip_fixed)
    out +=
        "A skipped frame is fixed: it compiles now. Breaks that appear after it were hidden behind the skip "
        "before; they are not a regression.\n";
  auto list = [&](const char* title, const std::vector<DiffBreak>& items) {
    if (items.empty()) return;
    out += fmt::format("\n{}:\n", title);
    for (const auto& b : items) {
      out += fmt::format("  {}{}\n", where(b), b.count > 1 ? fmt::format("  x{}", b.count) : "");
      if (!b.where.source.empty()) out += fmt::format("      {}\n", b.where.source);
      out += fmt::format("      reason: {}\n", b.reason);
    }
  };
  list("Fixed", d.fixed);
  list("Added", d.added);
  if (!d.unchanged.empty()) {
    out += "\nUnchanged:\n";
    for (const auto& u : d.unchanged) {
      out += fmt::format("  {}", where(u.after));
      if (u.line_shift() != 0) out += fmt::format("  (was line {})", u.before.where.line);
      if (u.count_delta() != 0) out += fmt::format("  (count {} -> {})", u.before.count, u.after.count);
      out += "\n";
    }
  }
  if (d.breaks_increased)
    out += d.frames_skipped.delta() > 0 ? "\nA frame dynamo compiled before is skipped now.\n"
                                        : "\nMore graph breaks after than before.\n";
  return out;
}

std::string markdown(const DiffResult& d) {
  std::string out = fmt::format("**{}**\n\n", summary(d));
  if (any_skipped(d)) out += fmt::format("Frames dynamo skipped (ran eagerly) {}\n\n", change(d.frames_skipped));
  auto row = [&](const char* status, const DiffBreak& b) {
    out += fmt::format("| {} | `{}:{}` in `{}` | `{}` | {} |\n", status, markdown_cell(base_name(b.where.file)),
                       b.where.line, markdown_cell(b.where.function), markdown_cell(b.where.source),
                       core::to_string(b.kind));
  };
  out += "| Status | Location | Code | Kind |\n| --- | --- | --- | --- |\n";
  for (const auto& b : d.fixed) row("fixed", b);
  for (const auto& b : d.added) row("**added**", b);
  for (const auto& u : d.unchanged) row("unchanged", u.after);
  return out + "\n";
}

std::string answer(const DiffResult& d) {
  return fmt::format("{} before, {} after", d.break_count.before, d.break_count.after);
}

}  // namespace tct::explain
