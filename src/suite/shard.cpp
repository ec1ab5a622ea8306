#include "suite/shard.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "errors.hpp"
#include "suite/json.hpp"

namespace tct::suite {

ShardSpec parse_shard(const std::string& text) {
  auto slash = text.find('/');
  ShardSpec s{0, 0};
  try {
    std::size_t used_i = 0, used_n = 0;
    if (slash != std::string::npos) {
      s.index = std::stoi(text.substr(0, slash), &used_i);
      s.count = std::stoi(text.substr(slash + 1), &used_n);
      if (used_i != slash || used_n != text.size() - slash - 1) s = {0, 0};
    }
  } catch (const std::exception&) { s = {0, 0}; }
  if (s.count < 1 || s.index < 1 || s.index > s.count)
    throw usage_error(
        fmt::format("--shard '{}' is not I/N with 1 <= I <= N", text),
        "write --shard 1/4 ... --shard 4/4 (a 0-based index needs +1, e.g. $((JOB_COMPLETION_INDEX + 1))/4)");
  return s;
}

std::vector<int> assign_shards(const std::vector<std::string>& ids, int count,
                               const std::map<std::string, double>& costs_ns) {
  std::vector<int> shard(ids.size(), 1);
  if (count <= 1) return shard;
  if (costs_ns.empty()) {
    for (std::size_t k = 0; k < ids.size(); ++k) shard[k] = static_cast<int>(k % count) + 1;
    return shard;
  }
  std::vector<double> known;
  for (const auto& id : ids)
    if (auto it = costs_ns.find(id); it != costs_ns.end() && std::isfinite(it->second)) known.push_back(it->second);
  double fallback = 1;
  if (!known.empty()) {
    std::nth_element(known.begin(), known.begin() + known.size() / 2, known.end());
    fallback = known[known.size() / 2];
  }
  std::vector<double> cost(ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) {
    auto it = costs_ns.find(ids[k]);
    cost[k] = it != costs_ns.end() && std::isfinite(it->second) ? it->second : fallback;
  }
  std::vector<std::size_t> order(ids.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  std::vector<double> load(count, 0);
  for (std::size_t k : order) {
    int best = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    load[best] += cost[k];
    shard[k] = best + 1;
  }
  return shard;
}

std::map<std::string, double> costs_from(const nlohmann::json& doc) {
  std::map<std::string, double> costs;
  if (!doc.is_object() || !doc.contains("suite")) return costs;
  for (const auto& e : suite_from_json(doc["suite"]).entries)
    if (!e.entry.id.empty() && e.wall.count() > 0) costs[e.entry.id] = e.wall.count();
  return costs;
}

}  // namespace tct::suite
