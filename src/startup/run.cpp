#include "startup/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "agent/child_process.hpp"
#include "core/json_read.hpp"
#include "core/reply.hpp"
#include "core/temp_dir.hpp"
#include "errors.hpp"
#include "core/aoti_runner.hpp"
#include "startup/json.hpp"
#include "startup/start.hpp"
#include "startup/summary.hpp"
#include "startup/reply.hpp"
#include "startup/trace_facts.hpp"

namespace tct::startup {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

Nanoseconds now() { return std::chrono::steady_clock::now().time_since_epoch(); }

double folder_bytes(const fs::path& dir) {
  double total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) total += static_cast<double>(it->file_size(ec));
  return total;
}

// The folders of one start: its own inductor and Triton caches, its TORCH_TRACE.
struct Folders {
  fs::path cache, trace;
  core::Env env() const {
    core::Env e = {{"TORCHINDUCTOR_CACHE_DIR", (cache / "inductor").string()},
                   {"TRITON_CACHE_DIR", (cache / "triton").string()}};
    if (!trace.empty()) e.emplace_back("TORCH_TRACE", trace.string());
    return e;
  }
};

class Runner {
 public:
  Runner(const core::Progress& progress, core::Executor& exec, const StartupConfig& cfg,
         const core::OnPartial<StartupResult>& on_partial)
      : progress_(progress), exec_(exec), cfg_(cfg), on_partial_(on_partial), root_("tct-startup") {}

  StartupResult run() {
    result_.target = cfg_.target.target;
    result_.repeats = cfg_.repeats;
    result_.backend = cfg_.backend;
    for (const auto& [k, v] : cfg_.deploy_env) result_.deploy_env.push_back(k + "=" + v);
    const std::vector<Mode> modes = planned_modes(cfg_.modes);
    for (Mode m : modes) {
      ModeResult x;
      x.mode = m;
      result_.modes.push_back(std::move(x));
    }
    // One agent records the interpreter and torch (the executor keeps them for the document) (and refuses an
    // interpreter without torch) before any start is timed; it tells what building tct-aoti needs.
    {
      auto first = exec_.start({});
      if (auto* cpp = mode(Mode::AotiCpp)) {
        const core::RunnerBuild b = core::ensure_aoti_runner(
            core::fields::read_as<core::reply::Libtorch>(first->call("startup.libtorch", json::object())),
            cfg_.runner_source, cfg_.cache_root, progress_);
        runner_ = b.path;
        cpp->skipped = b.skipped;
      }
      first->close();
    }
    if (cfg_.build_runner_only) {
      if (auto* cpp = mode(Mode::AotiCpp); cpp && cpp->skipped.empty())
        cpp->skipped = fmt::format("nothing timed (--build-runner-only); the runner is {}", runner_);
      return result_;
    }
    const ModeResult* py = mode(Mode::AotiPython);
    const ModeResult* cpp = mode(Mode::AotiCpp);
    if ((py && py->skipped.empty()) || (cpp && cpp->skipped.empty())) make_package();
    for (int r = 0; r < cfg_.repeats; ++r)
      for (auto& m : result_.modes) {
        if (!m.skipped.empty() || !m.error.empty()) continue;
        progress_(fmt::format("{} start {}/{}", to_string(m.mode), r + 1, cfg_.repeats));
        run_start(m, r);
        summarize(m);
        decide(result_);
        on_partial_(result_);
      }
    if (auto* cpp = mode(Mode::AotiCpp); cpp && !cpp->starts.empty()) check_outputs(*cpp);
    decide(result_);
    return result_;
  }

 private:
  ModeResult* mode(Mode m) {
    for (auto& x : result_.modes)
      if (x.mode == m) return &x;
    return nullptr;
  }

  json load_params() const {
    json p = core::to_load_params(cfg_.target);
    p["steady_calls"] = cfg_.steady_calls;
    p["steady_max_ns"] = cfg_.steady_max_ns;
    return p;
  }

  // `traced`: torch.compile starts write a TORCH_TRACE (their phases and cache lookups come
  // from it); the others do not, so they start as a plain script would.
  Folders folders(const std::string& name, bool traced = true) const {
    Folders f{fs::path(root_.path()) / ("cache-" + name),
              traced ? fs::path(root_.path()) / ("trace-" + name) : fs::path()};
    fs::create_directories(f.cache / "inductor");
    fs::create_directories(f.cache / "triton");
    return f;
  }

