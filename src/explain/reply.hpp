#pragma once
// The replies of the agent's explain.run and explain.registry ops (python/tct_agent/ops/
// explain.py), each declared once as bench/reply.hpp declares bench's: read into its struct where
// it arrives (explain/run.cpp, core::fields::read_as), the audit (audit.hpp) made from its
// members. Their field names are python/tct_agent/replies.json's; tests/unit/test_replies.cpp
// holds the two to each other. A missing or mistyped field keeps the member's initializer.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/fields.hpp"
#include "core/user_code.hpp"  // CodeDirs, declared there with its fields

namespace tct::explain::reply {

// One frame of a break's stack as the agent sends it (every frame, a library's too); a frame
// without a line number (null) reads as line 0.
struct StackFrame {
  std::string file;
  int line = 0;
  std::string function = "?";
  std::string source;
};
constexpr auto json_fields(const StackFrame*) {
  using core::fields::field;
  using F = StackFrame;
  return std::tuple{field("file", &F::file), field("line", &F::line), field("function", &F::function),
                    field("source", &F::source)};
}

// One of torch._dynamo.explain's break reasons: torch's text and the stack, outermost first.
struct BreakReason {
  std::string reason;
  std::vector<StackFrame> frames;
};
constexpr auto json_fields(const BreakReason*) {
  using core::fields::field;
  return std::tuple{field("reason", &BreakReason::reason), field("frames", &BreakReason::frames)};
}

// explain.run's "explain": torch._dynamo.explain's output in one of its two forms. "object"
// (torch >= 2.1's ExplainOutput) gives the counts; "tuple" (torch 2.0) gives them in the
// explanation's words ("Dynamo produced 4 graphs with 3 graph break and 6 ops"), the graphs as a
// count and the guards as texts. What a form does not give stays unset.
struct Explain {
  std::string form = "object";
  std::string explanation, explanation_verbose;
  std::optional<std::vector<std::string>> out_guards;
  std::optional<int> graphs, graph_count, graph_break_count, op_count;
  std::vector<std::vector<std::string>> ops_per_graph;
  std::optional<int> guard_count;
  std::vector<BreakReason> break_reasons;
};
constexpr auto json_fields(const Explain*) {
  using core::fields::field;
  using E = Explain;
  return std::tuple{field("form", &E::form),
                    field("explanation", &E::explanation),
                    field("explanation_verbose", &E::explanation_verbose),
                    field("out_guards", &E::out_guards),
                    field("graphs", &E::graphs),
                    field("graph_count", &E::graph_count),
                    field("graph_break_count", &E::graph_break_count),
                    field("op_count", &E::op_count),
                    field("ops_per_graph", &E::ops_per_graph),
                    field("guard_count", &E::guard_count),
                    field("break_reasons", &E::break_reasons)};
}

// A code object Dynamo was handed in the compiled run: its file, first line, co_name and
// co_qualname (none before Python 3.11).
struct CodeName {
  std::string file;
  int line = 0;
  std::string name;
  std::optional<std::string> qualname;
};
constexpr auto json_fields(const CodeName*) {
  using core::fields::field;
  using C = CodeName;
  return std::tuple{field("file", &C::file), field("line", &C::line), field("name", &C::name),
                    field("qualname", &C::qualname)};
}

// The interleaved eager and compiled calls after the compiled run (graph_share_pairs): each
// pair's eager wall, compiled wall and time inside the graphs; `error` alone when timing them
// failed.
struct SharePairs {
  std::vector<double> eager_ns, compiled_ns, in_graph_ns;
  std::optional<std::string> error;
};
constexpr auto json_fields(const SharePairs*) {
  using core::fields::field;
  using S = SharePairs;
  return std::tuple{field("eager_ns", &S::eager_ns), field("compiled_ns", &S::compiled_ns),
                    field("in_graph_ns", &S::in_graph_ns), field("error", &S::error)};
}

// explain.run's "logged": the compiled run (backend=eager) with torch's trace: the trace file,
// its calls, what it raised (none: nothing), Dynamo's logged warnings, the code objects it saw
// and the timed pairs after it (none when not timed).
struct Logged {
  std::string trace_file;
  int calls = 0;
  std::optional<std::string> error;
  std::vector<std::string> warnings;
  std::vector<CodeName> code_names;
  std::optional<SharePairs> share_pairs;
};
constexpr auto json_fields(const Logged*) {
  using core::fields::field;
  using L = Logged;
  return std::tuple{field("trace_file", &L::trace_file), field("calls", &L::calls),
                    field("error", &L::error),           field("warnings", &L::warnings),
                    field("code_names", &L::code_names), field("share_pairs", &L::share_pairs)};
}

// explain.run: torch's version, the logged compiled run (none: not asked for, or this torch
// writes no trace, which logged_unsupported says), explain's view, where torch and the agent live
// and whether this torch has a graph-break registry.
struct Run {
  std::string torch_version;
  std::optional<Logged> logged;
  std::optional<std::string> logged_unsupported;
  Explain explain;
  core::CodeDirs code_dirs;
  bool registry_available = false;
};
constexpr auto json_fields(const Run*) {
  using core::fields::field;
  using R = Run;
  return std::tuple{field("torch_version", &R::torch_version),
                    field("logged", &R::logged),
                    field("logged_unsupported", &R::logged_unsupported),
                    field("explain", &R::explain),
                    field("code_dirs", &R::code_dirs),
                    field("registry_available", &R::registry_available)};
}

// One entry of torch's graph-break registry (torch/_dynamo/graph_break_registry.json): its
// gb_type, explanation and hints (sentence fragments of one or more hints).
struct RegistryEntry {
  std::string id;
  std::optional<std::string> gb_type, explanation;
  std::vector<std::string> hints;
};
constexpr auto json_fields(const RegistryEntry*) {
  using core::fields::field;
  using E = RegistryEntry;
  return std::tuple{field("id", &E::id), field("gb_type", &E::gb_type), field("explanation", &E::explanation),
                    field("hints", &E::hints)};
}

// explain.registry: each id asked for -> its entry, none where this torch's registry has none.
using Registry = std::map<std::string, std::optional<RegistryEntry>>;

}  // namespace tct::explain::reply
