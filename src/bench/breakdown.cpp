#include "bench/breakdown.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "report/format.hpp"
#include "stats/summary.hpp"

namespace tct::bench {
namespace {

// torch's event names (python/tct_agent/ops/breakdown.py says where each is recorded).
constexpr std::string_view kLookupEvent = "TorchDynamo Cache Lookup";
constexpr std::string_view kPregraphEvent = "Pregraph bytecode";
constexpr std::string_view kPrologueEvent = "AOTDispatcher Runtime Wrapper Prologue";
constexpr std::string_view kGraphEventPrefix = "## Call CompiledFxGraph";
constexpr std::string_view kRegionEventPrefix = "Torch-Compiled Region: ";

// What an event is: one of the parts, or an op that takes its part from the events around it.
enum class EventKind { Lookup, Wrapper, Graph, Region, Op };

EventKind kind_of(std::string_view name) {
  if (name == kLookupEvent) return EventKind::Lookup;
  if (name == kPregraphEvent || name == kPrologueEvent) return EventKind::Wrapper;
  if (name.starts_with(kGraphEventPrefix)) return EventKind::Graph;
  if (name.starts_with(kRegionEventPrefix)) return EventKind::Region;
  return EventKind::Op;
}

// The part an event's own time (its duration less its children's) counts for, given the part
// of the innermost event around it (nullopt: none, the call itself).
CallPart part_of(EventKind k, std::optional<CallPart> around, bool graph_events) {
  switch (k) {
    case EventKind::Lookup: return CallPart::Lookup;
    case EventKind::Wrapper: return CallPart::Wrappers;
    case EventKind::Graph: return CallPart::Graphs;
    case EventKind::Region: return CallPart::Dynamo;
    case EventKind::Op: break;
  }
  if (!around) return CallPart::Eager;
  // An op directly in a compiled region: the graph's own where the backend records no graph
  // event (aot_eager, eager run the graph's ops from the region), else eager code between graphs.
  if (*around == CallPart::Dynamo) return graph_events ? CallPart::Eager : CallPart::Graphs;
  return *around;
}

std::size_t index_of(CallPart p) {
  for (std::size_t i = 0; i < std::size(kCallParts); ++i)
    if (kCallParts[i] == p) return i;
  return 0;
}

// One call's parts, ns, in kCallParts' order. Events on one thread nest (the profiler's
// RecordFunction ranges are scopes), so a stack of the open ones gives each its parent.
std::array<double, std::size(kCallParts)> parts_of_call(const SampledCall& call, const std::vector<EventKind>& kinds,
                                                        bool graph_events) {
  std::array<double, std::size(kCallParts)> parts{};
  std::vector<SampledEvent> events = call.events;
  std::stable_sort(events.begin(), events.end(), [](const SampledEvent& a, const SampledEvent& b) {
    return a.start_ns < b.start_ns || (a.start_ns == b.start_ns && a.duration_ns > b.duration_ns);
  });
  struct Open {
    double end;
    CallPart part;
    double children = 0, duration = 0;
  };
  std::vector<Open> stack;
  double top_level = 0;
  auto close = [&](const Open& o) { parts[index_of(o.part)] += std::max(0.0, o.duration - o.children); };
  for (const auto& e : events) {
    while (!stack.empty() && stack.back().end <= e.start_ns) {
      close(stack.back());
      stack.pop_back();
    }
    const EventKind k = e.name >= 0 && static_cast<std::size_t>(e.name) < kinds.size() ? kinds[e.name] : EventKind::Op;
    const std::optional<CallPart> around = stack.empty() ? std::nullopt : std::optional<CallPart>(stack.back().part);
    (stack.empty() ? top_level : stack.back().children) += e.duration_ns;
    stack.push_back({e.start_ns + e.duration_ns, part_of(k, around, graph_events), 0, e.duration_ns});
  }
  for (auto it = stack.rbegin(); it != stack.rend(); ++it) close(*it);
  parts[index_of(CallPart::Outside)] += std::max(0.0, call.ns - top_level);
  return parts;
}

struct PartText {
  CallPart part;
  std::string_view key, words;
};
constexpr PartText kPartTexts[] = {
    {CallPart::Lookup, "lookup", "Dynamo's cache lookup and guards"},
    {CallPart::Wrappers, "wrappers", "the wrappers (pre-graph bytecode, AOT runtime prologue)"},
    {CallPart::Graphs, "graphs", "the compiled graphs"},
    {CallPart::Eager, "eager", "eager ops between and after the graphs"},
    {CallPart::Dynamo, "dynamo", "the rest of the compiled regions (Dynamo's bytecode, runtime wrapper)"},
    {CallPart::Outside, "outside", "Python outside any event (torch.compile's entry, module call, eager code)"},
};

struct FixText {
  std::string_view fix, gives_up;
};
// What each fix stops checking (torch/compiler/__init__.py's docstrings of set_stance and the
// *_unsafe guard filters), and what then goes wrong without a word.
constexpr FixText kFixTexts[] = {
    {"skip_guard_eval_unsafe",
     "only the guards that tell the cache entries apart run: a change to anything else (a weight replaced, a new "
     "dtype, device or global) runs a stale graph without a word"},
    {"skip_guard_on_inbuilt_nn_modules_unsafe",
     "no guards on torch.nn's own modules: changing their attributes or hooks after compiling goes unnoticed"},
    {"skip_guard_on_all_nn_modules_unsafe",
     "no guards on any nn.Module: changing a module attribute after compiling (a flag, a Python scalar) runs a stale "
     "graph and may return wrong results"},
    {"skip_guard_on_globals_unsafe",
     "no guards on globals: changing a global the code reads after compiling runs a stale graph"},
};

}  // namespace

std::string_view to_string(CallPart p) {
  for (const auto& t : kPartTexts)
    if (t.part == p) return t.key;
  return "outside";
}
std::optional<CallPart> parse_call_part(std::string_view s) {
  for (const auto& t : kPartTexts)
    if (t.key == s) return t.part;
  return std::nullopt;
}
std::string_view describe(CallPart p) {
  for (const auto& t : kPartTexts)
    if (t.part == p) return t.words;
  return "";
}

MedianNs median_with_interval(std::vector<double> xs) {
  std::vector<double> s = stats::finite_sorted(xs);
  MedianNs m;
  if (s.empty()) return m;
  m.median = stats::median(s);
  const double n = static_cast<double>(s.size());
  const double half = 1.96 * std::sqrt(n) / 2;
  // Ranks (1-based) of the bounds, clamped to the data: a small sample gives its extremes.
  const auto lo = static_cast<std::size_t>(std::max(1.0, std::floor(n / 2 - half)));
  const auto hi = static_cast<std::size_t>(std::min(n, std::ceil(n / 2 + half + 1)));
  m.low = s[lo - 1];
  m.high = s[hi - 1];
  return m;
}

void derive_chain(FrameChain& frame) {
  frame.hit_position.reset();
  frame.lookup_guards_ns.reset();
  double sum = 0;
  for (std::size_t i = 0; i < frame.entries.size(); ++i) {
    const auto& e = frame.entries[i];
    if (!e.passes || !e.check_ns) return;  // not checked: no position
    sum += *e.check_ns;
    if (*e.passes) {
      frame.hit_position = static_cast<int>(i) + 1;
      frame.lookup_guards_ns = sum;
      return;
    }
  }
}

std::string_view fix_gives_up(std::string_view fix) {
  for (const auto& t : kFixTexts)
    if (t.fix == fix) return t.gives_up;
  return "";
}

std::string fix_code(std::string_view fix) {
  if (fix == kStanceFix) return "torch.compiler.set_stance(\"default\", skip_guard_eval_unsafe=True)";
  return fmt::format("torch.compile(..., options={{\"guard_filter_fn\": torch.compiler.{}}})", fix);
}

double CallBreakdown::sampling_cost_ns() const { return profiled_ns.median - bare_ns.median; }

double CallBreakdown::part_ns(CallPart p) const {
  for (const auto& f : parts)
    if (f.part == p) return f.ns.median;
  return NAN;
}

double CallBreakdown::overhead_share() const {
  const double overhead = part_ns(CallPart::Lookup) + part_ns(CallPart::Wrappers);
  return bare_ns.median > 0 ? overhead / bare_ns.median : NAN;
}

bool CallBreakdown::material() const {
  const double s = overhead_share();
  return std::isfinite(s) && s >= kMaterialOverheadShare;
}

const FrameChain* CallBreakdown::entry_frame() const {
  for (const auto& f : frames)
    if (f.entry_frame) return &f;
  return nullptr;
}

CallBreakdown breakdown_of(const BreakdownSample& sample) {
  CallBreakdown b;
  std::vector<EventKind> kinds;
  for (const auto& n : sample.names) {
    kinds.push_back(kind_of(n));
    if (kinds.back() == EventKind::Graph) b.graph_events = true;
  }
  std::array<std::vector<double>, std::size(kCallParts)> per_part;
  std::vector<double> totals;
  for (const auto& call : sample.calls) {
    const auto parts = parts_of_call(call, kinds, b.graph_events);
    for (std::size_t i = 0; i < parts.size(); ++i) per_part[i].push_back(parts[i]);
    totals.push_back(call.ns);
  }
  b.calls = static_cast<int>(sample.calls.size());
  b.bare_ns = median_with_interval(sample.bare_ns);
  b.profiled_ns = median_with_interval(totals);
  for (std::size_t i = 0; i < std::size(kCallParts); ++i)
    b.parts.push_back({kCallParts[i], median_with_interval(per_part[i])});
  return b;
}

std::string breakdown_line(const CallBreakdown& b, bool with_call) {
  using report::format_duration_ns;
  const double overhead = b.part_ns(CallPart::Lookup) + b.part_ns(CallPart::Wrappers);
  std::string line = fmt::format("{:.0f}% of each call is Dynamo's lookup, guards and wrappers: {}",
                                 100 * b.overhead_share(), format_duration_ns(overhead));
  if (with_call) line += " of " + format_duration_ns(b.bare_ns.median);
  if (const FrameChain* f = b.entry_frame()) {
    line += fmt::format("; {} cache entr{}", f->entries.size(), f->entries.size() == 1 ? "y" : "ies");
    if (f->hit_position) line += fmt::format(", hit at position {}", *f->hit_position);
  }
  // The best fix with a gain the interval is sure of; else what was tried.
  const FixTrial* best = nullptr;
  for (const auto& t : b.fixes)
    if (t.not_tried.empty() && t.verdict == stats::SpeedupVerdict::Faster &&
        (!best || t.saves_ns.median > best->saves_ns.median))
      best = &t;
  if (best)
    line += fmt::format("; {} saves {} [{}, {}]", best->fix, format_duration_ns(best->saves_ns.median),
                        format_duration_ns(best->saves_ns.low), format_duration_ns(best->saves_ns.high));
  else if (!b.fixes.empty()) line += "; no fix tried gave a clear gain";
  return line;
}

}  // namespace tct::bench
