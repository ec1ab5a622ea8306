#pragma once
// The warnings an explain run gives, decided from its result and the agent's facts (their
// words: report/warning_wording.cpp). Pure.
#include <vector>

#include "explain/reply.hpp"
#include "explain/result.hpp"
#include "report/warning.hpp"

namespace tct::explain {

// torch too old for the logged run (explain.run's logged_unsupported), explain and the logged
// run disagreeing, skipped frames, and a --max-graph-breaks gate that failed, in that order.
std::vector<report::Warning> explain_warnings(const ExplainResult& result, const reply::Run& facts);

}  // namespace tct::explain
