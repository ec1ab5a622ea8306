// The CLI's document: each result's warnings in the document's list, in the order the results
// first gave them, each list replaced by the result's next one, an identical warning said once.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/context.hpp"
#include "report/document.hpp"

namespace {

using json = nlohmann::json;

tct::cli::RunContext quiet_context() {
  tct::cli::CommonOptions options;
  options.quiet = true;
  return tct::cli::RunContext(options, tct::report::new_document("audit"));
}

}  // namespace

TEST(RunContextWarnings, AResultsWarningsReplaceItsOwnAndKeepTheOthers) {
  // bench decides its warnings afresh after each phase: its last list counts, in its place
  // after what earlier steps said; a warning said by another step later stays too.
  tct::cli::RunContext ctx = quiet_context();
  const json probe = {{"code", "environment_override"}, {"message", "TORCHINDUCTOR_X set"}};
  const json noisy = {{"code", "noisy_measurement"}, {"message", "13% outliers"}};
  const json slower = {{"code", "slower_than_eager"}, {"message", "0.9x"}};
  const json failed = {{"code", "partial_result"}, {"message", "audit step bench failed"}};
  ctx.warn(probe);
  ctx.set_warnings("bench", json::array({noisy}));
  ctx.set_warnings("bench", json::array({slower, slower}));
  EXPECT_EQ(ctx.doc["warnings"], json::array({probe, slower}));  // said once
  ctx.warn(failed);
  ctx.set_warnings("bench", json::array());
  EXPECT_EQ(ctx.doc["warnings"], json::array({probe, failed}));
  ctx.set_warnings("bench", json::array({noisy}));
  EXPECT_EQ(ctx.doc["warnings"], json::array({probe, noisy, failed}));
  ctx.write("bench", {{"rows", json::array()}});
  EXPECT_EQ(ctx.doc["bench"]["rows"], json::array());
}

TEST(RunContextWarnings, ASavedDocumentsWarningsStayFirst) {
  tct::cli::CommonOptions options;
  json doc = tct::report::new_document("suite");
  const json saved = {{"code", "noisy_measurement"}, {"message", "from an earlier run"}};
  doc["warnings"] = json::array({saved});
  tct::cli::RunContext ctx(options, doc);
  const json left_out = {{"code", "resume_left_out"}, {"message", "2 entries"}};
  ctx.warn(left_out);
  EXPECT_EQ(ctx.doc["warnings"], json::array({saved, left_out}));
}
