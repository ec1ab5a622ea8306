#include "bench/plan.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "errors.hpp"

namespace tct::bench {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Levenshtein distance, for "did you mean".
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string suggestion(const std::string& name, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& k : known) {
    auto d = distance(lower(name), lower(k));
    if (d < best_d) best_d = d, best = k;
  }
  if (!best.empty() && best_d <= std::max<std::size_t>(2, name.size() / 3))
    return fmt::format("did you mean '{}'? ", best);
  return "";
}

}  // namespace

std::string BenchRowSpec::key() const {
  return fmt::format("{}|{}|{}|{}", backend, mode, dynamic, fullgraph ? "fullgraph" : "partial");
}

std::string BenchRowSpec::label() const {
  std::string s = backend;
  if (mode != "default") s += " " + mode;
  if (dynamic != "auto") s += " dynamic=" + dynamic;
  if (fullgraph) s += " fullgraph";
  return s;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = trim(text.substr(start, comma - start));
    if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    start = comma + 1;
  }
  return out;
}

std::string normalize_dynamic(const std::string& value) {
  std::string v = lower(trim(value));
  if (v == "auto" || v == "none" || v.empty()) return "auto";
  if (v == "true" || v == "1" || v == "on" || v == "yes") return "true";
  if (v == "false" || v == "0" || v == "off" || v == "no") return "false";
  throw usage_error(fmt::format("--dynamic '{}' is not auto, true or false", value),
                    "use --dynamic auto (torch decides), true or false; comma-separate to compare");
}

BenchPlan plan_rows(const std::vector<std::string>& backends_in, const std::vector<std::string>& modes_in,
                    const std::vector<std::string>& dynamic_in, const std::vector<bool>& fullgraph_in) {
  auto backends = backends_in.empty() ? std::vector<std::string>{"inductor"} : backends_in;
  auto modes = modes_in.empty() ? std::vector<std::string>{"default"} : modes_in;
  std::vector<std::string> dynamic;
  for (const auto& d : dynamic_in.empty() ? std::vector<std::string>{"auto"} : dynamic_in) {
    auto n = normalize_dynamic(d);
    if (std::find(dynamic.begin(), dynamic.end(), n) == dynamic.end()) dynamic.push_back(n);
  }
  std::vector<bool> fullgraph;
  for (bool f : fullgraph_in.empty() ? std::vector<bool>{false} : fullgraph_in)
    if (std::find(fullgraph.begin(), fullgraph.end(), f) == fullgraph.end()) fullgraph.push_back(f);

  BenchPlan plan;
  bool has_other_mode = std::any_of(modes.begin(), modes.end(), [](auto& m) { return m != "default"; });
  for (const auto& b : backends) {
    std::vector<std::string> row_modes = modes;
    if (b != "inductor") {
      row_modes = {"default"};
      if (has_other_mode)
        plan.notes.push_back(
            fmt::format("--mode applies to the inductor backend only: {} runs with "
                        "its defaults",
                        b));
    }
    if (b == kAotiBackend) {
      // torch.export makes one graph with the example inputs' shapes: one row.
      if (dynamic.size() > 1 || dynamic[0] != "auto" || fullgraph.size() > 1 || fullgraph[0])
        plan.notes.push_back(
            "--dynamic and --fullgraph do not apply to aoti: torch.export makes one graph "
            "with the example inputs' shapes");
      plan.rows.push_back({b, "default", "auto", false});
      continue;
    }
    for (const auto& m : row_modes)
      for (const auto& d : dynamic)
        for (bool f : fullgraph) plan.rows.push_back({b, m, d, f});
  }
  return plan;
}

void validate_plan(const BenchPlan& plan, const std::vector<std::string>& known_backends,
                   const std::vector<std::string>& known_modes) {
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::vector<std::string> backends = known_backends;
  backends.push_back(kAotiBackend);
  for (const auto& row : plan.rows) {
    if (row.backend == kAotiBackend) continue;
    if (std::find(known_backends.begin(), known_backends.end(), row.backend) == known_backends.end())
      throw usage_error(
          fmt::format("unknown backend '{}'", row.backend),
          fmt::format("{}backends this torch knows: {}", suggestion(row.backend, backends), join(backends)));
    if (std::find(known_modes.begin(), known_modes.end(), row.mode) == known_modes.end())
      throw usage_error(
          fmt::format("unknown mode '{}'", row.mode),
          fmt::format("{}modes this torch knows: {}", suggestion(row.mode, known_modes), join(known_modes)));
  }
}

}  // namespace tct::bench
