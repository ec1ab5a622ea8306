#include "run/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include <fmt/format.h>

#include "core/hint_catalog.hpp"
#include "core/recompile_guard.hpp"
#include "run/breakdown.hpp"
#include "run/shapes.hpp"
#include "trace/eager_parts.hpp"
#include "stats/break_even.hpp"
#include "stats/summary.hpp"

namespace tct::run {
namespace {

constexpr int kResamples = 2000;
// Above this many calls a run's steady calls are thinned (every k-th) before the bootstrap:
// 2000 medians of millions of calls would take minutes, and consecutive calls are not
// independent anyway, so the thinned interval is, if anything, the more honest one.
constexpr size_t kMaxBootstrapCalls = 20000;

std::vector<double> thin(const std::vector<double>& xs) {
  if (xs.size() <= kMaxBootstrapCalls) return xs;
  std::vector<double> out;
  const double step = static_cast<double>(xs.size()) / kMaxBootstrapCalls;
  for (size_t i = 0; i < kMaxBootstrapCalls; ++i) out.push_back(xs[static_cast<size_t>(i * step)]);
  return out;
}

// A shape fix's cost on the user's job (mark_dynamic, dynamic=True, mark_unbacked) is measured by
// tct job, on the job's own shapes; while untried, its terms say so.
core::FixTerms with_shape_fix_measurer(core::FixTerms t) {
  if (t.untried && (t.id == "size" || t.id == "mark_unbacked")) t.measured_by = "tct job --shape-fixes";
  return t;
}

double median_of(std::vector<double>& xs) {
  if (xs.empty()) return NAN;
  auto mid = xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2);
  std::nth_element(xs.begin(), mid, xs.end());
  double hi = *mid;
  if (xs.size() % 2 == 1) return hi;
  double lo = *std::max_element(xs.begin(), mid);
  return (lo + hi) / 2;
}

// One bootstrap draw of a mode's pooled median: runs drawn with replacement (when there are
// several), then calls within each drawn run.
double draw_median(const std::vector<std::vector<double>>& runs, std::mt19937_64& rng, std::vector<double>& buf) {
  buf.clear();
  std::uniform_int_distribution<size_t> pick_run(0, runs.size() - 1);
  for (size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs.size() > 1 ? runs[pick_run(rng)] : runs[r];
    if (run.empty()) continue;
    std::uniform_int_distribution<size_t> pick(0, run.size() - 1);
    for (size_t i = 0; i < run.size(); ++i) buf.push_back(run[pick(rng)]);
  }
  return median_of(buf);
}

bool contains(const std::vector<size_t>& sorted_or_not, size_t i) {
  return std::find(sorted_or_not.begin(), sorted_or_not.end(), i) != sorted_or_not.end();
}

// A compile id's frame: "1/3" -> "1", "!0/1/3" (compiled autograd) -> "!0/1".
std::string frame_of(const std::string& compile_id) {
  const auto slash = compile_id.rfind('/');
  return slash == std::string::npos ? compile_id : compile_id.substr(0, slash);
}

std::string frame_of(const trace::CompileId& id) {
  return id.autograd >= 0 ? fmt::format("!{}/{}", id.autograd, id.frame) : std::to_string(id.frame);
}

// The frames a site owns: those whose compiles started during its calls (the bootstrap's
// compile ids), whatever their names: resume functions, nested frames, Dynamo's wrappers.
std::set<std::string> frames_of(const SiteRecord& s) {
  std::set<std::string> out;
  for (const auto& [call, id] : s.compile_ids) out.insert(frame_of(id));
  return out;
}

// Records of a bootstrap without compile ids: the site's own code object, or a resume
// function Dynamo made of it after a graph break (torch_dynamo_resume_in_<name>_at_<line>).
bool belongs_by_name(const trace::CompileSummary& c, const SiteRecord& s) {
  if (c.file != s.code_file || s.code_name.empty()) return false;
  if (c.function == s.code_name && c.line == s.code_line) return true;
  return c.function.rfind("torch_dynamo_resume_in_" + s.code_name + "_at_", 0) == 0;
}

FrameRole role_of(const std::string& frame, const std::string& function, const std::string& file, int line,
                  const SiteRecord& s) {
  FrameRole r{frame, function, file, line, "nested", 0};
  static const std::string resume = "torch_dynamo_resume_in_";
  if (function == s.code_name && (file.empty() || file == s.code_file)) {
    r.role = "site";
  } else if (function.rfind(resume, 0) == 0) {
    r.role = "after_break";
    if (auto at = function.rfind("_at_"); at != std::string::npos) {
      try {
        r.break_line = std::stoi(function.substr(at + 4));
      } catch (const std::exception&) {}
    }
  }
  return r;
}

const trace::RankSummary* trace_for(const ProcessRecord& p, const std::vector<trace::RankSummary>& ranks) {
  if (p.rank) {
    for (const auto& r : ranks)
      if (r.rank == p.rank) return &r;
    return nullptr;
  }
  const trace::RankSummary* only = nullptr;
  int unranked = 0;
  for (const auto& r : ranks)
    if (!r.rank) {
      only = &r;
      ++unranked;
    }
  return unranked == 1 ? only : nullptr;
}

void join_trace(SiteResult& out, const SiteRecord& s, const trace::RankSummary& rank) {
  std::set<std::string> ids;
  const std::set<std::string> frames = frames_of(s);
  for (const auto& [id, c] : rank.compiles) {
    if (!(frames.empty() ? belongs_by_name(c, s) : frames.count(frame_of(id)) > 0)) continue;
    ids.insert(id.str());
    FrameCompile f;
    f.compile_id = id.str();
    f.frame = frame_of(id);
    f.function = c.function;
    f.line = c.line;
    for (const auto& [p, sec] : c.phase_s) f.phases[p] = Ns(sec * 1e9);
    f.recompile_reasons = c.recompile_reasons;
    f.cache = c.cache;
    f.graph_breaks = c.breaks;
    f.skipped = c.skipped;
    f.fail_reason = c.fail_reason;
    f.fail_type = c.fail_type;
    f.file = c.file;
    f.finished = c.finished;
    f.guard_count = c.guard_count;
    if (!c.finished) ++out.unfinished;
    // not a reply: a typed map of the compile's phases (its TORCH_TRACE records)
    if (auto it = c.phase_s.find("entire_frame"); it != c.phase_s.end()) out.compile_time += Ns(it->second * 1e9);
    if (c.recompiled()) ++out.recompiles;
    else if (!c.recompile_reasons.empty()) ++out.refused;
    for (const auto& [k, v] : c.cache) out.cache[k] += v;
    out.compiles.push_back(std::move(f));
  }
  std::map<std::tuple<std::string, int, std::string>, size_t> where;  // (file, line, kind) -> breaks index
  std::set<std::string> compile_ids_of_site;                          // with attempts: "0/0_1" is 0/0's second attempt
  for (const auto& [id, c] : rank.compiles) {
    if (!ids.count(id.str())) continue;
    trace::CompileId attempt = id;
    for (int a = 0; a < c.attempts; ++a, ++attempt.attempt) compile_ids_of_site.insert(attempt.str());
  }
  for (const auto& p : trace::eager_parts(rank))
    if (compile_ids_of_site.count(p.compile_id)) out.eager_parts.push_back(p);
  for (const auto& b : rank.breaks) {
    if (!compile_ids_of_site.count(b.compile_id)) continue;
    // A record of code that runs eagerly (the rest of a frame, a skipped frame) is no graph
    // break as torch counts them: it is in eager_parts.
    if (b.frame_skipped) continue;
    ++out.graph_breaks;
    auto key = std::make_tuple(b.file, b.line, std::string(core::to_string(b.kind)));
    auto [it, fresh] = where.try_emplace(key, out.breaks.size());
    if (fresh) {
      SiteBreak sb;
      sb.file = b.file;
      sb.line = b.line;
      sb.kind = std::get<2>(key);
      sb.reason = b.reason;
      const core::Hint h = trace::fix_of(b);
      sb.fix = h.fix;
      sb.fix_terms = h.terms;
      out.breaks.push_back(std::move(sb));
    }
    SiteBreak& sb = out.breaks[it->second];
    ++sb.count;
    if (sb.reason.empty()) sb.reason = b.reason;
  }
}

bool mentions_limit(const std::string& text) {
  return text.find("recompile_limit") != std::string::npos || text.find("recompile limit") != std::string::npos ||
         text.find("cache_size_limit") != std::string::npos;
}

// Each frame of the site as the user knows it, from the compiles that name it (a compile the
// limit refused carries no name: its frame's other compiles do).
std::map<std::string, FrameRole> frame_roles(const SiteResult& out, const SiteRecord& s) {
  std::map<std::string, FrameRole> roles;
  for (const auto& c : out.compiles)
    if (!c.function.empty() && !roles.count(c.frame)) roles[c.frame] = role_of(c.frame, c.function, c.file, c.line, s);
  return roles;
}

FrameRole role_or_unknown(const std::map<std::string, FrameRole>& roles, const std::string& frame) {
  auto it = roles.find(frame);
  return it != roles.end() ? it->second : FrameRole{frame, "", "", 0, "nested", 0};
}

// "a Python list of ints is specialized by value", from the guard's source and value.
std::string why_of(const core::GuardFailure& g, const core::RecompileFix& fix) {
  if (fix.cause != core::RecompileCause::PythonValue || g.value.empty()) return fix.why;
  const std::string kind(core::value_kind(g.value));
  const bool element = g.pattern.find('[') != std::string::npos;
  return fmt::format("a Python {} is specialized by value: each new value compiles again",
                     element ? "list (or tuple) of " + kind + "s" : kind);
}

bool ends_with_path(const std::string& full, const std::string& tail) {
  return !tail.empty() && full.size() >= tail.size() && full.compare(full.size() - tail.size(), tail.size(), tail) == 0;
}

// The guard's file as the job had it. Dynamo shortens the path on the guard's line
// ("mp/newcomer6/train_ddp.py:23", its tail cut at characters, not at a folder): the full
// path is the one among the job's files (the site's code, the "File ..." lines torch appends
// to the same reason) that ends with it. None ends with it: it stays as torch wrote it, marked.
std::string resolve_guard_file(const std::string& file, const SiteRecord& s, const std::vector<std::string>& reasons,
                               bool& truncated) {
  truncated = false;
  if (file.empty() || file.front() == '/') return file;
  std::vector<std::string> candidates = {s.code_file, s.site_file};
  for (const auto& reason : reasons)
    for (size_t at = reason.find("File \""); at != std::string::npos; at = reason.find("File \"", at + 1)) {
      const size_t start = at + 6, end = reason.find('"', start);
      if (end != std::string::npos) candidates.push_back(reason.substr(start, end - start));
    }
  for (const auto& c : candidates)
    if (ends_with_path(c, file)) return c;
  truncated = true;
  return file;
}

// One group per frame and cause (the guard pattern), from each recompile's newest failed guard.
void group_recompiles(SiteResult& out, const SiteRecord& s, const ProcessRecord& p,
                      const std::map<std::string, FrameRole>& roles) {
  std::map<std::pair<std::string, std::string>, size_t> index;  // (frame, pattern) -> group
  for (const auto& c : out.compiles) {
    if (c.recompile_reasons.empty()) continue;
    const auto g = core::newest_guard_failure(c.recompile_reasons);
    if (!g) continue;
    auto [it, fresh] = index.try_emplace({c.frame, g->pattern}, out.recompile_groups.size());
    if (fresh) {
      const core::RecompileFix fix = core::recompile_fix(*g);
      RecompileGroup r;
      r.frame = role_or_unknown(roles, c.frame);
      r.pattern = g->pattern;
      r.code = g->code;
      r.code_file = resolve_guard_file(g->file, s, c.recompile_reasons, r.code_file_truncated);
      r.code_line = g->line;
      r.cause = fix.name;
      r.why = why_of(*g, fix);
      r.fix = fix.fix;
      r.cost = fix.terms.cost;
      r.fix_terms = with_shape_fix_measurer(fix.terms);
      // not a reply: a typed map of dynamo's limits (the process record, run/records.cpp)
      if (auto l = p.limits.find("recompile_limit"); l != p.limits.end()) r.limit = l->second;
      out.recompile_groups.push_back(std::move(r));
    }
    RecompileGroup& r = out.recompile_groups[it->second];
    if (!g->value.empty() && std::find(r.values.begin(), r.values.end(), g->value) == r.values.end())
      r.values.push_back(g->value);
    if (!c.recompiled()) continue;  // a compile the limit refused: not a recompile
    ++r.count;
    // not a reply: a typed map of the compile's phases
    if (auto ph = c.phases.find("entire_frame"); ph != c.phases.end()) r.compile_time += ph->second;
  }
}

// "'forward' (/job/serve.py:17)" -> the function's name.
std::string function_in(const std::string& text) {
  auto a = text.find('\'');
  auto b = a == std::string::npos ? a : text.find('\'', a + 1);
  return b == std::string::npos ? "" : text.substr(a + 1, b - a - 1);
}

void find_fallbacks(SiteResult& out, const SiteRecord& s, const ProcessRecord& p,
                    const std::map<std::string, FrameRole>& roles) {
  auto for_frame = [&](const std::string& frame) -> Fallback& {
    for (auto& f : out.fallbacks)
      if (f.frame.frame == frame) return f;
    Fallback f;
    f.frame = role_or_unknown(roles, frame);
    out.fallbacks.push_back(std::move(f));
    return out.fallbacks.back();
  };
  // Dynamo's own warning, as the bootstrap caught it: the call that hit the limit.
  for (const auto& h : p.limit_hits) {
    if (h.site != s.index) continue;
    // Without a compile id (an older bootstrap) the hit was matched by the site's own code.
    const std::string frame = h.compile_id.empty() ? "" : frame_of(h.compile_id);
    Fallback& f = for_frame(frame);
    if (f.frame.function.empty()) {
      const std::string function = function_in(h.function);
      f.frame = role_of(frame, function.empty() ? s.code_name : function, s.code_file, 0, s);
    }
    f.cause = h.limit.empty() ? "recompile_limit" : h.limit;
    f.limit_value = h.value;
    if (!f.at_call) f.at_call = h.call;
    if (auto g = core::newest_guard_failure({h.last_reason}); g && f.guard.empty()) {
      const core::RecompileFix fix = core::recompile_fix(*g);
      f.guard = g->pattern;
      f.kind = fix.name;
      f.fix = fix.fix;
      f.fix_terms = with_shape_fix_measurer(fix.terms);
    }
  }
  // The trace's failure records: a compile the limit refused, or one Dynamo gave up on.
  for (const auto& c : out.compiles) {
    const bool limit = mentions_limit(c.fail_reason);
    if (!limit && c.fail_type.empty()) continue;
    Fallback& f = for_frame(c.frame);
    if (f.cause.empty())
      f.cause = !limit                                                   ? "compile_failed"
                : c.fail_reason.find("accumulated") != std::string::npos ? "accumulated_recompile_limit"
                                                                         : "recompile_limit";
    if (f.reason.empty()) f.reason = c.fail_reason.substr(0, c.fail_reason.find('\n'));
  }
  for (auto& f : out.fallbacks) {
    if (!f.limit_value && f.cause.find("limit") != std::string::npos)
      if (auto l = p.limits.find(f.cause); l != p.limits.end()) f.limit_value = l->second;
    // The guard that kept failing: the frame's last recompile's.
    for (const auto& g : out.recompile_groups)
      if (g.frame.frame == f.frame.frame) {
        f.guard = g.pattern;
        f.kind = g.cause;
        f.fix = g.fix;
        f.fix_terms = g.fix_terms;
      }
    if (f.fix.empty() && f.cause == "compile_failed") {
      f.fix = "run `tct explain` on the function, or read the failure with `tct trace` on the logs";
      f.fix_terms = {"read_the_failure", "nothing: it reads what happened", "", "", false, ""};
    }
    const size_t from = f.at_call.value_or(0);
    f.calls_after = s.durations_ns.size() > from ? s.durations_ns.size() - from : 0;
    if (f.frame.role == "site" && p.graph_counting) {
      f.eager_after = 0;
      for (size_t i : s.eager_calls)
        if (i >= from) ++*f.eager_after;
    }
  }
  std::stable_sort(out.fallbacks.begin(), out.fallbacks.end(), [](const Fallback& a, const Fallback& b) {
    return a.frame.role == "site" && b.frame.role != "site";
  });
}

SiteResult site_result(const SiteRecord& s, const ProcessRecord& p, const trace::RankSummary* trace, Ns wall) {
  SiteResult out;
  out.key = s.key();
  out.kind = s.kind;
  out.name = s.name;
  out.site_file = s.site_file;
  out.site_line = s.site_line;
  out.code_name = s.code_name;
  out.code_file = s.code_file;
  out.code_line = s.code_line;
  out.wrapper = s.wrapper;
  out.calls = s.durations_ns.size();
  out.compiling_calls = s.compile_calls.size();
  out.eager_known = p.graph_counting;
  if (p.graph_counting) {
    out.eager_calls = s.eager_calls.size();
    for (size_t i : s.eager_calls)
      if (i > 0 && !contains(s.compile_calls, i)) {
        out.first_eager_call = i;
        break;
      }
  }
  std::vector<double> all(s.durations_ns.begin(), s.durations_ns.end());
  out.all = call_times(all);
  const std::vector<double> steady = steady_durations(s, false);
  out.steady = call_times(steady);
  if (!s.device_ns.empty()) out.device_steady = call_times(steady_durations(s, false, true));
  for (size_t i : s.compile_calls)
    if (i < s.durations_ns.size()) out.compiling_time += Ns(static_cast<double>(s.durations_ns[i]));
  out.job_share = wall.count() > 0 ? out.all.total / wall : 0.0;
  out.backward_outside = s.outputs_need_grad.value_or(false);
  if (trace) join_trace(out, s, *trace);
  const auto roles = frame_roles(out, s);
  group_recompiles(out, s, p, roles);
  find_fallbacks(out, s, p, roles);
  out.shape_use = shape_use_of(s, out.compiles);
  out.breakdown = sampled_breakdown(s, steady, wall, out.compiles);
  return out;
}

std::string relative(const std::string& path, const std::string& cwd) {
  if (!cwd.empty() && path.size() > cwd.size() + 1 && path.compare(0, cwd.size(), cwd) == 0 && path[cwd.size()] == '/')
    return path.substr(cwd.size() + 1);
  return path;
}

// Ranks whose compiling calls at a call site differ from the most common count (the
// bootstrap's count, where the trace cannot compare ranks).
void site_divergence(RunResult& r) {
  std::map<std::string, std::map<int, size_t>> compiles;  // site key -> rank -> compiles
  std::map<std::string, std::string> label;               // site key -> "step (train.py:25)"
  for (const auto& p : r.processes) {
    if (!p.rank) continue;
    for (const auto& s : p.sites) {
      compiles[s.key][*p.rank] = s.compiling_calls;
      label[s.key] = fmt::format("{} ({}:{})", s.name, relative(s.site_file, r.cwd), s.site_line);
    }
  }
  for (const auto& [key, per_rank] : compiles) {
    if (per_rank.size() < 2) continue;
    std::map<size_t, int> votes;
    for (const auto& [rank, n] : per_rank) ++votes[n];
    if (votes.size() < 2) continue;
    size_t common =
        std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
    for (const auto& [rank, n] : per_rank)
      if (n != common)
        r.divergence.push_back({rank, "site_compiles",
                                fmt::format("rank {} compiled during {} call(s) of {}, the other ranks {}: it sees "
                                            "other shapes or values there (its recompiles say which guard)",
                                            rank, n, label[key], common)});
  }
}

struct SiteKey {
  std::optional<int> rank;
  std::string key;
  bool operator<(const SiteKey& o) const { return std::tie(rank, key) < std::tie(o.rank, o.key); }
};

std::map<SiteKey, std::vector<double>> steady_by_site(const RecordSet& set, bool eager_run, bool device) {
  std::map<SiteKey, std::vector<double>> out;
  for (const auto& p : set.processes)
    for (const auto& s : p.sites) {
      auto v = steady_durations(s, eager_run, device);
      auto& dst = out[{p.rank, s.key()}];
      dst.insert(dst.end(), v.begin(), v.end());
    }
  return out;
}

// Each compiled run's compile at one site, with its cache state, and the break-even its compile
// cost gives at the comparison's per-call times.
std::vector<RunCompile> run_compiles(const RunInputs& in, std::optional<int> rank, const std::string& key,
                                     const EagerComparison& cmp) {
  std::vector<RunCompile> out;
  auto one = [&](const RecordSet& set, const std::vector<trace::RankSummary>& ranks, int run) {
    for (const auto& p : set.processes) {
      if (p.rank != rank) continue;
      for (const auto& rec : p.sites) {
        if (rec.key() != key) continue;
        SiteResult tmp;
        if (const auto* t = trace_for(p, ranks)) join_trace(tmp, rec, *t);
        RunCompile c;
        c.run = run;
        c.cache = tmp.cache;
        c.cache_state = cache_state(tmp.cache);
        c.compile_time = tmp.compile_time;
        Ns compiling{0};
        for (size_t i : rec.compile_calls)
          if (i < rec.durations_ns.size()) compiling += Ns(static_cast<double>(rec.durations_ns[i]));
        c.compile_cost = compiling - cmp.compiled.median * static_cast<double>(rec.compile_calls.size());
        if (cmp.verdict == stats::SpeedupVerdict::Faster)
          c.break_even_calls =
              stats::break_even_calls(c.compile_cost.count(), cmp.eager.median.count(), cmp.compiled.median.count());
        out.push_back(std::move(c));
        return;
      }
    }
  };
  one(in.records, in.trace_ranks, 1);
  for (size_t i = 0; i < in.compiled_repeats.size(); ++i)
    one(in.compiled_repeats[i], i < in.repeat_traces.size() ? in.repeat_traces[i] : std::vector<trace::RankSummary>{},
        static_cast<int>(i) + 2);
  return out;
}

// p90 / median of steady calls above this is a stall, not noise, whatever the load.
constexpr double kStallRatio = 3.0;
// On a machine with more runnable threads than cores, a lower ratio already says the calls
// move with the load: issue 43's job (load 5 on 2 CPUs, torch's 2 threads) had p90s 2.7 to 2.9
// times its medians of 69 and 79 ms, and took about 8 ms a call with one thread.
constexpr double kLoadedStallRatio = 2.0;
constexpr size_t kStallMinCalls = 10;

std::optional<Stall> site_stall(const SiteResult& s, const Contention& c, int processes) {
  auto ratio = [](const CallTimes& t) {
    return t.calls >= kStallMinCalls && t.median.count() > 0 ? t.p90 / t.median : 0.0;
  };
  return stall_of(ratio(s.eager ? s.eager->compiled : s.steady), s.eager ? ratio(s.eager->eager) : 0.0, c, processes);
}

void compare_eager(RunResult& r, const RunInputs& in) {
  // Host time always; CUDA event time too, used where every run has it for the site (on a
  // GPU the host time of a call is its launch, unless the job synchronizes).
  std::vector<std::map<SiteKey, std::vector<double>>> compiled_runs, eager_runs, compiled_dev, eager_dev;
  compiled_runs.push_back(steady_by_site(in.records, false, false));
  compiled_dev.push_back(steady_by_site(in.records, false, true));
  for (const auto& set : in.compiled_repeats) {
    compiled_runs.push_back(steady_by_site(set, false, false));
    compiled_dev.push_back(steady_by_site(set, false, true));
  }
  for (const auto& set : in.eager_runs) {
    eager_runs.push_back(steady_by_site(set, true, false));
    eager_dev.push_back(steady_by_site(set, true, true));
  }
  auto collect = [](std::vector<std::map<SiteKey, std::vector<double>>>& runs, const SiteKey& k) {
    std::vector<std::vector<double>> out;
    for (auto& run : runs)
      if (auto it = run.find(k); it != run.end() && !it->second.empty()) out.push_back(thin(it->second));
    return out;
  };
  for (auto& p : r.processes)
    for (auto& s : p.sites) {
      SiteKey k{p.rank, s.key};
      std::vector<std::vector<double>> c = collect(compiled_dev, k), e = collect(eager_dev, k);
      const bool device = c.size() == compiled_dev.size() && e.size() == eager_dev.size() && !c.empty() && !e.empty();
      if (!device) {
        c = collect(compiled_runs, k);
        e = collect(eager_runs, k);
      }
      if (c.empty() || e.empty()) continue;
      EagerComparison cmp;
      cmp.clock = device ? "cuda_events" : "host";
      std::vector<double> pooled_c, pooled_e;
      for (const auto& v : c) pooled_c.insert(pooled_c.end(), v.begin(), v.end());
      for (const auto& v : e) pooled_e.insert(pooled_e.end(), v.begin(), v.end());
      cmp.compiled = call_times(pooled_c);
      cmp.eager = call_times(pooled_e);
      cmp.runs_each = static_cast<int>(std::min(c.size(), e.size()));
      cmp.speedup = speedup_interval(e, c);
      cmp.covers = cmp.runs_each > 1
                       ? fmt::format("{} runs each: run-to-run and call-to-call variation", cmp.runs_each)
                       : "call-to-call variation within one compiled and one eager run; not run-to-run (use "
                         "--repeat N)";
      cmp.verdict = stats::decide(cmp.speedup.estimate, cmp.speedup.low, cmp.speedup.high);
      const double compiled_ns = cmp.compiled.median.count(), eager_ns = cmp.eager.median.count();
      cmp.compile_cost = s.compiling_time - Ns(compiled_ns * static_cast<double>(s.compiling_calls));
      if (cmp.verdict == stats::SpeedupVerdict::Faster)
        cmp.break_even_calls = stats::break_even_calls(cmp.compile_cost.count(), eager_ns, compiled_ns);
      cmp.paid_back = cmp.break_even_calls && static_cast<double>(s.calls) >= *cmp.break_even_calls;
      s.eager = cmp;
      s.runs = run_compiles(in, p.rank, s.key, cmp);
    }
}

// The fixes --try-fixes can measure at one site (can_try's rule over the fixes it knows).
std::vector<std::string> fixes_to_try_at(const SiteResult& s) {
  std::vector<std::string> out;
  for (const std::string_view fix : {std::string_view("ddp_wrap_order")})
    if (can_try(s, fix)) out.emplace_back(fix);
  return out;
}

const SiteRecord* site_record(const ProcessRecord& p, const std::string& key) {
  for (const auto& s : p.sites)
    if (s.key() == key) return &s;
  return nullptr;
}

// The site in a run made with a fix: the process of the same rank (its pid is another), or for a
// job without ranks the first process that has the site.
std::pair<const ProcessRecord*, const SiteRecord*> site_in_run(const RecordSet& set, std::optional<int> rank,
                                                               const std::string& key) {
  for (const auto& p : set.processes)
    if (p.rank == rank)
      if (const SiteRecord* s = site_record(p, key)) return {&p, s};
  return {nullptr, nullptr};
}

// --try-fixes: each site's fixes measured against the runs made with them; a fix measured is no
// longer untried, one tct could measure and did not says the flag that would.
void fix_trials(RunResult& r, const RunInputs& in) {
  r.try_fixes = in.try_fixes;
  for (const auto& run : in.fix_runs)
    r.fix_runs.push_back({run.fix, shell_status(run.finished.exit), run.finished.exit.describe()});
  std::set<std::string> unmeasured;  // fixes run whose site the run did not reach
  for (auto& p : r.processes)
    for (auto& s : p.sites)
      for (const std::string& fix : fixes_to_try_at(s)) {
        const RunInputs::FixRun* run = nullptr;
        for (const auto& f : in.fix_runs)
          if (f.fix == fix) run = &f;
        const SiteRecord* before = nullptr;
        for (const auto& rec : in.records.processes)
          if (rec.pid == p.pid && !before) before = site_record(rec, s.key);
        const auto [after_process, after] =
            run ? site_in_run(run->records, p.rank, s.key) : std::pair<const ProcessRecord*, const SiteRecord*>{};
        if (!before || !after) {
          if (run) unmeasured.insert(fix);
          for (auto& b : s.breaks)
            if (b.fix_terms.id == fix) b.fix_terms.measured_by = std::string(kTryFixes);
          continue;
        }
        SiteResult with_fix;
        if (const auto* t = trace_for(*after_process, run->trace_ranks)) join_trace(with_fix, *after, *t);
        s.trials.push_back(fix_trial(fix, s.graph_breaks, with_fix.graph_breaks, thin(steady_durations(*before, false)),
                                     thin(steady_durations(*after, false))));
        for (auto& b : s.breaks)
          if (b.fix_terms.id == fix) {
            b.fix_terms.untried = false;
            b.fix_terms.measured_by.clear();
          }
      }
  if (in.try_fixes && in.fix_runs.empty() && !r.processes.empty())
    r.notes.push_back(
        "--try-fixes: no break here has a fix tct can try (it tries the DDP wrap order where torch.compile is "
        "given a DistributedDataParallel and breaks inside it)");
  for (const auto& run : r.fix_runs)
    if (run.exit_status != 0 || unmeasured.count(run.fix))
      r.notes.push_back(fmt::format("--try-fixes: the run with the fix {} ended ({}): {}", run.fix, run.exit_text,
                                    unmeasured.count(run.fix) ? "a site it was to measure made no call there"
                                                              : "its figures are those of the calls it made"));
}

}  // namespace

