#include "expect/ops.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace tct::expect {
namespace {

// aten names (the overload packet, without namespace or a trailing in-place '_').
constexpr std::array<std::string_view, 14> kMatmul = {
    "mm", "addmm", "bmm",     "baddbmm",    "matmul", "linear", "addmv",
    "mv", "dot",   "_int_mm", "_scaled_mm", "addbmm", "einsum", "_addmm_activation"};
constexpr std::array<std::string_view, 5> kAttentionPrefix = {
    "_scaled_dot_product", "scaled_dot_product", "_flash_attention", "_efficient_attention", "_cudnn_attention"};
constexpr std::array<std::string_view, 8> kConvPrefix = {
    "convolution",     "conv",     "_convolution", "cudnn_convolution", "mkldnn_convolution", "miopen_convolution",
    "_conv_depthwise", "slow_conv"};

constexpr std::array<std::string_view, 33> kTranscendental = {
    "sin",   "cos",   "tan",    "asin", "acos",  "atan", "atan2", "sinh",     "cosh",  "tanh",    "asinh",
    "acosh", "atanh", "exp",    "exp2", "expm1", "log",  "log2",  "log10",    "log1p", "sigmoid", "logit",
    "erf",   "erfc",  "erfinv", "pow",  "gelu",  "silu", "mish",  "softplus", "elu",   "lgamma",  "digamma"};
// Eager's fused kernels with reductions inside (the composite name the profiler shows at top
// level, and its kernel); not batch_norm: at inference an affine map that fuses away.
constexpr std::array<std::string_view, 10> kFusedKernel = {
    "softmax",           "_softmax",   "log_softmax",       "_log_softmax", "layer_norm",
    "native_layer_norm", "group_norm", "native_group_norm", "rms_norm",     "_fused_rms_norm"};

// In adds: bench/calibration/elementwise_costs.py, torch 2.13 CPU, 64-op chains on 16384 floats
// (an add 22 ps per element; sub, mul 1.0, relu 0.8). A clamp is a NaN-propagating min and max.
constexpr std::array<std::pair<std::string_view, double>, 4> kElementOpWeights = {
    {{"div", 4.5}, {"clamp", 10.4}, {"clamp_min", 4.8}, {"clamp_max", 4.8}}};

template <std::size_t N>
bool starts_with_any(std::string_view s, const std::array<std::string_view, N>& prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return s.substr(0, p.size()) == p; });
}

// The aten name without namespace or a trailing in-place '_' ("aten::add_" -> "add").
std::string_view base_name(std::string_view name) {
  auto colons = name.rfind("::");
  std::string_view base = colons == std::string_view::npos ? name : name.substr(colons + 2);
  while (!base.empty() && base.back() == '_') base.remove_suffix(1);
  return base;
}

bool has(const std::vector<std::string>& tags, std::string_view t) {
  return std::find(tags.begin(), tags.end(), t) != tags.end();
}

}  // namespace

std::string op_class(std::string_view name, const std::vector<std::string>& tags, bool is_view) {
  std::string_view base = base_name(name);
  if (std::find(kMatmul.begin(), kMatmul.end(), base) != kMatmul.end()) return "matmul";
  if (starts_with_any(base, kAttentionPrefix)) return "attention";
  if (starts_with_any(base, kConvPrefix)) return "conv";
  // not a reply: torch's tags of the op, a list already read
  if (is_view || has(tags, "inplace_view")) return "view";
  if (has(tags, "pointwise")) return "pointwise";  // not a reply: as above
  if (has(tags, "reduction")) return "reduction";  // not a reply: as above
  return "other";
}

bool is_library_class(const std::string& c) { return c == "matmul" || c == "conv" || c == "attention"; }

bool is_fused_kernel(std::string_view name) {
  std::string_view base = base_name(name);
  return std::find(kFusedKernel.begin(), kFusedKernel.end(), base) != kFusedKernel.end();
}

double element_op_weight(std::string_view name) {
  std::string_view base = base_name(name);
  for (const auto& [op, weight] : kElementOpWeights)
    if (op == base) return weight;
  return 1.0;
}

bool keeps_arithmetic(std::string_view name) {
  std::string_view base = base_name(name);
  return is_fused_kernel(name) ||
         std::find(kTranscendental.begin(), kTranscendental.end(), base) != kTranscendental.end();
}

}  // namespace tct::expect
