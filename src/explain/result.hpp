#pragma once
// What `tct explain` found, as a value: the runner returns it (and hands it on part way), and
// every rendering (terminal, Markdown, HTML, JSON, `tct diff`) reads it. Each count and the
// verdict are fields, made once where the facts are (explain/audit.cpp; json.cpp infers the
// verdict of an older document that lacks it) and never recomputed by a renderer. explain/json.cpp is the one place
// this becomes doc["explain"] (schema/explain.schema.json) and is read back from a saved document.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/eager_part.hpp"
#include "core/hint_catalog.hpp"
#include "core/reply.hpp"
#include "core/user_code.hpp"
#include "explain/reply.hpp"
#include "report/warning.hpp"

namespace tct::explain {

using core::BreakKind;
using core::Frame;
using core::Hint;

// capturable: one graph (fullgraph=True would work); graph_breaks: compiled in pieces;
// frame_skipped: dynamo gave up on a frame and ran it eagerly (what comes after the skip
// point is not visible until it is fixed).
enum class Verdict { Capturable, GraphBreaks, FrameSkipped };

std::string_view to_string(Verdict v);
std::optional<Verdict> parse_verdict(std::string_view s);

// The one rule. skipped_frames: frames the compiled run skipped; graph_breaks: the headline
// count; explain_breaks / explain_listed: torch._dynamo.explain's own count and list (a
// break it saw keeps the target from being one graph even when the run did not count it);
// logged_only: a group seen only in the compiled run; runs_eagerly: some of the code runs
// eagerly on every call (eager_parts: a break Dynamo could not resume from is no counted
// break, and still not one graph).
Verdict decide(std::size_t skipped_frames, int graph_breaks, int explain_breaks, std::size_t explain_listed,
               bool logged_only, bool runs_eagerly = false);

// Where the headline counts come from: the logged compiled run, or torch._dynamo.explain
// alone (--no-logged, or the run raised).
enum class CountsFrom { CompiledRun, Explain };

// torch's graph-break registry entry of a break, with the reason's own explanation and
// hints preferred over the registry's templates.
struct Registry {
  std::string id;  // "GB0059"
  std::string type;
  std::string explanation;
  std::vector<std::string> hints;
  std::string url;
};

// One of torch._dynamo.explain's break reasons (its view, kept beside the counted groups).
struct ExplainBreak {
  std::string reason;
  BreakKind kind = BreakKind::Other;
  std::optional<Registry> registry;
  std::vector<Frame> frames;  // the user's frames, outermost first; the break is at back()
  Hint hint;
};

// Graph breaks of one kind at one place in the user's code: what the counts count.
struct BreakGroup {
  BreakKind kind = BreakKind::Other;
  Frame where;                    // innermost user frame
  std::vector<Frame> callers;     // outer user frames of the first occurrence
  std::vector<Frame> call_sites;  // every distinct immediate caller
  int count = 0;                  // breaks at this place (the compiled run's, or explain's without it)
  std::string reason;             // headline of the reason
  std::string reason_full;        // torch's whole message of the first occurrence
  std::string registry_id;
  Hint hint;
  bool seen_by_explain = false;  // views: "explain"
  bool seen_by_logged = false;   // views: "logged"
};

// A break's count by kind (the groups' counts added up; they add up to graph_break_count).
struct KindCount {
  BreakKind kind = BreakKind::Other;
  int count = 0;
};

// A frame dynamo gave up on in the compiled run: it ran eagerly. One per code object.
struct SkippedFrame {
  std::string function;  // co_name: "forward"
  std::string qualname;  // co_qualname (Python 3.11+): "MoE.forward", else the name
  std::string title;     // how every rendering names it: "MoE.forward at model.py:12"
  std::string file;
  int line = 0;  // where the code starts
  std::string break_file;
  int break_line = 0;
  BreakKind kind = BreakKind::Other;  // of the break that made dynamo give up
  std::string registry_id;
  std::string reason;       // that break's headline
  std::string skip_reason;  // why dynamo could not resume ("graph break in loop")
  std::string skip_reason_full;
  Hint hint;
};

// torch._dynamo.explain's own figures, beside the compiled run's.
struct ExplainView {
  int graph_count = 0;
  std::optional<int> graph_break_count;  // none when explain gave up on the frame (its -1)
  bool frame_skipped = false;
  int op_count = 0;
};

struct OpCount {
  std::string name;
  int count = 0;
};

// The ops of one graph explain captured, most frequent first.
struct GraphOps {
  int op_count = 0;
  std::vector<OpCount> ops;
};

// One break record of the compiled run's log (skips included), as torch logged it.
struct LoggedBreak {
  std::string file;
  int line = 0;
  BreakKind kind = BreakKind::Other;
  std::string reason, reason_full;
  bool frame_skipped = false;
  std::string skip_reason;
  bool duplicate = false;
  bool user_code = true;
  std::vector<Frame> frames;
};

struct Recompile {
  std::string function, file;
  int line = 0;
  BreakKind kind = BreakKind::Other;
  std::vector<std::string> guard_failures;
  Hint hint;
};

// The share of an eager call the captured graphs cover, timed in the logged run (each graph
// of the eager backend timed; the agent's share_pairs: an eager call, then a compiled one,
// interleaved): the fastest time inside the compiled call's graphs over the fastest eager
// call, at most 1. Lower envelopes, as expect's shares are (evidence.cpp): a call another
// process preempted only gains time, and on a loaded machine a per-pair ratio swings from
// 0.01 to above 1 (a GRU keyword spotter, load 13 on 2 cores). What is left runs eagerly or
// is Python between graphs; tct expect weighs it at 1.0x.
struct GraphShare {
  int pairs = 0;
  double covered = NAN;  // of an eager call: inside captured graphs
  double eager_fastest_ns = NAN, in_graph_fastest_ns = NAN;
  // Of an eager call: what Dynamo adds around the graphs (its cache lookup and guards, the
  // wrappers, the calls between graphs): the median over pairs of compiled / eager, less 1,
  // where the eager backend runs the same ops; 0 at least. NaN when not timed (older documents).
  double overhead = NAN;
};
// The share from the agent's raw pairs (explain.run's share_pairs); none with fewer than 3 pairs.
std::optional<GraphShare> graph_share_of(const reply::SharePairs& pairs);

// The logged compiled run (backend=eager). Its count of skipped frames is
// ExplainResult::skipped_frames: one list, one count.
struct CompiledRun {
  std::string backend = "eager";
  int calls = 0;
  std::vector<LoggedBreak> graph_breaks;  // the log's records; the counted breaks are the groups
  std::vector<Recompile> recompiles;
  int frames_total = 0, frames_ok = 0;
  std::vector<std::string> warnings;
  std::optional<std::string> error;       // the run raised
  std::optional<GraphShare> graph_share;  // none when not timed (an older document, the run raised)
};

struct Disagreement {
  std::string kind;  // only_in_explain, break_count, frames_skipped, ...
  std::string message;
};

// --max-graph-breaks N. Its counts are the result's own (graph_break_count, skipped_frames).
struct Gate {
  int max_graph_breaks = 0;
  bool passed = true;  // at most N breaks, no skipped frame and no frame whose rest runs eagerly
};

struct ExplainResult {
  core::LoadedTarget target;  // the agent's description of the loaded target (common.schema.json#/$defs/target)
  // False while only the target is loaded (a checkpoint, or a run that stopped there): the
  // rest is then empty and the renderers say the audit did not finish.
  bool finished = false;

