// What runs eagerly on every call, on a real trace: tests/e2e/fixtures/traces/unresumable/
// (torch 2.13, make_trace.py unresumable: an nn.GRU Dynamo cannot resume after). Its
// expected.json holds torch's own counters of that process; the break record's own words are
// read from the log here, independently of tct's parser.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "core/eager_part.hpp"
#include "core/graph_breaks.hpp"
#include "explain/result.hpp"
#include "trace/eager_parts.hpp"
#include "trace/ranks.hpp"
#include "trace/source.hpp"
#include "trace/summarize.hpp"

namespace {

using namespace tct;
namespace fs = std::filesystem;

const fs::path kCase = fs::path(TCT_SOURCE_DIR) / "tests" / "e2e" / "fixtures" / "traces" / "unresumable";

std::string gunzip(const fs::path& p) {
  gzFile f = gzopen(p.c_str(), "rb");
  std::string out;
  char buf[65536];
  int n = 0;
  while (f && (n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  if (f) gzclose(f);
  return out;
}

fs::path the_log() {
  for (const auto& e : fs::directory_iterator(kCase))
    if (e.path().extension() == ".gz") return e.path();
  return {};
}

// The dynamo_graph_break_reason payload as torch wrote it: the tab-indented lines after its header.
std::string break_payload(const std::string& log) {
  std::istringstream in(log);
  std::string line, out;
  bool inside = false;
  while (std::getline(in, line)) {
    if (inside && !line.empty() && line[0] == '\t') {
      out += line.substr(1) + "\n";
      continue;
    }
    if (inside) break;
    inside = line.find("\"dynamo_graph_break_reason\"") != std::string::npos;
  }
  return out;
}

nlohmann::json expected() {
  std::ifstream f(kCase / "expected.json");
  return nlohmann::json::parse(f);
}

trace::RankSummary read_rank() {
  trace::RankLogs logs = trace::read_rank_logs(trace::list_trace_files(kCase.string()));
  EXPECT_EQ(logs.ranks.size(), 1u);
  return logs.ranks.empty() ? trace::RankSummary{} : logs.ranks[0];
}

// The record's wording, taken from the real log: torch logs it, and does not count it.
TEST(EagerParts, RestOfFunctionRecordIsNotAGraphBreak) {
  const std::string payload = break_payload(gunzip(the_log()));
  ASSERT_NE(payload.find("then skipping the rest of the function"), std::string::npos) << payload.substr(0, 400);
  EXPECT_TRUE(core::skips_frame(payload));
  EXPECT_TRUE(core::skips_rest_of_frame(payload));
  // A break Dynamo resumes after, and a whole skipped frame, are not this record.
  EXPECT_FALSE(core::skips_rest_of_frame("Unsupported Tensor.item() call"));
  EXPECT_FALSE(core::skips_rest_of_frame(
      "Failed to handle graph break gracefully. Skipping the function and falling back to eager. Graph break "
      "encountered:\nprint"));
  const core::SkipSplit split = core::split_skip(payload.substr(payload.find("Encountered graph break")));
  EXPECT_TRUE(split.rest_only);
  // The break is the cause (what to fix); torch's sentence is why the rest runs eagerly.
  EXPECT_EQ(core::reason_headline(split.cause), "Attempted to wrap RNN, GRU, or LSTM");
  EXPECT_NE(split.skip_reason.find("skipping the rest of the function"), std::string::npos);
}

// Counted as torch counted in that process (expected.json's torch_counters): no graph break,
// no skipped frame; one part of forward runs eagerly, from the line the break record names.
TEST(EagerParts, CountsAndLinesAsTorchsRecords) {
  const nlohmann::json torch = expected()["torch_counters"];
  const trace::RankSummary rank = read_rank();
  int counted = 0, records = 0;
  for (const auto& b : rank.breaks) {
    ++records;
    counted += !b.frame_skipped;
  }
  EXPECT_EQ(records, 1);
  EXPECT_EQ(counted, torch["graph_break"].get<int>());
  int skipped = 0;
  for (const auto& [id, c] : rank.compiles) skipped += c.skipped;
  EXPECT_EQ(skipped, torch["frames_total"].get<int>() - torch["frames_ok"].get<int>());

  // The line the record itself names ("Graph break in user code at F:L"), read with a regex.
  std::smatch m;
  const std::string payload = break_payload(gunzip(the_log()));
  ASSERT_TRUE(std::regex_search(payload, m, std::regex(R"(Graph break in user code at (\S+):(\d+))")));
  const int break_line = std::stoi(m[2]);

  const auto parts = trace::eager_parts(rank);
  ASSERT_EQ(parts.size(), 1u);
  const core::EagerPart& p = parts[0];
  EXPECT_EQ(p.cause, core::EagerCause::RestOfFrame);
  EXPECT_EQ(p.function, "forward");
  EXPECT_EQ(p.from_line, break_line);
  EXPECT_EQ(p.file, m[1].str());
  EXPECT_EQ(p.reason, "Attempted to wrap RNN, GRU, or LSTM");
  EXPECT_EQ(core::describe(p), "forward (breaks_unresumable_gru.py) from line " + std::to_string(break_line) +
                                   " to its end runs eagerly on every call");
  // The JSON round trip keeps every field.
  const core::EagerPart back = core::eager_part_from_json(core::to_json(p));
  EXPECT_EQ(core::describe(back), core::describe(p));
  EXPECT_EQ(back.kind, p.kind);
  // Its fix is the break's one fix, from torch's own hint in the record: allow_rnn, with its cost.
  EXPECT_EQ(p.hint.terms.id, "allow_rnn");
  EXPECT_TRUE(p.hint.terms.untried);
  EXPECT_NE(p.hint.terms.cost.find("sequence length"), std::string::npos);
  EXPECT_EQ(back.hint.fix, p.hint.fix);
  EXPECT_EQ(back.hint.terms.id, p.hint.terms.id);
}

// A repeat at one place keeps its own text when its text differs (the rest-of-function record
// after the break it follows), and is a repeat only when the text is the same.
TEST(EagerParts, EachRecordKeepsItsOwnText) {
  const std::string payload = break_payload(gunzip(the_log()));
  trace::TraceBreak unresumable = trace::parse_break_payload(payload);
  // The same break, as a record Dynamo resumed after, at the same place: another text.
  std::string resumed = payload;
  resumed.replace(resumed.find("Encountered graph break that we cannot resume from."),
                  std::string("Encountered graph break that we cannot resume from. Compiling up to the previous "
                              "resumable state, then skipping the rest of the function. Graph break encountered:")
                      .size(),
                  "Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):");
  trace::TraceBreak plain = trace::parse_break_payload(resumed);
  EXPECT_EQ(plain.file, unresumable.file);
  EXPECT_EQ(plain.line, unresumable.line);
  EXPECT_EQ(plain.kind, unresumable.kind);
  EXPECT_FALSE(plain.frame_skipped);
  EXPECT_NE(plain.text_hash, unresumable.text_hash);
  EXPECT_EQ(trace::parse_break_payload(payload).text_hash, unresumable.text_hash);
}

// explain.run's share_pairs as JSON, read as run_explain reads them where they arrive.
std::optional<explain::GraphShare> share_of(const nlohmann::json& pairs) {
  return explain::graph_share_of(tct::core::fields::read_as<explain::reply::SharePairs>(pairs));
}

// Amdahl's graph share from raw pairs: the lower envelopes' ratio, none below three pairs.
TEST(EagerParts, GraphShareFromPairs) {
  const auto share = share_of(
      {{"eager_ns", {1000, 900, 2000, 1000}}, {"in_graph_ns", {200, 300, 400, 180}}, {"compiled_ns", {1, 1, 1, 1}}});
  ASSERT_TRUE(share.has_value());
  EXPECT_EQ(share->pairs, 4);
  EXPECT_DOUBLE_EQ(share->covered, 0.2);   // the fastest graph time 180 over the fastest eager call 900
  EXPECT_DOUBLE_EQ(share->overhead, 0.0);  // a compiled call faster than eager adds nothing
  // Dynamo's own share: the median pair's compiled / eager less 1 (ratios 1.1, 1.3, 1.2), not
  // the fastest compiled call less the fastest eager one (990 - 900, 10%).
  EXPECT_NEAR(
      share_of({{"eager_ns", {1000, 900, 1000}}, {"in_graph_ns", {200, 200, 200}}, {"compiled_ns", {1100, 1170, 1200}}})
          ->overhead,
      0.2, 1e-12);
  // A preempted compiled call cannot push the share above the whole call.
  EXPECT_DOUBLE_EQ(share_of({{"eager_ns", {10, 10, 10}}, {"in_graph_ns", {50, 60, 70}}})->covered, 1.0);
  EXPECT_FALSE(share_of({{"eager_ns", {1000, 1000}}, {"in_graph_ns", {1, 1}}}).has_value());
}

}  // namespace
