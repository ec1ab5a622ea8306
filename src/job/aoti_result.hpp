#pragma once
// What tct job's AOTInductor mode (How::Aoti) found before its measured runs, as a value: per
// call site of the run that filled the caches, the export's dynamic dimensions (a torch.export.Dim
// per dimension whose size the job varied, over the sizes it used), what one build run did with
// them (torch.export, torch._inductor.aoti_compile_and_package) and the package's outputs
// against eager's at the sizes that run called it with. job/aoti.cpp makes it; json_fields.hpp
// declares its JSON.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.hpp"

namespace tct::job {

// One input's dimension a Dim stands for: a positional argument by index, a keyword one by name.
struct AotiAt {
  std::optional<int> arg;
  std::string kwarg;
  int dim = 0;
  std::string label;  // "x[0]" (the parameter's name where the bootstrap knew it)
};

// A torch.export.Dim: the dimensions whose sizes were equal in every call the job made share one.
struct AotiDim {
  std::string name;          // the Dim's name, "x_0"
  std::vector<AotiAt> at;    // the inputs' dimensions it stands for
  int64_t min = 0, max = 0;  // the job's smallest and largest size: the Dim's range
  int sizes = 0;             // distinct sizes the job used
  // The range the exported program holds for it (torch's range_constraints; none: not read,
  // or no end).
  std::optional<int64_t> exported_min, exported_max;
};

// The package's outputs against eager's, at one call of the build run (sizes by Dim name).
struct AotiCheck {
  std::map<std::string, int64_t> sizes;
  bool count_equal = false, shape_equal = false;
  double max_abs_diff = 0.0 / 0.0, max_abs_expected = 0.0 / 0.0;
  std::string error;   // the package refused the call ("" when it ran)
  bool match = false;  // decided in job/aoti.cpp (the rule tct startup's check uses)
};

enum class AotiStatus {
  Built,          // exported and packaged
  ExportFailed,   // torch.export refused it (its error is the site's error)
  PackageFailed,  // aoti_compile_and_package or aoti_load_package refused it
  SmallSizes,     // every call had a varied size of 0 or 1, which torch.export specializes
  NotCalled,      // the build run never called it
};
inline constexpr std::string_view kAotiStatusNames[] = {"built", "export_failed", "package_failed", "small_sizes",
                                                        "not_called"};
constexpr const auto& names(const AotiStatus*) { return kAotiStatusNames; }

struct AotiSite {
  std::string key, name, kind, site_file;
  int site_line = 0;
  std::vector<AotiDim> dims;
  AotiStatus status = AotiStatus::NotCalled;
  std::string error;                            // torch's own text
  std::map<std::string, int64_t> export_sizes;  // the call it was exported at
  Nanoseconds export_time = kNotMeasured, package_time = kNotMeasured;
  std::optional<double> package_bytes;
  std::string package;  // its path
  std::vector<AotiCheck> checks;
  // Decided in job/aoti.cpp: every check matched, and the dims' min and max were each among the
  // sizes checked.
  bool outputs_match = false, extremes_checked = false;
  std::string cannot;  // why this site keeps the mode from running ("" when it does not)
};

struct AotiBuild {
  Nanoseconds wall = kNotMeasured;  // the build run, launch to exit: the mode's build cost
  bool ok = false;                  // it ran to a normal exit
  std::string exit_text, dir;
  std::vector<AotiSite> sites;
  // Why the mode cannot run, "" when it can (every site built, its outputs matched eager's).
  std::string cannot;
};

}  // namespace tct::job
