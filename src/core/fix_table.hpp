#pragma once
// Every fix tct prints, with what it costs and when it is no fix, each from a source (torch's
// documentation or the torch source line that says so). The hint catalog, the recompile catalog
// and torch's own hints passed through all take their fix from here, so no fix is printed
// without its cost. Read by core/hint_catalog.cpp and core/recompile_guard.cpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::core {

struct FixEntry {
  std::string_view id;        // "allow_rnn": the JSON value
  std::string_view fix;       // what to change
  std::string_view cost;      // what it costs: compile time, run time, caches, memory
  std::string_view not_when;  // when it is no fix (or makes things worse)
  std::string_view source;    // where the cost is written: a torch doc URL or torch source file
  // Its cost on the user's inputs is not known and could be large (a longer compile, a recompile
  // per value): tct has not tried it, and says so wherever it prints the fix.
  bool untried = false;
};

// A printed fix's terms, as results keep them: its entry's id ("torch_hint" for a hint of torch's
// the table has no entry for, passed on as torch wrote it), cost, conditions and source.
struct FixTerms {
  std::string id, cost, not_when, source;
  bool untried = false;
  // Where tct measures it on the user's job, while untried ("tct run --try-fixes"); "" elsewhere.
  // Set by the command that knows the fix can be tried there (run/analysis.cpp), not the table.
  std::string measured_by;
};
FixTerms terms_of(const FixEntry& e);
// "costs: ...; no fix when ...; tct has not tried it on your inputs (tct run --try-fixes measures
// it)": the one wording of a fix's
// terms, which every rendering prints beside the fix ("" for a document written before terms).
std::string fix_words(const FixTerms& t);
// "FIX (costs: ...)": a fix with its terms on one line (the fix alone where fix_words is "").
std::string fix_with_terms(const std::string& fix, const FixTerms& t);
nlohmann::json to_json(const FixTerms& t);
FixTerms fix_terms_from_json(const nlohmann::json& j);

// Every entry, in the table's order.
const std::vector<FixEntry>& fix_table();
// The entry of an id; the table's generic "move it out" entry for an unknown id.
const FixEntry& fix_entry(std::string_view id);
// The entry for one of torch's own hint lines ("Set torch._dynamo.config.allow_rnn=True to ..."),
// by the setting or function the hint names; nullopt for a hint tct has no entry for.
std::optional<FixEntry> fix_for_torch_hint(std::string_view hint);
// torch's generic hint lines (torch/_dynamo/graph_break_hints.py: "report an issue", "this graph
// break is fundamental", "may have been caused by an earlier graph break"): no fix to pass on.
bool is_generic_torch_hint(std::string_view hint);

}  // namespace tct::core
