#pragma once
// What `tct probe` learns that only changes with the interpreter, its torch or the C++
// compiler (backends, Triton, dynamo support, the compiler and OpenMP check), cached in
// $XDG_CACHE_HOME/tct/probe.json (else ~/.cache/tct) so a repeated probe costs little more
// than importing torch. Devices and thread counts are never cached: they change per run.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tct::probe {

std::string probe_cache_path(const char* xdg_cache_home, const char* home);
std::string probe_cache_key(const std::string& python, const std::string& torch_version, const std::string& compiler);

// The facts kept for `key`, or nullopt (no file, no entry, unreadable).
std::optional<nlohmann::json> read_probe_cache(const std::string& path, const std::string& key);
// Best effort: a cache that cannot be written only costs time next run.
void write_probe_cache(const std::string& path, const std::string& key, const nlohmann::json& facts);

// The cached part of the probe facts, and putting it back into fresh ones.
nlohmann::json cacheable_facts(const nlohmann::json& facts);
void merge_cached_facts(nlohmann::json& facts, const nlohmann::json& cached);

}  // namespace tct::probe
