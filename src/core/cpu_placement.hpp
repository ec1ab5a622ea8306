#pragma once
// --threads and --cpus: where the target's process runs and how many intra-op threads torch
// uses. Parsed and checked here (one rule); the child gets them as environment variables set
// before torch is imported (OpenMP and MKL read theirs at start-up; the agent applies the
// affinity mask first thing, and torch.set_num_threads after import).
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tct::core {

struct CpuPlacement {
  std::optional<int> threads;  // --threads N
  std::vector<int> cpus;       // --cpus LIST, sorted, unique; empty: as the machine gives
};

// "0-1,3" -> {0, 1, 3}. Throws tct::Error (usage) for a malformed list, or for a CPU that this
// process may not run on (`allowed`: the CPUs of tct's own affinity mask).
std::vector<int> parse_cpu_list(const std::string& text, const std::vector<int>& allowed);

// The CPUs this process may run on (sched_getaffinity).
std::vector<int> allowed_cpus();

// The variables the child gets: OMP_NUM_THREADS, MKL_NUM_THREADS, OPENBLAS_NUM_THREADS and
// TCT_THREADS for --threads; TCT_CPUS ("0,1,3") for --cpus. Empty when neither is set.
std::vector<std::pair<std::string, std::string>> placement_env(const CpuPlacement& p);

// "0-1,3": the list as a person writes it.
std::string format_cpu_list(const std::vector<int>& cpus);

}  // namespace tct::core
