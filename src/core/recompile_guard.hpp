#pragma once
// A recompile's failed guard, as Dynamo writes it ("1/6: banned[0] == 30  # logits[:, t] = ...
// # serve.py:23 in forward (_dynamo/utils.py:4231 in run_node)", then a "User stack trace:"
// block), parsed into typed fields; and the catalog of causes, each with its fix and what the
// fix costs. Read by `tct run` (one line per frame and cause) and open to `tct trace`.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fix_table.hpp"

namespace tct::core {

struct GuardFailure {
  std::optional<int> entry;  // the cache entry it failed against ("1/6" -> 6); the newest is the highest
  std::string guard;         // "banned[0] == 30", "tensor 'x' size mismatch at index 1. expected 16, actual 24"
  std::string pattern;       // the guard with its value left out: "banned[0] == ..."
  std::string value;         // the value the entry was specialized on: "30", "16"
  std::string code;          // the user's line the guard comes from: logits[:, t] = float("-inf")
  std::string file;          // where that line is (as Dynamo wrote it: often relative)
  int line = 0;
  // torch's own note after the place, in parentheses: "user code shown is first use of this
  // value--the guard itself is not due user code but due to 0/1 specialization in the
  // framework; to avoid specialization try torch._dynamo.decorators.mark_unbacked(tensor, dim)"
  std::string torch_note;
};

// Every "N/K: guard ..." of one recompile reason text (one or several lines, torch's
// decorations dropped). A text in no known shape gives one failure holding its first line.
std::vector<GuardFailure> parse_guard_failures(std::string_view text);
// The failure against the newest cache entry: the guard that made this recompile.
std::optional<GuardFailure> newest_guard_failure(const std::vector<std::string>& reasons);

enum class RecompileCause {
  PythonValue,      // an int, float, str or bool argument (or a list/tuple element) specialized by value
  ModuleAttribute,  // a number held on an nn.Module (self.step)
  Size,             // a tensor's shape changed
  Stride,           // its layout changed
  Dtype,
  Device,
  GradMode,  // grad mode or requires_grad changed
  Identity,  // a new object each call (id match)
  Type,      // an argument changed type
  Other,
};

struct RecompileAdvice {
  RecompileCause cause;
  std::string_view name;  // "python_value", ...: the JSON value
  std::string_view why;   // "a Python list of ints is specialized by value"
  std::string_view fix;
  std::string_view cost;      // what the fix costs or saves
  std::string_view not_when;  // when it is no fix
  std::string_view source;    // where the cost is written
  bool untried = false;       // its cost on the user's inputs is unknown and could be large
};

RecompileCause classify_guard(const GuardFailure& g);
const RecompileAdvice& advice_for(RecompileCause c);

// A guard on a size that is already symbolic ("2 <= x.size()[0]", "x.size()[0] <= 15"): the
// dimension is dynamic already (dynamic=True, mark_dynamic, automatic dynamic), and the new
// size left the range the entry was compiled for.
bool is_dynamic_size_guard(const GuardFailure& g);

// The one choice of a recompile's cause, why and fix, for run, trace and explain alike: the
// cause's entry, except a string or flag (a tensor is no fix for a value that picks code paths)
// and a size that is already dynamic (dynamic=True is no fix: torch's own hint when its note
// gives one, mark_unbacked for the 0/1 specialization, else the range).
struct RecompileFix {
  RecompileCause cause = RecompileCause::Other;
  std::string name, why, fix;
  FixTerms terms;  // id: the cause's name, or "mark_unbacked" / "dynamic_range"
};
RecompileFix recompile_fix(const GuardFailure& g);
// A value's Python kind from its text: "an int", "a float", "a str", "a bool", or "a value".
std::string_view value_kind(std::string_view value);

}  // namespace tct::core
