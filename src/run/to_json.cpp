#include "run/to_json.hpp"

#include <cmath>

namespace tct::run {
namespace {

using json = nlohmann::json;

json ns(Ns d) { return std::isfinite(d.count()) ? json(static_cast<int64_t>(std::llround(d.count()))) : json(nullptr); }
json num(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }
template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json frame(const FrameRole& f) {
  return {{"frame", f.frame}, {"function", f.function}, {"file", f.file}, {"line", f.line}, {"role", f.role},
          {"break_line", f.break_line > 0 ? json(f.break_line) : json(nullptr)}};
}

json times(const CallTimes& t) {
  return {{"calls", t.calls}, {"median_ns", ns(t.median)}, {"p90_ns", ns(t.p90)}, {"total_ns", ns(t.total)}};
}

json site(const SiteResult& s) {
  json compiles = json::array();
  for (const auto& c : s.compiles) {
    json phases = json::object();
    for (const auto& [k, v] : c.phases) phases[k] = ns(v);
    compiles.push_back({{"compile_id", c.compile_id}, {"frame", c.frame}, {"function", c.function}, {"line", c.line}, {"phase_ns", phases},
                        {"recompile_reasons", c.recompile_reasons}, {"cache", c.cache},
                        {"graph_breaks", c.graph_breaks}, {"skipped", c.skipped},
                        {"fail_type", c.fail_type.empty() ? json(nullptr) : json(c.fail_type)},
                        {"fail_reason", c.fail_reason.empty() ? json(nullptr) : json(c.fail_reason)}});
  }
  json breaks = json::array();
  for (const auto& b : s.breaks)
    breaks.push_back({{"file", b.file}, {"line", b.line}, {"kind", b.kind}, {"reason", b.reason}, {"fix", b.fix},
                      {"count", b.count}});
  json fallbacks = json::array();
  for (const auto& f : s.fallbacks)
    fallbacks.push_back({{"frame", frame(f.frame)}, {"cause", f.cause}, {"limit_value", opt(f.limit_value)},
                         {"at_call", opt(f.at_call)}, {"guard", f.guard}, {"reason", f.reason}, {"kind", f.kind},
                         {"fix", f.fix}, {"calls_after", f.calls_after}, {"eager_calls_after", opt(f.eager_after)}});
  json groups = json::array();
  for (const auto& g : s.recompile_groups)
    groups.push_back({{"frame", frame(g.frame)}, {"guard", g.pattern}, {"values", g.values}, {"count", g.count},
                      {"limit", opt(g.limit)}, {"code", g.code}, {"code_file", g.code_file}, {"code_line", g.code_line},
                      {"cause", g.cause}, {"why", g.why}, {"fix", g.fix}, {"cost", g.cost},
                      {"compile_time_ns", ns(g.compile_time)}});
  json eager = nullptr;
  if (s.eager) {
    const EagerComparison& e = *s.eager;
    eager = {{"compiled", times(e.compiled)},
             {"eager", times(e.eager)},
             {"speedup", {{"estimate", num(e.speedup.estimate)}, {"low", num(e.speedup.low)}, {"high", num(e.speedup.high)},
                          {"confidence", 0.95}, {"covers", e.covers}, {"runs_each", e.runs_each}}},
             {"compile_cost_ns", ns(e.compile_cost)},
             {"break_even_calls", e.break_even_calls ? json(std::ceil(*e.break_even_calls)) : json(nullptr)},
             {"paid_back", e.paid_back},
             {"verdict", std::string(stats::to_string(e.verdict))},
             {"clock", e.clock}};
  }
  json runs = json::array();
  for (const auto& c : s.runs)
    runs.push_back({{"run", c.run}, {"cache_state", c.cache_state}, {"cache", c.cache}, {"compile_time_ns", ns(c.compile_time)},
                    {"compile_cost_ns", ns(c.compile_cost)},
                    {"break_even_calls", c.break_even_calls ? json(std::ceil(*c.break_even_calls)) : json(nullptr)}});
  json stall = nullptr;
  if (s.stall) stall = {{"compiled_p90_over_median", num(s.stall->compiled_ratio)}, {"eager_p90_over_median", num(s.stall->eager_ratio)}};
  return {{"key", s.key},
          {"kind", s.kind},
          {"name", s.name},
          {"site", {{"file", s.site_file}, {"line", s.site_line}}},
          {"code", {{"function", s.code_name}, {"file", s.code_file}, {"line", s.code_line}}},
          {"calls", s.calls},
          {"compiling_calls", s.compiling_calls},
          {"eager_calls", s.eager_known ? json(s.eager_calls) : json(nullptr)},
          {"first_eager_call", opt(s.first_eager_call)},
          {"all_calls", times(s.all)},
          {"steady_calls", times(s.steady)},
          {"device_steady_calls", s.device_steady ? times(*s.device_steady) : json(nullptr)},
          {"compiling_calls_ns", ns(s.compiling_time)},
          {"job_share", num(s.job_share)},
          {"compile_time_ns", ns(s.compile_time)},
          {"compiles", compiles},
          {"recompiles", s.recompiles},
          {"graph_breaks", s.graph_breaks},
          {"breaks", breaks},
          {"cache", s.cache},
          {"recompile_groups", groups},
          {"fallbacks", fallbacks},
          {"backward_outside", s.backward_outside},
          {"eager", eager},
          {"compiled_runs", runs},
          {"stall", stall}};
}

}  // namespace

json to_json(const RunResult& r) {
  json processes = json::array();
  for (const auto& p : r.processes) {
    json sites = json::array();
    for (const auto& s : p.sites) sites.push_back(site(s));
    processes.push_back({{"rank", opt(p.rank)}, {"pid", p.pid}, {"complete", p.final}, {"sites", sites}});
  }
  json divergence = json::array();
  for (const auto& d : r.divergence) divergence.push_back({{"rank", opt(d.rank)}, {"what", d.what}, {"message", d.message}});
  return {{"command", r.command},
          {"exit_status", r.exit_status},
          {"exit", r.exit_text},
          {"interrupted", r.interrupted},
          {"wall_ns", ns(r.wall)},
          {"record_dir", r.record_dir},
          {"trace_dir", r.trace_dir},
          {"cwd", r.cwd},
          {"torch", r.torch},
          {"processes_with_torch", r.processes_with_torch},
          {"processes", processes},
          {"divergence", divergence},
          {"notes", r.notes},
          {"threads", opt(r.threads)},
          {"contention", {{"load_1m", num(r.contention.load_1m)}, {"cpus", r.contention.cpus},
                          {"involuntary_switches_per_s", num(r.contention.involuntary_switches_per_s)},
                          {"torch_threads", opt(r.contention.torch_threads)}}},
          {"compare_eager", r.compared ? json{{"runs_each", r.repeat}, {"stance", r.stance},
                                              {"eager_exit_statuses", r.eager_exit_statuses}}
                                       : json(nullptr)},
          {"trace", r.trace.is_null() ? json(nullptr) : r.trace}};
}

}  // namespace tct::run
