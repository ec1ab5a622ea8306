// --threads and --cpus: the list's grammar, CPUs the process may not use, the child's variables.
#include <gtest/gtest.h>

#include "core/cpu_placement.hpp"
#include "errors.hpp"

using namespace tct::core;

TEST(CpuPlacement, ListsAndRanges) {
  const std::vector<int> allowed{0, 1, 2, 3, 6};
  EXPECT_EQ(parse_cpu_list("0", allowed), (std::vector<int>{0}));
  EXPECT_EQ(parse_cpu_list("0-2,6", allowed), (std::vector<int>{0, 1, 2, 6}));
  EXPECT_EQ(parse_cpu_list("3,1,1-2", allowed), (std::vector<int>{1, 2, 3}));  // sorted, once each
  EXPECT_EQ(format_cpu_list({0, 1, 2, 6}), "0-2,6");
  EXPECT_EQ(format_cpu_list({1}), "1");
}

TEST(CpuPlacement, BadListsAreUsageErrors) {
  const std::vector<int> allowed{0, 1};
  for (const char* bad : {"", "a", "1-", "-1", "2-1", "0,,1", "1.5", "7"}) {
    try {
      parse_cpu_list(bad, allowed);
      ADD_FAILURE() << "no error for '" << bad << "'";
    } catch (const tct::Error& e) {
      EXPECT_EQ(e.code(), tct::ExitCode::Usage) << bad;
      EXPECT_FALSE(e.hint().empty()) << bad;
    }
  }
}

TEST(CpuPlacement, TheChildsVariables) {
  EXPECT_TRUE(placement_env({}).empty());
  auto env = placement_env({2, {0, 1}});
  auto has = [&](const std::string& k, const std::string& v) {
    for (const auto& [a, b] : env)
      if (a == k) return b == v;
    return false;
  };
  EXPECT_TRUE(has("OMP_NUM_THREADS", "2"));
  EXPECT_TRUE(has("MKL_NUM_THREADS", "2"));
  EXPECT_TRUE(has("TCT_THREADS", "2"));
  EXPECT_TRUE(has("TCT_CPUS", "0,1"));
  EXPECT_FALSE(allowed_cpus().empty());
}
