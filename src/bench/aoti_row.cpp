#include "bench/aoti_row.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "agent/child_process.hpp"
#include "bench/reply.hpp"
#include "core/aoti_runner.hpp"
#include "core/reply.hpp"
#include "core/json_number.hpp"
#include "core/json_read.hpp"
#include "core/temp_dir.hpp"
#include "errors.hpp"

namespace tct::bench {
namespace {

namespace fs = std::filesystem;

// One tct-aoti --serve process: loaded, its first call made and its outputs written; then
// one request a line (tools/aoti_runner/main.cpp).
class ServedPackage {
 public:
  ServedPackage(const std::string& runner, const fs::path& package, const fs::path& inputs, const fs::path& out,
                int threads)
      : child_(spec(runner, package, inputs, out, threads)) {
    first_ = core::fields::read_as<reply::RunnerFirst>(read("load"));
  }
  ServedPackage(const ServedPackage&) = delete;
  ServedPackage& operator=(const ServedPackage&) = delete;
  ~ServedPackage() {
    child_.write_line(R"({"op": "exit"})");
    child_.finish(std::chrono::seconds(5));
  }

  json call(const std::string& op, const json& params) {
    json req = params;
    req["op"] = op;
    if (!child_.write_line(req.dump())) fail(op);
    return read(op);
  }
  // Loading the package, and its first call: the marks of tct-aoti's first line.
  Nanoseconds load() const { return gap("inputs_loaded", "package_loaded"); }
  Nanoseconds first_call() const { return gap("package_loaded", "first_output"); }

