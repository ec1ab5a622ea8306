#pragma once
// The shapes a site's calls used (the bootstrap counts the calls per shape of their tensor
// arguments), folded per input and dimension, with the recompiles each dimension caused: the
// newest failed guard of each recompile names a tensor's size ("tensor 'x' size mismatch at
// index 0. expected 4, actual 2", "2 <= x.size()[0]"). Pure.
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "run/records.hpp"
#include "run/result.hpp"

namespace tct::run {

// The tensor and dimension a failed guard tests the size of, or none.
std::optional<std::pair<std::string, int>> sized_dim_of(std::string_view guard);

// None when the record counted no shapes.
std::optional<ShapeUse> shape_use_of(const SiteRecord& rec, const std::vector<FrameCompile>& compiles);

}  // namespace tct::run
