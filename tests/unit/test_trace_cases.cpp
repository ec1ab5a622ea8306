// The TORCH_TRACE cases other torch versions write (issue 26): a last line without its
// newline, payloads that parse read whatever their MD5 (issue 36), "\r\n" and "\r" line
// ends, compile ids that start over after torch._dynamo.reset(), graph breaks known only as
// restart reasons (torch 2.6 and older), compiles without a compile id (AOT Inductor), and
// tlparse's four multi-rank checks, the collective schedules compared as sequences.
// The logs here are hand-written in the formats torch writes (torch/_logging/_internal.py),
// each case small enough to read; tests/e2e/test_trace.py and test_trace_tlparse.py read
// real ones.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "trace/json.hpp"
#include "trace/summarize.hpp"
#include "trace/summary.hpp"
#include "trace/md5.hpp"
#include "trace/reader.hpp"
#include "trace/render.hpp"

namespace {

using namespace tct;

std::string md5(std::string_view s) {
  auto h = trace::md5_hex(s);
  return std::string(h.data(), h.size());
}

// A header line: the glog prefix, then the metadata.
std::string header(const std::string& metadata) {
  return "V1130 18:15:52.398000 13781 torch/x.py:1] " + metadata + "\n";
}

std::string ids(int frame, int compile, int attempt = 0) {
  return fmt::format("\"frame_id\": {}, \"frame_compile_id\": {}, \"attempt\": {}", frame, compile, attempt);
}

// A record with a payload, its has_payload the payload's MD5 as torch writes it.
std::string with_payload(const std::string& kind_json, const std::string& id_json, const std::string& payload) {
  std::string out = header("{" + kind_json + (id_json.empty() ? "" : ", " + id_json) + ", \"has_payload\": \"" +
                           md5(payload) + "\"}");
  size_t start = 0;
  for (;;) {
    size_t nl = payload.find('\n', start);
    out += "\t" + payload.substr(start, nl == std::string::npos ? nl : nl - start) + "\n";
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

std::string artifact(const std::string& name, const std::string& id_json, const std::string& payload) {
  return with_payload("\"artifact\": {\"name\": \"" + name + "\", \"encoding\": \"json\"}", id_json, payload);
}

std::string start(int frame, int compile, int attempt = 0) {
  return header("{\"dynamo_start\": {\"stack\": [{\"line\": 3, \"name\": \"f\", \"filename\": 0}]}, " +
                ids(frame, compile, attempt) + "}");
}

std::string metrics(int frame, int compile, const std::string& extra = "") {
  return header(
      fmt::format("{{\"compilation_metrics\": {{\"compile_id\": \"{}/{}\", \"co_name\": \"f\", "
                  "\"co_filename\": \"/job/model.py\", \"co_firstlineno\": 3{}}}, {}}}",
                  frame, compile, extra, ids(frame, compile)));
}

struct Read {
  trace::RankSummary summary;
  trace::ReadStats stats;
};

Read read(const std::string& text, size_t chunk = 7, bool check_every_md5 = false) {
  Read out;
  trace::RankCollector c(out.summary);
  trace::Reader reader(c, 1 << 20, check_every_md5);
  for (size_t i = 0; i < text.size(); i += chunk) reader.feed(std::string_view(text).substr(i, chunk));
  reader.finish();
  out.stats = reader.stats();
  out.summary.stats = out.stats;
  return out;
}

const std::string kStr = header("{\"str\": [\"/job/model.py\", 0]}");

TEST(TraceMd5, Rfc1321Vectors) {
  EXPECT_EQ(md5(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(md5("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(md5("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(md5("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
  // Fed in pieces of any size, the same digest.
  std::string text(1000, 'x');
  trace::Md5 m;
  for (size_t i = 0; i < text.size(); i += 13) m.update(std::string_view(text).substr(i, 13));
  auto h = m.hex();
  EXPECT_EQ(std::string(h.data(), 32), md5(text));
}

// The writer's last record, complete, but the file lost its final newline (copied, trimmed,
// concatenated): read clean, nothing "damaged".
TEST(TraceCases, LastLineWithoutNewlineIsWhole) {
  std::string log = kStr + start(0, 0) + artifact("recompile_reasons", ids(0, 0), "[\n\"a guard\"\n]") + metrics(0, 0);
  for (const std::string& text : {log.substr(0, log.size() - 1),  // a header last
                                  kStr + start(0, 0) + artifact("recompile_reasons", ids(0, 0), "[\n\"g\"\n]")}) {
    std::string cut = text.back() == '\n' ? text.substr(0, text.size() - 1) : text;
    Read r = read(cut);
    EXPECT_EQ(r.stats.damaged(), 0u) << cut;
    EXPECT_EQ(r.stats.verified_payloads, 1u);
    EXPECT_EQ(r.summary.compiles.size(), 1u);
  }
  // A text payload last (tlparse's inductor_provenance_extended_log.txt): text reads whole.
  std::string code = with_payload("\"inductor_output_code\": {\"filename\": \"x.py\"}", ids(0, 0), "def f():\n  pass");
  Read text = read(kStr + start(0, 0) + code.substr(0, code.size() - 1));
  EXPECT_EQ(text.stats.damaged(), 0u);
}

// A payload that lost a line (or was edited by hand) still parses as JSON: it is read and
// used, its MD5 counted apart as edited, with where it is. Damage is what cannot be read.
TEST(TraceCases, PayloadThatParsesIsReadWhateverItsMd5) {
  std::string payload = "{\n\"graph_execution_order\": [\n{\"compile_id\": \"0/0\"},\n{\"compile_id\": \"1/0\"}\n]\n}";
  std::string good = artifact("graph_execution", "", payload);
  std::string bad = good;
  bad.erase(bad.find("\t{\"compile_id\": \"0/0\"},\n"), std::string("\t{\"compile_id\": \"0/0\"},\n").size());
  Read ok = read(kStr + good + metrics(0, 0));
  EXPECT_EQ(ok.stats.damaged(), 0u);
  EXPECT_EQ(ok.stats.edited, 0u);
  EXPECT_EQ(ok.summary.execution_order, (std::vector<std::string>{"0/0", "1/0"}));
  Read r = read(kStr + bad + metrics(0, 0));
  EXPECT_EQ(r.stats.damaged(), 0u);
  EXPECT_EQ(r.stats.edited, 1u);
  EXPECT_EQ(r.summary.execution_order, (std::vector<std::string>{"1/0"}));  // read as it is
  ASSERT_EQ(r.stats.edited_at.size(), 1u);
  EXPECT_EQ(r.stats.edited_at[0], (trace::Spot{"", 2, "graph_execution", "MD5 differs"}));
  // A has_payload that is not an MD5 (other writers) cannot be checked: not damaged.
  Read other = read(kStr + header("{\"artifact\": {\"name\": \"x\"}, \"has_payload\": \"abc\"}") + "\tanything\n");
  EXPECT_EQ(other.stats.damaged(), 0u);
  EXPECT_EQ(other.stats.verified_payloads, 0u);
}

// A JSON payload that does not parse is damaged (and not used), and says where; text
// payloads always read. torch's own unparseable JSON (an unquoted recompile reason, its MD5
// matching) is what torch wrote: read, not damaged.
TEST(TraceCases, JsonPayloadThatDoesNotParseIsDamaged) {
  std::string sched = artifact("inductor_collective_schedule", ids(0, 0), "[\n\"all_reduce\",\n\"wait\"\n]");
  std::string broken = sched;
  broken.replace(broken.find("\t]\n"), 3, "\t]]\n");
  Read r = read(kStr + start(0, 0) + broken + metrics(0, 0));
  EXPECT_EQ(r.stats.bad_payload, 1u);
  EXPECT_EQ(r.stats.edited, 0u);
  EXPECT_TRUE(r.summary.collectives.empty());
  ASSERT_EQ(r.stats.damaged_at.size(), 1u);
  EXPECT_EQ(r.stats.damaged_at[0], (trace::Spot{"", 3, "inductor_collective_schedule", "payload does not parse"}));
  Read own = read(kStr + start(0, 0) + artifact("recompile_reasons", ids(0, 0), "0/0: tensor 'x' size mismatch") +
                  metrics(0, 0));
  EXPECT_EQ(own.stats.damaged(), 0u);
  EXPECT_EQ(own.summary.compiles.begin()->second.recompile_reasons,
            (std::vector<std::string>{"0/0: tensor 'x' size mismatch"}));
  // Text (a graph, output code): any lines read; its MD5 is not even computed.
  std::string code = with_payload("\"inductor_output_code\": {\"filename\": \"x.py\"}", ids(0, 0), "def f():\n  pass");
  Read text = read(kStr + code.substr(0, code.size() - 8) + "\n" + metrics(0, 0));
  EXPECT_EQ(text.stats.damaged() + text.stats.edited + text.stats.verified_payloads, 0u);
  // Unless asked (--strict): every payload hashed, the edit counted.
  Read strict = read(kStr + code.substr(0, code.size() - 8) + "\n" + metrics(0, 0), 7, true);
  EXPECT_EQ(strict.stats.damaged(), 0u);
  EXPECT_EQ(strict.stats.edited, 1u);
}

// "\r\n" (a log saved on Windows) and "\r" line ends read like "\n": the same records,
// payloads and MD5s, in any chunking (a "\r\n" split between two chunks included).
TEST(TraceCases, CrlfAndCrLineEndsReadLikeLf) {
  std::string log = kStr + start(0, 0) + artifact("recompile_reasons", ids(0, 0), "[\n\"a guard\"\n]") +
                    artifact("inductor_collective_schedule", ids(0, 0), "[\n\"all_reduce\",\n\"wait\"\n]") +
                    metrics(0, 0);
  auto with_ends = [&](const std::string& end) {
    std::string out;
    for (char c : log) out += c == '\n' ? end : std::string(1, c);
    return out;
  };
  Read lf = read(log, 1 << 20, true);
  ASSERT_EQ(lf.stats.verified_payloads, 2u);
  for (const std::string end : {"\r\n", "\r"})
    for (size_t chunk : {1u, 2u, 5u, 64u}) {
      Read r = read(with_ends(end), chunk, true);
      EXPECT_EQ(r.stats.damaged(), 0u) << chunk;
      EXPECT_EQ(r.stats.edited, 0u) << chunk;
      EXPECT_EQ(r.stats.verified_payloads, 2u) << chunk;
      EXPECT_EQ(r.stats.lines, lf.stats.lines) << chunk;
      EXPECT_EQ(r.summary.collectives, lf.summary.collectives);
      EXPECT_EQ(r.summary.compiles.begin()->second.recompile_reasons, (std::vector<std::string>{"a guard"}));
    }
}

// Cut off inside the last payload or the last header: truncated (once), not garbled.
TEST(TraceCases, CutOffLastRecordIsTruncated) {
  std::string log = kStr + start(0, 0) + artifact("recompile_reasons", ids(0, 0), "[\n\"first\",\n\"second\"\n]");
  Read payload_cut = read(log.substr(0, log.size() - 8));
  EXPECT_EQ(payload_cut.stats.truncated, 1u);
  EXPECT_EQ(payload_cut.stats.bad_payload + payload_cut.stats.garbled, 0u);
  // Cut exactly after a payload line's newline: its JSON still says lines are missing.
  Read line_cut = read(log.substr(0, log.rfind("\t]\n")));
  EXPECT_EQ(line_cut.stats.truncated, 1u);
  std::string m = metrics(0, 0);
  Read header_cut = read(kStr + m.substr(0, m.size() / 2));
  EXPECT_EQ(header_cut.stats.truncated, 1u);
  EXPECT_EQ(header_cut.stats.garbled, 0u);
}

// torch._dynamo.reset() between compiles: the ids start over at 0/0 in one log. Each
// compile is its own, with its own cache hits and misses.
TEST(TraceCases, ResetStartsCompileIdsOver) {
  auto cache = [](const char* name, int frame, int compile) { return artifact(name, ids(frame, compile), "{}"); };
  std::string log = kStr + start(0, 0) + cache("fx_graph_cache_miss", 0, 0) + metrics(0, 0) + start(1, 0) +
                    cache("fx_graph_cache_miss", 1, 0) + metrics(1, 0) + start(0, 1) + metrics(0, 1) +
                    // torch._dynamo.reset()
                    start(0, 0) + cache("fx_graph_cache_hit", 0, 0) + metrics(0, 0) + start(1, 0) +
                    cache("fx_graph_cache_hit", 1, 0) + metrics(1, 0) + start(0, 1) + metrics(0, 1);
  Read r = read(log);
  EXPECT_EQ(r.summary.resets, 1);
  ASSERT_EQ(r.summary.compiles.size(), 6u);
  std::vector<std::string> names;
  for (const auto& [id, c] : r.summary.compiles) names.push_back(id.str());
  EXPECT_EQ(names, (std::vector<std::string>{"0/0", "0/1", "1/0", "0/0 (after reset 1)", "0/1 (after reset 1)",
                                             "1/0 (after reset 1)"}));
  const auto& first = r.summary.compiles.begin()->second;
  EXPECT_EQ(first.cache.at("fx_graph_cache_miss"), 1);
  EXPECT_EQ(first.cache.count("fx_graph_cache_hit"), 0u);
  trace::CompileId again{0, 0, 0, -1, 1};
  EXPECT_EQ(r.summary.compiles.at(again).cache.at("fx_graph_cache_hit"), 1);
  // Without compilation_metrics (a crash), a dynamo_start seen again is the sign.
  Read bare = read(kStr + start(0, 0) + start(1, 0) + start(0, 0));
  EXPECT_EQ(bare.summary.resets, 1);
  EXPECT_EQ(bare.summary.compiles.size(), 3u);
  // Nor any dynamo_start: compilation_metrics alone, an id finished twice.
  Read metrics_only =
      read(kStr + metrics(0, 0) + metrics(1, 0) + metrics(0, 1) + metrics(0, 0) + metrics(1, 0) + metrics(0, 1));
  EXPECT_EQ(metrics_only.summary.resets, 1);
  EXPECT_EQ(metrics_only.summary.compiles.size(), 6u);
  // A restart of one compile (attempt 1) is not a reset.
  Read restart = read(kStr + start(0, 0) + start(0, 0, 1) + metrics(0, 0));
  EXPECT_EQ(restart.summary.resets, 0);
  EXPECT_EQ(restart.summary.compiles.begin()->second.attempts, 2);
}

// Two logs of one rank are two processes (a job restarted into the same folder): the same
// compile id in each is two compiles, and a reset in the second counts from there.
TEST(TraceCases, TwoLogsOfOneRankKeepTheirCompiles) {
  trace::RankSummary rank;
  std::string first = kStr + start(0, 0) + metrics(0, 0), second = kStr + start(0, 0) + metrics(0, 0) + start(0, 0);
  for (int log = 0; log < 2; ++log) {
    trace::RankCollector c(rank, log);
    trace::Reader reader(c);
    reader.feed(log == 0 ? first : second);
    reader.finish();
  }
  std::vector<std::string> names;
  for (const auto& [id, c] : rank.compiles) names.push_back(id.str());
  EXPECT_EQ(names, (std::vector<std::string>{"0/0", "0/0 (log 2)", "0/0 (after reset 1) (log 2)"}));
  EXPECT_EQ(rank.resets, 1);
}

// Imitates torch 2.6 and older: a torch._dynamo.graph_break() logged with no
// dynamo_graph_break_reason payload, only as the reason the analysis restarted (attempt 1).
TEST(TraceCases, GraphBreaksKnownOnlyAsRestartsCount) {
  std::string log =
      kStr + start(0, 0) + start(0, 0, 1) + header("{\"dynamo_output_graph\": {\"sizes\": {}}, " + ids(0, 0, 1) + "}") +
      metrics(0, 0,
              ", \"restart_reasons\": [\"skip function graph_break in file "
              "/venv/lib/python3.10/site-packages/torch/_dynamo/decorators.py\"]") +
      start(1, 0) +
      metrics(1, 0, ", \"restart_reasons\": [\"<class 'torch._dynamo.exc.UnspecializeRestartAnalysis'>\"]");
  Read r = read(log);
  ASSERT_EQ(r.summary.breaks.size(), 1u);
  const auto& b = r.summary.breaks[0];
  EXPECT_TRUE(b.from_restart);
  EXPECT_EQ(b.kind, core::BreakKind::ExplicitGraphBreak);
  EXPECT_EQ(b.file, "/job/model.py");
  EXPECT_EQ(b.compile_id, "0/0");
  EXPECT_EQ(r.summary.compiles.begin()->second.breaks_from_restarts, 1);
  nlohmann::json t = trace::to_json(trace::summarize("/t", {r.summary}));
  EXPECT_EQ(t["ranks"][0]["graph_break_count"], 1);
  EXPECT_EQ(t["ranks"][0]["graph_breaks"][0]["from_restart"], true);
  EXPECT_EQ(t["ranks"][0]["graph_breaks"][0]["kind"], "explicit_graph_break");
  // torch 2.13 logs the payload and the restart reason: one break, not two.
  std::string payload =
      "Graph break in user code at /job/model.py:5\nGraph Break Reason: Call to `torch._dynamo.graph_break()`";
  Read both = read(kStr + start(0, 0) +
                   with_payload("\"artifact\": {\"name\": \"dynamo_graph_break_reason\", \"encoding\": \"string\"}",
                                ids(0, 0), payload) +
                   metrics(0, 0, ", \"restart_reasons\": [\"Call to `torch._dynamo.graph_break()`\"]"));
  ASSERT_EQ(both.summary.breaks.size(), 1u);
  EXPECT_FALSE(both.summary.breaks[0].from_restart);
  EXPECT_EQ(both.summary.breaks[0].line, 5);
}

// AOT Inductor (torch 2.13's aoti_compile_and_package): AOTAutograd's graph, then the AOT
// wrapper code, all with a stack and no compile id.
TEST(TraceCases, CompilesWithoutIdAreCounted) {
  std::string stack =
      "\"stack\": [{\"line\": 9, \"name\": \"export_it\", \"filename\": 0}, {\"line\": 1, \"name\": "
      "\"aoti_compile_and_package\", \"filename\": 1}]";
  std::string log =
      kStr + header("{\"str\": [\"/venv/site-packages/torch/_inductor/__init__.py\", 1]}") +
      header("{\"aot_inference_graph\": {}, " + stack + ", \"has_payload\": \"" + md5("g") + "\"}") + "\tg\n" +
      header("{\"graph_dump\": {\"name\": \"inductor_aot_wrapper_code\", \"type\": \"cpp\"}, " + stack + "}") +
      header("{\"graph_dump\": {\"name\": \"inductor_aot_kernel_code\", \"type\": \"cpp\"}, " + stack + "}") +
      header("{\"aot_joint_graph\": {}, " + stack + "}");  // a second, AOTAutograd only
  Read r = read(log);
  EXPECT_EQ(r.stats.damaged(), 0u);
  ASSERT_EQ(r.summary.unframed.size(), 2u);
  EXPECT_EQ(r.summary.unframed[0].kind, "aot_inductor");
  EXPECT_EQ(r.summary.unframed[0].function, "export_it");
  EXPECT_EQ(r.summary.unframed[0].line, 9);
  EXPECT_EQ(r.summary.unframed[1].kind, "aot_autograd");
  EXPECT_TRUE(r.summary.compiles.empty());
  nlohmann::json t = trace::to_json(trace::summarize("/t", {r.summary}));
  EXPECT_EQ(t["ranks"][0]["compiles_without_id"].size(), 2u);
}

// tlparse's four multi-rank checks, each naming the rank and the graph.
std::string rank_log(int collectives, const char* order, const char* cache, int rows) {
  std::string sched = "[\n";
  for (int i = 0; i < collectives; ++i)
    sched += std::string(i ? ",\n" : "") + "\"torch.ops._c10d_functional.all_reduce_.default\"";
  sched += "\n]";
  std::string meta = fmt::format(
      "{{\n\"ops\": [\n{{\"name\": \"buf0\", \"type\": \"compute\", \"estimated_runtime_ns\": "
      "{}, \"outputs\": [{{\"shape\": [{}, 8], \"stride\": [8, 1], \"dtype\": \"float32\"}}]}}\n]\n}}",
      rows * 10, rows);
  std::string exec = std::string("{\n\"graph_execution_order\": [\n") + order + "\n]\n}";
  return kStr + start(0, 0) + artifact(cache, ids(0, 0), "{}") +
         artifact("inductor_collective_schedule", ids(0, 0), sched) +
         artifact("inductor_runtime_and_tensor_meta", ids(0, 0), meta) + metrics(0, 0) + start(1, 0) + metrics(1, 0) +
         artifact("graph_execution", "", exec);
}

TEST(TraceCases, MultiRankChecksNameRankAndGraph) {
  const char* fg = "{\"compile_id\": \"0/0\"},\n{\"compile_id\": \"1/0\"}";
  const char* gf = "{\"compile_id\": \"1/0\"},\n{\"compile_id\": \"0/0\"}";
  std::vector<std::string> logs = {
      rank_log(6, fg, "fx_graph_cache_miss", 4), rank_log(6, fg, "fx_graph_cache_miss", 4),
      rank_log(4, fg, "fx_graph_cache_miss", 4), rank_log(6, gf, "fx_graph_cache_miss", 4),
      rank_log(6, fg, "fx_graph_cache_hit", 4),  rank_log(6, fg, "fx_graph_cache_miss", 6)};
  std::vector<trace::RankSummary> ranks;
  for (size_t i = 0; i < logs.size(); ++i) {
    ranks.push_back(read(logs[i]).summary);
    ranks.back().rank = static_cast<int>(i);
  }
  std::vector<trace::Divergence> d = trace::divergence(ranks);
  auto find = [&](const char* what) {
    std::vector<trace::Divergence> out;
    for (const auto& x : d)
      if (x.what == what) out.push_back(x);
    return out;
  };
  auto coll = find("collective_schedule");
  ASSERT_EQ(coll.size(), 1u);
  EXPECT_EQ(coll[0].rank, 2);
  EXPECT_EQ(coll[0].compile_id, "0/0");
  // Rank 4 differs only in its cache hits: it runs what ranks 0 and 1 run.
  EXPECT_EQ(coll[0].message.rfind("rank 2 issues 4 collective(s) in graph 0/0 where rank 0, "
                                  "rank 1, rank 4 issue 6",
                                  0),
            0u);
  ASSERT_TRUE(coll[0].first_difference);
  EXPECT_EQ(coll[0].first_difference->position, 5u);  // rank 2's schedule ended there
  EXPECT_EQ(coll[0].first_difference->op, "");
  EXPECT_EQ(coll[0].first_difference->reference_op, "torch.ops._c10d_functional.all_reduce_.default");
  auto order = find("graph_execution_order");
  ASSERT_EQ(order.size(), 1u);
  EXPECT_EQ(order[0].rank, 3);
  EXPECT_EQ(order[0].message,
            "rank 3 ran its compiled graphs in another order than rank 0, rank 1, rank 4: call #1 ran "
            "graph 1/0, not 0/0");
  // Which rank hit or filled a shared cache is a note, not divergence.
  EXPECT_TRUE(find("cache").empty());
  std::vector<trace::Divergence> cache = trace::cache_differences(ranks);
  ASSERT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache[0].rank, 4);
  EXPECT_EQ(cache[0].compile_id, "0/0");
  EXPECT_EQ(
      cache[0].message.rfind("rank 4 hit or filled the caches otherwise than rank 0, rank 1, rank 2, rank 3, rank "
                             "5 in graph(s) 0/0",
                             0),
      0u);
  auto meta = find("tensor_meta");
  ASSERT_EQ(meta.size(), 1u);
  EXPECT_EQ(meta[0].rank, 5);
  EXPECT_NE(meta[0].message.find("shape [6, 8]"), std::string::npos);
  // Estimated runtimes are estimates: rank 2's schedule differs, its tensor metadata not.
  for (const auto& x : d) EXPECT_NE(x.what, "compile_ids");
  EXPECT_EQ(d.size(), 3u);
}

// The same number of collectives in another order hangs as surely: the sequence is
// compared, and the first position where it differs is named with both ops.
TEST(TraceCases, CollectiveSequenceNotOnlyItsCount) {
  auto log = [](const char* second) {
    return kStr + start(0, 0) +
           artifact("inductor_collective_schedule", ids(0, 0),
                    fmt::format("[\n\"all_reduce_\",\n\"{}\",\n\"wait_tensor\",\n\"wait_tensor\"\n]", second)) +
           metrics(0, 0);
  };
  std::vector<trace::RankSummary> ranks;
  for (const char* second : {"all_gather_into_tensor", "reduce_scatter_tensor", "all_gather_into_tensor"}) {
    ranks.push_back(read(log(second)).summary);
    ranks.back().rank = static_cast<int>(ranks.size() - 1);
  }
  std::vector<trace::Divergence> d = trace::divergence(ranks);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rank, 1);
  EXPECT_EQ(d[0].what, "collective_schedule");
  EXPECT_EQ(d[0].compile_id, "0/0");
  ASSERT_TRUE(d[0].first_difference);
  EXPECT_EQ(d[0].first_difference->position, 2u);
  EXPECT_EQ(d[0].first_difference->op, "reduce_scatter_tensor");
  EXPECT_EQ(d[0].first_difference->reference_op, "all_gather_into_tensor");
  EXPECT_EQ(d[0].message,
            "rank 1 issues other collectives in graph 0/0 than rank 0, rank 2: #2 is reduce_scatter_tensor, "
            "not all_gather_into_tensor (a rank whose collectives differ hangs the job)");
}

// One count of recompiles everywhere: torch 2.13 logs a compile the recompile limit refused with
// its recompile reason and fail_type Unsupported, and no dynamo_start (so no function).
// compilation_metrics counts it as a failure: the rank's recompiles, its group and the
// divergence all say 1 recompile, the refused compile apart, and the failure names the frame.
TEST(TraceCases, ARefusedCompileIsNoRecompile) {
  auto guard = [](int entry) {
    return fmt::format(
        R"x(, "recompile_reason": "0/{}: self.level == {}  # h = h * self.level  # mp/job/model.py:5 in f")x", entry,
        entry);
  };
  const std::string refused = R"x(, "fail_type": "Unsupported", "fail_reason": "hit recompile_limit (2)")x";
  std::string gated =
      kStr + start(0, 0) + metrics(0, 0) + start(0, 1) + metrics(0, 1, guard(0)) + metrics(0, 2, guard(1) + refused);
  std::vector<trace::RankSummary> ranks = {read(kStr + start(0, 0) + metrics(0, 0)).summary, read(gated).summary};
  ranks[0].rank = 0;
  ranks[1].rank = 1;
  trace::TraceResult t = trace::summarize("/t", ranks);
  const trace::Rank& r1 = t.ranks[1];
  EXPECT_EQ(r1.recompiles.size(), 1u);
  ASSERT_EQ(r1.recompile_groups.size(), 1u);
  EXPECT_EQ(r1.recompile_groups[0].count, 1);
  EXPECT_EQ(r1.recompile_groups[0].refused, 1);
  EXPECT_EQ(r1.recompile_groups[0].values, (std::vector<std::string>{"0", "1"}));
  ASSERT_EQ(r1.failures.size(), 1u);
  EXPECT_EQ(r1.failures[0].function, "f");
  ASSERT_EQ(t.divergence.size(), 1u);
  EXPECT_EQ(t.divergence[0].message,
            "rank 1 recompiled frame 0 (f) 1 time(s) (then the recompile limit refused 1 more), rank 0 0 time(s)");
  // The brief report: one line per frame and cause, no empty field, torch's guard text only with -v.
  const std::string brief = trace::brief(t);
  EXPECT_NE(brief.find("recompiled 1x f (model.py:3): self.level == ... failed for values 0, 1; then the recompile "
                       "limit refused 1 compile(s)"),
            std::string::npos)
      << brief;
  EXPECT_EQ(brief.find("guard failed"), std::string::npos) << brief;
  EXPECT_EQ(brief.find(" in :"), std::string::npos) << brief;
  EXPECT_EQ(brief.find("of  at"), std::string::npos) << brief;
  EXPECT_NE(trace::text(t).find("guard failed: 0/0: self.level == 0"), std::string::npos);
  // Read back from the document, the same counts.
  trace::TraceResult back = trace::from_json(trace::to_json(t));
  EXPECT_EQ(back.ranks[1].recompile_groups[0].count, 1);
  EXPECT_EQ(trace::brief(back), brief);
}

}  // namespace
