#pragma once
// What the bootstrap's AOTInductor side wrote (python/tct_run_bootstrap/tct_run_aoti.py), each
// file declared once and decoded where it arrives (job/aoti.cpp reads the files): a site's
// facts from the build run (site-N.json), and an aoti run's package loads (aoti-PID.json).
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"

namespace tct::job::reply {

// The package's outputs against eager's at one call of the build run, as raw differences.
struct CheckFacts {
  std::map<std::string, int64_t> sizes;
  bool count_equal = false, shape_equal = false;
  double max_abs_diff = NAN, max_abs_expected = NAN;
  std::string error;
};
constexpr auto json_fields(const CheckFacts*) {
  return std::tuple{TCT_FIELDS(CheckFacts, sizes, count_equal, shape_equal, max_abs_diff, max_abs_expected, error)};
}

// site-N.json: status "not_called", "waiting" (sizes of 0 or 1 so far), "built",
// "export_failed" or "package_failed"; the exported program's range per Dim ([lower, upper],
// null for an unbounded end).
struct SiteFacts {
  std::string status, error;
  std::map<std::string, int64_t> export_sizes;
  std::optional<int64_t> export_ns, package_ns;
  std::optional<double> package_bytes;
  std::map<std::string, std::vector<std::optional<int64_t>>> exported;
  std::vector<CheckFacts> checks;
};
constexpr auto json_fields(const SiteFacts*) {
  return std::tuple{
      TCT_FIELDS(SiteFacts, status, error, export_sizes, export_ns, package_ns, package_bytes, exported, checks)};
}

// aoti-PID.json: each site an aoti run loaded a package for (or had none: missing).
struct LoadFacts {
  std::string name, site_file;
  int site_line = 0;
  bool missing = false;
  std::optional<int64_t> load_ns;
};
constexpr auto json_fields(const LoadFacts*) {
  return std::tuple{TCT_FIELDS(LoadFacts, name, site_file, site_line, missing, load_ns)};
}
struct LoadFile {
  std::vector<LoadFacts> sites;
};
constexpr auto json_fields(const LoadFile*) { return std::tuple{TCT_FIELDS(LoadFile, sites)}; }

}  // namespace tct::job::reply
