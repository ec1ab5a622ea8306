// tct run's sampled breakdown (run/breakdown.cpp) from a bootstrap record: the sampled calls
// leave the site's steady calls, the ones that compiled are not cut into parts, the parts come
// from the events as bench cuts them, and the cost is the sampler's work plus the sampled
// calls' time beyond a bare call.
#include <gtest/gtest.h>

#include "run/analysis.hpp"
#include "run/breakdown.hpp"
#include "run/records.hpp"
#include "run/render.hpp"

namespace tct::run {
namespace {

// A record of 12 calls: call 0 compiled, calls 6-9 sampled (a window of 4), call 9 compiled
// again; each sampled call holds a 2 us lookup and, for 6-8, a 5 us graph event.
SiteRecord sampled_site() {
  SiteRecord s;
  s.durations_ns = {900000, 20000, 10000, 10000, 10000, 10000, 16000, 16000, 16000, 500000, 30000, 10000};
  s.compile_calls = {0, 9};
  SampledCalls c;
  c.windows = {{6, 4}};
  c.names = {"TorchDynamo Cache Lookup", "## Call CompiledFxGraph abc ##"};
  for (size_t i = 6; i < 10; ++i) {
    bench::SampledCall call;
    call.ns = 15000;
    call.events = {{0, 1000, 2000}, {1, 5000, 5000}};
    c.index.push_back(i);
    c.calls.push_back(call);
  }
  c.sampler_ns = 300000;
  s.sampled = c;
  return s;
}

TEST(RunBreakdown, SampledCallsLeaveTheSteadyCalls) {
  const SiteRecord s = sampled_site();
  // Steady: not 0 (compiled), 1 (after it), 6-9 (sampled; 9 compiled too), 10 (after a compile),
  // 10 and 11 (settling after the window).
  EXPECT_EQ(steady_durations(s, false), (std::vector<double>{10000, 10000, 10000, 10000}));
}

TEST(RunBreakdown, PartsFromTheEventsAndTheCostOfSampling) {
  const SiteRecord s = sampled_site();
  const auto b = sampled_breakdown(s, steady_durations(s, false), Ns(1e7));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->windows, 1);
  EXPECT_EQ(b->compiling, 1);  // call 9 compiled: not cut into parts
  EXPECT_EQ(b->settling, 2);   // calls 10 and 11: the record ends before 16
  EXPECT_EQ(b->call.calls, 3);
  EXPECT_DOUBLE_EQ(b->call.bare_ns.median, 10000);
  EXPECT_DOUBLE_EQ(b->call.part_ns(bench::CallPart::Lookup), 2000);
  EXPECT_DOUBLE_EQ(b->call.part_ns(bench::CallPart::Graphs), 5000);
  EXPECT_DOUBLE_EQ(b->call.part_ns(bench::CallPart::Outside), 8000);
  // The sampler's 300 us, and the time beyond the bare 10 us of each sampled call (3 x 6 us +
  // 490 us) and of each settling one (20 us, 0).
  EXPECT_DOUBLE_EQ(b->cost.count(), 300000 + 3 * 6000 + 490000 + 20000);
  EXPECT_DOUBLE_EQ(b->job_share, b->cost.count() / 1e7);
}

TEST(RunBreakdown, TheCacheChainWithItsHitPositionAndGuardCounts) {
  SiteRecord s = sampled_site();
  s.code_name = "step";
  s.sampled->chain = {"0/1", "0/0"};
  s.sampled->hit = {2, -1, 1, 2};  // calls 6 and 8 read the chain; call 9 compiled: left out with its hit
  FrameCompile first, second;
  first.compile_id = "0/0";
  first.guard_count = 7;
  second.compile_id = "0/1";
  second.guard_count = 9;
  const auto b = sampled_breakdown(s, steady_durations(s, false), Ns(1e7), {first, second});
  ASSERT_TRUE(b);
  ASSERT_EQ(b->call.frames.size(), 1u);
  const auto& f = b->call.frames[0];
  EXPECT_TRUE(f.entry_frame);
  EXPECT_EQ(f.name, "step");
  ASSERT_EQ(f.entries.size(), 2u);
  EXPECT_EQ(f.entries[0].compile_id, "0/1");
  EXPECT_EQ(f.entries[0].guard_count, 9);
  EXPECT_EQ(f.entries[1].guard_count, 7);
  EXPECT_EQ(f.hit_position, 2);  // the median of 2 and 1, rounded
  EXPECT_EQ(b->chain_calls, 2);
  EXPECT_EQ(b->call.calls, 1);  // call 7 alone is cut into parts
}

TEST(RunBreakdown, NoneWithoutSampledCallsAndSaidWhenTheProfilerWasBusy) {
  SiteRecord s = sampled_site();
  s.sampled->index.clear();
  s.sampled->calls.clear();
  EXPECT_FALSE(sampled_breakdown(s, {10000}, Ns(1e7)));
  s.sampled->skipped = 2;
  const auto b = sampled_breakdown(s, {10000}, Ns(1e7));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->call.calls, 0);
  EXPECT_EQ(b->skipped, 2);
  s.sampled.reset();
  EXPECT_FALSE(sampled_breakdown(s, {10000}, Ns(1e7)));
}

