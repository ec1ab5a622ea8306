// Outlier detection on timing samples with the modified z-score.
//
// Rule (Iglewicz & Hoaglin, "How to Detect and Handle Outliers", ASQC Basic References in
// Quality Control vol. 16, 1993): M_i = 0.6745 (x_i - median) / MAD, and |M_i| > 3.5 marks
// x_i as a potential outlier. 0.6745 = Phi^-1(3/4) makes MAD comparable to a standard
// deviation, so the cut sits at about 3.5 / 0.6745 = 5.19 raw MADs from the median.
// hyperfine (src/outlier_detection.rs) uses the same score.
//
// Timings are skewed: a "high" outlier (slower than the rest: preemption, GC, a recompile)
// is the usual case and means something different from a "low" one, so both are reported
// separately.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace tct::stats {

struct OutlierParams {
  // Iglewicz & Hoaglin's recommended cut-off for |modified z|.
  double z_threshold = 3.5;
  // Fallback when MAD == 0 (more than half the samples are identical, typically a coarse
  // clock or batched timings that round to the same tick): the z-score is undefined, so a
  // value is an outlier when |x - median| > relative_threshold * |median|. Our own choice,
  // not from the literature: 10% is well above the quantisation of a clock tick relative
  // to a sample of >= 1000 ticks (see bench/sampling.hpp), yet catches real disturbances.
  double relative_threshold = 0.10;
};

struct Outliers {
  std::size_t count = 0;                // high.size() + low.size()
  double fraction = 0.0;                // count / number of finite samples; 0 when none
  std::vector<std::size_t> high;        // indices into the input span, ascending (slow samples)
  std::vector<std::size_t> low;         // indices into the input span, ascending (fast samples)
  bool used_relative_fallback = false;  // MAD was 0, the relative rule was applied
};

// Non-finite samples are neither outliers nor counted in the fraction's denominator
// (see summary.hpp conventions). No finite sample -> count 0, fraction 0, empty lists.
// A single sample is never an outlier (it is its own median).
Outliers detect_outliers(std::span<const double> xs, const OutlierParams& params = {});

}  // namespace tct::stats