bool can_try(const SiteResult& s, std::string_view fix) {
  if (fix != "ddp_wrap_order" || s.wrapper != "ddp") return false;
  return std::any_of(s.breaks.begin(), s.breaks.end(), [&](const SiteBreak& b) { return b.fix_terms.id == fix; });
}

std::vector<std::string> fixes_to_try(const RunResult& r) {
  std::vector<std::string> out;
  for (const auto& p : r.processes)
    for (const auto& s : p.sites)
      for (const std::string& fix : fixes_to_try_at(s))
        if (std::find(out.begin(), out.end(), fix) == out.end()) out.push_back(fix);
  return out;
}

FixTrial fix_trial(std::string fix, int breaks_before, int breaks_after, const std::vector<double>& before,
                   const std::vector<double>& after) {
  FixTrial t;
  t.fix = std::move(fix);
  t.breaks_before = breaks_before;
  t.breaks_after = breaks_after;
  t.before = call_times(before);
  t.after = call_times(after);
  if (!before.empty() && !after.empty()) t.speedup = speedup_interval({before}, {after});
  t.verdict = stats::decide(t.speedup);
  return t;
}

std::string cache_state(const std::map<std::string, int>& cache) {
  auto ends = [](const std::string& k, std::string_view tail) {
    return k.size() >= tail.size() && k.compare(k.size() - tail.size(), tail.size(), tail) == 0;
  };
  int hits = 0, misses = 0, bypasses = 0;
  for (const auto& [k, n] : cache) {
    if (ends(k, "_hit")) hits += n;
    else if (ends(k, "_miss")) misses += n;
    else if (ends(k, "_bypass")) bypasses += n;
  }
  if (hits > 0) return misses > 0 ? "partly warm" : "warm";
  if (misses > 0) return "cold";
  return bypasses > 0 ? "bypassed" : "no cache";
}

