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

json times(const CallTimes& t) {
  return {{"calls", t.calls}, {"median_ns", ns(t.median)}, {"p90_ns", ns(t.p90)}, {"total_ns", ns(t.total)}};
}

json site(const SiteResult& s) {
  json compiles = json::array();
  for (const auto& c : s.compiles) {
    json phases = json::object();
    for (const auto& [k, v] : c.phases) phases[k] = ns(v);
    compiles.push_back({{"compile_id", c.compile_id}, {"function", c.function}, {"line", c.line}, {"phase_ns", phases},
                        {"recompile_reasons", c.recompile_reasons}, {"cache", c.cache},
                        {"graph_breaks", c.graph_breaks}, {"skipped", c.skipped},
                        {"fail_reason", c.fail_reason.empty() ? json(nullptr) : json(c.fail_reason)}});
  }
  json breaks = json::array();
  for (const auto& b : s.breaks)
    breaks.push_back({{"file", b.file}, {"line", b.line}, {"kind", b.kind}, {"reason", b.reason}, {"fix", b.fix},
                      {"count", b.count}});
  json fallback = nullptr;
  if (s.fallback) {
    const Fallback& f = *s.fallback;
    fallback = {{"at_call", opt(f.at_call)}, {"limit", f.limit}, {"limit_value", opt(f.value)}, {"guard", f.guard},
                {"kind", f.kind}, {"fix", f.fix}, {"calls_after", f.calls_after}, {"eager_calls_after", f.eager_after}};
  }
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
          {"fallback", fallback},
          {"eager", eager}};
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
          {"compare_eager", r.compared ? json{{"runs_each", r.repeat}, {"stance", r.stance},
                                              {"eager_exit_statuses", r.eager_exit_statuses}}
                                       : json(nullptr)},
          {"trace", r.trace.is_null() ? json(nullptr) : r.trace}};
}

}  // namespace tct::run
