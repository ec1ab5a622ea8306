#include "analysis/expect_ops.hpp"

#include <algorithm>
#include <array>

namespace tct::analysis {
namespace {

// aten names (the overload packet, without namespace or a trailing in-place '_').
constexpr std::array<std::string_view, 14> kMatmul = {"mm",   "addmm", "bmm",     "baddbmm", "matmul",
                                                      "linear", "addmv", "mv",     "dot",     "_int_mm",
                                                      "_scaled_mm", "addbmm", "einsum", "_addmm_activation"};
constexpr std::array<std::string_view, 5> kAttentionPrefix = {"_scaled_dot_product", "scaled_dot_product",
                                                              "_flash_attention", "_efficient_attention",
                                                              "_cudnn_attention"};
constexpr std::array<std::string_view, 8> kConvPrefix = {"convolution",        "conv",
                                                         "_convolution",       "cudnn_convolution",
                                                         "mkldnn_convolution", "miopen_convolution",
                                                         "_conv_depthwise",    "slow_conv"};

template <std::size_t N>
bool starts_with_any(std::string_view s, const std::array<std::string_view, N>& prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return s.substr(0, p.size()) == p; });
}

bool has(const std::vector<std::string>& tags, std::string_view t) {
  return std::find(tags.begin(), tags.end(), t) != tags.end();
}

}  // namespace

std::string op_class(std::string_view name, const std::vector<std::string>& tags, bool is_view) {
  auto colons = name.rfind("::");
  std::string_view base = colons == std::string_view::npos ? name : name.substr(colons + 2);
  while (!base.empty() && base.back() == '_') base.remove_suffix(1);
  if (std::find(kMatmul.begin(), kMatmul.end(), base) != kMatmul.end()) return "matmul";
  if (starts_with_any(base, kAttentionPrefix)) return "attention";
  if (starts_with_any(base, kConvPrefix)) return "conv";
  if (is_view || has(tags, "inplace_view")) return "view";
  if (has(tags, "pointwise")) return "pointwise";
  if (has(tags, "reduction")) return "reduction";
  return "other";
}

bool is_library_class(const std::string& c) { return c == "matmul" || c == "conv" || c == "attention"; }

}  // namespace tct::analysis