std::optional<Stall> stall_of(double compiled_ratio, double eager_ratio, const Contention& c, int processes) {
  Stall st;
  st.compiled_ratio = compiled_ratio;
  st.eager_ratio = eager_ratio;
  const double threads = static_cast<double>(c.torch_threads.value_or(1)) * std::max(1, processes);
  st.with_load = c.cpus > 0 && ((std::isfinite(c.load_1m) && c.load_1m > c.cpus) || threads > c.cpus);
  const double worst = std::max(compiled_ratio, eager_ratio);
  if (worst < (st.with_load ? kLoadedStallRatio : kStallRatio)) return std::nullopt;
  return st;
}

std::vector<bool> compiling_or_after(const SiteRecord& s) {
  const size_t n = s.durations_ns.size();
  std::vector<bool> out(n, false);
  for (size_t i : s.compile_calls) {
    if (i < n) out[i] = true;
    if (i + 1 < n) out[i + 1] = true;
  }
  if (n > 0) out[0] = true;
  return out;
}

std::vector<double> steady_durations(const SiteRecord& s, bool eager_run, bool device) {
  std::vector<double> out;
  const size_t n = s.durations_ns.size();
  std::vector<bool> skip(n, false);
  if (eager_run) {
    for (size_t i = 0; i < std::min<size_t>(2, n); ++i) skip[i] = true;
  } else {
    skip = compiling_or_after(s);
  }
  if (s.sampled) {  // run under the profiler, or right after it: slower by its cost, said apart (run/breakdown.cpp)
    for (size_t i : s.sampled->index)
      if (i < n) skip[i] = true;
    for (size_t i = 0; i < n; ++i)
      if (s.sampled->settling(i)) skip[i] = true;
  }
  if (device) {
    for (const auto& [i, ns] : s.device_ns)
      if (i < n && !skip[i]) out.push_back(static_cast<double>(ns));
    return out;
  }
  for (size_t i = 0; i < n; ++i)
    if (!skip[i]) out.push_back(static_cast<double>(s.durations_ns[i]));
  return out;
}

