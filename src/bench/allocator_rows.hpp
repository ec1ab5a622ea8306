#pragma once
// The allocator states of a bench section (BenchResult::allocator, bench/allocator_comparison.hpp)
// as rows for a table: one per state, the headline's first. Shared by the terminal, Markdown
// and HTML reports so that each shows the same cells. Nothing is decided here.
#include <optional>
#include <string>
#include <vector>

#include "bench/allocator_comparison.hpp"

namespace tct::report {

// "system (glibc)", "tcmalloc (/usr/lib/.../libtcmalloc_minimal.so.4)": the headline's state and
// what the agent found serving malloc; "" for documents without the section.
std::string allocator_state_label(const std::optional<bench::AllocatorComparison>& allocator);

struct AllocatorTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // empty: nothing to show
  std::string note;                            // how the states were measured, or why not
};
AllocatorTable allocator_table(const std::optional<bench::AllocatorComparison>& allocator);

}  // namespace tct::report
