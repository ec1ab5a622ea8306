#include "core/cpu_placement.hpp"

#include <algorithm>
#include <cctype>

#include <sched.h>

#include <fmt/format.h>

#include "errors.hpp"

namespace tct::core {
namespace {

int parse_cpu(const std::string& s, const std::string& whole) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }) || s.size() > 6)
    throw usage_error(fmt::format("--cpus '{}': '{}' is not a CPU number", whole, s),
                      "give CPU numbers and ranges, e.g. --cpus 0 or --cpus 0-3,6");
  return std::stoi(s);
}

}  // namespace

std::vector<int> allowed_cpus() {
  std::vector<int> out;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

std::vector<int> parse_cpu_list(const std::string& text, const std::vector<int>& allowed) {
  std::vector<int> cpus;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    auto dash = part.find('-');
    int lo = parse_cpu(part.substr(0, dash), text);
    int hi = dash == std::string::npos ? lo : parse_cpu(part.substr(dash + 1), text);
    if (hi < lo)
      throw usage_error(fmt::format("--cpus '{}': the range {} runs backwards", text, part),
                        "write ranges low-high, e.g. 0-3");
    for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  for (int c : cpus)
    if (std::find(allowed.begin(), allowed.end(), c) == allowed.end())
      throw usage_error(
          fmt::format("--cpus '{}': CPU {} is not one this process may run on ({})", text, c, format_cpu_list(allowed)),
          "choose CPUs from that list");
  return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + (j == i ? std::to_string(cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]));
    i = j + 1;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> placement_env(const CpuPlacement& p) {
  std::vector<std::pair<std::string, std::string>> env;
  if (p.threads) {
    const std::string n = std::to_string(*p.threads);
    for (const char* var : {"OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "TCT_THREADS"})
      env.emplace_back(var, n);
  }
  if (!p.cpus.empty()) {
    std::string list;
    for (int c : p.cpus) list += (list.empty() ? "" : ",") + std::to_string(c);
    env.emplace_back("TCT_CPUS", list);
  }
  return env;
}

}  // namespace tct::core
