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
  using core::fields::field;
  using C = CheckFacts;
  return std::tuple{field("sizes", &C::sizes),
                    field("count_equal", &C::count_equal),
                    field("shape_equal", &C::shape_equal),
                    field("max_abs_diff", &C::max_abs_diff),
                    field("max_abs_expected", &C::max_abs_expected),
                    field("error", &C::error)};
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
  using core::fields::field;
  using S = SiteFacts;
  return std::tuple{
      field("status", &S::status),       field("error", &S::error),           field("export_sizes", &S::export_sizes),
      field("export_ns", &S::export_ns), field("package_ns", &S::package_ns), field("package_bytes", &S::package_bytes),
      field("exported", &S::exported),   field("checks", &S::checks)};
}

// aoti-PID.json: each site an aoti run loaded a package for (or had none: missing).
struct LoadFacts {
  std::string name, site_file;
  int site_line = 0;
  bool missing = false;
  std::optional<int64_t> load_ns;
};
constexpr auto json_fields(const LoadFacts*) {
  using core::fields::field;
  using L = LoadFacts;
  return std::tuple{field("name", &L::name), field("site_file", &L::site_file), field("site_line", &L::site_line),
                    field("missing", &L::missing), field("load_ns", &L::load_ns)};
}
struct LoadFile {
  std::vector<LoadFacts> sites;
};
constexpr auto json_fields(const LoadFile*) { return std::tuple{core::fields::field("sites", &LoadFile::sites)}; }

}  // namespace tct::job::reply