  fs::path artifacts(int r) const { return fs::path(root_.path()) / fmt::format("artifacts-{}.bin", r); }
  fs::path package_dir() const { return fs::path(root_.path()) / "aoti"; }

  // Exports and packages the model once, in a process of its own (its time is the package
  // compile time a deployment pays once, at build time), for both AOTInductor modes.
  void make_package() {
    progress_("exporting and packaging the model (AOTInductor)");
    fs::create_directories(package_dir());
    Folders f = folders("package");
    Nanoseconds compile = kNotMeasured;
    double bytes = 0;
    std::string skipped;
    try {
      auto session = exec_.start(f.env());
      json p = core::to_load_params(cfg_.target);
      p["package"] = (package_dir() / "model.pt2").string();
      p["inputs"] = (package_dir() / "inputs").string();
      p["reference"] = (package_dir() / "reference").string();
      const auto reply = core::fields::read_as<core::reply::Package>(session->call("startup.package", p));
      session->close();
      compile = Nanoseconds(reply.export_ns + reply.package_ns);
      bytes = static_cast<double>(reply.package_bytes.value_or(0));
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      skipped = e.hint().empty() ? e.what() : fmt::format("{}; {}", e.what(), e.hint());
    }
    for (Mode which : {Mode::AotiPython, Mode::AotiCpp})
      if (auto* m = mode(which); m && m->skipped.empty()) {
        m->package_compile = compile;
        if (skipped.empty()) m->shipped_bytes = bytes;
        m->skipped = skipped;
      }
  }

  // tct-aoti's first output against eager's (the package process saved those), compared by
  // an agent; float32 rounding scaled by the outputs' magnitude, as probe's smoke check.
  void check_outputs(ModeResult& m) {
    progress_("checking the C++ runner's outputs against eager");
    try {
      auto session = exec_.start({});
      const auto facts = core::fields::read_as<reply::Compare>(
          session->call("startup.compare",
                        {{"expected", (package_dir() / "reference").string()}, {"actual", runner_out(0).string()}}));
      session->close();
      OutputCheck c;
      c.shape_equal = facts.shape_equal && facts.count_equal;
      c.max_abs_diff = facts.max_abs_diff;
      c.max_abs_expected = facts.max_abs_expected;
      c.match =
          c.shape_equal && std::isfinite(c.max_abs_diff) && c.max_abs_diff <= 1e-4 * std::max(1.0, c.max_abs_expected);
      m.check = c;
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      m.error = fmt::format("its outputs could not be checked: {}", e.what());
    }
  }

  fs::path runner_out(int r) const { return fs::path(root_.path()) / fmt::format("aoti-cpp-out-{}", r); }

  // One start of tct-aoti: launch to the first output, its marks on the same clock.
  reply::FirstOutput run_cpp_start(int r, Nanoseconds& launch, Nanoseconds& replied) {
    fs::create_directories(runner_out(r));
    launch = now();
    agent::ChildProcess child(
        {{runner_, (package_dir() / "model.pt2").string(), (package_dir() / "inputs").string(), runner_out(r).string(),
          std::to_string(cfg_.steady_calls), fmt::format("{:.0f}", cfg_.steady_max_ns / 1e6)},
         {},
         false});
    std::string line;
    const auto read = child.read_line(line, cfg_.timeout);
    replied = now();
    const agent::ExitInfo exit = child.finish(std::chrono::seconds(5));
    if (read == agent::ChildProcess::Read::Interrupted)
      throw Error(ExitCode::Interrupted, "interrupted", "interrupted");
    json reply = json::parse(line, nullptr, false);
    if (read != agent::ChildProcess::Read::Line || !reply.is_object()) {
      const std::string why = child.last_stderr_line();
      throw Error(ExitCode::TargetFailed, "target_failed",
                  fmt::format("tct-aoti failed ({})", why.empty() ? exit.describe() : why));
    }
    auto first = core::fields::read_as<reply::FirstOutput>(reply);
    // Its entry point stands where an agent's first line does.
    const auto main = first.marks_ns.find("main");  // not a reply: a decoded map of marks by name
    first.marks_ns["op_start"] = main == first.marks_ns.end() ? NAN : main->second;
    return first;
  }

