#include "job/json.hpp"

#include "core/json_number.hpp"
#include "core/json_read.hpp"

namespace tct::job {
namespace {

using json = nlohmann::json;
using namespace core::json_read;
using core::duration_or_nan;
using core::duration_or_null;
using core::number_or_nan;
using core::number_or_null;

// A duration's interval: {mean_ns, low_ns, high_ns}.
json ns_interval_json(const stats::Interval& iv) {
  return {{"mean_ns", number_or_null(iv.estimate)},
          {"low_ns", number_or_null(iv.low)},
          {"high_ns", number_or_null(iv.high)}};
}
stats::Interval ns_interval_of(const json& j) {
  return {number_or_nan(j, "mean_ns"), number_or_nan(j, "low_ns"), number_or_nan(j, "high_ns")};
}

json ratio_json(const stats::Interval& iv) {
  return {
      {"estimate", number_or_null(iv.estimate)}, {"low", number_or_null(iv.low)}, {"high", number_or_null(iv.high)}};
}
stats::Interval ratio_of(const json& j) {
  return {number_or_nan(j, "estimate"), number_or_nan(j, "low"), number_or_nan(j, "high")};
}

json site_run_json(const SiteRun& s) {
  return {{"key", s.key},
          {"name", s.name},
          {"calls", s.calls},
          {"first_output_ns", duration_or_null(s.first_output)},
          {"steady_ns", duration_or_null(s.steady)},
          {"compile_time_ns", duration_or_null(s.compile_time)},
          {"recompiles", s.recompiles},
          {"cache_hits", s.cache_hits},
          {"cache_misses", s.cache_misses},
          {"cache_bypasses", s.cache_bypasses}};
}
SiteRun site_run_of(const json& j) {
  SiteRun s;
  s.key = str(j, "key");
  s.name = str(j, "name");
  s.calls = num<size_t>(j, "calls");
  s.first_output = duration_or_nan(j, "first_output_ns");
  s.steady = duration_or_nan(j, "steady_ns");
  s.compile_time = duration_or_nan(j, "compile_time_ns");
  s.recompiles = num(j, "recompiles");
  s.cache_hits = num(j, "cache_hits");
  s.cache_misses = num(j, "cache_misses");
  s.cache_bypasses = num(j, "cache_bypasses");
  return s;
}

json run_json(const RunFigures& f) {
  json sites = json::array();
  for (const auto& s : f.sites) sites.push_back(site_run_json(s));
  json curve = json::array();
  for (const auto& [calls, ns] : f.curve) curve.push_back({calls, ns});
  return {{"round", f.round},
          {"ok", f.ok()},
          {"exit_status", f.exit_status},
          {"exit_text", f.exit_text},
          {"timed_out", f.timed_out},
          {"interrupted", f.interrupted},
          {"wall_ns", duration_or_null(f.wall)},
          {"torch_threads", f.torch_threads ? json(*f.torch_threads) : json(nullptr)},
          {"anchor", f.anchor},
          {"anchor_calls", f.anchor_calls},
          {"loop_per_call_ns", duration_or_null(f.loop_per_call)},
          {"curve", curve},
          {"artifacts_load_ns", duration_or_null(f.artifacts_load)},
          {"artifacts_bytes", f.artifacts_bytes ? json(*f.artifacts_bytes) : json(nullptr)},
          {"artifacts_error", f.artifacts_error.empty() ? json(nullptr) : json(f.artifacts_error)},
          {"output_lines", f.output_lines},
          {"dir", f.dir},
          {"sites", sites}};
}
RunFigures run_of(const json& j) {
  RunFigures f;
  f.round = num(j, "round");
  f.exit_status = num(j, "exit_status");
  f.exit_text = str(j, "exit_text");
  f.timed_out = flag(j, "timed_out");
  f.interrupted = flag(j, "interrupted");
  f.wall = duration_or_nan(j, "wall_ns");
  f.torch_threads = opt_num<int>(j, "torch_threads");
  f.anchor = str(j, "anchor");
  f.anchor_calls = num<size_t>(j, "anchor_calls");
  f.loop_per_call = duration_or_nan(j, "loop_per_call_ns");
  for (const auto& p : list(j, "curve"))
    if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number())
      f.curve.emplace_back(p[0].get<double>(), p[1].get<double>());
  f.artifacts_load = duration_or_nan(j, "artifacts_load_ns");
  f.artifacts_bytes = opt_num<double>(j, "artifacts_bytes");
  f.artifacts_error = str(j, "artifacts_error");
  f.dir = str(j, "dir");
  f.output_lines = num<size_t>(j, "output_lines");
  for (const auto& s : list(j, "sites")) f.sites.push_back(site_run_of(s));
  return f;
}

json site_json(const SiteSummary& s) {
  return {{"key", s.key},
          {"name", s.name},
          {"calls", s.calls},
          {"first_output", ns_interval_json(s.first_output)},
          {"steady", ns_interval_json(s.steady)},
          {"compile_time_ns", duration_or_null(s.compile_time)},
          {"cache_hits", s.cache_hits},
          {"cache_misses", s.cache_misses},
          {"cache_bypasses", s.cache_bypasses},
          {"recompiles", s.recompiles}};
}
SiteSummary site_of(const json& j) {
  SiteSummary s;
  s.key = str(j, "key");
  s.name = str(j, "name");
  s.calls = num<size_t>(j, "calls");
  s.first_output = ns_interval_of(at(j, "first_output"));
  s.steady = ns_interval_of(at(j, "steady"));
  s.compile_time = duration_or_nan(j, "compile_time_ns");
  s.cache_hits = num(j, "cache_hits");
  s.cache_misses = num(j, "cache_misses");
  s.cache_bypasses = num(j, "cache_bypasses");
  s.recompiles = num(j, "recompiles");
  return s;
}

json output_json(const OutputCheck& c) {
  return {
      {"compared", c.compared},     {"same", c.same},          {"differing_lines", c.differing_lines}, {"line", c.line},
      {"eager_line", c.eager_line}, {"mode_line", c.mode_line}};
}
OutputCheck output_of(const json& j) {
  OutputCheck c;
  c.compared = flag(j, "compared");
  c.same = flag(j, "same", true);
  c.differing_lines = num(j, "differing_lines");
  c.line = num(j, "line");
  c.eager_line = str(j, "eager_line");
  c.mode_line = str(j, "mode_line");
  return c;
}

json mode_json(const ModeResult& m) {
  json sites = json::array(), runs = json::array();
  for (const auto& s : m.sites) sites.push_back(site_json(s));
  for (const auto& r : m.runs) runs.push_back(run_json(r));
  return {{"mode", m.spec.label()},
          {"how", to_string(m.spec.how)},
          {"threads", m.spec.threads ? json(*m.spec.threads) : json(nullptr)},
          {"error", m.error.empty() ? json(nullptr) : json(m.error)},
          {"total", ns_interval_json(m.total)},
          {"loop_per_call", ns_interval_json(m.loop_per_call)},
          {"at_horizon", m.at_horizon ? ns_interval_json(*m.at_horizon) : json(nullptr)},
          {"failed", m.failed},
          {"eligible", m.eligible()},
          {"output", output_json(m.output)},
          {"sites", sites},
          {"runs", runs}};
}
ModeResult mode_of(const json& j) {
  ModeResult m;
  m.spec.how = parse_how(str(j, "how")).value_or(How::Eager);
  m.spec.threads = opt_num<int>(j, "threads");
  m.error = str(j, "error");
  m.total = ns_interval_of(at(j, "total"));
  m.loop_per_call = ns_interval_of(at(j, "loop_per_call"));
  if (at(j, "at_horizon").is_object()) m.at_horizon = ns_interval_of(at(j, "at_horizon"));
  m.failed = num(j, "failed");
  m.output = output_of(at(j, "output"));
  for (const auto& s : list(j, "sites")) m.sites.push_back(site_of(s));
  for (const auto& r : list(j, "runs")) m.runs.push_back(run_of(r));
  return m;
}

json decision_json(const Decision& d) {
  json others = json::array();
  for (const auto& c : d.others)
    others.push_back({{"mode", c.mode}, {"ratio", ratio_json(c.ratio)}, {"verdict", stats::to_string(c.verdict)}});
  return {{"best", d.best.empty() ? json(nullptr) : json(d.best)}, {"clear", d.clear()}, {"others", others}};
}
Decision decision_of(const json& j) {
  Decision d;
  d.best = str(j, "best");
  for (const auto& c : list(j, "others")) {
    Comparison x;
    x.mode = str(c, "mode");
    x.ratio = ratio_of(at(c, "ratio"));
    x.verdict = stats::decide(x.ratio);
    d.others.push_back(std::move(x));
  }
  return d;
}

}  // namespace

