#include "bench/correctness.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using nlohmann::json;
using tct::bench::correctness_report;
using tct::bench::default_tolerance;
using tct::bench::eager_self_difference;
using tct::bench::judge_outputs;
using tct::bench::recheck_with_fallback_random;
using tct::bench::tolerance_table;
using tct::bench::ToleranceOverride;

namespace {

// A tensor fact as python/tct_agent/compare.py writes it, equal by default.
json tensor_fact(const std::string& path, const std::string& dtype, double max_abs_diff, double max_abs_expected,
                 int out_of_tolerance = 0) {
  return json{{"path", path},
              {"kind", "tensor"},
              {"shape_expected", {2, 3}},
              {"shape_actual", {2, 3}},
              {"dtype_expected", dtype},
              {"dtype_actual", dtype},
              {"numel", 6},
              {"equal", max_abs_diff == 0.0},
              {"max_abs_diff", max_abs_diff},
              {"max_rel_diff", max_abs_expected > 0 ? max_abs_diff / max_abs_expected : 0.0},
              {"mean_abs_diff", max_abs_diff / 2},
              {"max_abs_expected", max_abs_expected},
              {"worst_index", {1, 2}},
              {"expected_at_worst", 1.0},
              {"actual_at_worst", 1.0 + max_abs_diff},
              {"nan_expected", 0},
              {"nan_actual", 0},
              {"nan_mismatch", 0},
              {"inf_mismatch", 0},
              {"tolerance", {{"rtol", 1e-4}, {"atol", 1e-5}}},
              {"out_of_tolerance", out_of_tolerance}};
}

}  // namespace

TEST(Correctness, IdenticalOutputsMatch) {
  json facts = json::array({tensor_fact("out[0]", "float32", 0.0, 3.0), tensor_fact("out[1]", "int64", 0.0, 7.0)});
  auto v = judge_outputs(facts);
  EXPECT_TRUE(v.match);
  EXPECT_TRUE(v.mismatches.empty());
  EXPECT_EQ(v.leaves, 2u);
}

TEST(Correctness, EmptyFactListMatches) {
  auto v = judge_outputs(json::array());
  EXPECT_TRUE(v.match);
  EXPECT_EQ(v.leaves, 0u);
}

TEST(Correctness, NotAnArrayThrows) {
  EXPECT_THROW(judge_outputs(json::object()), std::invalid_argument);
  EXPECT_THROW(eager_self_difference(json(3)), std::invalid_argument);
}

TEST(Correctness, ElementsWithinToleranceMatch) {
  // The agent counted no element beyond atol + rtol * |expected|.
  auto v = judge_outputs(json::array({tensor_fact("out", "float32", 4e-5, 4.0)}));
  EXPECT_TRUE(v.match);
  EXPECT_EQ(v.basis, "tolerance");
  ASSERT_EQ(v.leaf_results.size(), 1u);
  EXPECT_EQ(v.leaf_results[0].fraction_out_of_tolerance, 0.0);
}

TEST(Correctness, Float32RealErrorFails) {
  auto v = judge_outputs(json::array({tensor_fact("out['logits']", "float32", 0.5, 4.0, 3)}));
  ASSERT_FALSE(v.match);
  ASSERT_EQ(v.mismatches.size(), 1u);
  EXPECT_EQ(v.mismatches[0].path, "out['logits']");
  const auto& why = v.mismatches[0].reason;
  EXPECT_NE(why.find("3 of 6 elements (50.0%)"), std::string::npos) << why;
  EXPECT_NE(why.find("float32"), std::string::npos);
  EXPECT_EQ(why.rfind("at [1, 2]: expected 1, got 1.5; 3 of 6", 0), 0u) << why;
  ASSERT_TRUE(v.leaf_results[0].fraction_out_of_tolerance);
  EXPECT_DOUBLE_EQ(*v.leaf_results[0].fraction_out_of_tolerance, 0.5);
}

