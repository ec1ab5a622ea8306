#include "probe/cache.hpp"

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <fmt/format.h>

#include "expect/ceilings.hpp"

namespace tct::probe {

using json = nlohmann::json;
namespace fs = std::filesystem;

std::string probe_cache_path(const char* xdg_cache_home, const char* home) {
  std::string ceilings = expect::ceilings_cache_path(xdg_cache_home, home);  // the same tct folder
  return ceilings.empty() ? "" : fs::path(ceilings).replace_filename("probe.json").string();
}

std::string probe_cache_key(const std::string& python, const std::string& torch_version, const std::string& compiler) {
  return fmt::format("{}|torch {}|{}", python, torch_version, compiler);
}

std::optional<json> read_probe_cache(const std::string& path, const std::string& key) {
  if (path.empty()) return std::nullopt;
  std::ifstream f(path);
  if (!f) return std::nullopt;
  json all = json::parse(f, nullptr, /*allow_exceptions=*/false);
  if (!all.is_object() || !all.contains(key) || !all[key].is_object()) return std::nullopt;
  return all[key];
}

void write_probe_cache(const std::string& path, const std::string& key, const json& facts) {
  if (path.empty()) return;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  json all = json::object();
  if (std::ifstream f(path); f) {
    all = json::parse(f, nullptr, false);
    if (!all.is_object()) all = json::object();
  }
  all[key] = facts;
  std::string tmp = path + fmt::format(".{}.tmp", static_cast<long>(::getpid()));
  {
    std::ofstream out(tmp);
    out << all.dump(1);
    if (!out) return;
  }
  fs::rename(tmp, path, ec);
}

json cacheable_facts(const json& facts) {
  const json& torch = facts.value("torch", json::object());
  return {{"backends", facts.value("backends", json())},
          {"triton", facts.value("triton", json())},
          {"cpp_compiler", facts.value("cpp_compiler", json())},
          {"dynamo_supported", torch.value("dynamo_supported", json())},
          {"dynamo_error", torch.value("dynamo_error", json())}};
}

void merge_cached_facts(json& facts, const json& cached) {
  for (const char* k : {"backends", "triton", "cpp_compiler"}) facts[k] = cached.value(k, json());
  facts["torch"]["dynamo_supported"] = cached.value("dynamo_supported", json());
  facts["torch"]["dynamo_error"] = cached.value("dynamo_error", json());
}

}  // namespace tct::probe
