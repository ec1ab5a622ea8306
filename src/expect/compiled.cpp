#include "expect/compiled.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/user_code.hpp"

namespace tct::expect {

CompiledRun compiled_run_of(const explain::ExplainResult& e) {
  CompiledRun run;
  if (e.counts_from != explain::CountsFrom::CompiledRun) return run;
  run.known = true;
  run.graphs = e.graph_count;
  run.graph_breaks = e.graph_break_count;
  run.skipped_frames = e.skipped_frames;
  if (!e.groups.empty()) run.top_group = e.groups.front();
  run.eager_parts = e.eager_parts;
  if (e.logged) run.graph_share = e.logged->graph_share;
  return run;
}

double CompiledRun::compiled_share() const { return graph_share ? graph_share->covered : NAN; }

double amdahl_speedup(double compiled_share, double speedup, double overhead) {
  if (!std::isfinite(compiled_share) || !std::isfinite(speedup) || speedup <= 0) return NAN;
  return 1.0 / ((1.0 - compiled_share) + compiled_share / speedup + (std::isfinite(overhead) ? overhead : 0.0));
}

SpeedupRange bound_prediction(const SpeedupRange& captured, const CompiledRun& run, double compiled_call_share) {
  if (run.nothing_compiled()) return {1.0, 1.0, 1.0};
  SpeedupRange out = captured;
  if (run.eager_in_part()) {
    if (const double share = run.compiled_share(); std::isfinite(share)) {
      const double overhead = run.graph_share->overhead;
      // The captured range is the whole function's op mix; the compiled share is a few of its
      // ops (the GRU fixture's: a conv, which inductor calls as ATen does, and a norm) and may
      // gain nothing, give or take the model's own error: its low end is at most no gain less
      // that error (the captured low end over its point; a generated norm can be slower than
      // ATen's: bench measured 0.89x [0.85, 0.94] at 40 steps where 1.0x gave a 0.91x low
      // end). The overhead was measured with the eager
      // backend; inductor's graphs add their own wrappers (AOTAutograd's, the generated
      // module's), which the low end pays as the measured compiled call's fixed cost (a compiled
      // x + 1, which holds a Dynamo lookup of its own: an upper bound). On the GRU fixture at 5
      // steps bench measured 0.80x [0.76, 0.84] where the low end without it was 0.84x.
      const double wrappers = std::isfinite(compiled_call_share) ? compiled_call_share : 0.0;
      const double no_gain = captured.point > 0 ? captured.low / captured.point : 1.0;
      out.low = amdahl_speedup(share, std::min(captured.low, no_gain), overhead + wrappers);
      out.point = amdahl_speedup(share, captured.point, overhead);
      out.high = amdahl_speedup(share, captured.high, overhead);
    } else if (std::isfinite(out.low)) {
      out.low = std::min(out.low, 1.0);  // the eager part's share unknown: it may be all of the call
    }
  }
  if (run.known && (run.graph_breaks > 0 || !run.skipped_frames.empty()) && std::isfinite(out.low))
    out.low = std::min(out.low, 1.0);
  return out;
}

Assumes prediction_assumes(const CompiledRun& run) {
  if (run.nothing_compiled()) return Assumes::NothingCompiled;
  if (run.eager_in_part()) return Assumes::EagerPartStays;
  if (run.known && (run.graph_breaks > 0 || !run.skipped_frames.empty())) return Assumes::GraphBreaksStay;
  return Assumes::Captured;
}

std::optional<CompiledRunSummary> summarize(const CompiledRun& run, const SpeedupRange& captured) {
  if (!run.known) return std::nullopt;
  return CompiledRunSummary{run.graphs, run.graph_breaks, run.skipped_frames, run.nothing_compiled(),
                            captured,   run.eager_parts,  run.graph_share};
}

std::optional<Suggestion> fix_first_suggestion(const CompiledRun& run, const std::string& target) {
  std::string how = fmt::format("`tct explain {}` shows where and what to change; then rerun tct expect", target);
  if (run.nothing_compiled()) {
    const explain::SkippedFrame& f = run.skipped_frames.front();
    Suggestion s;
    s.title = fmt::format("Nothing compiles yet: fix what makes Dynamo skip {}", f.function);
    s.why = fmt::format(
        "torch.compile skipped {} ({}:{}) and runs it eagerly: {} at line {} ({}), then {}. "
        "No gain until it is fixed; the other suggestions assume it is",
        f.function, core::base_name(f.file), f.line, to_string(f.kind), f.break_line, f.reason, f.skip_reason);
    s.how = how;
    s.terms = core::terms_of(core::fix_entry("fix_breaks_first"));
    return s;
  }
  if (run.eager_in_part() && run.graph_breaks == 0 && run.skipped_frames.empty()) {
    const core::EagerPart& p = run.eager_parts.front();
    Suggestion s;
    s.title = fmt::format("Make {} compile: it runs eagerly on every call", p.function);
    s.why = fmt::format("{}, after the [{}] break at line {} ({}); the predicted range counts that part at 1.0x",
                        core::describe(p), to_string(p.kind), p.from_line, p.reason);
    s.how = how;
    s.terms = core::terms_of(core::fix_entry("fix_breaks_first"));
    return s;
  }
  if (!run.known || (run.graph_breaks == 0 && run.skipped_frames.empty())) return std::nullopt;
  std::string first;
  if (const auto& g = run.top_group)
    first = fmt::format(" (most frequent: {} at {}:{}, {})", to_string(g->kind), core::base_name(g->where.file),
                        g->where.line, g->reason);
  std::string skipped = run.skipped_frames.empty()
                            ? ""
                            : fmt::format(", and skipped {} frame(s) (they run eagerly)", run.skipped_frames.size());
  Suggestion s;
  s.title = fmt::format("Fix the {} graph break(s) first", run.graph_breaks);
  s.why = fmt::format(
      "the compiled run broke the graph {} time(s){}{}: each break ends a graph, fusion cannot "
      "cross it and Python runs between the pieces, so the predicted range reaches down to "
      "1.0x while they stay",
      run.graph_breaks, first, skipped);
  s.how = how;
  s.terms = core::terms_of(core::fix_entry("fix_breaks_first"));
  return s;
}

std::vector<Suggestion> put_first(const std::optional<Suggestion>& first, std::vector<Suggestion> suggestions) {
  if (first) suggestions.insert(suggestions.begin(), *first);
  for (std::size_t i = 0; i < suggestions.size(); ++i) suggestions[i].rank = static_cast<int>(i + 1);
  return suggestions;
}

}  // namespace tct::expect
