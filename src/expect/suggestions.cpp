#include "expect/suggestions.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tct::expect {
namespace {

struct Candidate {
  double gain;  // expected speedup factor if it works
  std::string title, why, how;
  std::string_view fix_id;  // its terms in core/fix_table.cpp
  bool compile_as_is = false;
};

// Expected speed gain factor from removing `fraction` of the time: Amdahl, 1 / (1 - f).
double amdahl(double fraction) { return 1.0 / std::max(0.05, 1.0 - std::clamp(fraction, 0.0, 0.95)); }

}  // namespace

std::string batch_param(const json& params) {
  for (const char* name : {"batch", "batch_size", "bs", "n_batch", "batchsize"})
    if (params.is_object() && params.contains(name)) return name;
  return "";
}

std::vector<Suggestion> suggest(const Evidence& e, const Verdict& v, const SuggestionContext& ctx) {
  std::vector<Candidate> c;
  const auto& s = v.shares;
  double fixed = s.outside + s.fixed;
  bool gpu = e.device_type == "cuda";
  double mid = std::isfinite(v.predicted.low) ? std::sqrt(v.predicted.low * v.predicted.high) : NAN;

  if (std::isfinite(mid) && mid > kGainBand) {
    c.push_back({mid, std::string(kCompileAsIsTitle),
                 // No op count here: the evidence's "ops per call" is the one (the profiler's
                 // top-level ops); the dispatcher's aten-level counts are another thing and
                 // read as a contradiction beside it.
                 fmt::format("{:.0f}% of the time is fixed cost and {:.0f}% non-library memory traffic, which "
                             "fusion removes",
                             100 * fixed, 100 * s.memory),
                 "model = torch.compile(model); then confirm with `tct bench` (or rerun with --validate)",
                 "compile_as_is", true});
  }
  if (gpu && (v.cls == "overhead_bound" || (e.device_busy_fraction && *e.device_busy_fraction < 0.8))) {
    double idle = e.device_busy_fraction ? 1.0 - *e.device_busy_fraction : fixed;
    c.push_back(
        {amdahl(idle) * 1.1, "Use mode=\"reduce-overhead\" (CUDA graphs)",
         fmt::format(
             "the GPU idles {:.0f}% of the wall time{}; CUDA graphs replay all kernels "
             "with one launch",
             100 * idle,
             e.kernel_launches ? fmt::format(" between {:.0f} kernel launches per call", *e.kernel_launches) : ""),
         "torch.compile(model, mode=\"reduce-overhead\"); keep input shapes static and tensors at "
         "the same addresses (copy into static buffers)",
         "reduce_overhead"});
  }
  std::string batch = batch_param(ctx.params);
  if (fixed >= 0.2) {
    double gain = amdahl(fixed * 0.5);
    std::string how =
        batch.empty() ? "process more samples per call (batch several requests), so the fixed cost is paid once for all"
                      : fmt::format("raise `{}` (now {}); measure the effect with `tct expect ... --sweep {}=...`",
                                    batch, ctx.params[batch].dump(), batch);
    c.push_back({gain, "Increase the batch size",
                 fmt::format("{:.0f}% of a call is fixed cost that does not grow with the batch: a larger batch "
                             "spreads it over more samples (throughput rises even where latency does not)",
                             100 * fixed),
                 how, "larger_batch"});
  }
  if (s.outside >= 0.3) {
    c.push_back({amdahl(s.outside * 0.7), "Move Python logic out of the hot path",
                 fmt::format("{:.0f}% of the wall time is spent outside any torch op (Python control flow, "
                             "attribute lookups, building small tensors)",
                             100 * s.outside),
                 "precompute constants and masks once in __init__, replace Python loops over tensors with "
                 "batched ops, avoid .item()/.tolist() inside forward",
                 "python_out_of_hot_path"});
  }
  if (s.library >= 0.4) {
    c.push_back({1.0 + 0.1 * s.library, "Try mode=\"max-autotune\" for the matmul/conv-heavy part",
                 fmt::format("{:.0f}% of the time is in matmul, convolution or attention kernels; default "
                             "compile keeps those kernels as they are",
                             100 * s.library),
                 "torch.compile(model, mode=\"max-autotune\") (long compile; worth it for long-running jobs)",
                 "max_autotune"});
  }
  if ((ctx.dtype == "float32" || ctx.dtype.empty()) && (v.cls == "compute_bound" || v.cls == "memory_bound")) {
    bool compute = v.cls == "compute_bound";
    c.push_back({gpu ? (compute ? 2.0 : 1.6) : 1.15,
                 compute ? (gpu ? "Use bfloat16 or TF32 matmuls" : "Try bfloat16 (if this CPU has bf16 units)")
                         : "Use a 16-bit dtype to halve the bytes moved",
                 compute ? fmt::format("compute bound at {:.1f} FLOP/byte in float32; lower precision matmuls run "
                                       "at several times the float32 peak",
                                       e.arithmetic_intensity())
                         : fmt::format("memory bound at {:.2f} FLOP/byte: the time is bytes moved, and bfloat16 "
                                       "moves half of them",
                                       e.arithmetic_intensity()),
                 gpu && compute ? "torch.set_float32_matmul_precision(\"high\") for TF32, or --dtype bfloat16 "
                                  "(torch.autocast) and check accuracy"
                                : "--dtype bfloat16 (or torch.autocast) and check accuracy",
                 "lower_precision"});
  }
  if (ctx.sweep_changes_shapes) {
    c.push_back({1.05, "Decide static or dynamic shapes",
                 fmt::format("the sweep over `{}` changes input shapes: each new shape recompiles (static) "
                             "or runs a generic kernel (dynamic)",
                             ctx.sweep_param),
                 "if production shapes vary, torch._dynamo.mark_dynamic(x, 0) or torch.compile(..., dynamic=True) "
                 "to compile once; if they are few and fixed, keep dynamic=False for specialised kernels",
                 "static_or_dynamic"});
  }
  if (v.cls == "compute_bound" && std::isfinite(mid) && mid <= kGainBand) {
    c.push_back({1.0, "Expect little from torch.compile here",
                 fmt::format("{:.0f}% of the time is in vendor kernels that compile does not change; the most "
                             "any fusion could save is the other {:.0f}%",
                             100 * s.library, 100 * (1 - s.library)),
                 "skip the compile cost for this model, or look at algorithmic changes (smaller layers, "
                 "fewer FLOPs) and lower precision",
                 "little_to_gain"});
  }

  std::stable_sort(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) { return a.gain > b.gain; });
  std::vector<Suggestion> out;
  int rank = 1;
  for (const auto& x : c)
    out.push_back({rank++, x.title, x.why, x.how, core::terms_of(core::fix_entry(x.fix_id)),
                   std::round(x.gain * 100) / 100, x.compile_as_is});
  return out;
}

}  // namespace tct::expect
