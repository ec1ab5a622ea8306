#include "run/shapes.hpp"

#include <map>
#include <regex>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "core/recompile_guard.hpp"

namespace tct::run {

std::optional<std::pair<std::string, int>> sized_dim_of(std::string_view guard) {
  // Dynamo names a local `x` (2.13 and later) or `L['x']` (earlier releases).
  static const std::regex mismatch(R"(tensor '(?:L\[')?([A-Za-z_]\w*)(?:'\])?' size mismatch at index (\d+))");
  static const std::regex size_call(R"((?:L\[')?([A-Za-z_]\w*)(?:'\])?\.size\(\)\[(\d+)\])");
  std::match_results<std::string_view::const_iterator> m;
  if (std::regex_search(guard.begin(), guard.end(), m, mismatch) ||
      std::regex_search(guard.begin(), guard.end(), m, size_call))
    return std::make_pair(m[1].str(), std::stoi(m[2].str()));
  return std::nullopt;
}

std::optional<ShapeUse> shape_use_of(const SiteRecord& rec, const std::vector<FrameCompile>& compiles) {
  if (rec.shapes.empty() && rec.shapes_other_calls == 0) return std::nullopt;
  ShapeUse out;
  out.shapes = static_cast<int>(rec.shapes.size());
  out.other_calls = rec.shapes_other_calls;
  out.all_calls = rec.shapes_all_calls;
  out.one_in = rec.shapes_one_in;
  // (input, dim) -> size -> calls, inputs in the order they first come.
  std::vector<std::string> order;
  std::map<std::pair<std::string, int>, std::map<int64_t, int64_t>> seen;
  auto count = [&](const std::string& input, const std::vector<int64_t>& sizes, int64_t calls) {
    for (size_t d = 0; d < sizes.size(); ++d) {
      auto [it, fresh] = seen.try_emplace({input, static_cast<int>(d)});
      if (fresh && d == 0) order.push_back(input);
      it->second[sizes[d]] += calls;
    }
  };
  for (const ShapeCount& c : rec.shapes) {
    out.calls += c.calls;
    for (size_t i = 0; i < c.args.size(); ++i)
      if (c.args[i]) count(i < rec.arg_names.size() ? rec.arg_names[i] : fmt::format("arg {}", i), *c.args[i], c.calls);
    for (const auto& [name, sizes] : c.kwargs) count(name, sizes, c.calls);
  }
  out.calls += rec.shapes_other_calls;
  for (const std::string& input : order)
    for (auto it = seen.lower_bound({input, 0}); it != seen.end() && it->first.first == input; ++it) {
      if (it->second.size() < 2) continue;
      VariedDim v{input, it->first.second, {}, 0};
      for (const auto& [size, calls] : it->second) v.sizes.push_back({size, calls});
      out.varied.push_back(std::move(v));
    }
  for (const FrameCompile& c : compiles) {
    if (!c.recompiled()) continue;
    const auto failure = core::newest_guard_failure(c.recompile_reasons);
    const auto dim = failure ? sized_dim_of(failure->guard) : std::nullopt;
    if (!dim) continue;
    for (VariedDim& v : out.varied)
      if (v.input == dim->first && v.dim == dim->second) ++v.recompiles;
  }
  return out;
}

}  // namespace tct::run
