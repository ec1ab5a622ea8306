#pragma once
// What torch.compile did, from TORCH_TRACE records (src/trace/): per compile id the frame
// and user code location, graph breaks grouped with the hint catalog, recompiles with the
// guard that failed, compile time per phase, cache hits and misses, failures, restarts and
// skipped frames; then, across ranks, where ranks diverge (a known cause of collective
// hangs). RankCollector is the reader's sink for one rank; summaries are plain values.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/hint_catalog.hpp"
#include "analysis/user_code.hpp"
#include "trace/reader.hpp"

namespace tct::analysis {

using json = nlohmann::json;

struct TraceBreak {
  BreakKind kind = BreakKind::Other;
  std::string file, reason;  // reason: the headline
  int line = 0;
  bool frame_skipped = false;
  std::string compile_id;
  // The same kind at the same place was logged before in this log. Only the first break
  // at a place keeps its reason and traceback (a repeat reads them there): a long job
  // logs one break thousands of times, and memory must not grow with the log.
  bool duplicate = false;
  std::string reason_full;    // the break's own text (for a skipped frame: the cause)
  std::string skip_reason;    // why dynamo skipped the frame, in torch's words
  std::vector<Frame> frames;  // its user-code traceback as torch wrote it (every file)
};

struct CompileSummary {
  trace::CompileId id;
  std::string function, file;  // the compiled frame (user code)
  int line = 0;
  int attempts = 1;            // dynamo restarted its analysis attempts - 1 times
  int graphs = 0;              // dynamo_output_graph records
  std::optional<int> op_count, guard_count;
  std::map<std::string, double> phase_s;  // entire_frame, backend, inductor, code_gen, dynamo_before_restart
  std::vector<std::string> recompile_reasons;
  std::vector<std::string> restart_reasons;
  std::map<std::string, int> cache;       // "fx_graph_cache_hit" -> 1
  std::string fail_type, fail_reason;     // fail_reason: headline only
  bool skipped = false;                   // dynamo fell back to eager for this frame
  int breaks = 0;
};

struct RankSummary {
  std::optional<int> rank;
  std::vector<std::string> files;
  std::map<trace::CompileId, CompileSummary> compiles;
  std::vector<TraceBreak> breaks;
  std::map<std::string, uint64_t> kinds;     // records per kind
  std::map<std::string, uint64_t> cache;     // totals
  trace::ReadStats stats;
};

class RankCollector : public trace::Sink {
 public:
  explicit RankCollector(RankSummary& out) : out_(out) {}
  bool wants_payload(const trace::Record& r) override;
  void on_record(const trace::Record& r, std::string_view payload) override;

 private:
  CompileSummary& entry(const trace::CompileId& id);
  RankSummary& out_;
  std::vector<std::string> strings_;  // the "str" table: interned file names
  std::set<std::tuple<int, std::string, int>> break_places_;  // (kind, file, line) seen
};

// A dynamo_graph_break_reason payload -> break (kind, place, reason, frames): "Graph break
// in user code at F:L\nGraph Break Reason: R\n...User code traceback:\n<frames>\n<python
// traceback>", or convert_frame.py's "Graph break: torch.compile cannot properly resume
// ...\nThe graph break occurred in the following user code:\n<frames>..." (a skip).
TraceBreak parse_break_payload(std::string_view payload);

// The folder a rank's own code lives in (compiled frames and breaks): file names in
// summaries and in the cross-rank comparison are relative to it (portable_path).
std::string rank_root(const RankSummary& rank);

// Ranks whose compile ids, graphs, breaks, recompiles or skipped frames differ from the
// most common pattern; each {ranks, what, message}. Empty with one rank.
json divergence(const std::vector<RankSummary>& ranks);

// doc["trace"]: inputs, per rank (compiles, breaks grouped, recompiles, cache, phases,
// failures, skipped frames, reader stats) and divergence.
json trace_section(const std::string& path, const std::vector<RankSummary>& ranks);

}  // namespace tct::analysis
