#pragma once
// The ceilings cache: one JSON file per user, entries keyed by what changes the ceilings
// (device name, dtype, torch version, threads). Pure functions here; expect/run.cpp reads
// and writes the file (I/O at the edges).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "expect/evidence.hpp"

namespace tct::expect {

// "$XDG_CACHE_HOME/tct/ceilings.json", else "$HOME/.cache/tct/ceilings.json", else "".
std::string ceilings_cache_path(const char* xdg_cache_home, const char* home);

// "cpu|Intel(R) Xeon(R) ...|float32|torch 2.13.0|threads 2" from expect.device_info.
std::string ceilings_cache_key(const reply::DeviceInfo& device_info);

// The entry under `key` when it has finite, positive ceilings; else nullopt. A cache that is
// not an object (a corrupt file) holds nothing.
std::optional<Ceilings> lookup_ceilings(const json& cache, const std::string& key);

// Adds or replaces the entry for `key`: the figures of expect.ceilings' timings, with the
// measurement's sizes.
void store_ceilings(json& cache, const std::string& key, const reply::CeilingTimings& measured,
                    const std::string& created);

}  // namespace tct::expect
