#include "expect/ceilings.hpp"

#include <fmt/format.h>

#include "core/fields.hpp"
#include "core/json_number.hpp"

namespace tct::expect {

std::string ceilings_cache_path(const char* xdg, const char* home) {
  if (xdg && *xdg) return fmt::format("{}/tct/ceilings.json", xdg);
  if (home && *home) return fmt::format("{}/.cache/tct/ceilings.json", home);
  return "";
}

std::string ceilings_cache_key(const reply::DeviceInfo& info) {
  std::string key =
      fmt::format("{}|{}|{}|torch {}", info.device_type, info.device_name, info.dtype, info.torch_version);
  // CPU ceilings depend on how many threads torch uses.
  if (info.device_type == "cpu") key += fmt::format("|threads {}", info.num_threads);
  return key;
}

std::optional<Ceilings> lookup_ceilings(const json& cache, const std::string& key) {
  // not a reply: the cache file is tct's own (store_ceilings writes it), its entries kept as read
  if (!cache.is_object() || !cache.contains("entries") || !cache["entries"].is_object()) return std::nullopt;
  // not a reply: the cache file's entries
  const json& entries = cache["entries"];
  if (!entries.contains(key) || !entries[key].is_object()) return std::nullopt;
  // not a reply: a cache entry's figures, "cache" the source it names
  Ceilings c = ceilings_from_json(entries[key], "cache");
  // An entry without a figure (written by an older tct) is measured again.
  if (!(c.peak_flops > 0) || !(c.peak_bandwidth > 0) || !(c.op_floor_ns > 0) || !(c.compiled_call_ns > 0))
    return std::nullopt;
  return c;
}

void store_ceilings(json& cache, const std::string& key, const reply::CeilingTimings& m, const std::string& created) {
  if (!cache.is_object()) cache = json::object();
  cache["schema"] = "tct-ceilings/1";
  // not a reply: the cache file is tct's own; an entry of another key, as read, is kept
  if (!cache.contains("entries") || !cache["entries"].is_object()) cache["entries"] = json::object();
  // The figures, computed from the measurement's timings (evidence.cpp's ceilings_measured).
  const Ceilings c = ceilings_measured(m);
  json entry = {{"peak_flops", core::number_or_null(c.peak_flops)},
                {"peak_bandwidth_bytes_per_s", core::number_or_null(c.peak_bandwidth)},
                {"op_floor_ns", core::number_or_null(c.op_floor_ns)},
                {"compiled_call_ns", core::number_or_null(c.compiled_call_ns)},
                {"copy_bytes", core::fields::encode(m.copy_bytes, core::fields::Empty::Keep)},
                {"matmul_n", core::fields::encode(m.matmul_n, core::fields::Empty::Keep)},
                {"measured_at", created}};
  cache["entries"][key] = entry;  // not a reply: the cache file's entries
}

}  // namespace tct::expect