CallTimes call_times(const std::vector<double>& ns) {
  CallTimes t;
  t.calls = ns.size();
  if (ns.empty()) return t;
  auto sorted = stats::finite_sorted(ns);
  t.median = Ns(stats::quantile_sorted(sorted, 0.5));
  t.p90 = Ns(stats::quantile_sorted(sorted, 0.9));
  double total = 0;
  for (double x : sorted) total += x;
  t.total = Ns(total);
  return t;
}

stats::Interval speedup_interval(const std::vector<std::vector<double>>& eager_runs,
                                 const std::vector<std::vector<double>>& compiled_runs) {
  auto pooled_median = [](const std::vector<std::vector<double>>& runs) {
    std::vector<double> all;
    for (const auto& r : runs) all.insert(all.end(), r.begin(), r.end());
    return median_of(all);
  };
  stats::Interval iv;  // NaN: not measured
  if (eager_runs.empty() || compiled_runs.empty()) return iv;
  iv.estimate = pooled_median(eager_runs) / pooled_median(compiled_runs);
  std::mt19937_64 rng(stats::kDefaultBootstrapSeed);
  std::vector<double> ratios, buf;
  ratios.reserve(kResamples);
  for (int i = 0; i < kResamples; ++i) {
    double e = draw_median(eager_runs, rng, buf), c = draw_median(compiled_runs, rng, buf);
    if (std::isfinite(e) && std::isfinite(c) && c > 0) ratios.push_back(e / c);
  }
  if (ratios.size() < 10) return iv;
  std::sort(ratios.begin(), ratios.end());
  iv.low = stats::quantile_sorted(ratios, 0.025);
  iv.high = stats::quantile_sorted(ratios, 0.975);
  return iv;
}

