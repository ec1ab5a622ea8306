#pragma once
// Planning the bench matrix: one row per backend x mode x dynamic x fullgraph, and checking
// the names against what the agent's torch accepts before anything is compiled.
// Pure functions; unit-tested in tests/unit/test_bench_plan.cpp.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::bench {

// `--backend aoti`: not a torch.compile backend but torch.export + AOTInductor's package,
// loaded and timed by the C++ runner (bench/aoti_row.hpp). It takes no mode, dynamic or fullgraph.
inline constexpr const char* kAotiBackend = "aoti";

struct BenchRowSpec {
  std::string backend;
  std::string mode;     // "default" or an inductor mode
  std::string dynamic;  // auto | true | false
  bool fullgraph = false;
  // A key unique within the plan, used to name the compiled object in the agent.
  std::string key() const;
  // "inductor", "inductor max-autotune dynamic=true fullgraph": non-default parts only.
  std::string label() const;
};

struct BenchPlan {
  std::vector<BenchRowSpec> rows;
  std::vector<std::string> notes;  // combinations left out, and why
};

// "a,b, c" -> {"a","b","c"}; empty items dropped; duplicates dropped keeping the first.
std::vector<std::string> split_list(const std::string& text);

// The cartesian product in the order given (backend outermost). `mode` only applies to
// inductor (torch.compile ignores it for other backends), so other backends get one mode,
// "default", and a note says so. aoti gets one row (static shapes, one graph), with a note
// when --dynamic or --fullgraph asked for more. Empty lists fall back to the defaults.
BenchPlan plan_rows(const std::vector<std::string>& backends, const std::vector<std::string>& modes,
                    const std::vector<std::string>& dynamic, const std::vector<bool>& fullgraph);

// Throws tct::Error (usage, exit 2) naming the first unknown backend, mode or dynamic value,
// with the closest known names; aoti is always known. `known_backends`/`known_modes` come from the agent
// (torch._dynamo.list_backends(exclude_tags=()) and torch._inductor.list_mode_options()).
void validate_plan(const BenchPlan& plan, const std::vector<std::string>& known_backends,
                   const std::vector<std::string>& known_modes);

// Parses "auto|true|false" (also on/off/1/0/yes/no); throws tct::Error (usage) otherwise.
std::string normalize_dynamic(const std::string& value);

}  // namespace tct::bench
