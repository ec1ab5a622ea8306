// tct run's analysis: which calls are steady, the speedup interval and its verdict, the
// bootstrap's record format, a silent fallback and its guard, and the per-rank divergence.
#include <gtest/gtest.h>

#include "core/recompile_guard.hpp"
#include "cli/render.hpp"
#include "run/analysis.hpp"
#include "run/json.hpp"
#include "run/render.hpp"

namespace tct::run {
namespace {

SiteRecord site(std::vector<int64_t> ns, std::vector<size_t> compiles = {}, std::vector<size_t> eager = {}) {
  SiteRecord s;
  s.kind = "module";
  s.name = "MLP";
  s.code_name = "forward";
  s.code_file = "/job/train.py";
  s.code_line = 10;
  s.site_file = "/job/train.py";
  s.site_line = 40;
  s.durations_ns = std::move(ns);
  s.compile_calls = std::move(compiles);
  s.eager_calls = std::move(eager);
  return s;
}

TEST(RunSteady, DropsCompilingCallsAndTheCallAfterEach) {
  auto s = site({1000, 50, 10, 10, 900, 40, 10}, {0, 4});
  EXPECT_EQ(steady_durations(s, false), (std::vector<double>{10, 10, 10}));
  // Eager runs: all but the first two (lazy initialisation).
  EXPECT_EQ(steady_durations(s, true), (std::vector<double>{10, 10, 900, 40, 10}));
  EXPECT_TRUE(steady_durations(site({}), false).empty());
}

TEST(RunSteady, CallTimes) {
  auto t = call_times({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  EXPECT_EQ(t.calls, 10u);
  EXPECT_DOUBLE_EQ(t.median.count(), 5.5);
  EXPECT_NEAR(t.p90.count(), 9.1, 1e-9);
  EXPECT_DOUBLE_EQ(t.total.count(), 55);
  EXPECT_EQ(call_times({}).calls, 0u);
}

TEST(RunSpeedup, IntervalAndVerdict) {
  std::vector<double> eager, compiled;
  for (int i = 0; i < 200; ++i) {
    eager.push_back(200 + i % 7);
    compiled.push_back(100 + i % 5);
  }
  auto iv = speedup_interval({eager}, {compiled});
  EXPECT_NEAR(iv.estimate, 2.0, 0.05);
  EXPECT_LE(iv.low, iv.estimate);
  EXPECT_GE(iv.high, iv.estimate);
  EXPECT_EQ(stats::decide(iv.estimate, iv.low, iv.high), stats::SpeedupVerdict::Faster);
  // Several runs: runs are resampled too; still an interval around the estimate.
  auto iv2 = speedup_interval({eager, eager}, {compiled, compiled});
  EXPECT_LE(iv2.low, iv2.estimate);
}

TEST(RunRecords, ParsesTheBootstrapsFile) {
  auto p = parse_record(R"({"version":1,"pid":42,"rank":"1","local_rank":"1","world_size":"2","torch":"2.13.0",
    "graph_counting":true,"final":true,"sites":[{"index":0,"kind":"function","name":"f","code_name":"f",
    "code_file":"/a.py","code_line":3,"site_file":"/a.py","site_line":3,"objects":1,"durations_ns":[5,6],
    "compile_calls":[0],"eager_calls":[1]}],"recompile_limit_hits":[{"site":0,"call":1,"limit":"recompile_limit",
    "value":8,"function":"'f'","last_reason":"0/7: tensor 'x' size mismatch at index 0. expected 3, actual 4"}]})");
  EXPECT_EQ(p.pid, 42);
  EXPECT_EQ(p.rank, 1);
  ASSERT_EQ(p.sites.size(), 1u);
  EXPECT_EQ(p.sites[0].durations_ns, (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(p.sites[0].key(), "/a.py:3 f");
  ASSERT_EQ(p.limit_hits.size(), 1u);
  EXPECT_EQ(p.limit_hits[0].value, 8);
  EXPECT_THROW(parse_record("{not json"), std::exception);
}

RunInputs inputs_with(std::vector<ProcessRecord> procs) {
  RunInputs in;
  in.command = {"python", "train.py"};
  in.finished.exit.exited = true;
  in.finished.wall = std::chrono::seconds(1);
  in.records.processes = std::move(procs);
  return in;
}

TEST(RunAnalysis, SilentFallbackWithItsGuardAndFix) {
  ProcessRecord p;
  p.pid = 1;
  p.graph_counting = true;
  p.final = true;
  p.sites.push_back(site({100, 100, 100, 10, 10, 10}, {0, 1, 2}, {3, 4}));
  LimitHit h;
  h.site = 0;
  h.call = 3;
  h.limit = "recompile_limit";
  h.value = 8;
  h.last_reason = "0/7: tensor 'x' size mismatch at index 0. expected 3, actual 4";
  p.limit_hits.push_back(h);
  RunResult r = analyze(inputs_with({p}));
  ASSERT_EQ(r.processes.size(), 1u);
  const SiteResult& s = r.processes[0].sites[0];
  ASSERT_EQ(s.fallbacks.size(), 1u);
  const Fallback& f = s.fallbacks[0];
  EXPECT_EQ(f.frame.role, "site");
  EXPECT_EQ(f.calls_after, 3u);
  EXPECT_EQ(f.eager_after, 2u);
  EXPECT_EQ(f.guard, "tensor 'x' size mismatch at index 0");
  EXPECT_EQ(f.kind, "size");
  EXPECT_NE(f.fix.find("mark_dynamic"), std::string::npos);
  EXPECT_EQ(s.eager_calls, 2u);
  EXPECT_EQ(s.first_eager_call, 3u);
  // The report says it first.
  nlohmann::json doc = {{"command", "run"}, {"run", to_json(r)}};
  std::string text = cli::render_text(cli::from_document(doc));
  EXPECT_NE(text.find("SILENT FALLBACK"), std::string::npos) << text;
  EXPECT_LT(text.find("SILENT FALLBACK"), text.find("per call"));
}

TEST(RunAnalysis, NamesTheRankThatCompilesDifferently) {
  std::vector<ProcessRecord> procs;
  for (int rank = 0; rank < 3; ++rank) {
    ProcessRecord p;
    p.pid = 10 + rank;
    p.rank = rank;
    p.final = true;
    p.sites.push_back(site({5, 5, 5, 5}, rank == 2 ? std::vector<size_t>{0, 2} : std::vector<size_t>{0}));
    procs.push_back(p);
  }
  RunResult r = analyze(inputs_with(procs));
  ASSERT_EQ(r.divergence.size(), 1u);
  EXPECT_EQ(r.divergence[0].rank, 2);
  EXPECT_NE(r.divergence[0].message.find("rank 2"), std::string::npos);
}

TEST(RunAnalysis, CompareEagerBreakEven) {
  ProcessRecord c;
  c.pid = 1;
  c.final = true;
  std::vector<int64_t> ns = {100000};
  for (int i = 0; i < 100; ++i) ns.push_back(100 + i % 3);
  c.sites.push_back(site(ns, {0}));
  ProcessRecord e = c;
  e.sites[0].compile_calls.clear();
  for (auto& x : e.sites[0].durations_ns) x = 200 + (&x - e.sites[0].durations_ns.data()) % 3;
  RunInputs in = inputs_with({c});
  RecordSet eager;
  eager.processes.push_back(e);
  in.eager_runs.push_back(eager);
  RunResult r = analyze(in);
  const SiteResult& s = r.processes[0].sites[0];
  ASSERT_TRUE(s.eager);
  EXPECT_EQ(s.eager->verdict, stats::SpeedupVerdict::Faster);
  EXPECT_NEAR(s.eager->speedup.estimate, 2.0, 0.05);
  ASSERT_TRUE(s.eager->break_even_calls);
  EXPECT_NEAR(*s.eager->break_even_calls, (100000 - 101) / 100.0, 5);
  EXPECT_TRUE(s.eager->paid_back == (101 >= *s.eager->break_even_calls));
}

// A stall is a tail, not noise: one call in five waiting 10x the others puts the p90 past 3x the
// median and the report says so with --threads 1 as the fix; steady calls, or too few, do not.
TEST(RunAnalysis, StalledCallsAreNamedWithTheirFix) {
  auto stalled = [](std::vector<int64_t> ns) {
    ProcessRecord p;
    p.pid = 1;
    p.final = true;
    p.sites.push_back(site(std::move(ns), {0}));
    return analyze(inputs_with({p}));
  };
  std::vector<int64_t> tail = {100000, 100}, even = {100000, 100};
  for (int i = 0; i < 100; ++i) {
    tail.push_back(i % 5 == 4 ? 1000 : 100);
    even.push_back(100 + i % 7);
  }
  const RunResult r = stalled(tail);
  const auto& st = r.processes[0].sites[0].stall;
  ASSERT_TRUE(st);
  EXPECT_GT(st->compiled_ratio, 3.0);
  nlohmann::json doc = {{"command", "run"}, {"run", to_json(r)}};
  const std::string text = cli::render_text(cli::from_document(doc));
  EXPECT_NE(text.find("calls stalled"), std::string::npos) << text;
  EXPECT_NE(text.find("--threads 1"), std::string::npos) << text;
  EXPECT_FALSE(stalled(even).processes[0].sites[0].stall);
  EXPECT_FALSE(stalled({100000, 100, 100, 1000, 100}).processes[0].sites[0].stall);  // too few calls
}

// --repeat 2: each compiled run's compile cost and its own break-even (the second run found
// the first's caches: its first call compiled in 10 us, not 100 us).
TEST(RunAnalysis, EachCompiledRunHasItsCompileAndBreakEven) {
  ProcessRecord c;
  c.pid = 1;
  c.final = true;
  std::vector<int64_t> ns = {100000};
  for (int i = 0; i < 100; ++i) ns.push_back(100 + i % 3);
  c.sites.push_back(site(ns, {0}));
  ProcessRecord warm = c;
  warm.sites[0].durations_ns[0] = 10000;
  ProcessRecord e = c;
  e.sites[0].compile_calls.clear();
  for (auto& x : e.sites[0].durations_ns) x = 200 + (&x - e.sites[0].durations_ns.data()) % 3;
  RunInputs in = inputs_with({c});
  RecordSet second, eager;
  second.processes.push_back(warm);
  eager.processes.push_back(e);
  in.compiled_repeats.push_back(second);
  in.eager_runs = {eager, eager};
  const RunResult r = analyze(in);
  const SiteResult& s = r.processes[0].sites[0];
  ASSERT_EQ(s.runs.size(), 2u);
  EXPECT_EQ(s.runs[0].run, 1);
  EXPECT_EQ(s.runs[1].run, 2);
  EXPECT_EQ(s.runs[0].cache_state, "no cache");  // no trace here: nothing counted
  ASSERT_TRUE(s.runs[0].break_even_calls && s.runs[1].break_even_calls);
  EXPECT_NEAR(*s.runs[0].break_even_calls, (100000 - 101) / 100.0, 5);
  EXPECT_NEAR(*s.runs[1].break_even_calls, (10000 - 101) / 100.0, 5);
}

// --try-fixes' choice and its figures. A DDP object compiled from outside breaks inside DDP's
// own forward (issue 45: the logger call at distributed.py:1757): the wrap order is the fix tct
// can try there, and nowhere else: not at a site whose compiled object is no DDP, nor at a DDP
// site without such a break.
ProcessRecord ddp_process(int64_t pid, int rank, int64_t steady_ns, int compiles) {
  ProcessRecord p;
  p.pid = pid;
  p.rank = rank;
  p.final = true;
  std::vector<int64_t> ns = {100000000};
  for (int i = 0; i < 40; ++i) ns.push_back(steady_ns + i % 5);
  SiteRecord s = site(ns, {0});
  s.name = "DistributedDataParallel";
  s.wrapper = "ddp";
  for (int f = 0; f < compiles; ++f) s.compile_ids.push_back({0, std::to_string(f) + "/0"});
  p.sites.push_back(s);
  return p;
}

// A trace with `breaks` breaks inside DDP's forward, in frame 0's compile.
trace::RankSummary ddp_trace(int rank, int breaks) {
  trace::RankSummary t;
  t.rank = rank;
  trace::CompileSummary c;
  c.function = "forward";
  c.file = "/v/site-packages/torch/nn/parallel/distributed.py";
  c.finished = true;
  trace::CompileId id;
  id.frame = 0;
  id.frame_compile = 0;
  t.compiles[id] = c;
  for (int i = 0; i < breaks; ++i) {
    trace::TraceBreak b;
    b.kind = core::BreakKind::PrintLogging;
    b.file = "/v/site-packages/torch/nn/parallel/distributed.py";
    b.line = 1757 + i;
    b.reason = "Unsupported method call";
    b.compile_id = "0/0";
    b.frames = {{"/job/train.py", 40, "main", ""}, {b.file, b.line, "forward", ""}};
    t.breaks.push_back(b);
  }
  return t;
}

TEST(RunTryFixes, TheWrapOrderIsTriedWhereDdpItselfBreaks) {
  RunInputs in = inputs_with({ddp_process(1, 0, 400000, 1)});
  in.trace_ranks = {ddp_trace(0, 3)};
  RunResult r = analyze(in);
  ASSERT_EQ(r.processes[0].sites[0].graph_breaks, 3);
  EXPECT_TRUE(can_try(r.processes[0].sites[0], "ddp_wrap_order"));
  EXPECT_EQ(fixes_to_try(r), std::vector<std::string>{"ddp_wrap_order"});
  // Without --try-fixes: untried, and the words say which flag measures it.
  const SiteBreak& b = r.processes[0].sites[0].breaks[0];
  EXPECT_EQ(b.fix_terms.id, "ddp_wrap_order");
  EXPECT_TRUE(b.fix_terms.untried);
  EXPECT_EQ(b.fix_terms.measured_by, "tct run --try-fixes");
  EXPECT_NE(core::fix_words(b.fix_terms).find("(tct run --try-fixes measures it)"), std::string::npos);
  // Not a DDP object: the same breaks, nothing tct can try (the flag is not named).
  RunInputs plain = in;
  plain.records.processes[0].sites[0].wrapper.clear();
  RunResult p = analyze(plain);
  EXPECT_FALSE(can_try(p.processes[0].sites[0], "ddp_wrap_order"));
  EXPECT_TRUE(fixes_to_try(p).empty());
  EXPECT_EQ(p.processes[0].sites[0].breaks[0].fix_terms.measured_by, "");
  // A DDP object without a break: nothing to try.
  RunInputs clean = in;
  clean.trace_ranks = {ddp_trace(0, 0)};
  EXPECT_TRUE(fixes_to_try(analyze(clean)).empty());
}

TEST(RunTryFixes, TheRunWithTheFixIsMeasuredAgainstTheJobAsWritten) {
  RunInputs in = inputs_with({ddp_process(1, 0, 400000, 1)});
  in.trace_ranks = {ddp_trace(0, 3)};
  in.try_fixes = true;
  RunInputs::FixRun run;
  run.fix = "ddp_wrap_order";
  run.finished.exit.exited = true;
  run.records.processes = {ddp_process(2, 0, 300000, 1)};  // another pid, the same rank
  run.trace_ranks = {ddp_trace(0, 0)};
  in.fix_runs.push_back(run);
  const RunResult r = analyze(in);
  const SiteResult& s = r.processes[0].sites[0];
  ASSERT_EQ(s.trials.size(), 1u);
  const FixTrial& t = s.trials[0];
  EXPECT_EQ(t.fix, "ddp_wrap_order");
  EXPECT_EQ(t.breaks_before, 3);
  EXPECT_EQ(t.breaks_after, 0);
  EXPECT_EQ(t.before.calls, 39u);  // the compiling call and the one after it left out
  EXPECT_NEAR(t.before.median.count(), 400002, 1);
  EXPECT_NEAR(t.after.median.count(), 300002, 1);
  EXPECT_NEAR(t.speedup.estimate, 400002.0 / 300002.0, 1e-6);
  EXPECT_EQ(t.verdict, stats::SpeedupVerdict::Faster);
  for (const auto& b : s.breaks) {
    EXPECT_FALSE(b.fix_terms.untried);  // measured
    EXPECT_EQ(b.fix_terms.measured_by, "");
  }
  ASSERT_EQ(r.fix_runs.size(), 1u);
  EXPECT_EQ(r.fix_runs[0].exit_status, 0);
  // The text says it once, beside the fix; a saved document renders the same.
  const std::string text = run::text(r, false, false);
  const std::string line = "measured: graph breaks 3 -> 0, per call 400 us -> 300 us (steady median), 1.33x [";
  EXPECT_NE(text.find(line), std::string::npos) << text;
  EXPECT_EQ(text.find(line), text.rfind(line)) << text;
  EXPECT_NE(text.find("faster with the fix"), std::string::npos) << text;
  EXPECT_EQ(text.find("has not tried"), std::string::npos) << text;
  const RunResult back = from_json(to_json(r));
  EXPECT_EQ(to_json(back), to_json(r));
  EXPECT_EQ(run::text(back, false, true), run::text(r, false, true));
  EXPECT_EQ(run::html_section(back), run::html_section(r));
}

// A run with the fix that failed before its first call measures nothing: the fix stays untried,
// still names the flag, and a note says why; asked where nothing can be tried, a note says so.
TEST(RunTryFixes, AFailedRunWithTheFixLeavesItUntriedWithANote) {
  RunInputs in = inputs_with({ddp_process(1, 0, 400000, 1)});
  in.trace_ranks = {ddp_trace(0, 3)};
  in.try_fixes = true;
  RunInputs::FixRun run;
  run.fix = "ddp_wrap_order";
  run.finished.exit.exited = true;
  run.finished.exit.code = 1;
  in.fix_runs.push_back(run);
  const RunResult r = analyze(in);
  const SiteResult& s = r.processes[0].sites[0];
  EXPECT_TRUE(s.trials.empty());
  EXPECT_TRUE(s.breaks[0].fix_terms.untried);
  EXPECT_EQ(s.breaks[0].fix_terms.measured_by, "tct run --try-fixes");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("the run with the fix ddp_wrap_order ended (exit code 1)"), std::string::npos)
      << r.notes[0];
  RunInputs nothing = inputs_with({ddp_process(1, 0, 400000, 1)});
  nothing.try_fixes = true;
  const RunResult n = analyze(nothing);
  ASSERT_EQ(n.notes.size(), 1u);
  EXPECT_NE(n.notes[0].find("no break here has a fix tct can try"), std::string::npos) << n.notes[0];
}

// The verdict is the one rule's: an interval that holds 1 is no gain, however the medians differ.
TEST(RunTryFixes, AnIntervalHoldingOneIsNoVerdictForTheFix) {
  std::vector<double> before, after;
  for (int i = 0; i < 30; ++i) {
    before.push_back(100 + (i * 37) % 60);
    after.push_back(100 + (i * 53) % 60);
  }
  const FixTrial t = fix_trial("ddp_wrap_order", 2, 0, before, after);
  EXPECT_LE(t.speedup.low, 1.0);
  EXPECT_GE(t.speedup.high, 1.0);
  EXPECT_EQ(t.verdict, stats::decide(t.speedup));
  EXPECT_NE(t.verdict, stats::SpeedupVerdict::Faster);
  EXPECT_EQ(fix_trial("ddp_wrap_order", 2, 0, before, {}).verdict, stats::SpeedupVerdict::NotMeasured);
}

// A saved document reads back into the result it was written from: every field the renderers
// use, the verdict typed (decided again from the interval), and the count --fail-on-fallback
// gates on and the headline says is the same one list.
TEST(RunJson, ADocumentReadsBackIntoItsResult) {
  ProcessRecord p;
  p.pid = 7;
  p.rank = 0;
  p.graph_counting = true;
  p.final = false;
  p.sites.push_back(site({100, 100, 100, 10, 10, 10}, {0, 1, 2}, {3, 4}));
  LimitHit h;
  h.site = 0;
  h.call = 3;
  h.limit = "recompile_limit";
  h.value = 8;
  h.last_reason = "0/7: tensor 'x' size mismatch at index 0. expected 3, actual 4";
  p.limit_hits.push_back(h);
  std::vector<int64_t> ns = {100000};
  for (int i = 0; i < 100; ++i) ns.push_back(100 + i % 3);
  ProcessRecord c = p;
  c.pid = 8;
  c.rank = 1;
  c.final = true;
  c.sites[0] = site(ns, {0});
  c.limit_hits.clear();
  ProcessRecord e = c;
  e.sites[0].compile_calls.clear();
  for (auto& x : e.sites[0].durations_ns) x = 200 + (&x - e.sites[0].durations_ns.data()) % 3;
  RunInputs in = inputs_with({p, c});
  RecordSet eager;
  eager.processes.push_back(e);
  in.eager_runs.push_back(eager);
  in.threads = 2;
  const RunResult r = analyze(in);
  ASSERT_EQ(silent_fallbacks(r).size(), 1u);
  const RunResult back = from_json(to_json(r));
  EXPECT_EQ(to_json(back), to_json(r));
  EXPECT_EQ(silent_fallbacks(back).size(), 1u);
  EXPECT_EQ(back.processes.size(), r.processes.size());
  EXPECT_FALSE(back.processes[0].final);
  EXPECT_EQ(back.processes[0].rank, 0);
  bool typed_verdict = false;
  for (const auto& proc : back.processes)
    for (const auto& s : proc.sites)
      if (s.eager) typed_verdict = s.eager->verdict == stats::SpeedupVerdict::Faster;
  EXPECT_TRUE(typed_verdict);
  EXPECT_NE(run::answer(back).find("1 SILENT FALLBACK(S)"), std::string::npos) << run::answer(back);
  EXPECT_EQ(run::text(back, false, true), run::text(r, false, true));
  EXPECT_EQ(run::html_section(back), run::html_section(r));
}

// A document written before a site's "fallbacks" list held one "fallback": the site's own
// frame, its cause under "limit". It still reads, counts and renders.
TEST(RunJson, AnOlderDocumentsOneFallbackReads) {
  const nlohmann::json section = {
      {"command", {"python", "train.py"}},
      {"exit", "exit 0"},
      {"processes",
       {{{"pid", 3},
         {"sites",
          {{{"name", "MLP"},
            {"code", {{"function", "forward"}, {"file", "/job/train.py"}, {"line", 10}}},
            {"eager", {{"speedup", {{"estimate", 1.5}, {"low", 1.4}, {"high", 1.6}}}, {"verdict", "faster"}}},
            {"fallback",
             {{"limit", "accumulated_recompile_limit"},
              {"at_call", 8},
              {"guard", "x.size()[0] == 3"},
              {"kind", "size"},
              {"fix", "mark it dynamic"},
              {"calls_after", 4},
              {"eager_calls_after", 4}}}}}}}}}};
  const RunResult r = from_json(section);
  const auto fallbacks = silent_fallbacks(r);
  ASSERT_EQ(fallbacks.size(), 1u);
  EXPECT_EQ(fallbacks[0].fallback->cause, "accumulated_recompile_limit");
  EXPECT_EQ(fallbacks[0].fallback->frame.role, "site");
  EXPECT_EQ(fallbacks[0].fallback->frame.function, "forward");
  ASSERT_TRUE(r.processes[0].sites[0].eager);
  EXPECT_EQ(r.processes[0].sites[0].eager->verdict, stats::SpeedupVerdict::Faster);
  EXPECT_EQ(answer(r), "1 call site(s) in 1 process(es), 1 SILENT FALLBACK(S) to eager, 1 faster than eager");
  EXPECT_NE(text(r, false, false).find("SILENT FALLBACK: MLP"), std::string::npos);
}

}  // namespace
}  // namespace tct::run

#include "cli/run_args.hpp"

namespace tct::cli {
namespace {

using V = std::vector<std::string>;

TEST(RunArgs, TheJobsFlagsStayTheJobs) {
  auto [mine, job] = split_run_args(V{"run", "--compare-eager", "-o", "r.json", "--", "python", "t.py", "--json"});
  EXPECT_EQ(mine, (V{"run", "--compare-eager", "-o", "r.json"}));
  EXPECT_EQ(job, (V{"python", "t.py", "--json"}));
  std::tie(mine, job) = split_run_args(V{"run", "-q", "train.py", "-o", "x", "-v"});
  EXPECT_EQ(mine, (V{"run", "-q"}));
  EXPECT_EQ(job, (V{"train.py", "-o", "x", "-v"}));
  std::tie(mine, job) = split_run_args(V{"run", "-m", "pkg.serve", "--port", "1"});
  EXPECT_EQ(mine, (V{"run", "-m", "pkg.serve"}));
  EXPECT_EQ(job, (V{"--port", "1"}));
  std::tie(mine, job) = split_run_args(V{"bench", "builtin:mlp", "--", "x"});
  EXPECT_EQ(mine, (V{"bench", "builtin:mlp", "--", "x"}));
  EXPECT_TRUE(job.empty());
}

}  // namespace
}  // namespace tct::cli

// torch 2.13's recompile reasons, as the trace and Dynamo's warning carry them (the jobs in
// tests/e2e/jobs wrote these): the guard, its value, the user's line, torch's decoration dropped.
TEST(RecompileGuard, ParsedIntoTypedFields) {
  using namespace tct::core;
  const auto fs = parse_guard_failures(
      "1/6: banned[0] == 30  # logits[:, t] = float(\"-inf\")  # tests/e2e/jobs/serve_banned_tokens.py:23 in "
      "torch_dynamo_resume_in_forward_at_19 (_dynamo/utils.py:4231 in run_node)\nUser stack trace:\n  File \"/x.py\", "
      "line 23, in f\n");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].entry, 6);
  EXPECT_EQ(fs[0].guard, "banned[0] == 30");
  EXPECT_EQ(fs[0].pattern, "banned[0] == ...");
  EXPECT_EQ(fs[0].value, "30");
  EXPECT_EQ(fs[0].code, "logits[:, t] = float(\"-inf\")");
  EXPECT_EQ(fs[0].file, "tests/e2e/jobs/serve_banned_tokens.py");
  EXPECT_EQ(fs[0].line, 23);
  EXPECT_EQ(classify_guard(fs[0]), RecompileCause::PythonValue);
  EXPECT_EQ(value_kind(fs[0].value), "int");

