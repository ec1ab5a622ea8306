#pragma once
// The graph-break audit: the agent's `explain.run` facts (torch._dynamo.explain's view)
// and the compiled run as its TORCH_TRACE shows it (trace_summary's RankSummary) in, an
// explain::ExplainResult out. Classification, grouping, hints, the comparison of the two
// views and the capturable verdict live here; nothing prints.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph_breaks.hpp"
#include "core/hint_catalog.hpp"
#include "trace/summary.hpp"
#include "core/user_code.hpp"
#include "explain/reply.hpp"
#include "explain/result.hpp"

namespace tct::explain {

using json = nlohmann::json;
using core::CodeDirs;
using trace::RankSummary;

struct Break {
  std::string reason;
  BreakKind kind = BreakKind::Other;
  std::optional<Registry> registry;  // the reason's registry entry, none when it names no id
  std::vector<Frame> frames;         // user code only, outermost first; the break is at back()
  Hint hint;
};

struct ExplainModel {
  int graph_count = 0;
  int graph_break_count = 0;
  int op_count = 0;
  std::optional<int> guard_count;
  std::vector<std::vector<std::string>> ops_per_graph;
  std::vector<Break> breaks;
  std::string form;  // "object" (torch >= 2.1 ExplainOutput) or "tuple" (torch 2.0)
};

// facts: explain.run's explain; registry: explain.registry's entries; dirs: what is user code
// (the agent sends every frame of a break's stack; only the user's are kept). The torch 2.0
// tuple form gives its counts in the explanation string ("Dynamo produced 4 graphs with 3 graph
// break and 6 ops"); missing numbers are derived from the lists.
ExplainModel parse_explain(const reply::Explain& facts, const reply::Registry& registry = {},
                           const CodeDirs& dirs = {});

struct RunBreak {
  Break brk;                   // classified from the break's own text (the cause, not the skip)
  bool frame_skipped = false;  // not a graph break as torch counts them: some code runs eagerly
  bool rest_only = false;      // of those: the frame compiled up to the break, its rest runs eagerly
  std::string skip_reason;
  std::string file;  // where torch says the break is ("Graph break in user code at F:L")
  int line = 0;
  bool duplicate = false;  // torch suppressed the stack: same break seen before
  bool user_file = true;
  std::string compile_id;  // the compile that logged it ("0/1", "0/1_2" for an attempt)
};

struct RunRecompile {
  std::string function, file;
  int line = 0;
  std::vector<std::string> guard_failures;
  BreakKind kind = BreakKind::Other;
};

// A frame dynamo gave up on in the compiled run (it ran eagerly), one per code object.
struct RunSkip {
  std::string qualname;  // "MoE.forward" (co_qualname, Python 3.11+), else the code's name
  std::string name;      // co_name: "forward"
  std::string file;
  int line = 0;    // co_firstlineno
  RunBreak cause;  // the break that made dynamo give up (kind, place, skip reason)
  bool cause_known = false;
};

struct LoggedModel {
  bool ran = false;
  std::vector<RunBreak> breaks;  // every break record, skips included
  // The count of the compiled run: breaks dynamo resumed after (not the ones that made it
  // skip a frame), as torch counts them in counters["graph_break"].
  int graph_breaks = 0;
  std::vector<RunSkip> skipped;
  std::vector<RunRecompile> recompiles;
  int frames_total = 0, frames_ok = 0;
  std::optional<int> unique_graphs;   // dynamo's counters["stats"]["unique_graphs"]
  std::vector<std::string> warnings;  // other WARNING records from dynamo
  std::string error;                  // the compiled run raised (empty: it did not)
  int calls = 0;
  std::optional<explain::GraphShare> graph_share;  // the agent's share_pairs, read
};

// The compiled run: its breaks, recompiles, frames and graphs from its trace; logged: the
// agent's facts beside it (calls, error, dynamo's warnings, code_names: the qualified
// name of each code object dynamo saw); dirs: what is user code.
LoggedModel logged_from_trace(const reply::Logged& logged, const RankSummary& trace, const reply::Registry& registry,
                              const CodeDirs& dirs);

// The graph-break registry ids (GB0059 ...) the trace's break reasons (trace may be null)
// and explain's break reasons (explain.run's explain) name.
std::vector<std::string> registry_ids(const RankSummary* trace, const reply::Explain& explain_facts);

// One location + kind, duplicates folded.
struct Group {
  BreakKind kind = BreakKind::Other;
  Frame where;                    // innermost user frame
  std::vector<Frame> callers;     // outer user frames of the first occurrence
  std::vector<Frame> call_sites;  // every distinct immediate caller (a helper called from 3 lines: 3)
  int count = 0;
  std::string reason;       // headline of the reason
  std::string reason_full;  // torch's whole message (of the first occurrence)
  Hint hint;
  std::optional<Registry> registry;
  std::vector<std::string> views;  // "explain", "logged"
};

// Groups by (kind, file, line), most frequent first, then by file and line.
std::vector<Group> group_breaks(const std::vector<Break>& breaks);

// Where the two views disagree.
std::vector<explain::Disagreement> compare_views(const ExplainModel& explain, const LoggedModel& logged);

// The audit as a value: counts, groups, skipped frames and the verdict, each made here once.
// facts: explain.run's reply; registry: explain.registry's entries for the ids the breaks name;
// trace: the logged compiled run's records (null when it did not run: --no-logged);
// max_graph_breaks: the --max-graph-breaks gate.
explain::ExplainResult build_explain(const reply::Run& facts, const reply::Registry& registry, const RankSummary* trace,
                                     const core::LoadedTarget& target_description, std::optional<int> max_graph_breaks);
// The same as doc["explain"] (explain::to_json of it).
json build_explain_section(const reply::Run& facts, const reply::Registry& registry, const RankSummary* trace,
                           const json& target_description, std::optional<int> max_graph_breaks);

}  // namespace tct::explain
