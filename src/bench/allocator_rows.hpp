#pragma once
// The allocator states of a bench section (section["allocator"], bench/allocator.hpp, which
// BenchResult::allocator keeps as written)
// as rows for a table: one per state, the headline's first. Shared by the terminal, Markdown
// and HTML reports so that each shows the same cells. Nothing is decided here.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::report {

// "system (glibc)", "tcmalloc (/usr/lib/.../libtcmalloc_minimal.so.4)": the headline's state and
// what the agent found serving malloc; "" for documents without the field.
std::string allocator_state_label(const nlohmann::json& allocator);

struct AllocatorTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // empty: nothing to show
  std::string note;                            // how the states were measured, or why not
};
AllocatorTable allocator_table(const nlohmann::json& allocator);

}  // namespace tct::report
