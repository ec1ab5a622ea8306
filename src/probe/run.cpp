#include "probe/run.hpp"

#include <cmath>
#include <cstdlib>

#include <future>

#include <fmt/format.h>

#include "probe/cache.hpp"
#include "probe/compiler.hpp"
#include "probe/json.hpp"
#include "probe/verdict.hpp"

namespace tct::probe {
namespace {

using json = nlohmann::json;

// sin/cos/relu/sum of 128 values: any correct backend is within float32 rounding of eager,
// scaled by the output's magnitude (torch.testing's float32 rtol is 1.3e-6; 1e-4 leaves room
// for reordered sums and vectorised transcendental functions).
bool smoke_matches(const Smoke& s) {
  if (!s.ok || !s.measured || !s.measured->shape_equal) return false;
  const double diff = s.measured->max_abs_diff.value_or(NAN);
  const double scale = s.measured->max_abs_expected.value_or(NAN);
  return std::isfinite(diff) && diff <= 1e-4 * std::max(1.0, scale);
}

void run_smoke(const core::Progress& progress, core::Session& agent, const ProbeConfig& cfg, ProbeResult& result,
               const core::OnPartial<ProbeResult>& on_partial) {
  std::vector<std::string> devices = {"cpu"};
  if (result.facts->devices.cuda_available) devices.push_back("cuda");
  if (result.facts->devices.mps_available) devices.push_back("mps");
  for (const auto& device : devices) {
    progress(fmt::format("smoke compile on {}", device));
    Smoke smoke = smoke_from_json(agent.call("probe.smoke", {{"device", device}, {"backend", cfg.smoke_backend}}));
    smoke.match = smoke_matches(smoke);
    result.smoke.push_back(std::move(smoke));
    if (on_partial) on_partial(result);
  }
}

}  // namespace

ProbeResult run_probe(const core::Progress& progress, core::Session& agent, const ProbeConfig& cfg,
                      const core::OnPartial<ProbeResult>& on_partial) {
  const auto& hello = agent.hello();
  const std::string& python_path = cfg.python_path;
  ProbeResult result;
  result.python = hello.python;
  if (hello.torch_version) {
    result.torch_version = hello.torch_version;
    result.supported_torch = torch_support(*result.torch_version);
  }
  for (const auto& var : compile_env_vars())
    if (const char* v = std::getenv(var.name)) result.environment_variables[var.name] = v;
  // What is known before the agent imports torch, which may fail: the error's document keeps it.
  if (on_partial) on_partial(result);

  // The facts need torch 2.x imported; without it the verdict is already known.
  const bool torch_ok = result.torch_version && at_least(parse_version(*result.torch_version), 2, 0);
  if (torch_ok) {
    const std::string cxx = inductor_cxx_name(std::getenv("CXX"));
    const std::string cache = cfg.use_cache ? probe_cache_path(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME")) : "";
    const std::string key = probe_cache_key(python_path, *result.torch_version, cxx);
    std::optional<json> cached = read_probe_cache(cache, key);
    // Uncached, the compiler is checked here while the agent imports torch (both take ~1 s).
    std::future<json> compiler;
    if (!cached) compiler = std::async(std::launch::async, check_cpp_compiler, cxx);
    progress(cached ? "importing torch (the rest is cached; --no-cache to redo it)"
                    : "importing torch and checking the C++ compiler");
    json facts = agent.call("probe", {{"light", cached.has_value()}});
    if (cached) {
      merge_cached_facts(facts, *cached);
    } else {
      facts["cpp_compiler"] = compiler.get();
      if (cfg.use_cache) write_probe_cache(cache, key, cacheable_facts(facts));
    }
    result.facts = facts_from_record(facts);
    if (on_partial) on_partial(result);
    if (cfg.smoke) run_smoke(progress, agent, cfg, result, on_partial);
  }
  Decision decision = decide(result, python_path);
  result.verdict = decision.verdict;
  result.reasons = std::move(decision.reasons);
  return result;
}

Error not_usable_error(const ProbeResult& result) {
  const Reason* why = nullptr;
  for (const auto& r : result.reasons)
    if (why == nullptr || (r.severity == Severity::Blocker && why->severity != Severity::Blocker)) why = &r;
  if (why == nullptr) return check_failed("not_usable", "torch.compile is not usable here", "see the probe report");
  return check_failed("not_usable", fmt::format("torch.compile is not usable here: {}", why->message), why->fix);
}

}  // namespace tct::probe
