#include "run/json.hpp"

#include <cmath>

#include "core/json_read.hpp"
#include "trace/json.hpp"

namespace tct::run {
namespace {

using json = nlohmann::json;

// A fix's terms beside it; none in a document from before they were written (it reads back so).
void with_terms(json& entry, const core::FixTerms& t) {
  if (!t.id.empty()) entry["fix_terms"] = core::to_json(t);
}

json ns(Ns d) { return std::isfinite(d.count()) ? json(static_cast<int64_t>(std::llround(d.count()))) : json(nullptr); }
json num(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }
template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json frame(const FrameRole& f) {
  return {{"frame", f.frame}, {"function", f.function},
          {"file", f.file},   {"line", f.line},
          {"role", f.role},   {"break_line", f.break_line > 0 ? json(f.break_line) : json(nullptr)}};
}

json times(const CallTimes& t) {
  return {{"calls", t.calls}, {"median_ns", ns(t.median)}, {"p90_ns", ns(t.p90)}, {"total_ns", ns(t.total)}};
}

json site(const SiteResult& s) {
  json compiles = json::array();
  for (const auto& c : s.compiles) {
    json phases = json::object();
    for (const auto& [k, v] : c.phases) phases[k] = ns(v);
    compiles.push_back({{"compile_id", c.compile_id},
                        {"frame", c.frame},
                        {"function", c.function},
                        {"line", c.line},
                        {"phase_ns", phases},
                        {"recompile_reasons", c.recompile_reasons},
                        {"cache", c.cache},
                        {"graph_breaks", c.graph_breaks},
                        {"skipped", c.skipped},
                        {"fail_type", c.fail_type.empty() ? json(nullptr) : json(c.fail_type)},
                        {"fail_reason", c.fail_reason.empty() ? json(nullptr) : json(c.fail_reason)}});
  }
  json breaks = json::array();
  for (const auto& b : s.breaks) {
    breaks.push_back({{"file", b.file},
                      {"line", b.line},
                      {"kind", b.kind},
                      {"reason", b.reason},
                      {"fix", b.fix},
                      {"count", b.count}});
    with_terms(breaks.back(), b.fix_terms);
  }
  json fallbacks = json::array();
  for (const auto& f : s.fallbacks) {
    fallbacks.push_back({{"frame", frame(f.frame)},
                         {"cause", f.cause},
                         {"limit_value", opt(f.limit_value)},
                         {"at_call", opt(f.at_call)},
                         {"guard", f.guard},
                         {"reason", f.reason},
                         {"kind", f.kind},
                         {"fix", f.fix},
                         {"calls_after", f.calls_after},
                         {"eager_calls_after", opt(f.eager_after)}});
    with_terms(fallbacks.back(), f.fix_terms);
  }
  json groups = json::array();
  for (const auto& g : s.recompile_groups) {
    groups.push_back({{"frame", frame(g.frame)},
                      {"guard", g.pattern},
                      {"values", g.values},
                      {"count", g.count},
                      {"limit", opt(g.limit)},
                      {"code", g.code},
                      {"code_file", g.code_file},
                      {"code_file_truncated", g.code_file_truncated},
                      {"code_line", g.code_line},
                      {"cause", g.cause},
                      {"why", g.why},
                      {"fix", g.fix},
                      {"cost", g.cost},
                      {"compile_time_ns", ns(g.compile_time)}});
    with_terms(groups.back(), g.fix_terms);
  }
  json eager = nullptr;
  if (s.eager) {
    const EagerComparison& e = *s.eager;
    eager = {{"compiled", times(e.compiled)},
             {"eager", times(e.eager)},
             {"speedup",
              {{"estimate", num(e.speedup.estimate)},
               {"low", num(e.speedup.low)},
               {"high", num(e.speedup.high)},
               {"confidence", 0.95},
               {"covers", e.covers},
               {"runs_each", e.runs_each}}},
             {"compile_cost_ns", ns(e.compile_cost)},
             {"break_even_calls", e.break_even_calls ? json(std::ceil(*e.break_even_calls)) : json(nullptr)},
             {"paid_back", e.paid_back},
             {"verdict", std::string(stats::to_string(e.verdict))},
             {"clock", e.clock}};
  }
  json runs = json::array();
  for (const auto& c : s.runs)
    runs.push_back({{"run", c.run},
                    {"cache_state", c.cache_state},
                    {"cache", c.cache},
                    {"compile_time_ns", ns(c.compile_time)},
                    {"compile_cost_ns", ns(c.compile_cost)},
                    {"break_even_calls", c.break_even_calls ? json(std::ceil(*c.break_even_calls)) : json(nullptr)}});
  json trials = json::array();
  for (const auto& t : s.trials)
    trials.push_back({{"fix", t.fix},
                      {"graph_breaks_before", t.breaks_before},
                      {"graph_breaks_after", t.breaks_after},
                      {"before", times(t.before)},
                      {"after", times(t.after)},
                      {"speedup",
                       {{"estimate", num(t.speedup.estimate)},
                        {"low", num(t.speedup.low)},
                        {"high", num(t.speedup.high)},
                        {"confidence", 0.95}}},
                      {"verdict", std::string(stats::to_string(t.verdict))}});
  json stall = nullptr;
  if (s.stall)
    stall = {{"compiled_p90_over_median", num(s.stall->compiled_ratio)},
             {"eager_p90_over_median", num(s.stall->eager_ratio)},
             {"with_load", s.stall->with_load}};
  json out = {{"key", s.key},
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
              {"refused_compiles", s.refused},
              {"unfinished_compiles", s.unfinished},
              {"graph_breaks", s.graph_breaks},
              {"breaks", breaks},
              {"cache", s.cache},
              {"recompile_groups", groups},
              {"fallbacks", fallbacks},
              {"backward_outside", s.backward_outside},
              {"eager", eager},
              {"compiled_runs", runs},
              {"wrapper", s.wrapper.empty() ? json(nullptr) : json(s.wrapper)},
              {"fix_trials", trials},
              {"stall", stall}};
  // Written when there is one: a site without code that runs eagerly reads as before the field.
  if (!s.eager_parts.empty()) out["eager_parts"] = core::to_json(s.eager_parts);
  return out;
}

}  // namespace

json to_json(const RunResult& r) {
  json processes = json::array();
  for (const auto& p : r.processes) {
    json sites = json::array();
    for (const auto& s : p.sites) sites.push_back(site(s));
    processes.push_back({{"rank", opt(p.rank)},
                         {"pid", p.pid},
                         {"complete", p.complete()},
                         {"records_final", p.final},
                         {"running", p.running},
                         {"ended_by", p.ended_by.empty() ? json(nullptr) : json(p.ended_by)},
                         {"records_missing", p.records_missing},
                         {"trace_compiles", p.trace_compiles},
                         {"trace_recompiles", p.trace_recompiles},
                         {"sites", sites}});
  }
  json first_end = nullptr;
  if (const auto& e = r.first_end)
    first_end = {{"rank", opt(e->rank)},
                 {"pid", e->pid},
                 {"exitcode", e->exitcode},
                 {"signal", e->signal.empty() ? json(nullptr) : json(e->signal)},
                 {"moment", e->moment},
                 {"compiling", e->compiling.empty() ? json(nullptr) : json(e->compiling)},
                 {"calls", e->calls},
                 {"records", e->records},
                 {"trace_compiles", e->trace_compiles},
                 {"stopped", e->stopped}};
  json fix_runs = json::array();
  for (const auto& f : r.fix_runs)
    fix_runs.push_back({{"fix", f.fix}, {"exit_status", f.exit_status}, {"exit", f.exit_text}});
  json divergence = json::array();
  for (const auto& d : r.divergence)
    divergence.push_back({{"rank", opt(d.rank)}, {"what", d.what}, {"message", d.message}});
  return {
      {"command", r.command},
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
      {"first_end", first_end},
      {"divergence", divergence},
      {"notes", r.notes},
      {"threads", opt(r.threads)},
      {"contention",
       {{"load_1m", num(r.contention.load_1m)},
        {"cpus", r.contention.cpus},
        {"involuntary_switches_per_s", num(r.contention.involuntary_switches_per_s)},
        {"torch_threads", opt(r.contention.torch_threads)}}},
      {"compare_eager",
       r.compared ? json{{"runs_each", r.repeat}, {"stance", r.stance}, {"eager_exit_statuses", r.eager_exit_statuses}}
                  : json(nullptr)},
      {"try_fixes", r.try_fixes ? json{{"runs", fix_runs}} : json(nullptr)},
      {"trace", r.trace ? trace::to_json(*r.trace) : json(nullptr)}};
}

namespace {

namespace jr = core::json_read;

// null (a non-finite duration when written) reads back as not measured.
Ns ns_of(const json& j, const char* key) {
  const json& v = jr::at(j, key);
  return v.is_number() ? Ns(v.get<double>()) : kNotMeasured;
}
double num_of(const json& j, const char* key) {
  const json& v = jr::at(j, key);
  return v.is_number() ? v.get<double>() : NAN;
}
std::map<std::string, int> counts_of(const json& j) {
  std::map<std::string, int> out;
  if (j.is_object())
    for (const auto& [k, v] : j.items())
      if (v.is_number()) out[k] = v.get<int>();
  return out;
}

FrameRole frame_from(const json& j) {
  FrameRole f;
  f.frame = jr::str(j, "frame");
  f.function = jr::str(j, "function");
  f.file = jr::str(j, "file");
  f.line = jr::num(j, "line");
  f.role = jr::str(j, "role");
  f.break_line = jr::num(j, "break_line");
  return f;
}

CallTimes times_from(const json& j) {
  CallTimes t;
  t.calls = jr::num<size_t>(j, "calls");
  t.median = ns_of(j, "median_ns");
  t.p90 = ns_of(j, "p90_ns");
  t.total = ns_of(j, "total_ns");
  return t;
}

Fallback fallback_from(const json& j) {
  Fallback f;
  f.frame = frame_from(jr::at(j, "frame"));
  f.cause = jr::str(j, "cause", "recompile_limit");
  f.limit_value = jr::opt_num<int>(j, "limit_value");
  f.at_call = jr::opt_num<size_t>(j, "at_call");
  f.guard = jr::str(j, "guard");
  f.reason = jr::str(j, "reason");
  f.kind = jr::str(j, "kind");
  f.fix = jr::str(j, "fix");
  f.fix_terms = core::fix_terms_from_json(jr::at(j, "fix_terms"));
  f.calls_after = jr::num<size_t>(j, "calls_after");
  f.eager_after = jr::opt_num<size_t>(j, "eager_calls_after");
  return f;
}

std::vector<Fallback> fallbacks_from(const json& site) {
  std::vector<Fallback> out;
  if (jr::at(site, "fallbacks").is_array()) {
    for (const auto& f : jr::list(site, "fallbacks")) out.push_back(fallback_from(f));
    return out;
  }
  // Documents before the list: one "fallback", the site's own frame, its cause in "limit".
  const json& old = jr::at(site, "fallback");
  if (!old.is_object()) return out;
  Fallback f = fallback_from(old);
  f.cause = jr::str(old, "limit", "recompile_limit");
  f.frame.role = "site";
  f.frame.function = jr::str(jr::at(site, "code"), "function");
  out.push_back(std::move(f));
  return out;
}

std::optional<double> break_even_of(const json& j) { return jr::opt_num<double>(j, "break_even_calls"); }

SiteResult site_from(const json& j) {
  SiteResult s;
  s.key = jr::str(j, "key");
  s.kind = jr::str(j, "kind");
  s.name = jr::str(j, "name");
  s.site_file = jr::str(jr::at(j, "site"), "file");
  s.site_line = jr::num(jr::at(j, "site"), "line");
  s.code_name = jr::str(jr::at(j, "code"), "function");
  s.code_file = jr::str(jr::at(j, "code"), "file");
  s.code_line = jr::num(jr::at(j, "code"), "line");
  s.calls = jr::num<size_t>(j, "calls");
  s.compiling_calls = jr::num<size_t>(j, "compiling_calls");
  s.eager_known = jr::at(j, "eager_calls").is_number();
  s.eager_calls = jr::num<size_t>(j, "eager_calls");
  s.first_eager_call = jr::opt_num<size_t>(j, "first_eager_call");
  s.all = times_from(jr::at(j, "all_calls"));
  s.steady = times_from(jr::at(j, "steady_calls"));
  if (jr::at(j, "device_steady_calls").is_object()) s.device_steady = times_from(j["device_steady_calls"]);
  s.compiling_time = ns_of(j, "compiling_calls_ns");
  s.job_share = num_of(j, "job_share");
  s.compile_time = ns_of(j, "compile_time_ns");
  for (const auto& c : jr::list(j, "compiles")) {
    FrameCompile f;
    f.compile_id = jr::str(c, "compile_id");
    f.frame = jr::str(c, "frame");
    f.function = jr::str(c, "function");
    f.line = jr::num(c, "line");
    if (const json& phases = jr::at(c, "phase_ns"); phases.is_object())
      for (const auto& [k, v] : phases.items()) f.phases[k] = v.is_number() ? Ns(v.get<double>()) : kNotMeasured;
    for (const auto& reason : jr::list(c, "recompile_reasons"))
      f.recompile_reasons.push_back(reason.is_string() ? reason.get<std::string>() : reason.dump());
    f.cache = counts_of(jr::at(c, "cache"));
    f.graph_breaks = jr::num(c, "graph_breaks");
    f.skipped = jr::flag(c, "skipped");
    f.fail_type = jr::str(c, "fail_type");
    f.fail_reason = jr::str(c, "fail_reason");
    s.compiles.push_back(std::move(f));
  }
  s.recompiles = jr::num(j, "recompiles");
  s.refused = jr::num(j, "refused_compiles");
  s.unfinished = jr::num(j, "unfinished_compiles");
  s.graph_breaks = jr::num(j, "graph_breaks");
  for (const auto& b : jr::list(j, "breaks"))
    s.breaks.push_back({jr::str(b, "file"), jr::str(b, "kind"), jr::str(b, "reason"), jr::str(b, "fix"),
                        jr::num(b, "line"), jr::num(b, "count"), core::fix_terms_from_json(jr::at(b, "fix_terms"))});
  s.eager_parts = core::eager_parts_from_json(jr::at(j, "eager_parts"));
  s.cache = counts_of(jr::at(j, "cache"));
  for (const auto& g : jr::list(j, "recompile_groups")) {
    RecompileGroup r;
    r.frame = frame_from(jr::at(g, "frame"));
    r.pattern = jr::str(g, "guard");
    for (const auto& v : jr::list(g, "values")) r.values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    r.count = jr::num(g, "count");
    r.limit = jr::opt_num<int>(g, "limit");
    r.code = jr::str(g, "code");
    r.code_file = jr::str(g, "code_file");
    r.code_file_truncated = jr::flag(g, "code_file_truncated");
    r.code_line = jr::num(g, "code_line");
    r.cause = jr::str(g, "cause");
    r.why = jr::str(g, "why");
    r.fix = jr::str(g, "fix");
    r.cost = jr::str(g, "cost");
    r.fix_terms = core::fix_terms_from_json(jr::at(g, "fix_terms"));
    if (r.fix_terms.cost.empty()) r.fix_terms.cost = r.cost;  // a document from before fix_terms
    r.compile_time = ns_of(g, "compile_time_ns");
    s.recompile_groups.push_back(std::move(r));
  }
  s.fallbacks = fallbacks_from(j);
  s.backward_outside = jr::flag(j, "backward_outside");
  if (const json& e = jr::at(j, "eager"); e.is_object()) {
    EagerComparison c;
    c.compiled = times_from(jr::at(e, "compiled"));
    c.eager = times_from(jr::at(e, "eager"));
    const json& sp = jr::at(e, "speedup");
    c.speedup = {num_of(sp, "estimate"), num_of(sp, "low"), num_of(sp, "high")};
    c.covers = jr::str(sp, "covers");
    c.runs_each = jr::num(sp, "runs_each", 1);
    c.compile_cost = ns_of(e, "compile_cost_ns");
    c.break_even_calls = break_even_of(e);
    c.paid_back = jr::flag(e, "paid_back");
    c.verdict = stats::decide(c.speedup.estimate, c.speedup.low, c.speedup.high);
    c.clock = jr::str(e, "clock", "host");
    s.eager = std::move(c);
  }
  for (const auto& c : jr::list(j, "compiled_runs")) {
    RunCompile rc;
    rc.run = jr::num(c, "run", 1);
    rc.cache_state = jr::str(c, "cache_state");
    rc.cache = counts_of(jr::at(c, "cache"));
    rc.compile_time = ns_of(c, "compile_time_ns");
    rc.compile_cost = ns_of(c, "compile_cost_ns");
    rc.break_even_calls = break_even_of(c);
    s.runs.push_back(std::move(rc));
  }
  s.wrapper = jr::str(j, "wrapper");
  for (const auto& t : jr::list(j, "fix_trials")) {
    FixTrial f;
    f.fix = jr::str(t, "fix");
    f.breaks_before = jr::num(t, "graph_breaks_before");
    f.breaks_after = jr::num(t, "graph_breaks_after");
    f.before = times_from(jr::at(t, "before"));
    f.after = times_from(jr::at(t, "after"));
    const json& sp = jr::at(t, "speedup");
    f.speedup = {num_of(sp, "estimate"), num_of(sp, "low"), num_of(sp, "high")};
    f.verdict = stats::decide(f.speedup);  // decided again from the interval, by the one rule
    s.trials.push_back(std::move(f));
  }
  if (const json& st = jr::at(j, "stall"); st.is_object())
    s.stall =
        Stall{num_of(st, "compiled_p90_over_median"), num_of(st, "eager_p90_over_median"), jr::flag(st, "with_load")};
  return s;
}

}  // namespace

RunResult from_json(const json& section) {
  RunResult r;
  r.command = jr::strings(section, "command");
  r.exit_status = jr::num(section, "exit_status");
  r.exit_text = jr::str(section, "exit");
  r.interrupted = jr::flag(section, "interrupted");
  r.wall = ns_of(section, "wall_ns");
  r.record_dir = jr::str(section, "record_dir");
  r.trace_dir = jr::str(section, "trace_dir");
  r.cwd = jr::str(section, "cwd");
  r.torch = jr::str(section, "torch");
  r.processes_with_torch = jr::num(section, "processes_with_torch");
  for (const auto& p : jr::list(section, "processes")) {
    ProcessResult pr;
    pr.rank = jr::opt_num<int>(p, "rank");
    pr.pid = jr::num<int64_t>(p, "pid");
    pr.final = jr::flag(p, "records_final", jr::flag(p, "complete", true));
    pr.running = jr::flag(p, "running");
    pr.ended_by = jr::str(p, "ended_by");
    pr.records_missing = jr::flag(p, "records_missing");
    pr.trace_compiles = jr::num(p, "trace_compiles");
    pr.trace_recompiles = jr::num(p, "trace_recompiles");
    for (const auto& s : jr::list(p, "sites")) pr.sites.push_back(site_from(s));
    r.processes.push_back(std::move(pr));
  }
  if (const json& e = jr::at(section, "first_end"); e.is_object()) {
    FirstEnd f;
    f.rank = jr::opt_num<int>(e, "rank");
    f.pid = jr::num<int64_t>(e, "pid");
    f.exitcode = jr::num(e, "exitcode");
    f.signal = jr::str(e, "signal");
    f.moment = jr::str(e, "moment");
    f.compiling = jr::str(e, "compiling");
    f.calls = jr::num<size_t>(e, "calls");
    f.records = jr::flag(e, "records");
    f.trace_compiles = jr::num(e, "trace_compiles");
    for (const auto& k : jr::list(e, "stopped"))
      if (k.is_number_integer()) f.stopped.push_back(k.get<int>());
    r.first_end = f;
  }
  for (const auto& d : jr::list(section, "divergence"))
    r.divergence.push_back({jr::opt_num<int>(d, "rank"), jr::str(d, "what"), jr::str(d, "message")});
  r.notes = jr::strings(section, "notes");
  r.threads = jr::opt_num<int>(section, "threads");
  const json& c = jr::at(section, "contention");
  r.contention.load_1m = num_of(c, "load_1m");
  r.contention.cpus = jr::num<unsigned>(c, "cpus");
  r.contention.involuntary_switches_per_s = num_of(c, "involuntary_switches_per_s");
  r.contention.torch_threads = jr::opt_num<int>(c, "torch_threads");
  if (const json& cmp = jr::at(section, "compare_eager"); cmp.is_object()) {
    r.compared = true;
    r.repeat = jr::num(cmp, "runs_each", 1);
    r.stance = jr::str(cmp, "stance");
    for (const auto& st : jr::list(cmp, "eager_exit_statuses"))
      if (st.is_number()) r.eager_exit_statuses.push_back(st.get<int>());
  }
  if (const json& t = jr::at(section, "try_fixes"); t.is_object()) {
    r.try_fixes = true;
    for (const auto& f : jr::list(t, "runs"))
      r.fix_runs.push_back({jr::str(f, "fix"), jr::num(f, "exit_status"), jr::str(f, "exit")});
  }
  if (const json& t = jr::at(section, "trace"); t.is_object()) r.trace = trace::from_json(t);
  return r;
}

}  // namespace tct::run
