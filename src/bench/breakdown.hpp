#pragma once
// Where one compiled call's time goes, from torch's own profiler events on a window of calls
// after the timed samples (python/tct_agent/ops/breakdown.py returns them raw): Dynamo's cache
// lookup with its guards, the wrappers around the graphs, the graphs, the eager code between
// and after them, and the rest; each frame's cache chain (entries, which one the steady calls
// hit, each one's guard check time); each guard fix tried A/B against the default. Pure
// functions over the agent's facts: bench/breakdown_phase.cpp gathers them, renderers print
// the fields and decide nothing.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.hpp"
#include "stats/bootstrap.hpp"
#include "stats/verdict.hpp"

namespace tct::bench {

// ------------------------------------------------------------------ the agent's facts

// One profiled call: its duration and each event in it (name index, start relative to the
// call's start, duration; ns, the profiler's clock).
struct SampledEvent {
  int name = 0;
  double start_ns = 0, duration_ns = 0;
};
struct SampledCall {
  double ns = 0;
  std::vector<SampledEvent> events;
};
struct BreakdownSample {
  std::vector<double> bare_ns;           // the window's calls before the profiler starts
  std::vector<double> profiled_wall_ns;  // the profiled calls, timed from outside
  std::vector<std::string> names;        // event names, indexed by SampledEvent::name
  std::vector<SampledCall> calls;
};

// ------------------------------------------------------------------------ the parts

// The parts a call is cut into; each instant of a call counts once, for the innermost event
// over it (an op inside a graph counts as the graph's).
enum class CallPart {
  Lookup,    // TorchDynamo Cache Lookup: finding the cache entry, guards included
  Wrappers,  // Pregraph bytecode and AOTDispatcher Runtime Wrapper Prologue
  Graphs,    // ## Call CompiledFxGraph ##; ops in a compiled region where the backend records no graph event
  Eager,     // ops outside compiled regions (graph breaks, skipped frames), and outside the graph events
  Dynamo,    // the rest of a compiled region: Dynamo's bytecode, the runtime wrapper's other work
  Outside,   // no event: torch.compile's entry wrapper, nn.Module.__call__, the eager code's Python
};
inline constexpr CallPart kCallParts[] = {CallPart::Lookup, CallPart::Graphs, CallPart::Wrappers,
                                          CallPart::Dynamo, CallPart::Eager,  CallPart::Outside};
std::string_view to_string(CallPart p);  // the JSON key: "lookup", "wrappers", ...
std::optional<CallPart> parse_call_part(std::string_view s);
std::string_view describe(CallPart p);  // "Dynamo's cache lookup and guards", ...

// A median with its 95% distribution-free interval (order statistics: the ranks
// n/2 -+ 1.96 sqrt(n)/2, Conover 1999 section 3.2), ns.
struct MedianNs {
  double median = NAN, low = NAN, high = NAN;
};
MedianNs median_with_interval(std::vector<double> xs);

struct PartFigure {
  CallPart part = CallPart::Outside;
  MedianNs ns;  // per profiled call
};

// ------------------------------------------------------------------- the cache chain

struct CacheEntryFacts {
  std::string compile_id;
  std::optional<int> guard_count;          // compilation_metrics
  std::optional<double> guard_latency_us;  // compilation_metrics: one cold check at compile time
  std::optional<bool> passes;              // the next call's inputs pass its guards (entry frame only)
  std::optional<double> check_ns;          // one check of its guards, steady state (entry frame only)
};
struct FrameChain {
  std::string name, file;
  int line = 0;
  bool entry_frame = false;              // the frame Dynamo enters first (the module's forward, the function)
  std::vector<CacheEntryFacts> entries;  // in lookup order
  // Derived (frame_chain_of): the 1-based position of the entry the steady calls hit (the
  // first whose guards pass), and the guard checks a lookup runs to reach it (the failing
  // ones before it and its own).
  std::optional<int> hit_position;
  std::optional<double> lookup_guards_ns;
};
// Fills hit_position and lookup_guards_ns from the entries' facts.
void derive_chain(FrameChain& frame);

// ---------------------------------------------------------------------- fixes tried

struct FixTrial {
  std::string fix;          // torch.compiler.set_stance(skip_guard_eval_unsafe=True) or a guard filter's name
  std::string not_tried;    // why not ("" when tried)
  stats::Interval speedup;  // default / fix per call: above 1 the fix is faster
  stats::SpeedupVerdict verdict = stats::SpeedupVerdict::NotMeasured;
  MedianNs saves_ns;  // per call: the row's compiled median less it over the speedup (each end of its interval)
  int pairs = 0;      // block pairs, in bench's paired order
};
// What each fix gives up (a fixed text per fix; "" for an unknown one).
std::string_view fix_gives_up(std::string_view fix);
// How a fix is written in the user's code.
std::string fix_code(std::string_view fix);
// The fixes tct tries, in order: the stance first (no recompile), then the guard filters.
inline constexpr std::string_view kStanceFix = "skip_guard_eval_unsafe";
inline constexpr std::string_view kGuardFilterFixes[] = {
    "skip_guard_on_inbuilt_nn_modules_unsafe", "skip_guard_on_all_nn_modules_unsafe", "skip_guard_on_globals_unsafe"};

// ------------------------------------------------------------------------ the result

struct CallBreakdown {
  int calls = 0;                  // profiled calls
  MedianNs bare_ns;               // unprofiled calls of the same window
  MedianNs profiled_ns;           // the profiled calls (the CALL_EVENT's duration)
  std::vector<PartFigure> parts;  // kCallParts' order
  bool graph_events = false;      // the backend records graph events (inductor)
  std::vector<FrameChain> frames;
  std::vector<FixTrial> fixes;
  // What the profiler costs per call: profiled - bare medians, ns.
  double sampling_cost_ns() const;
  // A part's median, NaN if absent.
  double part_ns(CallPart p) const;
  // The lookup and wrappers' share of a bare call (what torch's overhead takes from a call
  // that nothing observes).
  double overhead_share() const;
  bool material() const;
  const FrameChain* entry_frame() const;
};

// Overhead counts as material (a line in the brief report, fixes tried) from this share of a
// call on: below it, no fix of the lookup could save more than a tenth of a call.
inline constexpr double kMaterialOverheadShare = 0.10;

// The parts of each call from its events, then their medians.
CallBreakdown breakdown_of(const BreakdownSample& sample);

// "62% of each call is Dynamo's lookup and guards and its wrappers: 312 us of 501 us; 9 cache
// entries, hit at position 7; skip_guard_eval_unsafe saves 240 us [221, 258]".
// with_call: "of 501 us", the bare call; a caller that has just printed the same figure leaves it out.
std::string breakdown_line(const CallBreakdown& b, bool with_call = true);

}  // namespace tct::bench
