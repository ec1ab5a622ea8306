#pragma once
// Operator classes for `tct expect`, decided from what the agent reports of each aten
// operator: its name and its schema facts (tags such as "pointwise", whether it is a view).
// Library ops (matmul, conv, attention) keep their vendor kernels under torch.compile
// (oneDNN, cuBLAS, cuDNN, flash attention); pointwise ops and reductions are what inductor
// fuses; views move no data.
#include <string>
#include <string_view>
#include <vector>

namespace tct::expect {

// "matmul", "attention", "conv", "view", "pointwise", "reduction" or "other".
// `name` is "ns::op" (a profiler event or dispatch name: "aten::addmm", "aten::add_");
// `tags` are torch.Tag names ("pointwise", "reduction", "inplace_view", ...).
std::string op_class(std::string_view name, const std::vector<std::string>& tags, bool is_view);

bool is_library_class(const std::string& op_class);  // matmul, conv, attention

// Ops whose arithmetic a compiled kernel still does at about eager's cost: transcendental
// math (sin, tanh, exp, sigmoid, erf, gelu, pow, ...: both call vectorized polynomial
// approximations) and eager's own fused kernels with reductions (softmax, layer/group/RMS norm).
// Fusion removes their memory round trips and fixed costs, not their arithmetic.
// `name` as for op_class.
bool keeps_arithmetic(std::string_view name);

// The second kind alone: eager's fused kernels with reductions inside (softmax, norms). Their
// traffic is no intermediate a compiled kernel drops: they read their input and write their
// output once, as the compiled kernel that replaces them does.
bool is_fused_kernel(std::string_view name);

// What one element of a plain pointwise op costs in inductor's fused CPU kernel, in adds
// (measured by bench/calibration/elementwise_costs.py; ops not listed weigh 1).
double element_op_weight(std::string_view name);

}  // namespace tct::expect
