// `tct expect`'s orchestration (see expect_run.hpp): phases, the ceilings cache file, the
// sweep's points and the validation bench. The decisions live in src/expect/.
#include "expect/run.hpp"

#include "core/json_number.hpp"

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

#include "expect/ceilings.hpp"
#include "expect/classifier.hpp"
#include "expect/compiled.hpp"
#include "expect/evidence.hpp"
#include "expect/suggestions.hpp"
#include "errors.hpp"
#include "explain/json.hpp"
#include "explain/run.hpp"
#include "report/document.hpp"
#include "report/warnings.hpp"
#include "bench/run.hpp"

namespace tct::runner {
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

json first_speedup(const json& bench) {
  const json& rows = bench.value("rows", json::array());
  if (rows.empty()) return nullptr;
  const json& r = rows[0];
  if (r.value("status", "") != "ok") return nullptr;
  return r.value("speedup", json());
}

bool sweep_changed_shapes(const json& points, const json& described) {
  json first = described.value("inputs", json::array());
  for (const auto& p : points)
    if (p.contains("inputs") && p["inputs"] != first) return true;
  return false;
}

// One run of expect: the agent in use and what the phases found.
class ExpectRun {
 public:
  ExpectRun(Host& host, Executor& exec, Session* shared_agent, const ExpectConfig& cfg)
      : host_(host), exec_(exec), cfg_(cfg), agent_(shared_agent) {}

  json run() {
    json& section = host_.document()["expect"];
    section = {{"target", nullptr}, {"sweep", nullptr}, {"validation", nullptr}, {"class", nullptr}};

    ensure_agent();
    compiled_ = compiled_run();
    host_.progress("loading the target");
    json described = agent_->call("target.load", to_load_params(cfg_.target));
    section["target"] = described;
    host_.checkpoint();

    ceilings_ = machine_ceilings(cfg_.refresh_ceilings);
    section["ceilings"] = analysis::to_json(ceilings_);
    section["device"] = device_info_;
    host_.checkpoint();

    json analysed = analyse(described, cfg_.target.params, {});
    // A workload cannot beat the machine's ceiling: a cached ceiling below what it achieved was
    // measured under load. Remeasure once rather than print a roofline above 100%.
    if (above_roofline(analysed) && ceilings_.source == "cache") {
      ceilings_ = machine_ceilings(/*refresh=*/true);
      section["ceilings"] = analysis::to_json(ceilings_);
      analysed = analyse(described, cfg_.target.params, {});
    }
    if (above_roofline(analysed)) {
      // A fraction above 1 is a measurement of the load, not of the workload: not printed.
      analysed["roofline"]["fraction"] = nullptr;
      host_.warn(report::make_warning(
          report::WarningCode::NoisyMeasurement,
          "this workload ran faster than the measured FLOP/s ceiling: the ceiling (or the profile) was measured "
          "while the machine was busy, so the roofline fraction is left out",
          "rerun on a quiet machine with --refresh-ceilings"));
    }
    if (std::string unstable = analysis::load_instability(evidence_); !unstable.empty())
      host_.warn(report::make_warning(report::WarningCode::NoisyMeasurement, unstable,
                                      "rerun when the machine is quieter, or with more --calls"));
    if (std::string slow = analysis::slow_machine(evidence_, ceilings_); !slow.empty())
      host_.warn(report::make_warning(report::WarningCode::NoisyMeasurement, slow,
                                      "rerun when the machine is quieter"));
    if (std::string drift = analysis::load_drift(evidence_); !drift.empty())
      host_.warn(report::make_warning(report::WarningCode::NoisyMeasurement, drift,
                                      "rerun when the machine is quieter, or with more --profile-seconds"));
    section.update(analysed);
    host_.checkpoint();

    if ((cfg_.sweep || cfg_.validate) && (cfg_.backend != "inductor" || cfg_.mode != "default"))
      host_.warn(report::make_warning(
          report::WarningCode::Other,
          fmt::format("the predicted range models torch.compile's default (inductor, mode default); the bench "
                      "runs {} with mode {}", cfg_.backend, cfg_.mode),
          "compare prediction and measurement with --backend inductor --mode default"));
    if (cfg_.sweep) {
      run_sweep_points(*cfg_.sweep);
      // Recompute the suggestions with what the sweep showed.
      analysis::SuggestionContext sc = suggestion_context(described, cfg_.target.params);
      sc.sweep_changes_shapes = sweep_changed_shapes(host_.document()["expect"]["sweep"]["points"], described);
      sc.sweep_param = cfg_.sweep->param;
      host_.document()["expect"]["suggestions"] = suggestions(evidence_, verdict_, sc);
      host_.checkpoint();
    }
    // Our own agent goes before the validation bench; a shared one is the caller's to close.
    if (owned_) owned_->close();

    if (cfg_.validate) {
      host_.progress("validate: bench");
      BenchConfig bcfg = bench_config(cfg_.target.params, "bench");
      json bench = run_bench(host_, exec_, bcfg);
      json measured = first_speedup(bench);
      if (measured.is_object() && measured.value("inconclusive", false)) {
        host_.warn(report::make_warning(report::WarningCode::NoisyMeasurement,
                                        "--validate: the measured speedup interval is too wide to check the "
                                        "prediction against (inconclusive)",
                                        "rerun on a quieter machine or with a larger --budget"));
        return host_.document()["expect"];
      }
      json v = analysis::validate_prediction(verdict_.predicted, verdict_.cls, measured, verdict_.borderline_with);
      host_.document()["expect"]["validation"] = v;
      host_.checkpoint();
      if (v.is_null()) {
        if (auto err = bench_outcome(bench, bcfg); err && err->code() != ExitCode::CheckFailed) throw *err;
        throw Error(ExitCode::TargetFailed, "validation", "--validate: bench measured no speedup",
                    "run `tct bench` on the target to see why");
      }
    }
    return host_.document()["expect"];
  }

