#pragma once
// Saved documents under tests/e2e/fixtures/, read by the round-trip tests of each result.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::testing {

inline std::filesystem::path e2e_fixtures() {
  return std::filesystem::path(TCT_SOURCE_DIR) / "tests" / "e2e" / "fixtures";
}

inline nlohmann::json load_json(const std::filesystem::path& p) {
  std::ifstream f(p);
  return nlohmann::json::parse(f);
}

// Every .json in e2e_fixtures()/folder, sorted.
inline std::vector<std::filesystem::path> fixture_documents(const std::string& folder) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(e2e_fixtures() / folder))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tct::testing
