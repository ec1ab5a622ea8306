// The TORCH_TRACE reader: prefix, metadata, payloads, compile ids, ranks, any chunking,
// damaged input counted and skipped; and the summary of graph-break payloads.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/graph_breaks.hpp"
#include "trace/json.hpp"
#include "trace/summarize.hpp"
#include "trace/summary.hpp"
#include "trace/reader.hpp"
#include "cli/render.hpp"
#include "trace/source.hpp"

namespace {

using namespace tct;

struct Seen {
  std::string kind, id, payload;
  std::optional<int> rank;
};

class Collect : public trace::Sink {
 public:
  std::vector<Seen> seen;
  bool wants_payload(const trace::Record&) override { return true; }
  void on_record(const trace::Record& r, std::string_view payload) override {
    seen.push_back({std::string(r.kind), r.id.str(), std::string(payload), r.rank});
  }
};

const std::string kLog =
    "V1130 18:15:52.398000 13781 torch/_logging/structured.py:28] {\"str\": [\"/m/model.py\", 0]}\n"
    "[rank2]:V1130 18:15:52.418000 13781 torch/_dynamo/convert_frame.py:303] {\"dynamo_start\": {\"stack\": "
    "[{\"line\": 11, \"name\": \"forward\", \"filename\": 0}]}, \"frame_id\": 0, \"frame_compile_id\": 1, "
    "\"attempt\": 2}\n"
    "V1130 18:15:52.762000 13781 torch/_dynamo/symbolic_convert.py:5098] {\"artifact\": {\"name\": "
    "\"dynamo_graph_break_reason\", \"encoding\": \"string\"}, \"frame_id\": 0, \"frame_compile_id\": 1, "
    "\"attempt\": 0, \"has_payload\": \"abc\"}\n"
    "\tGraph break in user code at /m/model.py:13\n"
    "\tGraph Break Reason: Unsupported Tensor.item() call with capture_scalar_outputs=False\n"
    "\tUser code traceback:\n";

std::vector<Seen> read_in_chunks(const std::string& text, size_t chunk, trace::ReadStats* stats = nullptr) {
  Collect c;
  trace::Reader reader(c);
  for (size_t i = 0; i < text.size(); i += chunk) reader.feed(std::string_view(text).substr(i, chunk));
  reader.finish();
  if (stats) *stats = reader.stats();
  return c.seen;
}

TEST(TraceReader, RecordsIdsRanksAndPayloads) {
  trace::ReadStats st;
  auto seen = read_in_chunks(kLog, kLog.size(), &st);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].kind, "str");
  EXPECT_EQ(seen[1].kind, "dynamo_start");
  EXPECT_EQ(seen[1].id, "0/1_2");
  EXPECT_EQ(seen[1].rank, 2);
  EXPECT_FALSE(seen[2].rank.has_value());
  EXPECT_EQ(seen[2].payload.rfind("Graph break in user code at /m/model.py:13\n", 0), 0u);
  EXPECT_EQ(st.records, 3u);
  EXPECT_EQ(st.payload_lines, 3u);
  EXPECT_EQ(st.garbled + st.stray + st.truncated, 0u);
}

TEST(TraceReader, AnyChunkingGivesTheSameRecords) {
  auto whole = read_in_chunks(kLog, kLog.size());
  for (size_t chunk : {1u, 2u, 7u, 64u}) {
    auto parts = read_in_chunks(kLog, chunk);
    ASSERT_EQ(parts.size(), whole.size()) << chunk;
    for (size_t i = 0; i < parts.size(); ++i) {
      EXPECT_EQ(parts[i].kind, whole[i].kind);
      EXPECT_EQ(parts[i].payload, whole[i].payload);
    }
  }
}

