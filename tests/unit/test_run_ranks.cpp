// tct run's facts about a job's processes: the worker a launcher saw fail first (rank, signal,
// moment, what was kept, the ranks it then stopped), a rank known only from its trace, a live
// report that calls no running process ended, each compiled run's cache state from the trace's
// cache records, and the stall rule against the load it was checked on (issue 43's job).
#include <gtest/gtest.h>

#include "run/analysis.hpp"
#include "run/json.hpp"
#include "run/render.hpp"

namespace tct::run {
namespace {

SiteRecord calls_site(size_t calls) {
  SiteRecord s;
  s.kind = "module";
  s.name = "GatedMLP";
  s.code_name = "forward";
  s.code_file = "/job/train.py";
  s.code_line = 30;
  s.site_file = "/job/train.py";
  s.site_line = 50;
  s.durations_ns.assign(calls, 1000);
  if (calls > 0) s.compile_calls = {0};
  return s;
}

ProcessRecord worker(int rank, int64_t pid, size_t calls, bool final, std::string ended_by = "") {
  ProcessRecord p;
  p.rank = rank;
  p.pid = pid;
  p.final = final;
  p.ended_by = std::move(ended_by);
  p.sites.push_back(calls_site(calls));
  return p;
}

trace::RankSummary trace_rank(int rank, bool compiling) {
  trace::RankSummary t;
  t.rank = rank;
  trace::CompileId id;
  id.frame = 0;
  id.frame_compile = 0;
  trace::CompileSummary c;
  c.id = id;
  c.function = "forward";
  c.file = "/job/train.py";
  c.finished = !compiling;
  t.compiles[id] = c;
  return t;
}

RunInputs job(std::vector<ProcessRecord> procs, std::vector<WorkerFailure> failures = {}) {
  RunInputs in;
  in.command = {"torchrun", "--nproc-per-node", "2", "train.py"};
  in.finished.exit.exited = true;
  in.finished.exit.code = 1;
  in.finished.wall = std::chrono::seconds(3);
  in.records.processes = std::move(procs);
  in.records.failures = std::move(failures);
  return in;
}

TEST(RunFirstEnd, KilledInItsLoopNamedWithTheRanksStopped) {
  RunInputs in = job({worker(0, 100, 9, true, "SIGTERM"), worker(1, 101, 6, false)}, {{7, 101, 1, -9, 5.0}});
  RunResult r = analyze(in);
  ASSERT_TRUE(r.first_end);
  EXPECT_EQ(r.first_end->rank, 1);
  EXPECT_EQ(r.first_end->signal, "SIGKILL");
  EXPECT_EQ(r.first_end->moment, "in its loop");
  EXPECT_EQ(r.first_end->calls, 6u);
  EXPECT_EQ(r.first_end->stopped, std::vector<int>{0});
  EXPECT_EQ(first_end_text(*r.first_end),
            "rank 1 (pid 101) ended first: it was killed by SIGKILL in its loop, after 6 call(s); the launcher then "
            "stopped rank(s) 0");
  // Rank 0 wrote every call it made, but a signal ended it: not complete.
  ASSERT_EQ(r.processes.size(), 2u);
  EXPECT_FALSE(r.processes[0].complete());
  // The dead rank is said once, first, not again as "ended before writing".
  for (const auto& n : r.notes) EXPECT_EQ(n.find("ended before writing"), std::string::npos) << n;
  const std::string text = run::text(r, false, false);
  EXPECT_LT(text.find("A RANK ENDED FIRST"), text.find("rank 0 (pid 100)")) << text;
  EXPECT_NE(text.find("stopped by SIGTERM"), std::string::npos) << text;
  // A saved document says the same.
  RunResult back = from_json(to_json(r));
  ASSERT_TRUE(back.first_end);
  EXPECT_EQ(first_end_text(*back.first_end), first_end_text(*r.first_end));
  EXPECT_EQ(to_json(back)["processes"][0]["complete"], false);
}

TEST(RunFirstEnd, KilledWhileCompilingWithoutRecordsIsReportedFromItsTrace) {
  RunInputs in = job({worker(0, 100, 1, true, "SIGTERM")}, {{7, 101, 1, -9, 5.0}});
  in.trace_ranks = {trace_rank(0, false), trace_rank(1, true)};
  RunResult r = analyze(in);
  ASSERT_TRUE(r.first_end);
  EXPECT_EQ(r.first_end->rank, 1);  // its local rank: no record of its own
  EXPECT_EQ(r.first_end->moment, "while compiling");
  EXPECT_EQ(r.first_end->compiling, "forward, compile 0/0");
  EXPECT_FALSE(r.first_end->records);
  EXPECT_EQ(r.first_end->trace_compiles, 1);
  ASSERT_EQ(r.processes.size(), 2u);
  EXPECT_TRUE(r.processes[1].records_missing);
  EXPECT_EQ(r.processes[1].rank, 1);
  EXPECT_EQ(r.processes[1].trace_compiles, 1);
}

TEST(RunLive, ARunningProcessIsNotEnded) {
  RunInputs in = job({worker(0, 100, 5, false), worker(1, 101, 5, false)});
  in.live = true;
  in.alive = {100};
  RunResult r = analyze(in);
  EXPECT_TRUE(r.processes[0].running);
  EXPECT_FALSE(r.processes[1].running);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("process 101 (rank 1) ended before writing"), std::string::npos);
}

// Issue 43: a cache folder filled before the job gave fx_graph_cache_hit 5 while AOTAutograd
// bypassed, and the run was called cold.
TEST(RunCacheState, FromTheTracesHitsMissesAndBypasses) {
  EXPECT_EQ(cache_state({{"fx_graph_cache_hit", 5}, {"aotautograd_cache_bypass", 5}}), "warm");
  EXPECT_EQ(cache_state({{"fx_graph_cache_miss", 1}, {"aotautograd_cache_miss", 1}}), "cold");
  EXPECT_EQ(cache_state({{"fx_graph_cache_miss", 1}, {"fx_graph_cache_hit", 3}}), "partly warm");
  EXPECT_EQ(cache_state({{"aotautograd_cache_bypass", 2}}), "bypassed");
  EXPECT_EQ(cache_state({}), "no cache");
}

// Issue 43's job: load 5 on 2 CPUs, torch's 2 threads, p90s 2.7 to 2.9 times the medians.
TEST(RunStall, CallsThatMoveWithTheLoad) {
  Contention loaded;
  loaded.load_1m = 5;
  loaded.cpus = 2;
  loaded.torch_threads = 2;
  auto st = stall_of(2.7, 2.9, loaded, 1);
  ASSERT_TRUE(st);
  EXPECT_TRUE(st->with_load);
  // The same spread on a quiet machine with one thread is no stall; 3x is one anyway.
  Contention quiet;
  quiet.load_1m = 0.4;
  quiet.cpus = 2;
  quiet.torch_threads = 1;
  EXPECT_FALSE(stall_of(2.7, 2.9, quiet, 1));
  auto high = stall_of(3.5, 0, quiet, 1);
  ASSERT_TRUE(high);
  EXPECT_FALSE(high->with_load);
  // Two processes of 2 threads each on 2 CPUs oversubscribe it, whatever the load average said.
  EXPECT_TRUE(stall_of(2.2, 0, Contention{0.4, 2, NAN, 2}, 2));
}

}  // namespace
}  // namespace tct::run
