// bench/breakdown.cpp: a call cut into parts by hand, against breakdown_of's cut; the cache
// chain's hit position; the median's order-statistic interval.
#include "bench/breakdown.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tct::bench {
namespace {

// Names as torch writes them (python/tct_agent/ops/breakdown.py says where).
BreakdownSample sample_with(bool graph_event) {
  BreakdownSample s;
  s.names = {"TorchDynamo Cache Lookup",
             "Torch-Compiled Region: 0/0",
             "Pregraph bytecode",
             "AOTDispatcher Runtime Wrapper Prologue",
             "aten::addmm",
             "aten::relu"};
  // The agent lists only the names of events it saw.
  if (graph_event) s.names.push_back("## Call CompiledFxGraph fabc ##");
  SampledCall c;
  c.ns = 100;
  c.events = {{0, 10, 5}, {1, 20, 60}, {2, 22, 3}, {3, 26, 2}, {5, 85, 10}};
  if (graph_event) {
    c.events.push_back({6, 30, 25});
    c.events.push_back({4, 31, 20});
  } else {
    c.events.push_back({4, 30, 20});
  }
  s.calls = {c, c, c};
  s.bare_ns = {80, 81, 82};
  return s;
}

TEST(Breakdown, PartsOfACallWithoutGraphEventsCountRegionOpsAsGraphs) {
  const CallBreakdown b = breakdown_of(sample_with(false));
  EXPECT_FALSE(b.graph_events);
  EXPECT_DOUBLE_EQ(b.part_ns(CallPart::Lookup), 5);
  EXPECT_DOUBLE_EQ(b.part_ns(CallPart::Wrappers), 5);  // 3 + 2
  EXPECT_DOUBLE_EQ(b.part_ns(CallPart::Graphs), 20);   // the op in the region
  EXPECT_DOUBLE_EQ(b.part_ns(CallPart::Dynamo), 35);   // 60 - 3 - 2 - 20
  EXPECT_DOUBLE_EQ(b.part_ns(CallPart::Eager), 10);    // the op after the region
  EXPECT_DOUBLE_EQ(b.part_ns(CallPart::Outside), 25);  // 100 - 5 - 60 - 10
  double sum = 0;
  for (const auto& p : b.parts) sum += p.ns.median;
  EXPECT_DOUBLE_EQ(sum, b.profiled_ns.median);
  EXPECT_DOUBLE_EQ(b.sampling_cost_ns(), 100 - 81);
  EXPECT_NEAR(b.overhead_share(), 10.0 / 81, 1e-12);
  EXPECT_TRUE(b.material());
}

TEST(Breakdown, AGraphEventHoldsItsOpsAndTheRegionKeepsTheRest) {
  const CallBreakdown b = breakdown_of(sample_with(true));
  EXPECT_TRUE(b.graph_events);
  EXPECT_DOUBLE_EQ(b.part_ns(CallPart::Graphs), 25);  // the graph event, its op inside
  EXPECT_DOUBLE_EQ(b.part_ns(CallPart::Dynamo), 30);  // 60 - 3 - 2 - 25
}

TEST(Breakdown, HitPositionIsTheFirstEntryWhoseGuardsPass) {
  FrameChain f;
  f.entry_frame = true;
  f.entries = {{"0/2", 10, 100.0, false, 300.0}, {"0/1", 10, 90.0, false, 200.0}, {"0/0", 10, 80.0, true, 500.0}};
  derive_chain(f);
  ASSERT_TRUE(f.hit_position);
  EXPECT_EQ(*f.hit_position, 3);
  EXPECT_DOUBLE_EQ(*f.lookup_guards_ns, 1000);
  f.entries[1].passes.reset();  // an entry not checked: no position rather than a wrong one
  derive_chain(f);
  EXPECT_FALSE(f.hit_position);
}

TEST(Breakdown, MedianIntervalHoldsTheMedianAndNarrowsWithN) {
  std::vector<double> small, large;
  for (int i = 0; i < 11; ++i) small.push_back(i);
  for (int i = 0; i < 401; ++i) large.push_back(i % 11);
  const MedianNs a = median_with_interval(small), b = median_with_interval(large);
  EXPECT_DOUBLE_EQ(a.median, 5);
  EXPECT_LE(a.low, 5);
  EXPECT_GE(a.high, 5);
  EXPECT_LT(b.high - b.low, a.high - a.low);
  EXPECT_TRUE(std::isnan(median_with_interval({}).median));
}

}  // namespace
}  // namespace tct::bench
