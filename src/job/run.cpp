#include "job/run.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "agent/interpreter.hpp"
#include "errors.hpp"
#include "job/aoti.hpp"
#include "job/decide.hpp"
#include "job/shape_fixes.hpp"
#include "run/analysis.hpp"
#include "run/launch.hpp"
#include "run/records.hpp"
#include "run/setup.hpp"
#include "run/trace_dir.hpp"

namespace tct::job {
namespace fs = std::filesystem;

namespace {

// A site's steady time per call is its steady calls' median, from this many at least: a command
// that answers 3 requests left 2 steady calls whose median was 55.8 ms where the same model's
// calls take 174 us (tct startup -- CMD against FILE:FACTORY). With fewer it is not measured.
constexpr size_t kMinSteadyCalls = 5;

Nanoseconds monotonic_now() { return std::chrono::steady_clock::now().time_since_epoch(); }

std::vector<std::string> stdout_lines(const fs::path& file) {
  std::vector<std::string> out;
  std::ifstream in(file);
  std::string line;
  while (out.size() < kMaxOutputLines && std::getline(in, line)) out.push_back(line);
  return out;
}

// The site called most: its key, calls and call ends (the job's loop, as the horizon counts it).
const run::SiteRecord* most_called(const run::RecordSet& records) {
  const run::SiteRecord* best = nullptr;
  for (const auto& p : records.processes)
    for (const auto& s : p.sites)
      if (best == nullptr || s.durations_ns.size() > best->durations_ns.size()) best = &s;
  return best;
}

// The anchor's call ends since launch, thinned to kCurvePoints (the first and last kept), and
// the mean time between its calls over the second half of the run (its steady loop).
void anchor_figures(RunFigures& f, const run::SiteRecord& s, Nanoseconds launch) {
  f.anchor = s.key();
  f.anchor_calls = s.durations_ns.size();
  const auto& ends = s.ends_ns;
  if (ends.empty()) return;
  const size_t n = ends.size();
  const double step = n <= kCurvePoints ? 1.0 : static_cast<double>(n - 1) / (kCurvePoints - 1);
  for (double i = 0; static_cast<size_t>(i) < n; i += step)
    f.curve.emplace_back(static_cast<double>(static_cast<size_t>(i) + 1),
                         static_cast<double>(ends[static_cast<size_t>(i)]) - launch.count());
  if (f.curve.back().first != static_cast<double>(n))
    f.curve.emplace_back(static_cast<double>(n), static_cast<double>(ends.back()) - launch.count());
  const size_t mid = n / 2;
  if (n >= 4 && n - 1 > mid)
    f.loop_per_call = Nanoseconds(static_cast<double>(ends.back() - ends[mid]) / static_cast<double>(n - 1 - mid));
}

RunFigures figures_of(const run::Finished& finished, const run::RecordSet& records, const run::RunResult& analysed,
                      Nanoseconds launch) {
  RunFigures f;
  f.exit_status = run::shell_status(finished.exit);
  f.exit_text = finished.exit.describe();
  f.timed_out = finished.timed_out;
  f.interrupted = finished.interrupted;
  f.wall = finished.wall;
  for (const auto& p : records.processes) {
    if (p.threads && !f.torch_threads) f.torch_threads = p.threads;
    if (!p.artifacts) continue;
    if (p.artifacts->load_ns) f.artifacts_load = Nanoseconds(static_cast<double>(*p.artifacts->load_ns));
    if (p.artifacts->loaded_bytes) f.artifacts_bytes = static_cast<double>(*p.artifacts->loaded_bytes);
    if (p.artifacts->saved_bytes) f.artifacts_bytes = static_cast<double>(*p.artifacts->saved_bytes);
    f.artifacts_error = !p.artifacts->load_error.empty() ? p.artifacts->load_error : p.artifacts->save_error;
  }
  // First outputs from the records' call ends, the rest from tct run's analysis of the run.
  std::map<std::string, Nanoseconds> first;
  for (const auto& p : records.processes)
    for (const auto& s : p.sites)
      if (!s.ends_ns.empty()) {
        const Nanoseconds t(static_cast<double>(s.ends_ns.front()) - launch.count());
        auto it = first.find(s.key());
        if (it == first.end() || t < it->second) first[s.key()] = t;
      }
  for (const auto& p : analysed.processes)
    for (const auto& s : p.sites) {
      auto it = std::find_if(f.sites.begin(), f.sites.end(), [&](const SiteRun& x) { return x.key == s.key; });
      if (it != f.sites.end()) {  // another process of the job: its calls add up
        it->calls += s.calls;
        continue;
      }
      SiteRun x;
      x.key = s.key;
      x.name = s.name;
      x.calls = s.calls;
      if (auto fo = first.find(s.key); fo != first.end()) x.first_output = fo->second;
      if (s.steady.calls >= kMinSteadyCalls) x.steady = Nanoseconds(s.steady.median);
      x.compile_time = Nanoseconds(s.compile_time);
      x.recompiles = s.recompiles;
      for (const auto& [name, count] : s.cache) {
        auto ends_with = [&](const char* tail) {
          const std::string t(tail);
          return name.size() >= t.size() && name.compare(name.size() - t.size(), t.size(), t) == 0;
        };
        if (ends_with("_hit")) x.cache_hits += count;
        else if (ends_with("_miss")) x.cache_misses += count;
        else if (ends_with("_bypass")) x.cache_bypasses += count;
      }
      f.sites.push_back(std::move(x));
    }
  if (const run::SiteRecord* a = most_called(records)) anchor_figures(f, *a, launch);
  return f;
}

class Schedule {
 public:
  Schedule(const JobOptions& o, const core::Progress& progress, const core::OnPartial<JobResult>& partial)
      : o_(o), progress_(progress), partial_(partial) {
    const auto lookup = agent::process_env();
    const std::string exe = agent::current_executable();
    result_.command = run::job_command(o.job, o.module, o.python, lookup, exe, "job");
    bootstrap_ = run::bootstrap_dir(lookup, exe);
    result_.dir = run::make_run_dir(o.dir, "tct-job");
    pythonpath_ = bootstrap_;
    if (auto old = lookup("PYTHONPATH"); old && !old->empty()) pythonpath_ += ":" + *old;
    result_.rounds = o.rounds;
    result_.horizon_calls = o.calls;
    for (const ModeSpec& spec : planned_modes(o)) {
      ModeResult m;
      m.spec = spec;
      result_.modes.push_back(std::move(m));
    }
  }

