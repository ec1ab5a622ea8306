// `tct expect`'s orchestration (see run.hpp): phases, the ceilings cache file, the sweep's
// points and the validation bench, building one ExpectResult. The decisions live in
// src/expect/; the section is written only by expect::to_json.
#include "expect/run.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "agent/agent.hpp"
#include "expect/ceilings.hpp"
#include "expect/classifier.hpp"
#include "expect/compiled.hpp"
#include "expect/evidence.hpp"
#include "expect/json.hpp"
#include "expect/calibration.hpp"
#include "expect/suggestions.hpp"
#include "errors.hpp"
#include "explain/run.hpp"
#include "report/warning.hpp"
#include "bench/run.hpp"

namespace tct::expect {
namespace {

namespace fs = std::filesystem;

json read_cache(const std::string& path) {
  std::ifstream f(path);
  if (!f) return json::object();
  std::stringstream ss;
  ss << f.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  return j.is_discarded() ? json::object() : j;
}

// Best effort: a cache that cannot be written only costs a remeasurement next time.
bool write_cache(const std::string& path, const json& cache) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << cache.dump(2) << "\n";
    if (!f) return false;
  }
  fs::rename(tmp, path, ec);
  return !ec;
}

std::string utc_now() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The first row's speedup as the document writes it (what expect's validation reads); null
// when that row did not finish.
const tct::bench::Speedup* first_speedup(const tct::bench::BenchResult& bench) {
  if (bench.rows.empty() || !bench.rows[0].ok() || !bench.rows[0].speedup) return nullptr;
  return &*bench.rows[0].speedup;
}

// What the profile of one loaded target found: the result's analysis, and the evidence and
// verdict it was made from (the warnings and the suggestions read them).
struct Profiled {
  Analysis analysis;
  Evidence evidence;
  Verdict verdict;
};

bool above_roofline(const Analysis& a) { return a.roofline.fraction > 1.0; }

// The loaded target's inputs as a sweep point keeps them (a shape given: a tensor).
std::vector<InputLeaf> input_leaves_of(const core::reply::TargetLoad& described) {
  std::vector<InputLeaf> out;
  for (const auto& in : described.inputs) {
    InputLeaf leaf{in.path, std::nullopt, in.type, in.value};
    if (in.shape) leaf.tensor = InputLeaf::Tensor{*in.shape, in.dtype, in.device, in.requires_grad};
    out.push_back(std::move(leaf));
  }
  return out;
}

// One run of expect: the agent in use, what the phases found so far, and the result.
class ExpectRun {
 public:
  ExpectRun(const core::Progress& progress, core::Executor& exec, core::Session* shared_agent, const ExpectConfig& cfg,
            const explain::ExplainResult* explained, const ExpectSinks& sinks)
      : progress_(progress), exec_(exec), cfg_(cfg), sinks_(sinks), agent_(shared_agent), explained_(explained) {}

