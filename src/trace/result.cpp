#include "trace/result.hpp"

#include <fmt/format.h>

namespace tct::trace {

std::string rank_name(std::optional<int> rank, size_t index) {
  return rank ? fmt::format("rank {}", *rank) : fmt::format("log {}", index);
}

std::string describe(const Spot& s) {
  std::string out = fmt::format("line {}", s.line);
  if (!s.log.empty()) out += " of " + s.log;
  if (!s.record.empty()) out += fmt::format(" ({})", s.record);
  return s.what.empty() ? out : out + ": " + s.what;
}

std::vector<Spot> TraceResult::damaged_at() const {
  std::vector<Spot> out;
  for (const auto& r : ranks) out.insert(out.end(), r.read.damaged_at.begin(), r.read.damaged_at.end());
  return out;
}

std::vector<Spot> TraceResult::edited_at() const {
  std::vector<Spot> out;
  for (const auto& r : ranks) out.insert(out.end(), r.read.edited_at.begin(), r.read.edited_at.end());
  return out;
}

uint64_t TraceResult::damaged() const {
  uint64_t n = 0;
  for (const auto& r : ranks) n += r.read.damaged();
  return n;
}

uint64_t TraceResult::edited() const {
  uint64_t n = 0;
  for (const auto& r : ranks) n += r.read.edited;
  return n;
}

}  // namespace tct::trace