 private:
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

  // What torch.compile really does with the target: the explain section the document
  // already has (audit ran explain first), or the logged compiled run of our own
  // (explain::run_explain, the section then removed: expect's document keeps a summary).
  // Unknown when that run fails: the prediction then assumes the function is captured.
  analysis::CompiledRun compiled_run() {
    json& doc = host_.document();
    if (doc.contains("explain")) return analysis::compiled_run_of(explain::from_json(doc["explain"]));
    analysis::CompiledRun run;
    try {
      run = analysis::compiled_run_of(explain::run_explain(host_, *agent_, {cfg_.target, true, 2, std::nullopt, "", false}));
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      if (e.kind() == "timeout" || e.kind() == "agent_died" || e.kind() == "protocol") {
        drop_agent();
        ensure_agent();
      }
      host_.warn(report::make_warning(report::WarningCode::PartialResult,
                                      fmt::format("could not check what torch.compile captures: {}", e.what()),
                                      "the prediction assumes the whole function is captured; run `tct explain`"));
    }
    doc.erase("explain");
    return run;
  }

  // The model's suggestions, after the fix of a skipped frame or of graph breaks.
  json suggestions(const analysis::Evidence& ev, const analysis::Verdict& v, const analysis::SuggestionContext& sc) {
    return analysis::put_first(analysis::fix_first_suggestion(compiled_, cfg_.target.target),
                               analysis::suggest(ev, v, sc));
  }

  static bool above_roofline(const json& analysed) {
    const json& f = analysed["roofline"]["fraction"];
    return f.is_number() && f.get<double>() > 1.0;
  }