  JobResult run() {
    const bool needs_filling = std::any_of(result_.modes.begin(), result_.modes.end(), [](const ModeResult& m) {
      return m.spec.how == How::Warm || m.spec.how == How::Shipped || m.spec.how == How::Aoti || m.spec.shape_fix;
    });
    if (needs_filling) fill_caches();
    if (std::any_of(result_.modes.begin(), result_.modes.end(),
                    [](const ModeResult& m) { return m.spec.how == How::Aoti; }))
      build_aoti();
    const size_t n = result_.modes.size();
    for (int r = 1; r <= o_.rounds && !stopped_; ++r)
      for (size_t i = 0; i < n && !stopped_; ++i) {
        ModeResult& m = result_.modes[(i + static_cast<size_t>(r - 1)) % n];  // rotated each round
        if (!m.error.empty()) continue;
        if (progress_) progress_(fmt::format("round {}/{}: {}", r, o_.rounds, m.spec.label()));
        RunFigures f = one_run(m.spec, r, fmt::format("round-{}-{}", r, slug(m.spec)));
        note_shape_fix_run(result_, m.spec, f.dir + "/records");
        m.runs.push_back(std::move(f));
        decide(result_);
        if (partial_) partial_(result_);
      }
    decide(result_);
    if (stopped_) result_.notes.push_back("interrupted: the rounds after it did not run");
    return result_;
  }

 private:
  static std::string slug(const ModeSpec& s) {
    const std::string how =
        s.shape_fix ? fmt::format("{}-{}", to_string(s.how), to_string(*s.shape_fix)) : std::string(to_string(s.how));
    return s.threads ? fmt::format("{}-{}t", how, *s.threads) : how;
  }

