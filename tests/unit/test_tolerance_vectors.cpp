// The output check's tolerance rule against the cases the agent's copy is tested on too
// (tests/vectors/tolerance.json; tests/agent/test_tolerance_vectors.py runs them through
// python/tct_agent/compare.py): the two copies cannot drift apart unnoticed.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/correctness.hpp"

namespace {

nlohmann::json tolerance_vectors() {
  std::ifstream f(std::filesystem::path(TCT_SOURCE_DIR) / "tests" / "vectors" / "tolerance.json");
  return nlohmann::json::parse(f);
}

TEST(ToleranceVectors, AllowedAndBeyondAsTheAgentComputesThem) {
  const nlohmann::json cases = tolerance_vectors().at("cases");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& t = c.at("tolerance");
    const tct::bench::Tolerance tol{t.at("rtol").get<double>(), t.at("atol").get<double>(),
                                    t.at("ref_multiplier").get<double>()};
    const double expected = c.at("expected").get<double>(), actual = c.at("actual").get<double>();
    double difference = std::abs(actual - expected), magnitude = std::abs(expected), eager_error = 0;
    if (c.contains("reference")) {
      const double ref = c.at("reference").get<double>();
      difference = std::abs(actual - ref);
      magnitude = std::abs(ref);
      eager_error = std::abs(expected - ref);
    }
    const double allowed = tct::bench::allowed_difference(tol, magnitude, eager_error);
    const std::string name = c.at("name").get<std::string>();
    EXPECT_NEAR(allowed, c.at("allowed").get<double>(), 1e-12 * std::max(1.0, allowed)) << name;
    EXPECT_EQ(difference > allowed, c.at("beyond").get<bool>()) << name;
  }
}

}  // namespace
