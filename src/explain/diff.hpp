#pragma once
// `tct diff`: two explain results in (read from `tct explain --json` documents), breaks
// fixed / added / unchanged out, as a value (DiffResult) that every rendering reads.
// Breaks are the results' groups (one per kind and location, with a count); the counts
// compared are the results' own fields, never recounted here.
// Matching is tolerant of edits above a break that shift its line:
//   1. same kind, same file (or same base name), same function, same line;
//   2. same kind, file, function and the same source text;
//   3. same kind, file and function, the nearest line;
//   4. same kind and the same (non-empty) source text anywhere.
// A group whose count changed is matched; the difference is reported with it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "explain/result.hpp"

namespace tct::explain {

// A group as the diff reports it (the source line trimmed: indentation is not a change).
struct DiffBreak {
  BreakKind kind = BreakKind::Other;
  Frame where;
  int count = 1;
  std::string reason;
  Hint hint;
};

// How a break before was found again after.
enum class MatchedBy { Location, Source, NearestLine, SourceAnywhere };
std::string_view to_string(MatchedBy m);

struct Unchanged {
  MatchedBy matched_by = MatchedBy::Location;
  DiffBreak before, after;
  int line_shift() const { return after.where.line - before.where.line; }
  int count_delta() const { return after.count - before.count; }
};

struct Change {
  int before = 0, after = 0;
  int delta() const { return after - before; }
};

struct DiffInput {
  std::string file;
  nlohmann::json target;  // the document's target description
};

struct DiffResult {
  DiffInput before, after;
  std::vector<DiffBreak> fixed, added;
  std::vector<Unchanged> unchanged;
  Change graph_count, op_count, break_count, frames_skipped;
  bool capturable_before = false, capturable_after = false;
  std::vector<std::string> skipped_fixed, skipped_added;  // frames by title, skipped before / now
  // The diff's verdicts, decided here once: a skipped frame compiles now (breaks that show
  // after it were hidden before, not added); the breaks went up (exit 1).
  bool skip_fixed = false;
  bool breaks_increased = false;
};

// The explain section of a document, or an error message saying why there is none.
// Accepts a whole tct document (doc["explain"]) or a bare explain section.
std::optional<nlohmann::json> explain_section_of(const nlohmann::json& doc, std::string& why);

// before/after name the inputs (their paths).
DiffResult diff(const ExplainResult& before, const ExplainResult& after, const std::string& before_name,
                const std::string& after_name);

// doc["diff"] (schema/diff.schema.json), and back for `tct report` of a saved diff.
nlohmann::json to_json(const DiffResult& d);
DiffResult diff_from_json(const nlohmann::json& section);

}  // namespace tct::explain
