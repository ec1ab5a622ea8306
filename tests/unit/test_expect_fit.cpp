// tct's prediction formula against bench/calibration/fit.py's: the fit records its constants
// and each row's prediction in bench/calibration/fit.json; the C++ model, with the constants
// of the generated header, must give the same points. A refit that forgot to rebuild, or a
// change to one formula and not the other, fails here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "expect/calibration.hpp"
#include "expect/classifier.hpp"

using nlohmann::json;
using namespace tct::expect;

namespace {

json fit_record() {
  std::ifstream f(std::filesystem::path(TCT_SOURCE_DIR) / "bench" / "calibration" / "fit.json");
  return json::parse(f);
}

}  // namespace

TEST(ExpectFit, HeaderHoldsTheRecordedConstants) {
  json r = fit_record();
  const json& k = r["constants"];
  namespace cal = calibration;
  EXPECT_DOUBLE_EQ(k["kKeepOutside"].get<double>(), cal::kKeepOutside);
  EXPECT_DOUBLE_EQ(k["kKeepOutsideLibrary"].get<double>(), cal::kKeepOutsideLibrary);
  EXPECT_DOUBLE_EQ(k["kKeepFixed"].get<double>(), cal::kKeepFixed);
  EXPECT_DOUBLE_EQ(k["kKeepMemory"].get<double>(), cal::kKeepMemory);
  EXPECT_DOUBLE_EQ(k["kKeepOther"].get<double>(), cal::kKeepOther);
  EXPECT_DOUBLE_EQ(k["kKeepLibrary"].get<double>(), cal::kKeepLibrary);
  EXPECT_DOUBLE_EQ(k["kKeepConv"].get<double>(), cal::kKeepConv);
  EXPECT_DOUBLE_EQ(k["kCompiledCallScale"].get<double>(), cal::kCompiledCallScale);
  EXPECT_DOUBLE_EQ(k["kLibraryCallScale"].get<double>(), cal::kLibraryCallScale);
  EXPECT_DOUBLE_EQ(k["kInputCallScale"].get<double>(), cal::kInputCallScale);
  EXPECT_DOUBLE_EQ(k["kKeepArithmetic"].get<double>(), cal::kKeepArithmetic);
  EXPECT_DOUBLE_EQ(k["kElementwiseWork"].get<double>(), cal::kElementwiseWork);
  EXPECT_DOUBLE_EQ(k["kModuleCallScale"].get<double>(), cal::kModuleCallScale);
  EXPECT_DOUBLE_EQ(r["log_bias"].get<double>(), cal::kLogBias);
  EXPECT_DOUBLE_EQ(r["log_sigma_base"].get<double>(), cal::kLogSigmaBase);
  EXPECT_DOUBLE_EQ(r["log_sigma_generated"].get<double>(), cal::kLogSigmaGenerated);
  EXPECT_DOUBLE_EQ(r["log_sigma_no_library"].get<double>(), cal::kLogSigmaNoLibrary);
  EXPECT_DOUBLE_EQ(r["z"].get<double>(), cal::kIntervalZ);
  EXPECT_EQ(static_cast<int>(r["calibration"].size()), cal::kCalibrationCases);
  EXPECT_EQ(static_cast<int>(r["validation"].size()), cal::kValidationCases);
}

TEST(ExpectFit, CppPredictsWhatTheFitPredicted) {
  json r = fit_record();
  int rows = 0, inside = 0;
  for (const char* set : {"calibration", "validation"}) {
    for (const json& row : r[set]) {
      const json& j = row["time_shares"];
      TimeShares s;
      s.outside = j["outside_ops"];
      s.fixed = j["fixed_cost"];
      s.memory = j["memory_traffic"];
      s.other = j["other_compute"];
      s.kept_arithmetic = j["kept_arithmetic"];
      s.library = j["library"];
      s.conv = j["conv"];
      // Not an eager share: tct's elementwise-work share as recorded (the other terms are derived here).
      s.elementwise_work = row["terms"]["elementwise_work"];
      auto count = [&](const char* key) { return row[key].is_number() ? row[key].get<double>() : NAN; };
      CallFacts f{row["wall_per_call_ns"], row["compiled_call_ns"],  row["library_ops"],
                  count("ops_per_call"),   count("outside_tensors"), count("module_calls")};
      std::vector<Term> terms;
      SpeedupRange p = predict_speedup(s, f, &terms);
      SCOPED_TRACE(row["name"].get<std::string>());
      // The shares the fit weighed are the ones tct computes from the same facts.
      for (const Term& t : terms) EXPECT_NEAR(t.share, row["terms"].value(t.name, 0.0), 1e-9) << t.name;
      EXPECT_NEAR(p.point, row["point"].get<double>(), 1e-9 * p.point);
      EXPECT_NEAR(p.low, row["low"].get<double>(), 1e-9 * p.point);
      EXPECT_NEAR(p.high, row["high"].get<double>(), 1e-9 * p.point);
      EXPECT_NEAR(p.generated_share, row["generated_share"].get<double>(), 1e-9);
      ++rows;
      if (std::string(set) == "validation") inside += row["inside"].get<bool>();
    }
  }
  EXPECT_GE(rows, 2 * 10);  // both sets recorded, not an empty file
  EXPECT_EQ(inside, calibration::kValidationInside);
}