TEST(TraceReader, DamageIsCountedAndSkipped) {
  std::string text = "not a header\n\tstray payload\nV1130 18:15:52.1 1 f.py:1] {broken\n" + kLog +
                     "V1130 18:15:52.1 1 f.py:1] {\"artifact\": {\"name\": \"x\"}, \"has";  // cut off
  trace::ReadStats st;
  auto seen = read_in_chunks(text, 5, &st);
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(st.garbled, 1u);
  EXPECT_EQ(st.stray, 2u);
  EXPECT_EQ(st.truncated, 1u);
}

TEST(TraceReader, PrefixAndCompileIds) {
  auto p = trace::parse_prefix("[rank12]:I0101 00:00:00.000001 7 a.py:3] {\"x\": 1}");
  EXPECT_EQ(p.rank, 12);
  EXPECT_EQ(p.timestamp, "0101 00:00:00.000001");
  EXPECT_NE(p.json_start, std::string_view::npos);
  EXPECT_EQ(trace::parse_prefix("hello] {").json_start, std::string_view::npos);
  trace::CompileId id{3, 0, 0, 5};
  EXPECT_EQ(id.str(), "!5/3/0");
  EXPECT_EQ(trace::rank_from_name("dedicated_log_torch_trace_rank_7_x1y2.log"), 7);
  EXPECT_FALSE(trace::rank_from_name("dedicated_log_torch_trace_x1y2.log").has_value());
}

TEST(TraceSummary, BreakPayloadClassifiedFromItsOwnText) {
  auto b = trace::parse_break_payload(
      "Graph break in user code at /m/model.py:15\nGraph Break Reason: Failed to handle graph break gracefully. "
      "Skipping the function and falling back to eager. Graph break encountered:\nUnsupported Tensor.item() call "
      "with capture_scalar_outputs=False\n  Explanation: x\n\n*** While handling this graph break, another graph "
      "break occurred: ***\n\ngraph break in loop\n  Explanation: torch.compile detected a graph break in a "
      "for/while loop. Skipping the frame and falling back to eager\n\nStack variable source attribution:\n  "
      "File \"/t/torch/nn/container.py\", line 410\n\nUser code traceback:\n  File \"<string>\", line 1, in <module>\n"
      "  File \"/m/model.py\", line 15, in forward\n    x.item()\n    ^^^^\n\nTraceback (most recent call last):\n"
      "  File \"/t/torch/_dynamo/symbolic_convert.py\", line 1076, in wrapper\n    return inner_fn(self, inst)\n");
  EXPECT_EQ(b.file, "/m/model.py");
  EXPECT_EQ(b.line, 15);
  EXPECT_EQ(b.kind, core::BreakKind::ItemScalar);
  EXPECT_TRUE(b.frame_skipped);
  EXPECT_EQ(core::reason_headline(b.skip_reason), "graph break in loop");
  EXPECT_EQ(b.skip_reason.find("attribution"), std::string::npos);
  EXPECT_EQ(b.reason, "Unsupported Tensor.item() call with capture_scalar_outputs=False");
  // The user-code traceback, not Python's traceback of the exception after it.
  ASSERT_EQ(b.frames.size(), 2u);
  EXPECT_EQ(b.frames[1].file, "/m/model.py");
  EXPECT_EQ(b.frames[1].function, "forward");
  EXPECT_EQ(b.frames[1].source, "x.item()");
}

// convert_frame.py's form: dynamo cannot resume and skips the frame.
TEST(TraceSummary, CannotResumePayloadIsASkip) {
  auto b = trace::parse_break_payload(
      "Graph break: torch.compile cannot properly resume from this graph break, which results in a skip.\n"
      "torch.compile will skip tracing the frame forward (/m/model.py line 11) and fall back to eager.\n"
      "The graph break occurred in the following user code:\n  File \"/m/model.py\", line 13, in forward\n"
      "    print(i)\n\nTraceback (most recent call last):\n  File \"/t/x.py\", line 2, in g\n    h()\n"
      "torch._dynamo.exc.Unsupported: Failed to trace builtin operator\n  Explanation: `print`\n");
  EXPECT_TRUE(b.frame_skipped);
  EXPECT_EQ(b.file, "/m/model.py");
  EXPECT_EQ(b.line, 13);
  EXPECT_EQ(b.kind, core::BreakKind::PrintLogging);
  EXPECT_EQ(b.reason, "Failed to trace builtin operator");
  EXPECT_NE(b.skip_reason.find("skip tracing the frame forward (/m/model.py line 11)"), std::string::npos);
}

