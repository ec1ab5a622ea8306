#pragma once
// A site's sampled calls (SiteRecord::sampled) -> where its compiled calls' time goes and what
// sampling cost the job. Pure.
#include <optional>
#include <vector>

#include "run/records.hpp"
#include "run/result.hpp"

namespace tct::run {

// steady: the site's steady calls, the sampled ones left out (steady_durations), what a bare
// call costs; wall: the job's; compiles: the site's frame compiles from the trace (the guard
// count of each cache entry). None where no steady call was sampled.
std::optional<SampledBreakdown> sampled_breakdown(const SiteRecord& s, const std::vector<double>& steady, Ns wall,
                                                  const std::vector<FrameCompile>& compiles = {});

}  // namespace tct::run
