#pragma once
// What `tct trace` found in TORCH_TRACE logs, as a value: per rank its compiles, graph
// breaks grouped by kind and place (with the catalog's fix), recompiles, skipped frames,
// failures, restarts, cache hits and misses, compile time and what the reader skipped;
// then where ranks diverge. summarize() (summary.cpp) makes it from the rank summaries,
// each count and hint set there once; trace/json.cpp is the one place it becomes
// doc["trace"] (schema/trace.schema.json) and is read back; the renderings (text.cpp,
// html.cpp) print its fields and decide nothing.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/eager_part.hpp"
#include "core/hint_catalog.hpp"
#include "trace/reader.hpp"

namespace tct::trace {

using core::BreakKind;
using core::Hint;
// Compile time as the section writes it: whole nanoseconds.
using Nanoseconds = std::chrono::duration<int64_t, std::nano>;

// One frame compile (its restarts are attempts of it). File names are relative to the
// rank's root.
struct Compile {
  std::string compile_id;        // tct's: "0/1", "0/1 (after reset 2)", "0/1 (log 2)"
  std::string torch_compile_id;  // as torch wrote it: "0/1"
  int64_t dynamo_resets = 0;     // torch._dynamo.reset() calls before it
  int64_t log = 0;               // which of the rank's logs (0: its first)
  std::string function, file;
  int line = 0;
  int graphs = 0;
  int graph_breaks = 0;
  int graph_breaks_from_restarts = 0;  // of graph_breaks: known only from restart reasons
  std::optional<int> op_count, guard_count;
  int attempts = 1;
  std::map<std::string, Nanoseconds> phases;  // entire_frame, backend, inductor, code_gen, ...
  std::map<std::string, int> cache;           // "fx_graph_cache_hit" -> 1
  std::vector<std::string> recompile_reasons, restart_reasons;
  std::string fail_type, fail_reason;  // "" when it did not fail
  bool skipped = false;                // dynamo fell back to eager for this frame
};

// Graph breaks of one kind at one place, most frequent first.
struct BreakGroup {
  BreakKind kind = BreakKind::Other;
  std::string file;
  int line = 0;
  int count = 0;
  std::string reason;  // the first break's headline
  bool frame_skipped = false;
  bool rest_only = false;  // of frame_skipped: the frame compiled up to the break, its rest runs eagerly
  std::string skip_reason;
  std::vector<std::string> compile_ids;  // the first 20
  bool from_restart = false;             // every break of it was known only from restart reasons
  Hint hint;                             // the catalog's, for its kind
};

struct Recompile {
  std::string compile_id, function, file;
  int line = 0;
  std::vector<std::string> guard_failures;
  BreakKind kind = BreakKind::Other;  // classified from the guards
  Hint hint;
};

struct SkippedFrame {
  std::string compile_id, function, file;
  int line = 0;
  std::string reason;
};

struct Failure {
  std::string compile_id, function, fail_type, fail_reason;
};

struct Restart {
  std::string compile_id, function;
  int attempts = 1;
  std::vector<std::string> restart_reasons;
};

// A compile outside Dynamo (AOT Inductor, AOTAutograd): no compile id.
struct CompileWithoutId {
  std::string kind;   // "aot_inductor" or "aot_autograd"
  std::string what;   // what that kind is, for people
  std::string graph;  // the record that began it
  std::string function, file;
  int line = 0;
  uint64_t log_line = 0;
};

// "line 120 of LOG (inductor_collective_schedule): payload does not parse" (without the log,
// or what, when they are "").
std::string describe(const Spot& spot);

// "rank 3", or "log 2" (its place among the logs) for a log whose name carries no rank.
std::string rank_name(std::optional<int> rank, size_t index);

struct Rank {
  std::optional<int> rank;  // none when the log's name carries none
  std::vector<std::string> files;
  std::string root;  // the folder file names below are relative to
  int dynamo_resets = 0;
  std::vector<CompileWithoutId> compiles_without_id;
  int graph_count = 0;
  uint64_t graph_break_count = 0;  // every break logged (repeats included); the groups add up to it
  std::vector<Compile> compiles;
  std::vector<BreakGroup> graph_breaks;
  std::vector<Recompile> recompiles;
  std::vector<SkippedFrame> skipped_frames;
  // What runs eagerly on every call (trace/eager_parts.cpp), file names relative to root.
  std::vector<core::EagerPart> eager_parts;
  std::vector<Failure> failures;
  std::vector<Restart> restarts;
  std::map<std::string, uint64_t> cache;            // hits, misses and bypasses by name
  std::map<std::string, Nanoseconds> compile_time;  // per phase, over every compile
  std::map<std::string, uint64_t> record_kinds;
  ReadStats read;  // what the reader saw and skipped

  std::string name(size_t index) const { return rank_name(rank, index); }
};

// Where two sequences (a graph's collectives, the graph execution order, a graph's cache
// events or tensor metadata) first differ: the 1-based position and the entry of each there
// ("" where one sequence has ended).
struct FirstDifference {
  size_t position = 0;
  std::string op;            // the diverging rank's
  std::string reference_op;  // the most common pattern's
};

// A rank whose compilation differs from the most common pattern (a known cause of
// collective hangs).
struct Divergence {
  std::optional<int> rank;
  std::string log;                         // the rank's first log
  std::string what;                        // compile_ids, graphs, graph_breaks, recompiles, skipped_frames,
                                           // collective_schedule, graph_execution_order, cache, tensor_meta
  std::string compile_id;                  // "" when the difference is not one graph's
  std::vector<std::string> compared_with;  // the ranks of the most common pattern
  std::string message;
  std::optional<FirstDifference> first_difference;  // for the sequence checks
};

struct TraceResult {
  std::string path;  // what was read: a log or a TORCH_TRACE folder
  std::vector<Rank> ranks;
  std::vector<Divergence> divergence;  // empty with one rank, or when all compiled alike

  bool ranks_diverge() const { return !divergence.empty(); }
  // Lines, records and payloads the reader skipped as damaged, over every rank.
  uint64_t damaged() const;
  // Payloads read although their MD5 differs (edited after torch wrote them), over every rank.
  uint64_t edited() const;
  // Where: the first spots of each rank, in rank order.
  std::vector<Spot> damaged_at() const;
  std::vector<Spot> edited_at() const;
};

}  // namespace tct::trace
