#pragma once
// What torch.compile did, from TORCH_TRACE records (src/trace/): per compile id the frame
// and user code location, graph breaks grouped with the hint catalog, recompiles with the
// guard that failed, compile time per phase, cache hits and misses, failures, restarts and
// skipped frames. RankCollector is the reader's sink for one rank; summaries are plain
// values, which trace/summarize.hpp turns into the TraceResult (and the divergence across
// ranks, a known cause of collective hangs).
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/hint_catalog.hpp"
#include "core/user_code.hpp"
#include "trace/reader.hpp"

namespace tct::trace {

using json = nlohmann::json;

struct TraceBreak {
  core::BreakKind kind = core::BreakKind::Other;
  std::string file, reason;  // reason: the headline
  int line = 0;
  bool frame_skipped = false;  // not a graph break as torch counts them (core::skips_frame)
  bool rest_only = false;      // of those: the frame compiled up to the break, the rest runs eagerly
  std::string compile_id;
  // The same record (kind, place and text) was logged before in this log. Only the first
  // keeps its reason and traceback (a repeat reads them there): a long job logs one break
  // thousands of times, and memory must not grow with the log. A record at the same place
  // with other words (the rest-of-the-function record after the break it follows) is not a
  // repeat: it keeps its own text.
  bool duplicate = false;
  size_t text_hash = 0;  // of reason_full and skip_reason, kept by repeats too: what a repeat repeats
  // Older torch (2.6 and before) logs some breaks only as the reason dynamo restarted a
  // frame's analysis (compilation_metrics' restart_reasons): no payload, no place of its
  // own; file and line are then the compiled frame's.
  bool from_restart = false;
  std::string reason_full;          // the break's own text (for a skipped frame: the cause)
  std::string skip_reason;          // why dynamo skipped the frame, in torch's words
  std::vector<core::Frame> frames;  // its user-code traceback as torch wrote it (every file)
};

struct CompileSummary {
  CompileId id;
  std::string function, file;  // the compiled frame (user code)
  int line = 0;
  int attempts = 1;  // dynamo restarted its analysis attempts - 1 times
  int graphs = 0;    // dynamo_output_graph records
  std::optional<int> op_count, guard_count;
  std::map<std::string, double> phase_s;  // entire_frame, backend, inductor, code_gen, dynamo_before_restart
  std::vector<std::string> recompile_reasons;
  std::vector<std::string> restart_reasons;
  std::map<std::string, int> cache;    // "fx_graph_cache_hit" -> 1
  std::string fail_type, fail_reason;  // fail_reason: headline only
  bool skipped = false;                // dynamo fell back to eager for this frame
  int breaks = 0;
  int breaks_from_restarts = 0;  // of breaks: known only from restart reasons
};

// A compile with no compile id: AOTAutograd (and inductor) run outside Dynamo, by AOT
// Inductor (torch._inductor.aoti_compile_and_package, torch._export.aot_compile) or by
// torch.export's lowering. Its records carry a stack instead of frame ids.
struct UnframedCompile {
  std::string kind;            // "aot_inductor" or "aot_autograd"
  std::string graph;           // the record that began it: aot_inference_graph, aot_joint_graph...
  std::string function, file;  // the innermost user frame of its stack
  int line = 0;
  uint64_t record_line = 0;  // where it starts in the log
};

// Records tlparse's multi-rank report compares (torch/_inductor/debug.py writes them).
struct CacheEvent {
  CompileId id;
  uint8_t name = 0;  // index into RankSummary::cache_names
};

struct RankSummary {
  std::optional<int> rank;
  std::vector<std::string> files;
  std::map<CompileId, CompileSummary> compiles;
  std::vector<TraceBreak> breaks;
  std::map<std::string, uint64_t> kinds;  // records per kind
  std::map<std::string, uint64_t> cache;  // totals
  ReadStats stats;
  int resets = 0;  // torch._dynamo.reset() seen (ids started over)
  std::vector<UnframedCompile> unframed;
  // inductor_collective_schedule per graph: the collective kernels in issue order.
  std::map<CompileId, std::vector<std::string>> collectives;
  // inductor_runtime_and_tensor_meta per graph: each op's name and outputs' shape, stride
  // and dtype (estimated runtimes left out: they are estimates, not what a rank ran).
  std::map<CompileId, std::vector<std::string>> tensor_meta;
  // The last graph_execution record: the compile id of each compiled graph call, in order.
  std::vector<std::string> execution_order;
  bool has_execution_order = false;
  // Cache hits, misses and bypasses in log order, and the names they use.
  std::vector<CacheEvent> cache_sequence;
  std::vector<std::string> cache_names;
};

class RankCollector : public Sink {
 public:
  // log: which of the rank's logs this collector reads (0: its first).
  explicit RankCollector(RankSummary& out, int log = 0) : out_(out), log_(log), log_resets_(out.resets) {}
  bool wants_payload(const Record& r) override;
  void on_record(const Record& r, std::string_view payload) override;

 private:
  CompileSummary& entry(const CompileId& id);
  // The record's id in this log's numbering: torch's, plus the resets seen before it.
  CompileId resolve(CompileId id) const;
  void on_dynamo_start(const Record& r, CompileId id);
  void on_metrics(const Record& r);
  void on_artifact(const Record& r, CompileId id, std::string_view payload);
  void on_unframed(const Record& r);
  RankSummary& out_;
  int log_ = 0;
  int log_resets_ = 0;  // out_.resets when this log began: this log's resets count from there
  // Compiles begun (dynamo_start, per attempt) and finished (compilation_metrics) since
  // the last reset: a compile id begun again, or begun after it finished, is a reset.
  std::set<CompileId> started_, finished_;
  std::vector<std::string> strings_;                                  // the "str" table: interned file names
  std::set<std::tuple<int, std::string, int, size_t>> break_places_;  // (kind, file, line, text_hash) seen
};

// A dynamo_graph_break_reason payload -> break (kind, place, reason, frames): "Graph break
// in user code at F:L\nGraph Break Reason: R\n...User code traceback:\n<frames>\n<python
// traceback>", or convert_frame.py's "Graph break: torch.compile cannot properly resume
// ...\nThe graph break occurred in the following user code:\n<frames>..." (a skip).
TraceBreak parse_break_payload(std::string_view payload);
// The hash a repeat is known by: of the break's own text and its skip reason.
size_t break_text_hash(const TraceBreak& b);

// The folder a rank's own code lives in (compiled frames and breaks): file names in
// summaries and in the cross-rank comparison are relative to it (portable_path).
std::string rank_root(const RankSummary& rank);

}  // namespace tct::trace