  fs::path filling_cache() const { return fs::path(result_.dir) / "fill" / "cache"; }
  fs::path artifacts() const { return fs::path(result_.dir) / "fill" / "cache-artifacts.bin"; }
  uintmax_t artifact_bytes() const {
    std::error_code ec;
    const uintmax_t n = fs::file_size(artifacts(), ec);
    return ec ? 0 : n;
  }

  // One unmeasured cold run that fills the caches warm starts from (copied afresh for each warm
  // run) and saves the cache artifacts shipped starts load: every round finds the same caches,
  // whatever order it runs its modes in.
  void fill_caches() {
    if (progress_) progress_("filling the caches warm and shipped runs start from (one compiled run)");
    ModeSpec spec{How::Cold, o_.threads.empty() ? std::nullopt : o_.threads.front()};
    // --shape-fixes: the same run reads the shapes the job used and its torch's API.
    const bool shapes = !o_.shape_fixes.empty();
    RunFigures f = one_run(spec, 0, "fill", true, [&](const run::RunInputs& in, const run::RunResult& analysed) {
      if (shapes)
        plan_shape_fixes(result_, in.records, analysed, in.record_dir,
                         run::shell_status(in.finished.exit) == 0 && !in.finished.timed_out);
    });
    std::string why;
    if (!f.ok()) why = fmt::format("the run that fills their caches failed ({})", f.exit_text);
    result_.filling = std::move(f);
    for (auto& m : result_.modes) {
      if (m.spec.how != How::Warm && m.spec.how != How::Shipped) continue;
      if (!why.empty()) m.error = why;
      else if (m.spec.how == How::Shipped && artifact_bytes() == 0)
        m.error = fmt::format("the run that fills the caches saved no cache artifacts ({})",
                              result_.filling->artifacts_error.empty()
                                  ? "torch.compiler.save_cache_artifacts returned none: the backend caches nothing"
                                  : result_.filling->artifacts_error);
    }
    if (partial_) partial_(result_);
  }

  fs::path aoti_dir() const { return fs::path(result_.dir) / "aoti"; }

  // The AOTInductor mode's one unmeasured build run (job/aoti.hpp): from the shapes the filling
  // run's sites used, each site exported and packaged at its first call, its package's outputs
  // checked against eager's; a site that cannot be keeps the mode from running, and says why.
  void build_aoti() {
    AotiBuild b;
    if (!result_.filling || !result_.filling->ok()) {
      b.cannot = "the run whose shapes the export's ranges come from failed";
    } else {
      b.sites = aoti_plan(run::read_records((fs::path(result_.filling->dir) / "records").string()));
      fs::create_directories(aoti_dir());
      std::ofstream(aoti_dir() / "plan.json") << plan_json(b.sites, aoti_dir().string());
      if (!b.sites.empty()) {
        if (progress_) progress_("building an AOTInductor package per call site (one run, not timed in the totals)");
        const RunFigures f = one_run({How::Aoti, o_.threads.empty() ? std::nullopt : o_.threads.front()}, 0,
                                     "aoti-build", false, nullptr, true);
        b.wall = f.wall;
        b.ok = f.ok();
        b.exit_text = f.exit_text;
        b.dir = f.dir;
        read_build(b.sites, aoti_dir().string());
      }
      decide_build(b);
    }
    for (auto& m : result_.modes)
      if (m.spec.how == How::Aoti && !b.cannot.empty()) m.error = "cannot run as AOTInductor packages: " + b.cannot;
    result_.aoti = std::move(b);
    if (partial_) partial_(result_);
  }

