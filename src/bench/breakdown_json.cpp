#include "bench/breakdown_json.hpp"

#include "core/json_number.hpp"
#include "core/json_read.hpp"

namespace tct::bench {
namespace {

using json = nlohmann::json;
using core::number_or_nan;
using core::number_or_null;

json median_json(const MedianNs& m) {
  return {
      {"median_ns", number_or_null(m.median)}, {"low_ns", number_or_null(m.low)}, {"high_ns", number_or_null(m.high)}};
}
MedianNs median_of_json(const json& j) {
  return {number_or_nan(j, "median_ns"), number_or_nan(j, "low_ns"), number_or_nan(j, "high_ns")};
}

template <class T>
json or_null(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json frame_json(const FrameChain& f) {
  json entries = json::array();
  for (const auto& e : f.entries)
    entries.push_back({{"compile_id", e.compile_id},
                       {"guard_count", or_null(e.guard_count)},
                       {"guard_latency_us", or_null(e.guard_latency_us)},
                       {"passes", or_null(e.passes)},
                       {"check_ns", or_null(e.check_ns)}});
  return {{"name", f.name},
          {"file", f.file},
          {"line", f.line},
          {"entry_frame", f.entry_frame},
          {"entries", entries},
          {"hit_position", or_null(f.hit_position)},
          {"lookup_guards_ns", or_null(f.lookup_guards_ns)}};
}
FrameChain frame_of_json(const json& j) {
  using namespace core::json_read;
  FrameChain f;
  f.name = str(j, "name");
  f.file = str(j, "file");
  f.line = opt_num<int>(j, "line").value_or(0);
  f.entry_frame = flag(j, "entry_frame");
  for (const auto& e : list(j, "entries"))
    f.entries.push_back({str(e, "compile_id"), opt_num<int>(e, "guard_count"), opt_num<double>(e, "guard_latency_us"),
                         opt_bool(e, "passes"), opt_num<double>(e, "check_ns")});
  f.hit_position = opt_num<int>(j, "hit_position");
  f.lookup_guards_ns = opt_num<double>(j, "lookup_guards_ns");
  return f;
}

json fix_json(const FixTrial& t) {
  json out = {{"fix", t.fix}, {"code", fix_code(t.fix)}, {"gives_up", std::string(fix_gives_up(t.fix))}};
  if (!t.not_tried.empty()) {
    out["not_tried"] = t.not_tried;
    return out;
  }
  out["speedup"] = {{"estimate", number_or_null(t.speedup.estimate)},
                    {"low", number_or_null(t.speedup.low)},
                    {"high", number_or_null(t.speedup.high)}};
  out["verdict"] = std::string(stats::to_string(t.verdict));
  out["saves"] = median_json(t.saves_ns);
  out["pairs"] = t.pairs;
  return out;
}
FixTrial fix_of_json(const json& j) {
  using namespace core::json_read;
  FixTrial t;
  t.fix = str(j, "fix");
  t.not_tried = str(j, "not_tried");
  const json& s = at(j, "speedup");
  t.speedup = {number_or_nan(s, "estimate"), number_or_nan(s, "low"), number_or_nan(s, "high")};
  t.verdict = stats::parse_verdict(str(j, "verdict")).value_or(stats::SpeedupVerdict::NotMeasured);
  t.saves_ns = median_of_json(at(j, "saves"));
  t.pairs = opt_num<int>(j, "pairs").value_or(0);
  return t;
}

}  // namespace

json to_json(const CallBreakdown& b) {
  json parts = json::object();
  for (const auto& p : b.parts) parts[std::string(to_string(p.part))] = median_json(p.ns);
  json frames = json::array();
  for (const auto& f : b.frames) frames.push_back(frame_json(f));
  json fixes = json::array();
  for (const auto& t : b.fixes) fixes.push_back(fix_json(t));
  return {{"calls", b.calls},
          {"bare", median_json(b.bare_ns)},
          {"profiled", median_json(b.profiled_ns)},
          {"sampling_cost_ns", number_or_null(b.sampling_cost_ns())},
          {"parts", parts},
          {"graph_events", b.graph_events},
          {"overhead_share", number_or_null(b.overhead_share())},
          {"material", b.material()},
          {"frames", frames},
          {"fixes", fixes}};
}

CallBreakdown breakdown_from_json(const json& j) {
  using namespace core::json_read;
  CallBreakdown b;
  b.calls = opt_num<int>(j, "calls").value_or(0);
  b.bare_ns = median_of_json(at(j, "bare"));
  b.profiled_ns = median_of_json(at(j, "profiled"));
  const json& parts = at(j, "parts");
  for (CallPart p : kCallParts) {
    const std::string key(to_string(p));
    if (parts.is_object() && parts.contains(key)) b.parts.push_back({p, median_of_json(parts[key])});
  }
  b.graph_events = flag(j, "graph_events");
  for (const auto& f : list(j, "frames")) b.frames.push_back(frame_of_json(f));
  for (const auto& t : list(j, "fixes")) b.fixes.push_back(fix_of_json(t));
  return b;
}

}  // namespace tct::bench
