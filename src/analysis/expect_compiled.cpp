#include "analysis/expect_compiled.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tct::analysis {
namespace {

json or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

std::string base_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

}  // namespace

CompiledRun compiled_run_from_explain(const json& e) {
  CompiledRun run;
  if (!e.is_object() || e.value("counts_from", "") != "compiled_run") return run;
  run.known = true;
  run.graphs = e.value("graph_count", 0);
  run.graph_breaks = e.value("graph_break_count", 0);
  run.skipped_frames = e.value("skipped_frames", json::array());
  const json& groups = e.value("groups", json::array());
  if (!groups.empty()) run.top_group = groups[0];
  return run;
}

SpeedupRange bound_prediction(const SpeedupRange& captured, const CompiledRun& run) {
  if (run.nothing_compiled()) return {1.0, 1.0, 1.0};
  SpeedupRange out = captured;
  if (run.known && (run.graph_breaks > 0 || !run.skipped_frames.empty()) && std::isfinite(out.low))
    out.low = std::min(out.low, 1.0);
  return out;
}

std::string prediction_assumes(const CompiledRun& run) {
  if (run.nothing_compiled()) return "nothing_compiled";
  if (run.known && (run.graph_breaks > 0 || !run.skipped_frames.empty())) return "graph_breaks_stay";
  return "captured";
}

json compiled_run_json(const CompiledRun& run, const SpeedupRange& captured) {
  if (!run.known) return nullptr;
  return {{"graph_count", run.graphs},
          {"graph_break_count", run.graph_breaks},
          {"skipped_frames", run.skipped_frames},
          {"nothing_compiled", run.nothing_compiled()},
          {"if_captured", {{"low", or_null(captured.low)}, {"point", or_null(captured.point)},
                           {"high", or_null(captured.high)}}}};
}

json fix_first_suggestion(const CompiledRun& run, const std::string& target) {
  std::string how = fmt::format("`tct explain {}` shows where and what to change; then rerun tct expect", target);
  if (run.nothing_compiled()) {
    const json& f = run.skipped_frames[0];
    return {{"title", fmt::format("Nothing compiles yet: fix what makes Dynamo skip {}", f.value("function", "?"))},
            {"why", fmt::format("torch.compile skipped {} ({}:{}) and runs it eagerly: {} at line {} ({}), then {}. "
                                "No gain until it is fixed; the other suggestions assume it is",
                                f.value("function", "?"), base_name(f.value("file", "?")), f.value("line", 0),
                                f.value("kind", "?"), f.value("break_line", 0), f.value("reason", ""),
                                f.value("skip_reason", ""))},
            {"how", how},
            {"expected_gain", nullptr}};
  }
  if (!run.known || (run.graph_breaks == 0 && run.skipped_frames.empty())) return nullptr;
  std::string first;
  if (run.top_group.is_object())
    first = fmt::format(" (most frequent: {} at {}:{}, {})", run.top_group.value("kind", "?"),
                        base_name(run.top_group.value("file", "?")), run.top_group.value("line", 0),
                        run.top_group.value("reason", ""));
  std::string skipped = run.skipped_frames.empty()
                            ? ""
                            : fmt::format(", and skipped {} frame(s) (they run eagerly)", run.skipped_frames.size());
  return {{"title", fmt::format("Fix the {} graph break(s) first", run.graph_breaks)},
          {"why", fmt::format("the compiled run broke the graph {} time(s){}{}: each break ends a graph, fusion cannot "
                              "cross it and Python runs between the pieces, so the predicted range reaches down to "
                              "1.0x while they stay",
                              run.graph_breaks, first, skipped)},
          {"how", how},
          {"expected_gain", nullptr}};
}

json put_first(const json& first, const json& suggestions) {
  json out = json::array();
  if (first.is_object()) out.push_back(first);
  for (const auto& s : suggestions) out.push_back(s);
  for (size_t i = 0; i < out.size(); ++i) out[i]["rank"] = static_cast<int>(i + 1);
  return out;
}

}  // namespace tct::analysis