// The reports: the bare call said once (the per-call line holds it), and a profiler that failed
// said with what to do.
TEST(RunBreakdown, ReportsSayTheCallOnceAndAFailedProfilerWithItsWayOut) {
  ProcessRecord p;
  p.pid = 1;
  SiteRecord s = sampled_site();
  s.name = "step";
  p.sites.push_back(s);
  RunInputs in;
  in.command = {"python", "job.py"};
  in.finished.exit.exited = true;
  in.finished.wall = std::chrono::seconds(1);
  in.records.processes = {p};
  RunResult r = analyze(in);
  const std::string verbose = text(r, false, true);
  EXPECT_NE(verbose.find("where a call's time goes: 3 call(s) in 1 window(s) ran under torch's profiler, 15 us each"),
            std::string::npos)
      << verbose;
  EXPECT_EQ(verbose.find("each unobserved"), std::string::npos) << verbose;  // bench's line, the per-call median again
  p.sites[0].sampled->index.clear();
  p.sites[0].sampled->calls.clear();
  p.sites[0].sampled->error = "RuntimeError: profiler refused";
  in.records.processes = {p};
  const std::string failed = text(analyze(in), false, false);
  EXPECT_NE(failed.find("breakdown: no call sampled: torch's profiler failed: RuntimeError: profiler refused "
                        "(--no-breakdown keeps it out of the job)"),
            std::string::npos)
      << failed;
}

TEST(RunBreakdown, TheRecordReadsBack) {
  const ProcessRecord p = parse_record(R"({"version": 1, "pid": 7, "sites": [{"index": 0, "kind": "function",
    "name": "f", "durations_ns": [5, 6, 7], "sampled": {"windows": [[1, 2]], "names": ["a"],
    "calls": [{"ns": 4, "events": [[0, 1, 2]], "index": 1, "hit": 3, "entries": 4}, {"ns": 5, "events": [], "index": 2}],
    "chain": ["0/2", "0/0"],
    "cost_ns": 99, "skipped_profiler_in_use": 1, "error": ""}}]})");
  ASSERT_EQ(p.sites.size(), 1u);
  const auto& c = *p.sites[0].sampled;
  EXPECT_EQ(c.windows, (std::vector<std::pair<size_t, size_t>>{{1, 2}}));
  EXPECT_EQ(c.index, (std::vector<size_t>{1, 2}));
  ASSERT_EQ(c.calls.size(), 2u);
  EXPECT_EQ(c.calls[0].events.size(), 1u);
  EXPECT_EQ(c.hit, (std::vector<int>{3, -1}));
  EXPECT_EQ(c.entries, (std::vector<int>{4, 0}));
  EXPECT_EQ(c.chain, (std::vector<std::string>{"0/2", "0/0"}));
  EXPECT_EQ(c.sampler_ns, 99);
  EXPECT_EQ(c.skipped, 1);
}

}  // namespace
}  // namespace tct::run