  RunFigures one_run(const ModeSpec& spec, int round, const std::string& name, bool filling = false,
                     const std::function<void(const run::RunInputs&, const run::RunResult&)>& seen = nullptr,
                     bool aoti_build = false) {
    const fs::path dir = fs::path(result_.dir) / name;
    const fs::path records = dir / "records", trace = dir / "trace";
    const fs::path cache = filling ? filling_cache() : dir / "cache";
    fs::create_directories(records);
    fs::create_directories(trace);
    if (spec.how == How::Warm) {
      std::error_code ec;
      fs::copy(filling_cache(), cache, fs::copy_options::recursive, ec);
    }
    fs::create_directories(cache / "inductor");
    fs::create_directories(cache / "triton");
    run::Launch l;
    l.argv = result_.command;
    l.stdout_path = (dir / "stdout.txt").string();
    l.stderr_path = (dir / "stderr.txt").string();
    l.timeout = o_.timeout;
    l.env = {{"PYTHONPATH", pythonpath_},
             {"TCT_RUN_RECORD_DIR", records.string()},
             {"TORCH_TRACE", trace.string()},
             {"TCT_RUN_FORCE_EAGER", spec.how == How::Eager ? "1" : "0"},
             {"TCT_RUN_CALL_ENDS", "1"},
             // job's figures are whole runs: no call of them runs under the profiler
             {"TCT_RUN_BREAKDOWN", "0"},
             {"TORCHINDUCTOR_CACHE_DIR", (cache / "inductor").string()},
             {"TRITON_CACHE_DIR", (cache / "triton").string()}};
    if (spec.threads)
      for (const char* var : {"OMP_NUM_THREADS", "MKL_NUM_THREADS", "TCT_RUN_THREADS"})
        l.env.push_back({var, std::to_string(*spec.threads)});
    if (spec.how == How::Shipped) l.env.push_back({"TCT_RUN_LOAD_ARTIFACTS", artifacts().string()});
    if (filling) l.env.push_back({"TCT_RUN_SAVE_ARTIFACTS", artifacts().string()});
    if (spec.how == How::Aoti) {
      l.env.push_back({"TCT_RUN_AOTI_PLAN", (aoti_dir() / "plan.json").string()});
      l.env.push_back({aoti_build ? "TCT_RUN_AOTI_BUILD" : "TCT_RUN_AOTI_LOAD", "1"});
    }
    if (filling && !o_.shape_fixes.empty()) l.env.push_back({"TCT_RUN_SHAPE_PROBE", "1"});
    for (auto& kv : shape_fix_env(result_, spec)) l.env.push_back({kv.first, kv.second});
    const Nanoseconds launch = monotonic_now();
    const run::Finished finished = run::run_command(l);
    if (finished.interrupted) stopped_ = true;
    run::RunInputs in;
    in.command = result_.command;
    in.finished = finished;
    in.record_dir = records.string();
    in.trace_dir = trace.string();
    in.cwd = fs::current_path().string();
    in.records = run::read_records(in.record_dir);
    auto read = run::read_trace_dir(in.trace_dir);
    in.trace_ranks = std::move(read.ranks);
    const run::RunResult analysed = run::analyze(in);
    if (seen) seen(in, analysed);
    RunFigures f = figures_of(finished, in.records, analysed, launch);
    f.round = round;
    f.dir = dir.string();
    f.output = stdout_lines(dir / "stdout.txt");
    f.output_lines = f.output.size();
    if (spec.how == How::Aoti && !aoti_build) {
      const PackageLoads loads = package_loads(records.string());
      f.package_load = loads.total;
      for (const auto& site : loads.missing)
        result_.notes.push_back(
            fmt::format("{}: {} had no AOTInductor package (the filling run never called it): it ran "
                        "torch.compile",
                        name, site));
    }
    return f;
  }

  const JobOptions& o_;
  core::Progress progress_;
  core::OnPartial<JobResult> partial_;
  JobResult result_;
  std::string bootstrap_, pythonpath_;
  bool stopped_ = false;
};

}  // namespace

std::vector<ModeSpec> planned_modes(const JobOptions& o) {
  std::vector<ModeSpec> out;
  for (How h : o.hows)
    for (const auto& t : o.threads) {
      ModeSpec s{h, t};
      if (std::none_of(out.begin(), out.end(),
                       [&](const ModeSpec& x) { return x.how == s.how && x.threads == s.threads; }))
        out.push_back(s);
    }
  add_shape_fix_modes(out, o.shape_fixes, o.threads);
  return out;
}

JobResult run_modes(const JobOptions& options, const core::Progress& progress,
                    const core::OnPartial<JobResult>& partial) {
  if (options.rounds < 1) throw usage_error("--rounds must be at least 1");
  return Schedule(options, progress, partial).run();
}

}  // namespace tct::job
