#pragma once
// Graph-break kinds and the tool's own hint catalog: what each common cause means and
// the change that removes it. torch's graph-break registry (newer torch) is preferred
// for the explanation and link when a break carries a registry id; the catalog's fix is
// always given because torch's hints are generic ("consider an alternative").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fix_table.hpp"
#include "core/user_code.hpp"

namespace tct::core {

enum class BreakKind {
  PrintLogging,
  ItemScalar,
  DynamicShapeOperator,  // nonzero, unique, masked_select: the output's shape depends on data
  DataDependentControlFlow,
  Numpy,
  UnsupportedBuiltin,  // builtins, C functions, functions dynamo skips
  Generator,
  ExplicitGraphBreak,
  NonTensorArgument,
  DynamicShapeRecompile,
  Other,
};

std::string to_string(BreakKind kind);
std::optional<BreakKind> break_kind_from_string(std::string_view name);
// A short noun phrase for people: "print / logging", ".item() / data-dependent scalar".
std::string kind_label(BreakKind kind);

// The graph-break registry id a reason names ("GB0036"), from torch's documentation link
// (".../gb/gb0036.html") or a bare "GB0036"; "" when it names none. The one place the
// id's pattern is written (the agent sends reasons as torch wrote them).
std::string registry_id_of(std::string_view reason);

// The kind torch's own registry says a break is: by registry id first, else by gb_type
// (the first line of a registry-era reason, e.g. "Dynamic shape operator"). nullopt when
// the id or type is unknown, or names a kind the text must decide (GB0059 "Failed to
// trace builtin operator" is print for `print`, a builtin otherwise).
std::optional<BreakKind> registry_kind(std::string_view registry_id, std::string_view gb_type);

// What a break's reason is: torch's registry id / gb_type first (registry_kind), then its
// text. The text match works on the registry-era messages ("Failed to trace builtin
// operator\n  Explanation: ... `print` ...") and on the older ones ("call_function
// BuiltinVariable(print) [...]", "generic_jump TensorVariable()"). Hint lines are
// ignored: torch puts the same generic hints under many kinds.
BreakKind classify_reason(std::string_view reason);
// A recompile from its guard failures: shape/stride guards -> DynamicShapeRecompile,
// guards on Python values (== constant, id, type) -> NonTensorArgument, else Other.
BreakKind classify_recompile(const std::vector<std::string>& guard_failures);

struct Hint {
  std::string text;  // why this breaks the graph
  std::string fix;   // what to change
  std::string url;   // where to read more
  FixTerms terms;    // what the fix costs and when it is no fix (core/fix_table.hpp)
};

const Hint& catalog_hint(BreakKind kind);

// The installed package a file belongs to ("transformers" for ".../site-packages/transformers/
// modeling_utils.py"), "" for the user's own code.
std::string installed_package(const std::string& file);
// The standard-library module a file is ("contextlib" for "/usr/lib/python3.11/contextlib.py"),
// "" for any other file.
std::string stdlib_module(const std::string& file);

// What the one choice of a break's fix reads: its kind, where it broke, the files of its
// traceback (a distributed wrapper above it: DDP's forward calling the user's module) and torch's
// own hint lines.
struct BreakSite {
  BreakKind kind = BreakKind::Other;
  std::string file;                      // the innermost frame's file: where it broke
  std::vector<std::string> stack_files;  // every frame's file, outermost first
  std::vector<std::string> torch_hints;  // torch's "Hint:" lines, as torch wrote them
};
// A break's site from its reason text (the Hint lines) and its traceback's files.
BreakSite break_site(BreakKind kind, const std::string& file, const std::vector<Frame>& frames,
                     std::string_view reason);

// The one choice of a break's fix, for explain, run, trace and expect alike: inside DDP or FSDP
// their wrap order; inside another installed package or the standard library, the handles the
// user has (logging settings, where the call is entered); else the catalog's fix for the kind;
// for a kind the catalog has no fix of its own for, torch's first specific hint (with its cost
// from core/fix_table.hpp, or passed on as untried). Text and link from the catalog.
Hint break_fix(const BreakSite& site);

// The parts of a registry-era reason torch wrote for this break: the first line (gb_type),
// "Explanation:" and "Hint:" lines, and the documentation link.
struct ReasonParts {
  std::string headline;
  std::string explanation;
  std::vector<std::string> hints;
  std::string url;
};
ReasonParts split_reason(std::string_view reason);

// The hint shown for one break: registry explanation and link first when present, the fix
// from break_fix (site.torch_hints empty: the registry's hints stand in).
// `registry` is the break's {"id","type","explanation","hints","url"} object or null.
Hint hint_for(const BreakSite& site, const nlohmann::json& registry);
Hint hint_for(BreakKind kind, const nlohmann::json& registry);

// A recompile's why and fix, from its newest failed guard (core::recompile_fix, the choice `tct
// run` makes too), as a hint: explain and trace print it.
Hint recompile_hint(const std::vector<std::string>& guard_failures);

nlohmann::json to_json(const Hint& hint);
Hint hint_from_json(const nlohmann::json& j);

}  // namespace tct::core