 private:
  static agent::ChildProcess::Spec spec(const std::string& runner, const fs::path& package, const fs::path& inputs,
                                        const fs::path& out, int threads) {
    fs::create_directories(out);  // before it starts: it writes its first outputs there
    std::vector<std::pair<std::string, std::string>> env;
    if (threads > 0) env.emplace_back("TCT_THREADS", std::to_string(threads));  // the agent's torch threads
    return {{runner, "--serve", package.string(), inputs.string(), out.string()}, env, false};
  }
  Nanoseconds gap(const std::string& from, const std::string& to) const {
    const auto mark = [&](const std::string& name) {
      const auto it = first_.marks_ns.find(name);
      return it == first_.marks_ns.end() ? NAN : it->second;
    };
    return Nanoseconds(mark(to) - mark(from));
  }
  [[noreturn]] void fail(const std::string& what) {
    const std::string why = child_.last_stderr_line();
    throw Error(ExitCode::TargetFailed, "compile_failed",
                fmt::format("tct-aoti failed at {} ({})", what, why.empty() ? "it exited" : why),
                "rerun with --verbose; `tct startup --mode aoti-cpp` runs the same package alone");
  }
  json read(const std::string& what) {
    std::string line;
    const auto r = child_.read_line(line, std::chrono::minutes(10));
    if (r == agent::ChildProcess::Read::Interrupted) throw Error(ExitCode::Interrupted, "interrupted", "interrupted");
    json reply = json::parse(line, nullptr, false);
    if (r != agent::ChildProcess::Read::Line || !reply.is_object()) fail(what);
    if (const auto failed = core::fields::read_as<reply::RunnerError>(reply); failed.error)
      throw Error(ExitCode::TargetFailed, "compile_failed",
                  fmt::format("tct-aoti: {}", failed.error->is_string() ? failed.error->get<std::string>() : "?"),
                  "rerun with --verbose");
    return reply;
  }
  agent::ChildProcess child_;
  reply::RunnerFirst first_;
};

// A process of the paired sampling: eager blocks in an agent, the package's in a runner.
Caller paired(Caller eager, ServedPackage& runner) {
  return [eager = std::move(eager), &runner](const std::string& op, const json& p) {
    // not a reply: the request's own params
    if (op == "bench.time_block" && p.value("which", "") != "eager") return runner.call("time_block", p);
    return eager(op, p);
  };
}

}  // namespace

std::string python_timing_note(const std::string& why_not_cpp) {
  return fmt::format("timed from Python (aoti_load_package): the C++ runner is not available: {}", why_not_cpp);
}

void measure_aoti_row(const core::Progress& progress, TargetAgent& agent, FreshAgent& peer, const BenchConfig& cfg,
                      const BenchRowSpec& spec, double clock_res, double eager_est, int cpus, int threads,
                      BenchRow& row, std::string& stage) {
  core::TempDir temp("tct-bench-aoti");
  const fs::path dir = cfg.aoti_package_dir.empty() ? fs::path(temp.path()) : fs::absolute(cfg.aoti_package_dir);
  fs::create_directories(dir);
  const fs::path package = dir / "model.pt2", inputs = dir / "inputs";
  Aoti facts;
  if (!cfg.aoti_package_dir.empty()) facts.package_path = package.string();
  stage = "torch.export";
  progress(fmt::format("{}: torch.export and aoti_compile_and_package (next: loading the package)", spec.label()));
  const auto made = core::fields::read_as<core::reply::Package>(agent.call(
      "startup.package", {{"use_loaded", true}, {"package", package.string()}, {"inputs", inputs.string()}}));
  facts.export_time = Nanoseconds(made.export_ns);
  facts.package_time = Nanoseconds(made.package_ns);
  facts.package_bytes = made.package_bytes;
  row.compile.cold = facts.package_compile();
  row.compile.cold_source = "torch.export + aoti_compile_and_package, once (a build-time cost)";
  row.compile.breakdown = {{"torch.export", facts.export_time}, {"aoti_compile_and_package", facts.package_time}};
  row.aoti = facts;

  stage = "load_package";
  std::string why_not;
  const core::RunnerBuild build =
      cfg.aoti_runner_source.empty()
          ? core::RunnerBuild{"", "tct was not told where the runner's sources are", false}
          : core::ensure_aoti_runner(
                core::fields::read_as<core::reply::Libtorch>(agent.call("startup.libtorch", json::object())),
                cfg.aoti_runner_source, cfg.aoti_cache_root, progress);
  std::unique_ptr<ServedPackage> runners[2];
  std::vector<Caller> processes;
  if (!build.path.empty()) {
    progress(fmt::format("{}: loading the package in the C++ runner", spec.label()));
    runners[0] = std::make_unique<ServedPackage>(build.path, package, inputs, dir / "out-0", threads);
    facts.load = runners[0]->load();
    facts.timed_from = "cpp";
    const auto curve = core::fields::read_as<reply::RunnerFirstCalls>(
        runners[0]->call("first_calls", {{"n", std::max(0, cfg.warmup_calls - 1)}, {"max_ns", cfg.budget_s * 0.5e9}}));
    std::vector<double> times{runners[0]->first_call().count()};
    times.insert(times.end(), curve.times_ns.begin(), curve.times_ns.end());
    set_warmup_curve(std::move(times), row);
    row.aoti = facts;
    stage = "correctness";
    check_correctness(progress, agent, cfg, spec, row, (dir / "out-0").string());
    stage = "measurement";
    runners[1] = std::make_unique<ServedPackage>(build.path, package, inputs, dir / "out-1", threads);
    processes = {paired(agent.caller(), *runners[0]), paired(peer.caller(), *runners[1])};
  } else {
    facts.timed_from = "python";
    facts.runner_note = build.skipped;
    progress(fmt::format("{}: loading the package with aoti_load_package ({})", spec.label(), build.skipped));
    const auto loaded = core::fields::read_as<reply::AotiLoad>(
        agent.call("bench.aoti_load", {{"key", spec.key()}, {"package", package.string()}}));
    facts.load = Nanoseconds(loaded.load_ns);
    row.aoti = facts;
    auto r = core::fields::read_as<reply::FirstCalls>(agent.call(
        "bench.first_calls",
        {{"key", spec.key()}, {"backend", spec.backend}, {"n", cfg.warmup_calls}, {"max_ns", cfg.budget_s * 0.5e9}}));
    set_warmup_curve(std::move(r.times_ns), row);
    stage = "correctness";
    check_correctness(progress, agent, cfg, spec, row);
    stage = "measurement";
    peer.call("bench.aoti_load", {{"key", spec.key()}, {"package", package.string()}});
    processes = {agent.caller(), peer.caller()};
  }
  // The second process's eager warm-up, as prepare_peer gives it, before anything is timed.
  peer.call("bench.eager_warmup", {{"n", 3}, {"max_ns", cfg.budget_s * 0.25e9}});
  sample_paired(progress, processes, cfg, spec, clock_res, eager_est, cpus, row);
}

}  // namespace tct::bench