  std::string torch_version;
  std::string form = "object";            // explain's output form: "object" (torch >= 2.1) or "tuple" (2.0)
  std::optional<CountsFrom> counts_from;  // none in documents older than the field
  int graph_count = 0;
  int graph_break_count = 0;  // the compiled run's breaks dynamo resumed after (torch's counter)
  int op_count = 0;
  std::optional<int> guard_count;
  std::vector<SkippedFrame> skipped_frames;
  // What runs eagerly on every call, from the compiled run's trace (trace::eager_parts, the one
  // rule): the rest of a frame after a break Dynamo cannot resume from, skipped frames,
  // torch.compiler.disable'd calls, frames over their recompile limit.
  std::vector<core::EagerPart> eager_parts;
  std::optional<ExplainView> explain_view;  // none in documents older than the field
  std::vector<GraphOps> ops_per_graph;
  std::vector<ExplainBreak> breaks;   // explain's list
  std::vector<BreakGroup> groups;     // most frequent first; their counts add up to graph_break_count
  std::vector<KindCount> kinds;       // most frequent first
  std::optional<CompiledRun> logged;  // none with --no-logged
  std::vector<Disagreement> disagreements;
  Verdict verdict = Verdict::GraphBreaks;
  std::optional<Gate> gate;
  // An older document's graph_break_count of -1: explain gave up on a frame it did not name
  // (documents now name it in skipped_frames).
  bool unnamed_skip = false;
  // What the run warns about (skip, disagreement, gate), for the document's list: not part of
  // the section.
  std::vector<report::Warning> warnings;

  bool capturable() const { return verdict == Verdict::Capturable; }
  // Frames dynamo skipped: the list, or the one an older document's -1 stood for.
  int frames_skipped() const { return static_cast<int>(skipped_frames.size()) + (unnamed_skip ? 1 : 0); }
  // Frames compiled only up to a break Dynamo could not resume from (their rest runs eagerly).
  int rest_of_frame_parts() const;
};

// 1 when the gate failed (more breaks than the limit, or a skipped frame), else 0.
int exit_code(const ExplainResult& r);

}  // namespace tct::explain
