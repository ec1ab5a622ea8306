#pragma once
// `tct diff`: two `tct explain --json` documents in, breaks fixed / added / unchanged out.
// Breaks are the explain section's groups (one per kind and location, with a count).
// Matching is tolerant of edits above a break that shift its line:
//   1. same kind, same file (or same base name), same function, same line;
//   2. same kind, file, function and the same source text;
//   3. same kind, file and function, the nearest line;
//   4. same kind and the same (non-empty) source text anywhere.
// A group whose count changed is matched; the difference is reported with it.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tct::analysis {

using json = nlohmann::json;

// The explain section of a document, or an error message saying why there is none.
// Accepts a whole tct document (doc["explain"]) or a bare explain section.
std::optional<json> explain_section_of(const json& doc, std::string& why);

// doc["diff"]: {before, after, fixed, added, unchanged, graph_count, op_count,
// break_count, breaks_increased}. before/after name the inputs (path + target).
json diff_audits(const json& before, const json& after, const std::string& before_name,
                 const std::string& after_name);

}  // namespace tct::analysis