TEST(Correctness, ASmallElementErrorFailsBesideLargeValues) {
  // One element of size 1 is off by 1e-3 while the tensor holds values of 1e6: the
  // per-element count sees it whatever the tensor's largest magnitude.
  auto fact = tensor_fact("out", "float32", 1e-3, 1e6, 1);
  fact["expected_at_worst"] = 1.0;
  fact["actual_at_worst"] = 1.001;
  auto v = judge_outputs(json::array({fact}));
  ASSERT_FALSE(v.match);
  EXPECT_NE(v.mismatches[0].reason.find("expected 1, got 1.001"), std::string::npos);
}

TEST(Correctness, Float64ReferenceAcceptsCompiledAsAccurateAsEager) {
  auto fact = tensor_fact("out", "float32", 2e-4, 100.0, 4);
  fact["reference"] = {{"eager_max_error", 3e-4}, {"compiled_max_error", 2e-4}, {"out_of_tolerance", 0}};
  auto v = judge_outputs(json::array({fact}));
  EXPECT_TRUE(v.match);
  EXPECT_EQ(v.basis, "float64_reference");
  EXPECT_EQ(v.leaf_results[0].basis, "float64_reference");
  fact["reference"]["out_of_tolerance"] = 2;
  fact["reference"]["compiled_max_error"] = 0.5;
  v = judge_outputs(json::array({fact}));
  ASSERT_FALSE(v.match);
  EXPECT_NE(v.mismatches[0].reason.find("against float64 compiled errs by up to 0.5, eager by 0.0003"),
            std::string::npos)
      << v.mismatches[0].reason;
}

TEST(Correctness, EagerSpreadJudgesLeavesWhereEagerMoves) {
  auto compiled = json::array({tensor_fact("out", "float32", 0.5, 1.0, 2)});
  // Eager differs from itself by 0.4: compiled may differ by 2 x 0.4 (+ tolerance).
  auto v = judge_outputs(compiled, {}, json::array({tensor_fact("out", "float32", 0.4, 1.0)}));
  EXPECT_TRUE(v.match);
  EXPECT_EQ(v.basis, "eager_spread");
  v = judge_outputs(compiled, {}, json::array({tensor_fact("out", "float32", 0.1, 1.0)}));
  ASSERT_FALSE(v.match);
  EXPECT_NE(v.mismatches[0].reason.find("eager's own spread"), std::string::npos);
  // A leaf where eager did not move is still judged element by element.
  v = judge_outputs(compiled, {}, json::array({tensor_fact("other", "float32", 0.4, 1.0)}));
  EXPECT_FALSE(v.match);
}

TEST(Correctness, DefaultTolerancesByDtype) {
  EXPECT_DOUBLE_EQ(default_tolerance("float32").rtol, 1e-4);
  EXPECT_DOUBLE_EQ(default_tolerance("float32").ref_multiplier, 2.0);
  EXPECT_DOUBLE_EQ(default_tolerance("complex64").rtol, 1e-4);
  EXPECT_DOUBLE_EQ(default_tolerance("float").rtol, 1e-4);
  EXPECT_DOUBLE_EQ(default_tolerance("float64").rtol, 1e-7);
  EXPECT_DOUBLE_EQ(default_tolerance("complex128").atol, 1e-7);
  EXPECT_DOUBLE_EQ(default_tolerance("bfloat16").rtol, 3e-2);
  EXPECT_DOUBLE_EQ(default_tolerance("bfloat16").ref_multiplier, 3.0);
  EXPECT_DOUBLE_EQ(default_tolerance("float16").rtol, 1e-2);
  EXPECT_DOUBLE_EQ(default_tolerance("int64").rtol, 0.0);
  EXPECT_DOUBLE_EQ(default_tolerance("bool").atol, 0.0);
  EXPECT_DOUBLE_EQ(default_tolerance("something_new").rtol, 1e-4);
}

