#pragma once
// Splitting a suite over N machines (--shard I/N): every shard computes the same
// assignment from the same inputs, so N processes that never talk to each other run
// each entry exactly once. Pure functions; unit-tested in tests/unit/test_suite.cpp.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::suite {

struct ShardSpec {
  int index = 1;  // 1-based: shard 1 of 4 ... shard 4 of 4
  int count = 1;
};

// "2/4" -> {2, 4}. Throws tct::Error (usage) unless 1 <= I <= N.
ShardSpec parse_shard(const std::string& text);

// The shard (1..count) of each entry, in the order of `ids`.
// Without costs: round robin over the suite's order (entry k -> k mod count + 1).
// With costs (ns per entry from an earlier run): longest first onto the least-loaded shard
// (LPT, Graham 1969: within 4/3 of the best split), ties to the earlier entry and the lower
// shard; an entry without a recorded cost counts as the median of those with one.
std::vector<int> assign_shards(const std::vector<std::string>& ids, int count,
                               const std::map<std::string, double>& costs_ns = {});

// Each finished entry's wall time (ns) in a suite document (a shard or a merged run).
std::map<std::string, double> costs_from(const nlohmann::json& suite_document);

}  // namespace tct::suite
