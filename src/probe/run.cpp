#include "probe/run.hpp"

#include <cmath>
#include <cstdlib>

#include <future>

#include <fmt/format.h>

#include "probe/cache.hpp"
#include "probe/compiler.hpp"

namespace tct::runner {
namespace {

using json = nlohmann::json;

// sin/cos/relu/sum of 128 values: any correct backend is within float32 rounding of eager,
// scaled by the output's magnitude (torch.testing's float32 rtol is 1.3e-6; 1e-4 leaves room
// for reordered sums and vectorised transcendental functions).
bool smoke_matches(const json& r) {
  const double diff = r.value("max_abs_diff", json()).is_number() ? r["max_abs_diff"].get<double>() : NAN;
  const double scale = r.value("max_abs_expected", json()).is_number() ? r["max_abs_expected"].get<double>() : NAN;
  return r.value("shape_equal", false) && std::isfinite(diff) && diff <= 1e-4 * std::max(1.0, scale);
}

void run_smoke(Host& host, Session& agent, const ProbeConfig& cfg, analysis::ProbeInput& in) {
  std::vector<std::string> devices = {"cpu"};
  const json& dev = in.facts.value("devices", json::object());
  if (dev.value("cuda_available", false)) devices.push_back("cuda");
  if (dev.value("mps_available", false)) devices.push_back("mps");
  for (const auto& device : devices) {
    host.progress(fmt::format("smoke compile on {}", device));
    json r = agent.call("probe.smoke", {{"device", device}, {"backend", cfg.smoke_backend}});
    r["match"] = r.value("ok", false) && smoke_matches(r);
    in.smoke.push_back(r);
    host.document()["probe"]["smoke"] = in.smoke;
    host.checkpoint();
  }
}

}  // namespace

analysis::ProbeVerdict run_probe(Host& host, Session& agent, const ProbeConfig& cfg) {
  const auto& hello = agent.hello();
  analysis::ProbeInput in;
  in.python_path = host.document()["environment"]["interpreter"]["path"];
  in.torch_hello = hello.torch;
  in.torch_error = hello.torch_error;
  in.environment = json::object();
  for (const auto& var : analysis::compile_env_vars())
    if (const char* v = std::getenv(var.name)) in.environment[var.name] = v;
  in.smoke = json::array();

  json& section = host.document()["probe"];
  section = {{"python", hello.python}, {"torch", hello.torch}, {"environment_variables", in.environment}};
  if (!hello.torch.is_null()) section["supported_torch"] = analysis::supported_torch_json(hello.torch.value("version", ""));

  // The facts need torch 2.x imported; without it the verdict is already known.
  const bool torch_ok = !hello.torch.is_null() &&
                        analysis::at_least(analysis::parse_version(hello.torch.value("version", "")), 2, 0);
  if (torch_ok) {
    const std::string cxx = inductor_cxx_name(std::getenv("CXX"));
    const std::string cache = cfg.use_cache ? probe_cache_path(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME")) : "";
    const std::string key = probe_cache_key(in.python_path, hello.torch.value("version", ""), cxx);
    std::optional<json> cached = read_probe_cache(cache, key);
    // Uncached, the compiler is checked here while the agent imports torch (both take ~1 s).
    std::future<json> compiler;
    if (!cached) compiler = std::async(std::launch::async, check_cpp_compiler, cxx);
    host.progress(cached ? "importing torch (the rest is cached; --no-cache to redo it)"
                         : "importing torch and checking the C++ compiler");
    in.facts = agent.call("probe", {{"light", cached.has_value()}});
    if (cached) {
      merge_cached_facts(in.facts, *cached);
    } else {
      in.facts["cpp_compiler"] = compiler.get();
      if (cfg.use_cache) write_probe_cache(cache, key, cacheable_facts(in.facts));
    }
    section["facts"] = in.facts;
    host.checkpoint();
    if (cfg.smoke) run_smoke(host, agent, cfg, in);
  }
  auto verdict = analysis::decide_probe(in);
  section["smoke"] = in.smoke;
  section.update(analysis::to_json(verdict));
  return verdict;
}

Error not_usable_error(const analysis::ProbeVerdict& verdict) {
  const analysis::Reason* why = nullptr;
  for (const auto& r : verdict.reasons)
    if (why == nullptr || (r.severity == "blocker" && why->severity != "blocker")) why = &r;
  if (why == nullptr) return check_failed("not_usable", "torch.compile is not usable here", "see the probe report");
  return check_failed("not_usable", fmt::format("torch.compile is not usable here: {}", why->message), why->fix);
}

}  // namespace tct::runner