  // Device identity -> cache lookup -> measure when missing (or asked to).
  analysis::Ceilings machine_ceilings(bool refresh) {
    host_.progress("machine ceilings");
    device_info_ = agent_->call("expect.device_info", json::object());
    std::string key = analysis::ceilings_cache_key(device_info_);
    std::string path = analysis::ceilings_cache_path(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
    json cache = (cfg_.no_cache || path.empty()) ? json::object() : read_cache(path);
    if (!cfg_.no_cache && !refresh)
      if (auto hit = analysis::lookup_ceilings(cache, key)) {
        host_.document()["expect"]["ceilings_cache"] = {{"path", path}, {"key", key}, {"hit", true}};
        return *hit;
      }
    host_.progress("measuring the machine's ceilings (a large copy, a large matmul; cached afterwards)");
    json measured = agent_->call("expect.ceilings", json::object());
    analysis::Ceilings c = analysis::ceilings_from_json(measured, "measured");
    bool written = false;
    if (!cfg_.no_cache && !path.empty() && c.peak_flops > 0 && c.peak_bandwidth > 0 && c.op_floor_ns > 0) {
      analysis::store_ceilings(cache, key, measured, utc_now());
      written = write_cache(path, cache);
    }
    host_.document()["expect"]["ceilings_cache"] = {{"path", path.empty() ? json(nullptr) : json(path)}, {"key", key},
                                            {"hit", false}, {"written", written}};
    host_.document()["expect"]["ceilings_measurement"] = measured;
    if (measured.value("matmul_error", json()).is_string())
      host_.warn(report::make_warning(report::WarningCode::Other,
                                                         "no FLOP/s ceiling: the matmul failed: " +
                                                             measured["matmul_error"].get<std::string>(),
                                                         "the class falls back to the time in library ops"));
    return c;
  }

  analysis::SuggestionContext suggestion_context(const json& described, const json& params) const {
    analysis::SuggestionContext sc;
    sc.params = described.value("params", params);
    sc.dtype = described.value("dtype", json()).is_string() ? described["dtype"].get<std::string>() : "";
    sc.train = cfg_.target.train;
    return sc;
  }

  // Profile + FLOPs of the loaded target -> the fields of doc["expect"] (or of a sweep point).
  json analyse(const json& described, const json& params, const std::string& label) {
    std::string prefix = label.empty() ? "" : label + ": ";
    host_.progress(prefix + "profiling eager calls");
    json profile = agent_->call("expect.profile",
                                {{"calls", cfg_.calls},
                                 {"warmup", 3},
                                 {"timed_calls", 2 * cfg_.calls},
                                 {"min_seconds", cfg_.profile_s}});
    host_.progress(prefix + "counting FLOPs and bytes");
    json flops = agent_->call("expect.flops", json::object());
    analysis::Evidence ev;
    try {
      ev = analysis::evidence_from_agent(profile, flops);
    } catch (const std::invalid_argument& e) {
      throw Error(ExitCode::Internal, "internal", fmt::format("the agent's profile is unusable: {}", e.what()),
                  "this is a bug in tct; rerun with --verbose and report it");
    }
    analysis::Verdict v = analysis::classify(ev, ceilings_);
    // The model predicts a fully captured function; the compiled run bounds it.
    analysis::SpeedupRange captured = v.predicted;
    v.predicted = analysis::bound_prediction(captured, compiled_);
    json out = analysis::verdict_json(v);
    out["predicted_speedup"]["assumes"] = analysis::prediction_assumes(compiled_);
    if (label.empty()) out["compiled_run"] = analysis::compiled_run_json(compiled_, captured);
    out["profile"] = analysis::profile_json(ev);
    out["flops_per_call"] = core::number_or_null(ev.flops);
    out["bytes_per_call"] = core::number_or_null(ev.bytes);
    out["boundary_bytes_per_call"] = core::number_or_null(ev.boundary_bytes);
    out["fused_kernel_bytes_per_call"] = core::number_or_null(ev.fused_kernel_bytes);
    out["element_ops_per_call"] = core::number_or_null(ev.element_ops);
    out["outside_tensors"] = core::number_or_null(ev.outside_tensors);
    out["module_calls"] = core::number_or_null(ev.module_calls);
    out["arithmetic_intensity"] = core::number_or_null(ev.arithmetic_intensity());
    if (!ev.flops_error.empty()) out["flops_error"] = ev.flops_error;
    out["suggestions"] = suggestions(ev, v, suggestion_context(described, params));
    if (label.empty()) {
      evidence_ = ev;
      verdict_ = v;
      if (!ev.flops_error.empty())
        host_.warn(report::make_warning(report::WarningCode::Other,
                                                           "FLOPs and bytes could not be counted: " + ev.flops_error,
                                                           "the class is decided from the profile alone"));
    }
    return out;
  }

  BenchConfig bench_config(const json& params, const std::string& section) const {
    BenchConfig bcfg;
    bcfg.target = cfg_.target;
    bcfg.target.params = params;
    bcfg.backends = {cfg_.backend};
    bcfg.modes = {cfg_.mode};
    bcfg.budget_s = cfg_.budget_s;
    bcfg.warmup_calls = 10;
    bcfg.eager_warmup_calls = 5;
    bcfg.compile_time = false;  // expect asks about steady-state speed, not compile cost
    bcfg.memory = false;
    bcfg.section = section;
    return bcfg;
  }

  void run_sweep_points(const SweepSpec& spec) {
    json& sweep = host_.document()["expect"]["sweep"];
    sweep = {{"param", spec.param}, {"values", spec.values}, {"points", json::array()},
             {"class_changes", json::array()}};
    host_.checkpoint();
    auto measure_point = [&](const json& value, const std::string& label) -> json {
      json params = cfg_.target.params;
      params[spec.param] = value;
      ensure_agent();
      json load = to_load_params(cfg_.target);
      load["params"] = params;
      json point;
      try {
        host_.progress(label + ": loading");
        json described = agent_->call("target.load", load);
        point["inputs"] = described.value("inputs", json::array());
        json a = analyse(described, params, label);
        point["class"] = a["class"];
        point["predicted_speedup"] = {{"low", a["predicted_speedup"]["low"]},
                                      {"point", a["predicted_speedup"]["point"]},
                                      {"high", a["predicted_speedup"]["high"]}};
        point["profile"] = {{"wall_per_call_ns", a["profile"]["wall_per_call_ns"]},
                            {"overhead_fraction", a["profile"]["overhead_fraction"]},
                            {"ops_per_call", a["profile"]["ops_per_call"]}};
        point["arithmetic_intensity"] = a["arithmetic_intensity"];
        point["decided_by"] = a["decided_by"];
      } catch (const Error& e) {
        // A hung or dead agent cannot serve the next point: start a fresh one for it.
        if (e.kind() == "timeout" || e.kind() == "agent_died") drop_agent();
        throw;
      }
      host_.progress(label + ": bench");
      std::string scratch = "expect_sweep_bench";
      json bench;
      try {
        bench = run_bench(host_, exec_, bench_config(params, scratch));
      } catch (const Error&) {
        host_.document().erase(scratch);
        throw;
      }
      host_.document().erase(scratch);
      json sp = first_speedup(bench);
      if (sp.is_null()) {
        const json& rows = bench.value("rows", json::array());
        json err = rows.empty() ? json(nullptr) : rows[0].value("error", json());
        point["speedup"] = nullptr;
        point["error"] = err.is_null() ? json{{"kind", "bench"}, {"message", "bench measured no speedup"}} : err;
      } else {
        point["speedup"] = {{"estimate", sp.value("estimate", json())}, {"low", sp.value("low", json())},
                            {"high", sp.value("high", json())}};
        point["validation"] = analysis::validate_prediction(analysis::range_from_json(point["predicted_speedup"]),
                                                            point.value("class", ""), sp,
                                                            analysis::borderline_from_json(point));
      }
      return point;
    };
    // Each point's warnings (its profile's and its bench's) name the point.
    auto measure = [&](const json& value) -> json {
      const std::string label = fmt::format("{}={}", spec.param, value.dump());
      const json& before = host_.document()["warnings"];
      const std::size_t from = before.is_array() ? before.size() : 0;
      try {
        json point = measure_point(value, label);
        name_point_in_warnings(host_.document()["warnings"], from, label);
        return point;
      } catch (const Error&) {
        name_point_in_warnings(host_.document()["warnings"], from, label);
        throw;
      }
    };
    json points = run_sweep(spec, measure, [&](const json& pts) {
      host_.document()["expect"]["sweep"]["points"] = pts;
      host_.document()["expect"]["sweep"]["class_changes"] = class_changes(pts);
      host_.checkpoint();
    });
    int failed = 0;
    for (const auto& p : points)
      if (!p["error"].is_null()) ++failed;
    if (failed > 0)
      host_.warn(report::make_warning(report::WarningCode::PartialResult,
                                                         fmt::format("{} of {} sweep points failed", failed,
                                                                     points.size()),
                                                         "each failed point says why in expect.sweep.points[].error"));
    if (failed == static_cast<int>(points.size()) && !points.empty()) {
      const json& e = points[0]["error"];
      int code = e.value("exit_code", static_cast<int>(ExitCode::TargetFailed));
      throw Error(static_cast<ExitCode>(code), e.value("kind", "sweep"),
                  fmt::format("every sweep point failed; the first ({}={}): {}", spec.param,
                              points[0]["value"].dump(), e.value("message", "")),
                  e.value("hint", ""));
    }
  }

  Host& host_;
  Executor& exec_;
  const ExpectConfig& cfg_;
  Session* agent_ = nullptr;          // the agent requests go to (shared or owned_)
  std::unique_ptr<Session> owned_;    // the agent this run started, if any
  json device_info_;
  analysis::Ceilings ceilings_;
  analysis::Evidence evidence_;
  analysis::Verdict verdict_;
  analysis::CompiledRun compiled_;
};

}  // namespace

json run_expect(Host& host, Executor& exec, Session* shared_agent, const ExpectConfig& cfg) {
  return ExpectRun(host, exec, shared_agent, cfg).run();
}

int expect_exit_code(const json& section, const ExpectConfig& cfg) {
  if (!cfg.validate || !section.is_object()) return 0;
  const json& v = section.value("validation", json());
  if (v.is_object() && !v.value("direction_right", true))
    throw check_failed("prediction_wrong", v.value("summary", std::string("the prediction got the direction wrong")),
                       "see the validation in the report; the classification may not fit this workload");
  return 0;
}

}  // namespace tct::runner