  ExpectResult run() {
    checkpoint();  // nothing known yet: the target and the class are null

    ensure_agent();
    compiled_ = compiled_run();
    progress_("loading the target");
    result_.target = agent_->call("target.load", core::to_load_params(cfg_.target));
    const core::reply::TargetLoad& described = result_.target.view;
    checkpoint();

    result_.machine = machine_ceilings(cfg_.refresh_ceilings);
    checkpoint();

    Profiled profiled = analyse(described, cfg_.target.params, {});
    // A workload cannot beat the machine's ceiling: a cached ceiling below what it achieved was
    // measured under load. Remeasure once rather than print a roofline above 100%.
    if (above_roofline(profiled.analysis) && ceilings().source == "cache") {
      result_.machine = machine_ceilings(/*refresh=*/true);
      profiled = analyse(described, cfg_.target.params, {});
    }
    if (above_roofline(profiled.analysis)) {
      // A fraction above 1 is a measurement of the load, not of the workload: not printed.
      profiled.analysis.roofline.fraction = NAN;
      warn({report::kind::AboveRoofline{}, ""});
    }
    const Evidence& evidence = profiled.evidence;
    for (const auto& w : {load_instability(evidence), slow_machine(evidence, ceilings()), load_drift(evidence)})
      if (w) warn(*w);
    result_.analysis = profiled.analysis;
    checkpoint();

    if ((cfg_.sweep || cfg_.validate) && (cfg_.backend != "inductor" || cfg_.mode != "default"))
      warn({report::kind::PredictionModelsDefault{cfg_.backend, cfg_.mode}, ""});
    if (cfg_.sweep) {
      run_sweep_points(*cfg_.sweep);
      // Recompute the suggestions with what the sweep showed.
      SuggestionContext sc = suggestion_context(described, cfg_.target.params);
      sc.sweep_changes_shapes = sweep_changed_shapes(result_.sweep->points, described);
      sc.sweep_param = cfg_.sweep->param;
      result_.analysis->suggestions = suggestions(profiled.evidence, profiled.verdict, sc);
      checkpoint();
    }
    // Our own agent goes before the validation bench; a shared one is the caller's to close.
    if (owned_) owned_->close();

    if (cfg_.validate) {
      progress_("validate: bench");
      bench::BenchConfig bcfg = bench_config(cfg_.target.params);
      const tct::bench::BenchResult bench = bench::run_bench(progress_, exec_, bcfg, sinks_.validation_bench);
      const tct::bench::Speedup* measured = first_speedup(bench);
      if (measured && measured->verdict == tct::stats::SpeedupVerdict::Inconclusive) {
        warn({report::kind::ValidationInconclusive{}, ""});
        return result_;
      }
      if (measured) result_.validation = validate(*result_.analysis, *measured);
      checkpoint();
      if (!result_.validation) {
        if (auto err = bench_outcome(bench, bcfg); err && err->code() != ExitCode::CheckFailed) throw *err;
        throw Error(ExitCode::TargetFailed, "validation", "--validate: bench measured no speedup",
                    "run `tct bench` on the target to see why");
      }
    }
    return result_;
  }

 private:
  void checkpoint() {
    if (sinks_.expect) sinks_.expect(result_);
  }

  void warn(report::Warning warning) { result_.warnings.push_back(std::move(warning)); }

  const Ceilings& ceilings() const { return result_.machine->ceilings; }

  // An agent to send requests to: the shared one while it serves, else one of our own.
  void ensure_agent() {
    if (agent_) return;
    owned_ = exec_.start({});
    agent_ = owned_.get();
  }

  // A hung or dead agent cannot serve another request: drop it (ours is killed; a shared
  // one is left to its owner), so that the next request starts a fresh agent.
  void drop_agent() {
    if (owned_ && agent_ == owned_.get()) owned_.reset();
    agent_ = nullptr;
  }

  // What torch.compile really does with the target: what the caller's explain found (audit
  // ran explain first), or the logged compiled run of our own (explain::run_explain, whose
  // result expect keeps a summary of; its warnings are explain's to give, not expect's). Unknown when that run fails:
  // the prediction then assumes the function is captured.
  CompiledRun compiled_run() {
    if (explained_) return compiled_run_of(*explained_);
    CompiledRun run;
    try {
      run = compiled_run_of(explain::run_explain(progress_, *agent_, {cfg_.target, true, 2, std::nullopt, "", false}));
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      if (agent_lost(e)) {
        drop_agent();
        ensure_agent();
      }
      warn({report::kind::CaptureUnchecked{e.what()}, ""});
    }
    return run;
  }

  // The model's suggestions, after the fix of a skipped frame or of graph breaks.
  std::vector<Suggestion> suggestions(const Evidence& ev, const Verdict& v, const SuggestionContext& sc) {
    return put_first(fix_first_suggestion(compiled_, cfg_.target.target), suggest(ev, v, sc));
  }

