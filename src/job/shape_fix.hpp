#pragma once
// tct job --shape-fixes, as values: the fixes for a job whose call sites recompile on shapes,
// each run as a mode of its own (compiled, empty caches, the fix applied by the bootstrap to
// every compiled site, python/tct_run_bootstrap/tct_run_shape_fix.py) on the job's own inputs,
// against the default (cold, the same thread count). What each fix gives, what it costs, and the
// code to write for the installed torch, only where the fix ran. Computed in job/shape_fixes.cpp.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.hpp"
#include "stats/bootstrap.hpp"
#include "stats/verdict.hpp"

namespace tct::job {

enum class ShapeFix {
  Static,        // torch.compile(..., dynamic=False): one graph per shape
  Dynamic,       // torch.compile(..., dynamic=True): every dimension symbolic
  MarkDynamic,   // torch._dynamo.mark_dynamic on the dims that varied, before each call
  MarkUnbacked,  // mark_unbacked on them: symbolic with no size hint
  Spec,          // the installed torch's spec keyword of torch.compile (shapes_spec=, dynamic_shapes=)
};
inline constexpr ShapeFix kAllShapeFixes[] = {ShapeFix::Static, ShapeFix::Dynamic, ShapeFix::MarkDynamic,
                                              ShapeFix::MarkUnbacked, ShapeFix::Spec};
inline constexpr std::string_view kShapeFixNames[] = {"static", "dynamic", "mark_dynamic", "mark_unbacked",
                                                      "spec"};  // ShapeFix's order
constexpr const auto& names(const ShapeFix*) { return kShapeFixNames; }
std::string_view to_string(ShapeFix f);
std::optional<ShapeFix> parse_shape_fix(std::string_view s);

// What the job's torch offers, looked up in its own process (never assumed from the version).
struct ShapeApi {
  std::string torch;                                             // torch.__version__
  std::string mark_dynamic, mark_unbacked;                       // the callable's dotted name; "" when absent
  bool mark_dynamic_range = false, mark_unbacked_range = false;  // it takes min= and max=
  std::string spec_keyword;  // torch.compile's: "shapes_spec" (2.13), "dynamic_shapes" (2.14, 2.15); ""
  std::string spec_module;   // where ParamsSpec, TensorSpec and ShapeVar live
};

// A compiled site of the run that read the shapes.
struct FixSite {
  std::string key, name, kind;  // kind: "module" or "function"
  std::string file;             // where torch.compile was called
  int line = 0;
};

// A dimension that took more than one size at a site in the run that read the shapes.
struct VariedInput {
  std::string site, site_name;  // the site's key (file:line name) and name
  std::string input;            // the parameter's name
  std::optional<int> position;  // its position among the call's arguments; none: by keyword only
  int dim = 0, rank = 0;        // the dimension, and the tensor's number of dimensions
  int64_t min = 0, max = 0;     // the smallest and largest size it took
  int sizes = 0;                // how many sizes it took
  int recompiles = 0;           // recompiles whose failed guard was its size (the default's run)
};

// The code to write at one site for a fix, as run.
struct FixCode {
  std::string site, where;           // the site's key; where the code goes ("before each call of ...")
  std::vector<std::string> imports;  // lines the code needs first ("from ... import ...")
  std::string code;                  // one statement
};

struct ShapeFixResult {
  ShapeFix fix = ShapeFix::Static;
  std::string mode, baseline;        // the mode's label, and the default's it is compared with
  std::string not_run;               // why it did not run ("" when it did)
  std::vector<std::string> applied;  // the sites the bootstrap applied it to, in some run
  std::vector<std::string> errors;   // what it could not apply
  // The mode's figures, summed over its sites (recompiles: each site's most in a run; compile:
  // each site's median), the busiest site's steady call, the job's total:
  int recompiles = 0;
  Nanoseconds compile_time = kNotMeasured;
  stats::Interval steady, total;  // ns
  // The default's total over the fix's, paired by round: above 1 the fix is faster.
  stats::Interval speedup;
  stats::SpeedupVerdict verdict = stats::SpeedupVerdict::NotMeasured;
  std::vector<FixCode> code;  // only where the fix was applied in a run that finished, output unchanged
  std::string gives_up;
};

struct ShapeFixes {
  ShapeApi api;
  std::vector<FixSite> sites;
  std::vector<VariedInput> varied;
  std::vector<ShapeFixResult> fixes;
};

}  // namespace tct::job