namespace {

// "SIGKILL" for torch's exit code -9; "" for an exit code.
std::string signal_name(int exitcode) {
  if (exitcode >= 0) return "";
  static const std::map<int, const char*> names = {{1, "SIGHUP"},   {2, "SIGINT"},   {4, "SIGILL"},  {6, "SIGABRT"},
                                                   {7, "SIGBUS"},   {8, "SIGFPE"},   {9, "SIGKILL"}, {11, "SIGSEGV"},
                                                   {13, "SIGPIPE"}, {15, "SIGTERM"}, {24, "SIGXCPU"}};
  auto it = names.find(-exitcode);
  return it != names.end() ? it->second : fmt::format("signal {}", -exitcode);
}

size_t calls_of(const ProcessRecord& p) {
  size_t n = 0;
  for (const auto& s : p.sites) n += s.durations_ns.size();
  return n;
}

// The first worker a launcher saw fail, and where it was: its records (calls so far) and its
// trace (a compile begun and never finished: it died compiling).
std::optional<FirstEnd> first_end(const RunInputs& in) {
  if (in.records.failures.empty()) return std::nullopt;
  const WorkerFailure& w = in.records.failures.front();
  FirstEnd e;
  e.pid = w.pid;
  e.exitcode = w.exitcode;
  e.signal = signal_name(w.exitcode);
  const ProcessRecord* rec = nullptr;
  for (const auto& p : in.records.processes)
    if (p.pid == w.pid) rec = &p;
  // Without a record of its own, its rank is its local rank: torchrun on one node numbers them alike.
  e.rank = rec && rec->rank ? rec->rank : std::optional<int>(w.local_rank);
  e.records = rec != nullptr && !rec->sites.empty();
  if (rec) e.calls = calls_of(*rec);
  const trace::RankSummary* t = nullptr;
  for (const auto& r : in.trace_ranks)
    if (r.rank && r.rank == e.rank) t = &r;
  if (t) {
    e.trace_compiles = static_cast<int>(t->compiles.size());
    for (const auto& [id, c] : t->compiles)
      if (!c.finished && !c.function.empty()) {  // begun (dynamo_start names it), never finished
        e.moment = "while compiling";
        e.compiling = fmt::format("{}compile {}", c.function.empty() ? "" : c.function + ", ", id.str());
      }
  }
  if (e.moment.empty())
    e.moment = e.calls > 0 ? "in its loop" : t || e.records ? "before its first call returned" : "before torch.compile";
  // The ranks the launcher then stopped: their records say SIGTERM, or the launcher saw them
  // end of it (a rank held in a collective cannot run its handler before it is killed).
  std::set<int> stopped;
  for (const auto& p : in.records.processes)
    if (p.rank && p.pid != w.pid && p.ended_by == "SIGTERM") stopped.insert(*p.rank);
  for (size_t k = 1; k < in.records.failures.size(); ++k) {
    const WorkerFailure& f = in.records.failures[k];
    if (f.exitcode != -15 || f.pid == w.pid) continue;
    std::optional<int> rank = f.local_rank;
    for (const auto& p : in.records.processes)
      if (p.pid == f.pid && p.rank) rank = p.rank;
    stopped.insert(*rank);
  }
  e.stopped.assign(stopped.begin(), stopped.end());
  return e;
}

}  // namespace

