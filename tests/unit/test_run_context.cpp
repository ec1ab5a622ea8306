// The CLI's outcome: each result's warnings in the outcome's list, in the order the results
// first gave them, each list replaced by the result's next one, an identical warning said once.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/context.hpp"
#include "report/warning.hpp"

namespace {

using json = nlohmann::json;

tct::cli::RunContext quiet_context() {
  tct::cli::CommonOptions options;
  options.quiet = true;
  return tct::cli::RunContext(options, tct::cli::new_outcome("audit"));
}

}  // namespace

TEST(RunContextWarnings, AResultsWarningsReplaceItsOwnAndKeepTheOthers) {
  // bench decides its warnings afresh after each phase: its last list counts, in its place
  // after what earlier steps said; a warning said by another step later stays too.
  tct::cli::RunContext ctx = quiet_context();
  namespace kind = tct::report::kind;
  using tct::report::to_json;
  using tct::report::Warning;
  const Warning probe{kind::AsWritten{"environment_override", "TORCHINDUCTOR_X set", "", std::nullopt}, ""};
  const Warning noisy{kind::Outliers{0.13, false}, ""};
  const Warning slower{kind::SlowerThanEager{0.9}, ""};
  const Warning failed{kind::AuditStepFailed{"bench", "it broke", ""}, ""};
  ctx.warn(probe);
  ctx.set_warnings("bench", {noisy});
  ctx.set_warnings("bench", {slower, slower});
  EXPECT_EQ(to_json(ctx.outcome.warnings), to_json(std::vector<Warning>{probe, slower}));  // said once
  ctx.warn(failed);
  ctx.set_warnings("bench", {});
  EXPECT_EQ(to_json(ctx.outcome.warnings), to_json(std::vector<Warning>{probe, failed}));
  ctx.set_warnings("bench", {noisy});
  EXPECT_EQ(to_json(ctx.outcome.warnings), to_json(std::vector<Warning>{probe, noisy, failed}));
}

TEST(RunContextWarnings, ASavedDocumentsWarningsStayFirst) {
  tct::cli::CommonOptions options;
  // As a document holds it: read back as written, written again byte for byte.
  const json saved = {
      {"code", "noisy_measurement"}, {"message", "from an earlier run"}, {"hint", "h"}, {"figure", 0.5}};
  json doc = tct::cli::to_document(tct::cli::new_outcome("suite"));
  doc["warnings"] = json::array({saved});
  tct::cli::RunContext ctx(options, tct::cli::from_document(doc));
  const tct::report::Warning left_out{tct::report::kind::ResumeLeftOut{2, "old.json"}, ""};
  ctx.warn(left_out);
  ctx.warn(left_out);
  EXPECT_EQ(tct::cli::to_document(ctx.outcome)["warnings"], json::array({saved, tct::report::to_json(left_out)}));
}