json to_json(const JobResult& r) {
  json modes = json::array(), crossings = json::array();
  for (const auto& m : r.modes) modes.push_back(mode_json(m));
  for (const auto& c : r.crossings) crossings.push_back({{"calls", c.calls}, {"from", c.from}, {"to", c.to}});
  return {{"command", r.command},
          {"dir", r.dir},
          {"rounds", r.rounds},
          {"horizon_calls", r.horizon_calls ? json(*r.horizon_calls) : json(nullptr)},
          {"anchor", r.anchor},
          {"anchor_name", r.anchor_name},
          {"filling", r.filling ? run_json(*r.filling) : json(nullptr)},
          {"modes", modes},
          {"decision",
           {{"as_run", decision_json(r.as_run)},
            {"at_horizon", r.at_horizon ? decision_json(*r.at_horizon) : json(nullptr)}}},
          {"crossings", crossings},
          {"notes", r.notes}};
}

JobResult from_json(const json& j) {
  JobResult r;
  r.command = strings(j, "command");
  r.dir = str(j, "dir");
  r.rounds = num(j, "rounds");
  r.horizon_calls = opt_num<double>(j, "horizon_calls");
  r.anchor = str(j, "anchor");
  r.anchor_name = str(j, "anchor_name");
  if (at(j, "filling").is_object()) r.filling = run_of(at(j, "filling"));
  for (const auto& m : list(j, "modes")) r.modes.push_back(mode_of(m));
  const json& d = at(j, "decision");
  r.as_run = decision_of(at(d, "as_run"));
  if (at(d, "at_horizon").is_object()) r.at_horizon = decision_of(at(d, "at_horizon"));
  for (const auto& c : list(j, "crossings"))
    r.crossings.push_back({num<double>(c, "calls"), str(c, "from"), str(c, "to")});
  r.notes = strings(j, "notes");
  return r;
}

}  // namespace tct::job