RunResult analyze(const RunInputs& in) {
  RunResult r;
  r.command = in.command;
  r.exit_status = shell_status(in.finished.exit);
  r.exit_text = in.finished.exit.describe();
  r.interrupted = in.finished.interrupted;
  r.wall = in.finished.wall;
  r.record_dir = in.record_dir;
  r.trace_dir = in.trace_dir;
  r.cwd = in.cwd;
  r.trace = in.trace_summary;
  r.first_end = first_end(in);
  for (const auto& u : in.records.unreadable) r.notes.push_back("skipped a record file: " + u);
  std::set<int> ranks_recorded;
  for (const auto& p : in.records.processes) {
    ++r.processes_with_torch;
    if (r.torch.empty()) r.torch = p.torch;
    if (p.sites.empty()) continue;
    ProcessResult pr;
    pr.rank = p.rank;
    pr.pid = p.pid;
    pr.final = p.final;
    pr.ended_by = p.ended_by;
    // The launcher saw the signal that ended it, where its records could not say (SIGKILL, or a
    // SIGTERM that came while it was already exiting).
    for (const auto& f : in.records.failures)
      if (f.pid == p.pid && f.exitcode < 0 && pr.ended_by.empty()) pr.ended_by = signal_name(f.exitcode);
    pr.running = !p.final && in.live && in.alive.count(p.pid) > 0;
    if (p.rank) ranks_recorded.insert(*p.rank);
    const bool first = r.first_end && r.first_end->pid == p.pid;  // said first, with its signal
    if (!p.final && !pr.running && !first)
      r.notes.push_back(
          fmt::format("process {}{} ended before writing its records at exit: its last calls (up to "
                      "about a second) are missing",
                      p.pid, p.rank ? fmt::format(" (rank {})", *p.rank) : ""));
    const trace::RankSummary* trace = trace_for(p, in.trace_ranks);
    for (const auto& s : p.sites) pr.sites.push_back(site_result(s, p, trace, r.wall));
    // The site that cost the job the most first.
    std::stable_sort(pr.sites.begin(), pr.sites.end(),
                     [](const SiteResult& a, const SiteResult& b) { return a.all.total > b.all.total; });
    r.processes.push_back(std::move(pr));
  }
  // A rank with a trace log but no records (it ended before its first flush): what it compiled.
  for (const auto& t : in.trace_ranks) {
    if (!t.rank || ranks_recorded.count(*t.rank) || ranks_recorded.empty()) continue;
    ProcessResult pr;
    pr.rank = t.rank;
    pr.final = false;
    pr.records_missing = true;
    if (r.first_end && r.first_end->rank == t.rank) pr.pid = r.first_end->pid;
    pr.trace_compiles = static_cast<int>(t.compiles.size());
    for (const auto& [id, c] : t.compiles) pr.trace_recompiles += c.recompiled() ? 1 : 0;
    r.processes.push_back(std::move(pr));
  }
  std::stable_sort(r.processes.begin(), r.processes.end(), [](const ProcessResult& a, const ProcessResult& b) {
    return a.rank.value_or(-1) < b.rank.value_or(-1);
  });
  // Ranks compared by their traces (per frame: what they compiled and recompiled, the one count);
  // by the bootstrap's compiling calls only where no trace has two ranks.
  if (in.trace_summary && in.trace_summary->ranks.size() > 1) {
    for (const auto& d : in.trace_summary->divergence) r.divergence.push_back({d.rank, d.what, d.message});
    for (const auto& d : in.trace_summary->cache_notes) r.notes.push_back(d.message);
  } else {
    site_divergence(r);
  }
  if (!in.eager_runs.empty()) {
    r.compared = true;
    r.repeat = static_cast<int>(in.eager_runs.size());
    r.eager_exit_statuses = in.eager_exit_statuses;
    for (const auto& set : in.eager_runs)
      for (const auto& p : set.processes)
        if (!p.stance.empty() && r.stance.empty()) r.stance = p.stance;
    compare_eager(r, in);
  }
  fix_trials(r, in);
  r.threads = in.threads;
  r.contention = in.contention;
  // torch's threads where the call sites ran: a launcher (torchrun) imports torch too, with
  // the machine's default, while it gives each worker OMP_NUM_THREADS=1.
  for (const auto& p : in.records.processes)
    if (p.threads && !p.sites.empty() && !r.contention.torch_threads) r.contention.torch_threads = p.threads;
  int with_sites = 0;
  for (const auto& p : r.processes) with_sites += p.sites.empty() ? 0 : 1;
  for (auto& p : r.processes)
    for (auto& s : p.sites) s.stall = site_stall(s, r.contention, with_sites);
  return r;
}

}  // namespace tct::run