// Ranks whose code lives under different roots compare by the path below each root.
TEST(TraceSummary, RanksUnderDifferentRootsDoNotDiverge) {
  std::vector<trace::RankSummary> ranks(2);
  for (int i = 0; i < 2; ++i) {
    std::string root = i == 0 ? "/a/job" : "/b/job";
    ranks[i].rank = i;
    trace::RankCollector c(ranks[i]);
    trace::Reader reader(c);
    reader.feed("V1130 18:15:52.0 1 x.py:1] {\"compilation_metrics\": {\"co_name\": \"forward\", \"co_filename\": \"" +
                root +
                "/model.py\", \"co_firstlineno\": 3}, \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}\n"
                "V1130 18:15:52.1 1 x.py:1] {\"artifact\": {\"name\": \"dynamo_graph_break_reason\"}, \"frame_id\": 0, "
                "\"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": \"a\"}\n"
                "\tGraph break in user code at " +
                root +
                "/lib/util.py:7\n\tGraph Break Reason: Call to "
                "`torch._dynamo.graph_break()`\n");
    reader.finish();
  }
  EXPECT_TRUE(trace::divergence(ranks).empty());
  nlohmann::json section = trace::to_json(trace::summarize("/t", ranks));
  EXPECT_EQ(section["ranks"][1]["root"], "/b/job/");
  EXPECT_EQ(section["ranks"][1]["graph_breaks"][0]["file"], "lib/util.py");
  EXPECT_EQ(section["ranks"][1]["compiles"][0]["file"], "model.py");
}

TEST(TraceSummary, DivergenceNamesTheOddRank) {
  std::vector<trace::RankSummary> ranks(3);
  for (int i = 0; i < 3; ++i) {
    ranks[i].rank = i;
    trace::RankCollector c(ranks[i]);
    trace::Reader reader(c);
    reader.feed(kLog);
    if (i == 1)
      reader.feed(
          "V1130 18:15:53.0 1 g.py:1] {\"dynamo_start\": {\"stack\": []}, \"frame_id\": 4, "
          "\"frame_compile_id\": 0, \"attempt\": 0}\n");
    reader.finish();
  }
  auto d = trace::divergence(ranks);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rank, 1);
  EXPECT_EQ(d[0].what, "compile_ids");
  EXPECT_EQ(d[0].message, "rank 1 compiled frame 4 that rank 0, rank 2 did not");
}

// A corrupted log can put invalid UTF-8 into a break's reason: the document is still
// written (found by the fuzz target).
TEST(TraceSummary, InvalidUtf8InAReasonStillRenders) {
  std::vector<trace::RankSummary> ranks(1);
  trace::RankCollector c(ranks[0]);
  trace::Reader reader(c);
  reader.feed(
      "V1130 18:15:52.762000 1 x.py:1] {\"artifact\": {\"name\": \"dynamo_graph_break_reason\"}, \"frame_id\": 0, "
      "\"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": \"a\"}\n"
      "\tGraph break in user code at /m/model.py:13\n\tGraph Break Reason: bad \xC1\xFF byte\n");
  reader.finish();
  std::string out = cli::render_json(nlohmann::json{{"trace", trace::to_json(trace::summarize("/t", ranks))}});
  EXPECT_NE(out.find("bad \xEF\xBF\xBD"), std::string::npos);  // U+FFFD
}

}  // namespace