  const auto size = parse_guard_failures("0/0: tensor 'x' size mismatch at index 1. expected 16, actual 24");
  ASSERT_EQ(size.size(), 1u);
  EXPECT_EQ(size[0].pattern, "tensor 'x' size mismatch at index 1");
  EXPECT_EQ(size[0].value, "16");
  EXPECT_EQ(classify_guard(size[0]), RecompileCause::Size);

  // Several entries failed: the newest (highest entry) made the recompile.
  const auto newest = newest_guard_failure({"0/0: L['self'].seen == 1  # x\n0/1: L['self'].seen == 2  # x"});
  ASSERT_TRUE(newest);
  EXPECT_EQ(newest->value, "2");
  EXPECT_EQ(classify_guard(*newest), RecompileCause::ModuleAttribute);
  EXPECT_EQ(classify_guard(parse_guard_failures("0/0: ___check_obj_id(L['fn'], 1403)")[0]), RecompileCause::Identity);
  EXPECT_EQ(classify_guard(parse_guard_failures("0/0: tensor 'x' dtype mismatch. expected Float, actual Half")[0]),
            RecompileCause::Dtype);
  // Text in no known shape: its first line, as it is.
  const auto odd = parse_guard_failures("something else\nmore");
  ASSERT_EQ(odd.size(), 1u);
  EXPECT_EQ(odd[0].guard, "something else");
  EXPECT_FALSE(odd[0].entry);
}