TEST(Correctness, ToleranceTableCarriesOverridesToFloatsOnly) {
  auto t = tolerance_table();
  EXPECT_DOUBLE_EQ(t["bfloat16"]["rtol"].get<double>(), 3e-2);
  EXPECT_DOUBLE_EQ(t["default"]["rtol"].get<double>(), 1e-4);
  auto o = tolerance_table(ToleranceOverride{0.5, std::nullopt});
  EXPECT_DOUBLE_EQ(o["float32"]["rtol"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(o["float32"]["atol"].get<double>(), 1e-5);
  EXPECT_DOUBLE_EQ(o["int64"]["rtol"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(o["bool"]["atol"].get<double>(), 0.0);
}

TEST(Correctness, IntegersMustMatchExactly) {
  auto v = judge_outputs(json::array({tensor_fact("out", "int64", 1.0, 1000.0)}));
  ASSERT_FALSE(v.match);
  EXPECT_NE(v.mismatches[0].reason.find("exactly"), std::string::npos);
  // ... even with a user override, which applies to floating leaves only.
  ToleranceOverride over{1.0, 10.0};
  EXPECT_FALSE(judge_outputs(json::array({tensor_fact("out", "bool", 1.0, 1.0)}), over).match);
}

TEST(Correctness, ShapeMismatchFails) {
  auto fact = tensor_fact("out", "float32", 0.0, 1.0);
  fact["shape_actual"] = {3, 2};
  fact["max_abs_diff"] = nullptr;
  auto v = judge_outputs(json::array({fact}));
  ASSERT_FALSE(v.match);
  EXPECT_NE(v.mismatches[0].reason.find("shape [3, 2], expected [2, 3]"), std::string::npos);
}

TEST(Correctness, DtypeMismatchFails) {
  auto fact = tensor_fact("out", "float32", 0.0, 1.0);
  fact["dtype_actual"] = "float16";
  auto v = judge_outputs(json::array({fact}));
  ASSERT_FALSE(v.match);
  EXPECT_NE(v.mismatches[0].reason.find("dtype float16, expected float32"), std::string::npos);
}

TEST(Correctness, NewNaNFails) {
  auto fact = tensor_fact("out", "float32", 0.0, 1.0);
  fact["nan_actual"] = 2;
  fact["nan_mismatch"] = 2;
  auto v = judge_outputs(json::array({fact}));
  ASSERT_FALSE(v.match);
  EXPECT_NE(v.mismatches[0].reason.find("2 NaN where expected has none"), std::string::npos);
}

TEST(Correctness, NaNAtTheSamePlacesPasses) {
  auto fact = tensor_fact("out", "float32", 0.0, 1.0);
  fact["nan_expected"] = 3;
  fact["nan_actual"] = 3;
  fact["nan_mismatch"] = 0;
  EXPECT_TRUE(judge_outputs(json::array({fact})).match);
}

TEST(Correctness, NaNAtOtherPlacesFails) {
  auto fact = tensor_fact("out", "float32", 0.0, 1.0);
  fact["nan_expected"] = 1;
  fact["nan_actual"] = 1;
  fact["nan_mismatch"] = 2;
  auto v = judge_outputs(json::array({fact}));
  ASSERT_FALSE(v.match);
  EXPECT_NE(v.mismatches[0].reason.find("NaN position"), std::string::npos);
}

TEST(Correctness, NaNCountsWithoutPositionsStillCompared) {
  auto fact = tensor_fact("out", "float32", 0.0, 1.0);
  fact.erase("nan_mismatch");
  fact["nan_expected"] = 1;
  fact["nan_actual"] = 0;
  EXPECT_FALSE(judge_outputs(json::array({fact})).match);
}

TEST(Correctness, InfMismatchFails) {
  auto fact = tensor_fact("out", "float32", 0.0, 1.0);
  fact["inf_mismatch"] = 1;
  EXPECT_FALSE(judge_outputs(json::array({fact})).match);
}

TEST(Correctness, StructureAndOtherLeaves) {
  json structure = {{"path", "out"},
                    {"kind", "structure"},
                    {"description", "missing b"},
                    {"type_expected", "dict"},
                    {"type_actual", "dict"}};
  json other_eq = {
      {"path", "out['name']"}, {"kind", "other"}, {"equal", true}, {"repr_expected", "'a'"}, {"repr_actual", "'a'"}};
  json other_ne = {
      {"path", "out['name']"}, {"kind", "other"}, {"equal", false}, {"repr_expected", "'a'"}, {"repr_actual", "'b'"}};
  auto v = judge_outputs(json::array({structure, other_eq}));
  ASSERT_FALSE(v.match);
  ASSERT_EQ(v.mismatches.size(), 1u);
  EXPECT_NE(v.mismatches[0].reason.find("missing b"), std::string::npos);
  EXPECT_TRUE(judge_outputs(json::array({other_eq})).match);
  auto v2 = judge_outputs(json::array({other_ne}));
  ASSERT_FALSE(v2.match);
  EXPECT_EQ(v2.mismatches[0].reason, "value 'b', expected 'a'");
}

TEST(Correctness, ScalarLeaves) {
  json f = {{"path", "out[1]"},
            {"kind", "scalar"},
            {"shape_expected", json::array()},
            {"shape_actual", json::array()},
            {"dtype_expected", "float"},
            {"dtype_actual", "float"},
            {"numel", 1},
            {"max_abs_diff", 1e-6},
            {"max_abs_expected", 2.0},
            {"nan_expected", 0},
            {"nan_actual", 0},
            {"nan_mismatch", 0},
            {"inf_mismatch", 0},
            {"equal", false},
            {"out_of_tolerance", 0}};
  EXPECT_TRUE(judge_outputs(json::array({f})).match);
  f["dtype_expected"] = f["dtype_actual"] = "int";
  EXPECT_FALSE(judge_outputs(json::array({f})).match);
}

TEST(Correctness, MalformedFactsFailRatherThanPass) {
  json no_diff = tensor_fact("out", "float32", 0.0, 1.0);
  no_diff.erase("max_abs_diff");
  auto v = judge_outputs(json::array({no_diff, json("junk"), json{{"kind", "weird"}}}));
  EXPECT_FALSE(v.match);
  EXPECT_EQ(v.mismatches.size(), 3u);
  EXPECT_EQ(v.mismatches[1].path, "?");
}

TEST(Correctness, CompareErrorFails) {
  auto fact = tensor_fact("out", "float32", 0.0, 1.0);
  fact["error"] = "RuntimeError: unsupported dtype";
  EXPECT_FALSE(judge_outputs(json::array({fact})).match);
}

TEST(Nondeterminism, IdenticalRunsAreDeterministic) {
  auto c = eager_self_difference(
      json::array({tensor_fact("out", "float32", 0.0, 2.0), tensor_fact("out2", "int64", 0.0, 2.0)}));
  EXPECT_FALSE(c.nondeterministic);
  EXPECT_TRUE(c.differing.empty());
  EXPECT_DOUBLE_EQ(c.max_abs_diff, 0.0);
}

TEST(Nondeterminism, AnyDifferenceCounts) {
  auto c = eager_self_difference(
      json::array({tensor_fact("out", "float32", 0.0, 2.0), tensor_fact("out2", "float32", 3e-7, 2.0)}));
  EXPECT_TRUE(c.nondeterministic);
  ASSERT_EQ(c.differing.size(), 1u);
  EXPECT_EQ(c.differing[0].path, "out2");
  EXPECT_DOUBLE_EQ(c.max_abs_diff, 3e-7);
}

TEST(Nondeterminism, TinyToleranceIgnoresNoise) {
  auto facts = json::array({tensor_fact("out", "float32", 3e-7, 2.0)});
  EXPECT_FALSE(eager_self_difference(facts, 1e-6).nondeterministic);
  EXPECT_TRUE(eager_self_difference(facts, 1e-7).nondeterministic);
}

TEST(Nondeterminism, NaNPositionsAndStructure) {
  auto nan = tensor_fact("out", "float32", 0.0, 2.0);
  nan["nan_expected"] = nan["nan_actual"] = 1;
  EXPECT_FALSE(eager_self_difference(json::array({nan})).nondeterministic);
  nan["nan_mismatch"] = 2;
  EXPECT_TRUE(eager_self_difference(json::array({nan})).nondeterministic);
  json structure = {{"path", "out"}, {"kind", "structure"}, {"description", "x"}};
  EXPECT_TRUE(eager_self_difference(json::array({structure})).nondeterministic);
  json other = {{"path", "out"}, {"kind", "other"}, {"equal", true}};
  EXPECT_FALSE(eager_self_difference(json::array({other})).nondeterministic);
}

TEST(CorrectnessReport, NamesDifferingParametersAndNotComparedLeaves) {
  json reply = {
      {"eager_vs_eager", json::array({tensor_fact("loss", "float32", 0.0, 1.0)})},
      {"compiled_vs_eager",
       json::array({tensor_fact("loss", "float32", 0.0, 1.0), tensor_fact("grad['fc.weight']", "float32", 0.1, 1.0, 4),
                    tensor_fact("param_after_step['fc.weight']", "float32", 0.001, 1.0, 4),
                    tensor_fact("grad['fc.bias']", "float32", 0.0, 1.0),
                    json{{"path", "out.cache.hook"}, {"kind", "not_compared"}, {"type", "Hook"}}})},
      {"seed", 0},
      {"eager_used_rng", false},
      {"reference", {{"computed", false}}},
      {"cost_ns", {{"eager_ns", 10}}}};
  auto r = correctness_report(tct::core::fields::read_as<tct::bench::reply::Check>(reply));
  EXPECT_EQ(r.match, false);
  EXPECT_EQ(r.differing_parameters, std::vector<std::string>{"fc.weight"});
  EXPECT_EQ(r.mismatches.size(), 2u);
  ASSERT_TRUE(r.not_compared);
  ASSERT_EQ(r.not_compared->size(), 1u);
  EXPECT_EQ((*r.not_compared)[0].path, "out.cache.hook");
  EXPECT_EQ((*r.not_compared)[0].type, "Hook");
  EXPECT_EQ(r.leaves, 5);
  EXPECT_EQ(r.seeded, true);
  ASSERT_TRUE(r.reference && r.agent_cost);
  EXPECT_EQ(r.reference->computed, false);
  EXPECT_FALSE(r.reference->dtype);
  EXPECT_EQ(r.agent_cost->eager_ns, 10);
  EXPECT_FALSE(r.agent_cost->reference_ns);
  EXPECT_FALSE(recheck_with_fallback_random(r));
  reply["eager_used_rng"] = true;
  EXPECT_TRUE(
      recheck_with_fallback_random(correctness_report(tct::core::fields::read_as<tct::bench::reply::Check>(reply))));
  reply["fallback_random"] = true;
  EXPECT_FALSE(
      recheck_with_fallback_random(correctness_report(tct::core::fields::read_as<tct::bench::reply::Check>(reply))));
}

TEST(CorrectnessReport, NondeterministicEagerIsSaidAndUsed) {
  json reply = {{"eager_vs_eager", json::array({tensor_fact("out", "float32", 0.4, 1.0)})},
                {"compiled_vs_eager", json::array({tensor_fact("out", "float32", 0.5, 1.0, 2)})}};
  auto r = correctness_report(tct::core::fields::read_as<tct::bench::reply::Check>(reply));
  EXPECT_EQ(r.nondeterministic, true);
  EXPECT_EQ(r.match, true);
  EXPECT_EQ(r.basis, "eager_spread");
  ASSERT_TRUE(r.eager_max_self_diff);
  EXPECT_DOUBLE_EQ(*r.eager_max_self_diff, 0.4);
  ASSERT_TRUE(r.eager_differing);
  EXPECT_EQ(r.eager_differing->size(), 1u);
  // A structural self-difference leaves nothing to judge by: inconclusive, not a mismatch.
  reply["eager_vs_eager"].push_back({{"path", "out2"}, {"kind", "structure"}, {"description", "x"}});
  reply["compiled_vs_eager"].push_back({{"path", "out2"}, {"kind", "structure"}, {"description", "x"}});
  EXPECT_FALSE(correctness_report(tct::core::fields::read_as<tct::bench::reply::Check>(reply)).match);
}
