#include "trace/result.hpp"

#include <fmt/format.h>

namespace tct::trace {

std::string rank_name(std::optional<int> rank, size_t index) {
  return rank ? fmt::format("rank {}", *rank) : fmt::format("log {}", index);
}

uint64_t TraceResult::damaged() const {
  uint64_t n = 0;
  for (const auto& r : ranks) n += r.read.damaged();
  return n;
}

}  // namespace tct::trace