  // Device identity -> cache lookup -> measure when missing (or asked to).
  Machine machine_ceilings(bool refresh) {
    progress_("machine ceilings");
    Machine m;
    // The replies stay whole in the document (Machine's device and measurement); tct reads them
    // through their declarations.
    m.device = agent_->call("expect.device_info", json::object());
    m.cache_key = ceilings_cache_key(core::fields::read_as<reply::DeviceInfo>(m.device));
    std::string path = ceilings_cache_path(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
    if (!path.empty()) m.cache_path = path;
    json cache = (cfg_.no_cache || path.empty()) ? json::object() : read_cache(path);
    if (!cfg_.no_cache && !refresh)
      if (auto hit = lookup_ceilings(cache, m.cache_key)) {
        m.ceilings = *hit;
        m.cache_hit = true;
        return m;
      }
    progress_("measuring the machine's ceilings (a large copy, a large matmul; cached afterwards)");
    m.measurement = agent_->call("expect.ceilings", json::object());
    const auto timings = core::fields::read_as<reply::CeilingTimings>(m.measurement);
    m.ceilings = ceilings_measured(timings);
    const Ceilings& c = m.ceilings;
    m.cache_written = false;
    if (!cfg_.no_cache && !path.empty() && c.peak_flops > 0 && c.peak_bandwidth > 0 && c.op_floor_ns > 0) {
      store_ceilings(cache, m.cache_key, timings, utc_now());
      m.cache_written = write_cache(path, cache);
    }
    if (timings.matmul_error) warn({report::kind::NoFlopCeiling{*timings.matmul_error}, ""});
    return m;
  }

  SuggestionContext suggestion_context(const core::reply::TargetLoad& described, const json& params) const {
    SuggestionContext sc;
    sc.params = described.params.is_null() ? params : described.params;
    sc.dtype = described.dtype;
    sc.train = cfg_.target.train;
    return sc;
  }

  // Profile + FLOPs of the loaded target -> the class, the range and the evidence (the main
  // target's, or a sweep point's when label names it).
  Profiled analyse(const core::reply::TargetLoad& described, const json& params, const std::string& label) {
    std::string prefix = label.empty() ? "" : label + ": ";
    progress_(prefix + "profiling eager calls");
    const auto profile = core::fields::read_as<reply::Profile>(agent_->call(
        "expect.profile",
        {{"calls", cfg_.calls}, {"warmup", 3}, {"timed_calls", 2 * cfg_.calls}, {"min_seconds", cfg_.profile_s}}));
    progress_(prefix + "counting FLOPs and bytes");
    const json flops_reply = agent_->call("expect.flops", json::object());
    std::optional<reply::Flops> flops;
    if (flops_reply.is_object()) flops = core::fields::read_as<reply::Flops>(flops_reply);
    Profiled out;
    Evidence& ev = out.evidence;
    try {
      ev = evidence_from_agent(profile, flops);
    } catch (const std::invalid_argument& e) {
      throw Error(ExitCode::Internal, "internal", fmt::format("the agent's profile is unusable: {}", e.what()),
                  "this is a bug in tct; rerun with --verbose and report it");
    }
    Verdict& v = out.verdict;
    v = classify(ev, ceilings());
    // The model predicts a fully captured function; the compiled run bounds it.
    SpeedupRange captured = v.predicted;
    v.predicted = bound_prediction(captured, compiled_, v.compiled_call_ns / ev.wall_ns);

    namespace cal = calibration;
    Analysis& a = out.analysis;
    a.cls = parse_class(v.cls);
    if (!v.borderline_with.empty()) a.borderline_with = parse_class(v.borderline_with);
    a.decided_by = v.decided_by;
    a.roofline = v.roof;
    a.time_shares = v.shares;
    Prediction& p = a.predicted;
    p.range = v.predicted;
    p.compiled_call = Nanoseconds(v.compiled_call_ns);
    p.op_floor = Nanoseconds(v.op_floor_ns);
    p.fixed_costs_from_profile = v.compiled_call_source == "profile";
    p.terms = v.terms;
    p.interval = {cal::kLogBias,  v.predicted.log_sigma,  cal::kIntervalZ,       v.predicted.generated_share,
                  cal::kFittedOn, cal::kCalibrationCases, cal::kValidationCases, cal::kValidationInside};
    p.shifts = v.shifts;
    p.assumes = prediction_assumes(compiled_);
    if (label.empty()) a.compiled_run = summarize(compiled_, captured);
    a.profile = summarize(ev);
    a.flops_per_call = ev.flops;
    a.bytes_per_call = ev.bytes;
    a.boundary_bytes_per_call = ev.boundary_bytes;
    a.fused_kernel_bytes_per_call = ev.fused_kernel_bytes;
    a.element_ops_per_call = ev.element_ops;
    a.outside_tensors = ev.outside_tensors;
    a.module_calls = ev.module_calls;
    a.arithmetic_intensity = ev.arithmetic_intensity();
    a.flops_error = ev.flops_error;
    a.suggestions = suggestions(ev, v, suggestion_context(described, params));
    if (label.empty() && !ev.flops_error.empty()) warn({report::kind::FlopsNotCounted{ev.flops_error}, ""});
    return out;
  }

  bench::BenchConfig bench_config(const json& params) const {
    bench::BenchConfig bcfg;
    bcfg.target = cfg_.target;
    bcfg.target.params = params;
    bcfg.backends = {cfg_.backend};
    bcfg.modes = {cfg_.mode};
    bcfg.budget_s = cfg_.budget_s;
    bcfg.warmup_calls = 10;
    bcfg.eager_warmup_calls = 5;
    bcfg.compile_time = false;  // expect asks about steady-state speed, not compile cost
    bcfg.memory = false;
    return bcfg;
  }

  static bool sweep_changed_shapes(const std::vector<SweepPoint>& points, const core::reply::TargetLoad& described) {
    const std::vector<InputLeaf> first = input_leaves_of(described);
    for (const auto& p : points)
      if (p.analysed && p.analysed->inputs != first) return true;
    return false;
  }

  // One value of the sweep: load, profile and classify it, then bench it in fresh processes
  // (the point keeps the bench's speedup; the bench's warnings join expect's, named by the
  // point).
  SweepPoint measure_point(const SweepSpec& spec, const SweepValue& value) {
    const std::string label = fmt::format("{}={}", spec.param, to_json(value).dump());
    json params = cfg_.target.params;
    params[spec.param] = to_json(value);
    ensure_agent();
    json load = core::to_load_params(cfg_.target);
    load["params"] = params;
    SweepPoint point;
    try {
      progress_(label + ": loading");
      const core::LoadedTarget loaded = agent_->call("target.load", load);
      const core::reply::TargetLoad& described = loaded.view;
      Profiled profiled = analyse(described, params, label);
      const Analysis& a = profiled.analysis;
      SweepPoint::Analysed pa;
      pa.inputs = input_leaves_of(described);
      pa.cls = a.cls;
      pa.borderline_with = a.borderline_with;
      pa.predicted = {a.predicted.range.low, a.predicted.range.high, a.predicted.range.point};
      pa.wall_per_call = a.profile.wall_per_call;
      pa.overhead_fraction = a.profile.overhead_fraction;
      pa.ops_per_call = a.profile.ops_per_call;
      pa.arithmetic_intensity = a.arithmetic_intensity;
      pa.decided_by = a.decided_by;
      point.analysed = std::move(pa);
    } catch (const Error& e) {
      // A hung or dead agent cannot serve the next point: start a fresh one for it.
      if (agent_lost(e)) drop_agent();
      throw;
    }
    progress_(label + ": bench");
    tct::bench::BenchResult bench;
    std::vector<report::Warning> bench_warnings;  // the bench's so far: what a failure leaves
    try {
      bench = bench::run_bench(progress_, exec_, bench_config(params),
                               [&](const tct::bench::BenchResult& so_far) { bench_warnings = so_far.all_warnings; });
    } catch (const Error&) {
      warn_about_point(label, bench_warnings);
      throw;
    }
    warn_about_point(label, bench.all_warnings);
    point.benched = true;
    const tct::bench::Speedup* sp = first_speedup(bench);
    if (!sp) {
      // The bench row's error with the fields bench writes (a stage always, the exit code when known).
      if (!bench.rows.empty() && bench.rows[0].error) {
        const tct::bench::RowError& e = *bench.rows[0].error;
        point.error = report::ErrorRecord{e.kind, e.message, e.hint, e.stage, false, e.exit_code};
      } else {
        point.error =
            report::ErrorRecord{"bench", "bench measured no speedup", std::nullopt, std::nullopt, false, std::nullopt};
      }
    } else {
      point.speedup = MeasuredSpeedup{sp->interval.estimate, sp->interval.low, sp->interval.high};
      // The point's own class, range and borderline.
      const auto& pa = *point.analysed;
      point.validation = validate(pa.predicted, pa.cls, pa.borderline_with, *sp);
    }
    return point;
  }

  void warn_about_point(const std::string& label, const std::vector<report::Warning>& warnings) {
    for (auto& w : point_warnings(label, warnings)) warn(std::move(w));
  }

  void run_sweep_points(const SweepSpec& spec) {
    result_.sweep = Sweep{spec.param, spec.values, {}, {}};
    checkpoint();
    std::vector<SweepPoint> points = run_sweep(
        spec, [&](const SweepValue& value) { return measure_point(spec, value); },
        [&](const std::vector<SweepPoint>& pts) {
          result_.sweep->points = pts;
          result_.sweep->class_changes = class_changes(pts);
          checkpoint();
        });
    int failed = 0;
    for (const auto& p : points)
      if (p.error) ++failed;
    if (failed > 0) warn({report::kind::SweepPointsFailed{static_cast<std::size_t>(failed), points.size()}, ""});
    if (failed == static_cast<int>(points.size()) && !points.empty()) {
      const report::ErrorRecord& e = *points[0].error;
      const int code = e.exit_code.value_or(static_cast<int>(ExitCode::TargetFailed));
      throw Error(static_cast<ExitCode>(code), e.kind,
                  fmt::format("every sweep point failed; the first ({}={}): {}", spec.param,
                              to_json(points[0].value).dump(), e.message),
                  e.hint.value_or(""));
    }
  }

  core::Progress progress_;
  core::Executor& exec_;
  const ExpectConfig& cfg_;
  const ExpectSinks& sinks_;
  core::Session* agent_ = nullptr;           // the agent requests go to (shared or owned_)
  std::unique_ptr<core::Session> owned_;     // the agent this run started, if any
  const explain::ExplainResult* explained_;  // the caller's explain, if it ran one
  CompiledRun compiled_;
  ExpectResult result_;
};

}  // namespace

std::vector<report::Warning> point_warnings(const std::string& label, const std::vector<report::Warning>& warnings) {
  std::vector<report::Warning> out;
  for (const auto& w : warnings)
    out.push_back({report::kind::AsWritten{report::code_of(w), label + ": " + report::message_of(w), report::hint_of(w),
                                           report::figure_of(w)},
                   label});
  return out;
}

ExpectResult run_expect(const core::Progress& progress, core::Executor& exec, core::Session* shared_agent,
                        const ExpectConfig& cfg, const explain::ExplainResult* explained, const ExpectSinks& sinks) {
  return ExpectRun(progress, exec, shared_agent, cfg, explained, sinks).run();
}

}  // namespace tct::expect
