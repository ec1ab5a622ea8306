// tct expect: should torch.compile be expected to help this workload, and what would raise
// the gain? Profile + FLOPs/bytes + the machine's ceilings -> class (overhead, memory or
// compute bound), predicted speedup range, ranked suggestions; optionally a sweep over one
// factory parameter and a validation against a real bench. The decisions live in
// src/analysis/expect_*.cpp; this file is flags, phases, the ceilings cache file and exit codes.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "analysis/expect_ceilings.hpp"
#include "analysis/expect_classifier.hpp"
#include "analysis/expect_evidence.hpp"
#include "analysis/expect_suggestions.hpp"
#include "cli/command.hpp"
#include "cli/target_options.hpp"
#include "errors.hpp"
#include "report/document.hpp"
#include "report/warnings.hpp"
#include "runner/bench_run.hpp"
#include "runner/sweep.hpp"

namespace tct::cli {
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

class ExpectCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("expect", "Should torch.compile help? Overhead, memory or compute bound, a "
                                             "predicted speedup range and what to try; --sweep a parameter");
    add_target_options(*cmd, target_);
    cmd->add_option("--sweep", sweep_, "NAME=V1,V2,...: profile, classify and bench at each value of a factory "
                                       "parameter (values read like --param)");
    cmd->add_flag("--validate", validate_, "Also run bench once and compare the predicted range with the "
                                           "measured speedup (exit 1 when the direction is wrong)");
    cmd->add_option("--backend", backend_, "Backend for --validate/--sweep benches")->capture_default_str();
    cmd->add_option("--mode", mode_, "Inductor mode for --validate/--sweep benches")->capture_default_str();
    cmd->add_option("--budget", budget_s_, "Seconds of interleaved sampling per bench")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--calls", calls_, "Eager calls profiled (after warm-up)")
        ->capture_default_str()->check(CLI::Range(1, 1000));
    cmd->add_flag("--no-cache", no_cache_, "Measure the machine's ceilings now; do not read or write the cache");
    cmd->add_flag("--refresh-ceilings", refresh_, "Measure the ceilings now and replace the cached entry");
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct expect builtin:tiny_ops                       class, predicted gain, suggestions
  tct expect builtin:mlp --sweep batch=8,64,512     speedup against batch size, class changes
  tct expect model.py:make --param batch=32 --validate
Ceilings (bandwidth, FLOP/s, per-op floor) are cached in $XDG_CACHE_HOME/tct/ceilings.json
(or ~/.cache/tct), per device, dtype, torch version and thread count.
Exit codes: 0 ok, 1 --validate: predicted direction wrong, 2 bad usage or input (also a
--sweep with no valid point because of bad input), 3 the target failed (raised, crashed, hung),
4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    std::optional<runner::SweepSpec> sweep;
    if (sweep_) sweep = runner::parse_sweep(*sweep_);
    json& section = ctx.doc["expect"];
    section = {{"target", nullptr}, {"sweep", nullptr}, {"validation", nullptr}, {"class", nullptr}};

    agent_ = ctx.start_agent();
    ctx.progress("loading the target");
    json described = agent_->call("target.load", to_load_params(target_), ctx.timeout(), ctx.progress_fn());
    section["target"] = described;
    ctx.checkpoint();

    ceilings_ = machine_ceilings(ctx);
    section["ceilings"] = analysis::to_json(ceilings_);
    section["device"] = device_info_;
    ctx.checkpoint();

    json analysed = analyse(ctx, described, target_.params, {});
    section.update(analysed);
    ctx.checkpoint();

    int code = 0;
    if ((sweep || validate_) && (backend_ != "inductor" || mode_ != "default"))
      report::add_warning(ctx.doc, report::make_warning(
          report::WarningCode::Other,
          fmt::format("the predicted range models torch.compile's default (inductor, mode default); the bench "
                      "runs {} with mode {}", backend_, mode_),
          "compare prediction and measurement with --backend inductor --mode default"));
    if (sweep) {
      run_sweep_points(ctx, *sweep, described);
      // Recompute the suggestions with what the sweep showed.
      analysis::SuggestionContext sc = suggestion_context(described, target_.params);
      sc.sweep_changes_shapes = sweep_changed_shapes(ctx.doc["expect"]["sweep"]["points"], described);
      sc.sweep_param = sweep->param;
      ctx.doc["expect"]["suggestions"] = analysis::suggest(evidence_, verdict_, sc);
      ctx.checkpoint();
    }
    if (agent_) agent_->close();