  void run_start(ModeResult& m, int r) {
    const std::string name = fmt::format("{}-{}", to_string(m.mode), r);
    json params = load_params();
    core::Env env;
    Folders f;
    switch (m.mode) {
      case Mode::Eager:
        params["how"] = "eager";
        f = folders(name, false);
        break;
      case Mode::Cold:
        params["how"] = "compile";
        params["save_artifacts"] = artifacts(r).string();
        f = folders(fmt::format("cold-{}", r));
        break;
      case Mode::Warm:
        params["how"] = "compile";
        f = folders(fmt::format("cold-{}", r));  // the caches cold start r filled
        f.trace = fs::path(root_.path()) / ("trace-" + name);
        break;
      case Mode::Shipped:
        params["how"] = "compile";
        params["load_artifacts"] = artifacts(r).string();
        f = folders(name);
        break;
      case Mode::AotiCpp: f = folders(name, false); break;
      case Mode::AotiPython:
        params["how"] = "aoti";
        params["package"] = (package_dir() / "model.pt2").string();
        params["inputs"] = (package_dir() / "inputs").string();
        f = folders(name, false);
        break;
    }
    params["compile"] = {{"backend", cfg_.backend}, {"mode", cfg_.compile_mode}};
    env = f.env();
    if (m.mode == Mode::Warm || m.mode == Mode::Shipped)
      env.insert(env.end(), cfg_.deploy_env.begin(), cfg_.deploy_env.end());
    if ((m.mode == Mode::Warm || m.mode == Mode::Shipped) && !cold_lookups_.count(r)) {
      m.error = "its cold start failed, so it had no caches to start from";
      return;
    }
    if (m.mode == Mode::Shipped && artifact_bytes_[r] <= 0) {
      m.error = "the cold start saved no cache artifacts (torch.compiler.save_cache_artifacts returned none)";
      return;
    }
    reply::FirstOutput reply;
    Nanoseconds launch{}, replied{};
    try {
      if (m.mode == Mode::AotiCpp) {
        reply = run_cpp_start(r, launch, replied);
      } else {
        launch = now();
        auto session = exec_.spawn(env);
        const long id = session->send("startup.first_output", params);
        reply = core::fields::read_as<reply::FirstOutput>(session->receive(id, "startup.first_output"));
        replied = now();
        session->close();
      }
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      m.error = e.hint().empty() ? e.what() : fmt::format("{}; {}", e.what(), e.hint());
      return;
    }
    const TraceFacts trace = read_trace_facts(f.trace.string());
    Start s = make_start(reply, launch, replied, trace);
    if (m.mode == Mode::Cold) {
      cold_lookups_[r] = trace.lookups;
      if (reply.saved_artifacts) artifact_bytes_[r] = reply.saved_artifacts->bytes;
    }
    if (m.mode == Mode::Warm || m.mode == Mode::Shipped) explain_misses(s.lookups, trace.lookups, cold_lookups_[r]);
    if (m.mode == Mode::Warm) m.shipped_bytes = folder_bytes(f.cache);
    if (m.mode == Mode::Shipped && artifact_bytes_.count(r)) m.shipped_bytes = artifact_bytes_[r];
    m.starts.push_back(std::move(s));
  }

  core::Progress progress_;
  core::Executor& exec_;
  const StartupConfig& cfg_;
  core::OnPartial<StartupResult> on_partial_;
  core::TempDir root_;
  StartupResult result_;
  std::string runner_;  // tct-aoti, once built
  std::map<int, std::vector<KeyedLookup>> cold_lookups_;
  std::map<int, double> artifact_bytes_;
};

}  // namespace

std::vector<Mode> planned_modes(std::vector<Mode> asked) {
  if (asked.empty()) asked.assign(std::begin(kAllModes), std::end(kAllModes));
  const bool needs_cold =
      std::count(asked.begin(), asked.end(), Mode::Warm) || std::count(asked.begin(), asked.end(), Mode::Shipped);
  std::vector<Mode> out;
  for (Mode m : kAllModes)
    if (std::count(asked.begin(), asked.end(), m) || (m == Mode::Cold && needs_cold)) out.push_back(m);
  return out;
}

StartupResult run_startup(const core::Progress& progress, core::Executor& exec, const StartupConfig& cfg,
                          const core::OnPartial<StartupResult>& on_partial) {
  return Runner(progress, exec, cfg, on_partial).run();
}

}  // namespace tct::startup