    if (validate_) {
      ctx.progress("validate: bench");
      runner::BenchConfig cfg = bench_config(target_.params, "bench");
      json bench = runner::run_bench(ctx, cfg);
      json measured = first_speedup(bench);
      json v = analysis::validate_prediction(verdict_.predicted, measured);
      ctx.doc["expect"]["validation"] = v;
      ctx.checkpoint();
      if (v.is_null()) {
        if (auto err = runner::bench_outcome(bench, cfg); err && err->code() != ExitCode::CheckFailed) throw *err;
        throw Error(ExitCode::TargetFailed, "validation", "--validate: bench measured no speedup",
                    "run `tct bench` on the target to see why");
      }
      if (!v.value("direction_right", true)) code = static_cast<int>(ExitCode::CheckFailed);
    }
    return code;
  }

 private:
  // Device identity -> cache lookup -> measure when missing (or asked to).
  analysis::Ceilings machine_ceilings(RunContext& ctx) {
    ctx.progress("machine ceilings");
    device_info_ = agent_->call("expect.device_info", json::object(), ctx.timeout(), ctx.progress_fn());
    std::string key = analysis::ceilings_cache_key(device_info_);
    std::string path = analysis::ceilings_cache_path(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
    json cache = (no_cache_ || path.empty()) ? json::object() : read_cache(path);
    if (!no_cache_ && !refresh_)
      if (auto hit = analysis::lookup_ceilings(cache, key)) {
        ctx.doc["expect"]["ceilings_cache"] = {{"path", path}, {"key", key}, {"hit", true}};
        return *hit;
      }
    ctx.progress("measuring the machine's ceilings (a large copy, a large matmul; cached afterwards)");
    json measured = agent_->call("expect.ceilings", json::object(), ctx.timeout(), ctx.progress_fn());
    analysis::Ceilings c = analysis::ceilings_from_json(measured, "measured");
    bool written = false;
    if (!no_cache_ && !path.empty() && c.peak_flops > 0 && c.peak_bandwidth > 0 && c.op_floor_ns > 0) {
      analysis::store_ceilings(cache, key, measured, utc_now());
      written = write_cache(path, cache);
    }
    ctx.doc["expect"]["ceilings_cache"] = {{"path", path.empty() ? json(nullptr) : json(path)}, {"key", key},
                                           {"hit", false}, {"written", written}};
    ctx.doc["expect"]["ceilings_measurement"] = measured;
    if (measured.value("matmul_error", json()).is_string())
      report::add_warning(ctx.doc, report::make_warning(report::WarningCode::Other,
                                                        "no FLOP/s ceiling: the matmul failed: " +
                                                            measured["matmul_error"].get<std::string>(),
                                                        "the class falls back to the time in library ops"));
    return c;
  }

  analysis::SuggestionContext suggestion_context(const json& described, const json& params) {
    analysis::SuggestionContext sc;
    sc.params = described.value("params", params);
    sc.dtype = described.value("dtype", json()).is_string() ? described["dtype"].get<std::string>() : "";
    sc.train = target_.train;
    return sc;
  }

  // Profile + FLOPs of the loaded target -> the fields of doc["expect"] (or of a sweep point).
  json analyse(RunContext& ctx, const json& described, const json& params, const std::string& label) {
    std::string prefix = label.empty() ? "" : label + ": ";
    ctx.progress(prefix + "profiling eager calls");
    json profile = agent_->call("expect.profile", {{"calls", calls_}, {"warmup", 3}, {"timed_calls", 2 * calls_}},
                                ctx.timeout(), ctx.progress_fn());
    ctx.progress(prefix + "counting FLOPs and bytes");
    json flops = agent_->call("expect.flops", json::object(), ctx.timeout(), ctx.progress_fn());
    analysis::Evidence ev;
    try {
      ev = analysis::evidence_from_agent(profile, flops);
    } catch (const std::invalid_argument& e) {
      throw Error(ExitCode::Internal, "internal", fmt::format("the agent's profile is unusable: {}", e.what()),
                  "this is a bug in tct; rerun with --verbose and report it");
    }
    analysis::Verdict v = analysis::classify(ev, ceilings_);
    json out = analysis::verdict_json(v);
    out["profile"] = analysis::profile_json(ev);
    auto num_or_null = [](double x) { return std::isfinite(x) ? json(x) : json(nullptr); };
    out["flops_per_call"] = num_or_null(ev.flops);
    out["bytes_per_call"] = num_or_null(ev.bytes);
    out["boundary_bytes_per_call"] = num_or_null(ev.boundary_bytes);
    out["arithmetic_intensity"] = num_or_null(ev.arithmetic_intensity());
    if (!ev.flops_error.empty()) out["flops_error"] = ev.flops_error;
    out["suggestions"] = analysis::suggest(ev, v, suggestion_context(described, params));
    if (label.empty()) {
      evidence_ = ev;
      verdict_ = v;
      if (!ev.flops_error.empty())
        report::add_warning(ctx.doc, report::make_warning(report::WarningCode::Other,
                                                          "FLOPs and bytes could not be counted: " + ev.flops_error,
                                                          "the class is decided from the profile alone"));
    }
    return out;
  }

  runner::BenchConfig bench_config(const json& params, const std::string& section) {
    runner::BenchConfig cfg;
    cfg.target = target_;
    cfg.target.params = params;
    cfg.backends = {backend_};
    cfg.modes = {mode_};
    cfg.budget_s = budget_s_;
    cfg.warmup_calls = 10;
    cfg.eager_warmup_calls = 5;
    cfg.compile_time = false;  // expect asks about steady-state speed, not compile cost
    cfg.memory = false;
    cfg.section = section;
    return cfg;
  }

  static json first_speedup(const json& bench) {
    const json& rows = bench.value("rows", json::array());
    if (rows.empty()) return nullptr;
    const json& r = rows[0];
    if (r.value("status", "") != "ok") return nullptr;
    return r.value("speedup", json());
  }

  static bool sweep_changed_shapes(const json& points, const json& described) {
    json first = described.value("inputs", json::array());
    for (const auto& p : points)
      if (p.contains("inputs") && p["inputs"] != first) return true;
    return false;
  }

  void run_sweep_points(RunContext& ctx, const runner::SweepSpec& spec, const json& base_described) {
    json& sweep = ctx.doc["expect"]["sweep"];
    sweep = {{"param", spec.param}, {"values", spec.values}, {"points", json::array()},
             {"class_changes", json::array()}};
    ctx.checkpoint();
    auto measure = [&](const json& value) -> json {
      std::string label = fmt::format("{}={}", spec.param, value.dump());
      json params = target_.params;
      params[spec.param] = value;
      if (!agent_) agent_ = ctx.start_agent();
      json load = to_load_params(target_);
      load["params"] = params;
      json point;
      try {
        ctx.progress(label + ": loading");
        json described = agent_->call("target.load", load, ctx.timeout(), ctx.progress_fn());
        point["inputs"] = described.value("inputs", json::array());
        json a = analyse(ctx, described, params, label);
        point["class"] = a["class"];
        point["predicted_speedup"] = {{"low", a["predicted_speedup"]["low"]},
                                      {"high", a["predicted_speedup"]["high"]}};
        point["profile"] = {{"wall_per_call_ns", a["profile"]["wall_per_call_ns"]},
                            {"overhead_fraction", a["profile"]["overhead_fraction"]},
                            {"ops_per_call", a["profile"]["ops_per_call"]}};
        point["arithmetic_intensity"] = a["arithmetic_intensity"];
        point["decided_by"] = a["decided_by"];
      } catch (const Error& e) {
        // A hung or dead agent cannot serve the next point: start a fresh one for it.
        if (e.kind() == "timeout" || e.kind() == "agent_died") agent_.reset();
        throw;
      }
      ctx.progress(label + ": bench");
      std::string scratch = "expect_sweep_bench";
      json bench;
      try {
        bench = runner::run_bench(ctx, bench_config(params, scratch));
      } catch (const Error&) {
        ctx.doc.erase(scratch);
        throw;
      }
      ctx.doc.erase(scratch);
      json sp = first_speedup(bench);
      if (sp.is_null()) {
        const json& rows = bench.value("rows", json::array());
        json err = rows.empty() ? json(nullptr) : rows[0].value("error", json());
        point["speedup"] = nullptr;
        point["error"] = err.is_null() ? json{{"kind", "bench"}, {"message", "bench measured no speedup"}} : err;
      } else {
        point["speedup"] = {{"estimate", sp.value("estimate", json())}, {"low", sp.value("low", json())},
                            {"high", sp.value("high", json())}};
        analysis::SpeedupRange pr{point["predicted_speedup"]["low"].is_number()
                                      ? point["predicted_speedup"]["low"].get<double>() : NAN,
                                  point["predicted_speedup"]["high"].is_number()
                                      ? point["predicted_speedup"]["high"].get<double>() : NAN};
        point["validation"] = analysis::validate_prediction(pr, sp);
      }
      return point;
    };
    json points = runner::run_sweep(spec, measure, [&](const json& pts) {
      ctx.doc["expect"]["sweep"]["points"] = pts;
      ctx.doc["expect"]["sweep"]["class_changes"] = runner::class_changes(pts);
      ctx.checkpoint();
    });
    int failed = 0;
    for (const auto& p : points)
      if (!p["error"].is_null()) ++failed;
    if (failed > 0)
      report::add_warning(ctx.doc, report::make_warning(report::WarningCode::PartialResult,
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
    (void)base_described;
  }

  TargetOptions target_;
  std::optional<std::string> sweep_;
  bool validate_ = false;
  std::string backend_ = "inductor";
  std::string mode_ = "default";
  double budget_s_ = 3.0;
  int calls_ = 10;
  bool no_cache_ = false;
  bool refresh_ = false;

  std::unique_ptr<agent::Agent> agent_;
  json device_info_;
  analysis::Ceilings ceilings_;
  analysis::Evidence evidence_;
  analysis::Verdict verdict_;
};

}  // namespace

std::unique_ptr<Command> make_expect_command() { return std::make_unique<ExpectCommand>(); }

}  // namespace tct::cli
