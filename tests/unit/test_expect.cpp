// Unit tests of the expect classifier, prediction, suggestions, ceilings cache and sweep.
#include <gtest/gtest.h>

#include <cmath>

#include "expect/ceilings.hpp"
#include "expect/timings.hpp"
#include "expect/calibration.hpp"
#include "expect/classifier.hpp"
#include "expect/evidence.hpp"
#include "expect/json.hpp"
#include "expect/result.hpp"
#include "expect/run.hpp"
#include "expect/ops.hpp"
#include "expect/render.hpp"
#include "expect/suggestions.hpp"
#include "errors.hpp"
#include "expect/sweep.hpp"
#include "report/warning.hpp"

using nlohmann::json;
using namespace tct::expect;
using tct::core::fields::read_as;
namespace expect = tct::expect;

namespace {

// The agent's replies as JSON, read as run_expect reads them where they arrive.
Evidence evidence_of(const json& profile, const json& flops) {
  using tct::core::fields::read_as;
  std::optional<reply::Flops> f;
  if (flops.is_object()) f = read_as<reply::Flops>(flops);
  return evidence_from_agent(read_as<reply::Profile>(profile), f);
}
double compiled_call_of(const json& profile) {
  return profile_compiled_call_ns(tct::core::fields::read_as<reply::Profile>(profile));
}
double op_floor_of(const json& profile) {
  return profile_op_floor_ns(tct::core::fields::read_as<reply::Profile>(profile));
}

Ceilings cpu_ceilings() {
  Ceilings c;
  c.peak_flops = 32e9;     // 32 GFLOP/s
  c.peak_bandwidth = 8e9;  // 8 GB/s -> balance 4 FLOP/byte
  c.op_floor_ns = 1000;
  c.compiled_call_ns = 20'000;
  return c;
}

// A profile of `calls` identical calls, as expect.profile returns it: `ops` top-level ops of
// `op_ns` each; the first (if library > 0) an aten::addmm of `library` ns, the rest `pointwise`.
json profile(double wall, double in_op, double library, int ops, double op_ns, int calls = 5,
             const char* pointwise = "aten::add") {
  json p = {{"device_type", "cpu"},
            {"wall_samples_ns", json::array()},
            {"calls", json::array()},
            {"op_names",
             {{{"name", "aten::addmm"}, {"tags", {"core"}}, {"is_view", false}, {"self_ns_total", 0}},
              {{"name", pointwise}, {"tags", {"core", "pointwise"}}, {"is_view", false}, {"self_ns_total", 0}}}},
            {"events_truncated", false}};
  for (int i = 0; i < calls; ++i) {
    p["wall_samples_ns"].push_back(wall);
    json c = {{"wall_ns", wall}, {"op", json::array()}, {"ns", json::array()}};
    // Durations: the library op takes `library`, the others share in_op - library (or op_ns each).
    int rest = library > 0 ? ops - 1 : ops;
    for (int k = 0; k < ops; ++k) {
      bool lib = library > 0 && k == 0;
      c["op"].push_back(lib ? 0 : 1);
      c["ns"].push_back(lib ? library : (rest > 0 && in_op > 0 ? (in_op - library) / rest : op_ns));
    }
    p["calls"].push_back(c);
  }
  return p;
}

json flops(double f, double bytes, double lib_bytes, int pointwise, const char* pointwise_name = "aten::add") {
  return {{"flops_per_call", f},
          {"bytes_per_call", bytes},
          {"boundary_bytes", bytes / 4},
          {"error", nullptr},
          {"ops",
           {{{"name", "aten::addmm"}, {"tags", {"core"}}, {"is_view", false}, {"count", 1}, {"bytes", lib_bytes}},
            {{"name", pointwise_name},
             {"tags", {"core", "pointwise"}},
             {"is_view", false},
             {"count", pointwise},
             {"bytes", bytes - lib_bytes}}}}};
}

}  // namespace

TEST(ExpectEvidence, ParsesMediansAndFractions) {
  auto e = evidence_of(profile(100'000, 60'000, 30'000, 10, 6000), flops(1e6, 1e5, 5e4, 9));
  EXPECT_DOUBLE_EQ(e.wall_ns, 100'000);
  EXPECT_DOUBLE_EQ(e.in_op_fraction, 0.6);
  EXPECT_DOUBLE_EQ(e.library_fraction, 0.3);
  EXPECT_DOUBLE_EQ(e.ops_per_call, 10);
  EXPECT_EQ(e.pointwise_ops, 9);
  EXPECT_EQ(e.library_ops, 1);
  EXPECT_DOUBLE_EQ(e.arithmetic_intensity(), 10.0);
  json pj = tct::expect::to_json(tct::expect::summarize(e));
  EXPECT_DOUBLE_EQ(pj["overhead_fraction"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(pj["op_time_distribution"]["p50_ns"].get<double>(), 30'000.0 / 9);  // the 9 add ops
  EXPECT_EQ(pj["top_ops"][0]["name"], "aten::addmm");
  EXPECT_EQ(pj["top_ops"][0]["class"], "matmul");
  EXPECT_DOUBLE_EQ(pj["top_ops"][1]["count_per_call"].get<double>(), 9);
  EXPECT_TRUE(pj["device_busy_fraction"].is_null());
}

TEST(ExpectEvidence, EmptyProfileThrows) {
  EXPECT_THROW(evidence_of(json::object(), json::object()), std::invalid_argument);
}

TEST(ExpectEvidence, MissingFlopsGivesNaN) {
  json f = {{"flops_per_call", nullptr}, {"bytes_per_call", nullptr}, {"error", "boom"}, {"ops", json::array()}};
  auto e = evidence_of(profile(1000, 500, 0, 2, 250), f);
  EXPECT_TRUE(std::isnan(e.flops));
  EXPECT_EQ(e.flops_error, "boom");
  auto v = classify(e, cpu_ceilings());
  EXPECT_NE(v.cls, "");  // falls back on the time shares
}

TEST(ExpectClassifier, TinyOpsAreOverheadBound) {
  // 60 ops of 3 us on 512 bytes each: the memory traffic is nothing, the time is fixed cost.
  auto e = evidence_of(profile(300'000, 180'000, 0, 60, 3000), flops(0, 30'720, 0, 60));
  auto v = classify(e, cpu_ceilings());
  EXPECT_EQ(v.cls, "overhead_bound");
  EXPECT_GT(v.predicted.low, 1.2);
  EXPECT_GT(v.predicted.high, v.predicted.low);
  EXPECT_EQ(v.decided_by[0].metric, "fixed_cost_fraction");
  EXPECT_GE(v.decided_by[0].value, kOverheadBoundFraction);
}

TEST(ExpectClassifier, MatmulHeavyIsComputeBoundWithLittleGain) {
  // 95% of the wall in a matmul at 40 FLOP/byte (balance 4).
  auto e = evidence_of(profile(10'000'000, 9'800'000, 9'500'000, 5, 2'000'000), flops(4e8, 1e7, 9.5e6, 3));
  auto v = classify(e, cpu_ceilings());
  EXPECT_EQ(v.cls, "compute_bound");
  EXPECT_LT(v.predicted.low, 1.0);
  EXPECT_LT(v.predicted.point, 1.15);  // the same vendor kernel: little to gain
  auto val = expect::validate(v.predicted, v.cls, {1.0, 0.98, 1.02});
  ASSERT_TRUE(val);
  EXPECT_TRUE(val->direction_right);
}

TEST(ExpectClassifier, NearTheOverheadThresholdTheClassSaysItIsBorderline) {
  // A matmul at 40 FLOP/byte (balance 4) and 4 other ops, `in_op` ns of a 10 ms call inside ops.
  auto matmul_call = [](double in_op) {
    return classify(evidence_of(profile(10'000'000, in_op, in_op - 200'000, 5, 50'000), flops(4e8, 1e7, 9.5e6, 4)),
                    cpu_ceilings());
  };
  // 48%, then 52% of the call outside operators: a few points of load move that share, so
  // either class says which one a re-run may give.
  Verdict compute = matmul_call(5'200'000), overhead = matmul_call(4'800'000);
  ASSERT_NEAR(compute.shares.outside + compute.shares.fixed, 0.48, 0.01);
  EXPECT_EQ(compute.cls, "compute_bound");
  EXPECT_EQ(compute.borderline_with, "overhead_bound");
  ASSERT_NEAR(overhead.shares.outside + overhead.shares.fixed, 0.52, 0.01);
  EXPECT_EQ(overhead.cls, "overhead_bound");
  EXPECT_EQ(overhead.borderline_with, "compute_bound");
  // The one line to quote says it too.
  const expect::MeasuredSpeedup measured{1.1, 1.05, 1.15};
  auto v = expect::validate(overhead.predicted, overhead.cls, measured, overhead.borderline_with);
  ASSERT_TRUE(v);
  EXPECT_NE(v->summary.find("(overhead bound, borderline with compute bound)"), std::string::npos) << v->summary;
  // Clear of the threshold (10% outside operators): no such note.
  Verdict clear = matmul_call(9'000'000);
  EXPECT_EQ(clear.cls, "compute_bound");
  EXPECT_EQ(clear.borderline_with, "");
  EXPECT_NE(expect::validate(clear.predicted, clear.cls, measured)->summary.find("(compute bound)"), std::string::npos);
}

TEST(ExpectClassifier, LowIntensityLargeOpsAreMemoryBound) {
  // Big elementwise ops: in-op time dominates, op durations far above the floor, 0 FLOPs.
  auto e = evidence_of(profile(10'000'000, 9'900'000, 0, 10, 990'000), flops(0, 8e7, 0, 10));
  auto v = classify(e, cpu_ceilings());
  EXPECT_EQ(v.cls, "memory_bound");
  EXPECT_GT(v.shares.memory, 0.5);
  EXPECT_GT(v.predicted.high, 1.5);  // fusion can drop the intermediates
}

TEST(ExpectClassifier, TranscendentalMathIsKeptNotFusedAway) {
  // Big elementwise ops that take 4x their memory traffic's time: as adds, the rest is other
  // op work (slow eager kernels fusion replaces); as sin, it is the polynomial each element
  // still needs, compiled or not, so less is predicted.
  auto adds =
      classify(evidence_of(profile(10'000'000, 9'900'000, 0, 10, 990'000), flops(0, 2e7, 0, 10)), cpu_ceilings());
  auto e =
      evidence_of(profile(10'000'000, 9'900'000, 0, 10, 990'000, 5, "aten::sin"), flops(0, 2e7, 0, 10, "aten::sin"));
  EXPECT_DOUBLE_EQ(e.kept_arithmetic_fraction, 0.99);
  auto v = classify(e, cpu_ceilings());
  EXPECT_NEAR(v.shares.memory, 0.25, 1e-9);  // 2e7 bytes at 8 GB/s of a 10 ms call
  EXPECT_NEAR(v.shares.kept_arithmetic, 0.99 - 0.25 - v.shares.fixed, 1e-9);
  EXPECT_DOUBLE_EQ(v.shares.other, 0.0);
  EXPECT_NEAR(adds.shares.other, v.shares.kept_arithmetic, 1e-9);
  EXPECT_LT(v.predicted.point, adds.predicted.point);
  EXPECT_DOUBLE_EQ(e.fused_kernel_bytes, 0.0);  // sin's traffic is an intermediate fusion can drop
  EXPECT_TRUE(keeps_arithmetic("aten::tanh_") && keeps_arithmetic("aten::_softmax") &&
              keeps_arithmetic("aten::layer_norm") && !keeps_arithmetic("aten::add") && !keeps_arithmetic("aten::mm"));
}

TEST(ExpectClassifier, EagerFusedKernelsAreKeptWithTheirTraffic) {
  // The same big ops as softmax: eager's fused kernel reads its input and writes its output
  // once, as a compiled one would, so none of its time counts as traffic fusion can drop.
  auto e = evidence_of(profile(10'000'000, 9'900'000, 0, 10, 990'000, 5, "aten::_softmax"),
                       flops(0, 2e7, 0, 10, "aten::_softmax"));
  EXPECT_DOUBLE_EQ(e.fused_kernel_fraction, 0.99);
  EXPECT_DOUBLE_EQ(e.fused_kernel_bytes, 2e7);
  auto v = classify(e, cpu_ceilings());
  EXPECT_DOUBLE_EQ(v.shares.memory, 0.0);
  EXPECT_NEAR(v.shares.kept_arithmetic, 0.99 - v.shares.fixed, 1e-9);
  EXPECT_DOUBLE_EQ(v.shares.other, 0.0);
  EXPECT_TRUE(is_fused_kernel("aten::native_layer_norm") && !is_fused_kernel("aten::tanh") &&
              keeps_arithmetic("aten::_softmax"));
  EXPECT_DOUBLE_EQ(element_op_weight("aten::add_"), 1.0);
  EXPECT_GT(element_op_weight("aten::clamp"), 5.0);  // a NaN-propagating min and max
}

TEST(ExpectClassifier, FixedCostsTimedInTheProfileAreTheOnesUsed) {
  // The same chain of tiny ops; the profile timed a compiled call of 40 us between its calls
  // (the machine was slower than when the ceiling of 20 us was measured): the prediction
  // divides the profile's own figure by the profile's wall time.
  json with_call = profile(300'000, 180'000, 0, 60, 3000);
  with_call["compiled_call_ns"] = 40'000.0;
  auto timed = evidence_of(with_call, flops(0, 30'720, 0, 60));
  auto untimed = evidence_of(profile(300'000, 180'000, 0, 60, 3000), flops(0, 30'720, 0, 60));
  EXPECT_DOUBLE_EQ(timed.compiled_call_ns, 40'000);
  EXPECT_TRUE(std::isnan(untimed.compiled_call_ns));
  auto vt = classify(timed, cpu_ceilings()), vu = classify(untimed, cpu_ceilings());
  EXPECT_EQ(vt.compiled_call_source, "profile");
  EXPECT_DOUBLE_EQ(vt.compiled_call_ns, 40'000);
  EXPECT_EQ(vu.compiled_call_source, "ceilings");
  EXPECT_DOUBLE_EQ(vu.compiled_call_ns, 20'000);
  EXPECT_LT(vt.predicted.point, vu.predicted.point);  // a dearer compiled call: less to gain
  EXPECT_DOUBLE_EQ(vt.op_floor_ns, 1000);             // not timed in this profile: the ceilings'
  // 40 us against the ceilings' 20 us: the profile ran on a slowed-down machine, and says so.
  ASSERT_TRUE(slow_machine(timed, cpu_ceilings()));
  EXPECT_NE(tct::report::message_of(*slow_machine(timed, cpu_ceilings())).find("2.0x as long"), std::string::npos);
  with_call["compiled_call_ns"] = 24'000.0;
  EXPECT_FALSE(slow_machine(evidence_of(with_call, flops(0, 30'720, 0, 60)), cpu_ceilings()));
  EXPECT_FALSE(slow_machine(untimed, cpu_ceilings()));
  // The op floor timed in the profile is the one ops are compared with (tiny: under 10 floors).
  with_call["op_floor_ns"] = 2000.0;
  auto v_floor = classify(evidence_of(with_call, flops(0, 30'720, 0, 60)), cpu_ceilings());
  EXPECT_DOUBLE_EQ(v_floor.op_floor_ns, 2000);
  for (const auto& r : v_floor.decided_by)
    if (r.metric == "median_op_ns") EXPECT_DOUBLE_EQ(r.threshold, 10 * 2000.0);
}

TEST(ExpectClassifier, IntervalWidensWithTheGeneratedKernelShareAndWithoutLibraryOps) {
  namespace cal = calibration;
  SpeedupRange fixed = speedup_range(0.5, 0.0, false), generated = speedup_range(0.5, 1.0, false);
  EXPECT_DOUBLE_EQ(fixed.point, 2.0);
  EXPECT_DOUBLE_EQ(fixed.log_sigma, cal::kLogSigmaBase);
  EXPECT_NEAR(std::log(fixed.high / fixed.low), 2 * cal::kIntervalZ * cal::kLogSigmaBase, 1e-12);
  EXPECT_NEAR(std::log(fixed.high * fixed.low / 4.0) / 2, cal::kLogBias, 1e-12);  // centred on point * exp(bias)
  EXPECT_GE(generated.high / generated.low, fixed.high / fixed.low);
  EXPECT_DOUBLE_EQ(generated.log_sigma, std::hypot(cal::kLogSigmaBase, cal::kLogSigmaGenerated));
  SpeedupRange elementwise = speedup_range(0.5, 0.0, true);
  EXPECT_DOUBLE_EQ(elementwise.log_sigma, std::hypot(cal::kLogSigmaBase, cal::kLogSigmaNoLibrary));
  EXPECT_TRUE(std::isnan(speedup_range(0.0, 0.0, false).point));  // no compiled time, no prediction
}

TEST(ExpectClassifier, PythonIssuingLibraryOpsAndModuleCallsAreCharged) {
  namespace cal = calibration;
  TimeShares s;
  s.outside = 0.4;
  s.fixed = 0.2;
  s.library = 0.4;
  // 2 of 8 ops are library ops: a quarter of the Python between ops issues them.
  CallFacts f{100'000, 10'000, 2, 8, 1, NAN};
  std::vector<Term> terms;
  SpeedupRange counted_none = predict_speedup(s, f, &terms);
  auto share = [&](const char* name) -> double {
    for (const Term& t : terms)
      if (t.name == name) return t.share;
    return NAN;
  };
  EXPECT_DOUBLE_EQ(share("outside_library_ops"), 0.1);
  EXPECT_DOUBLE_EQ(share("outside_ops"), 0.3);
  EXPECT_TRUE(std::isnan(share("module_calls")));  // not counted: no term
  f.module_calls = 0;
  EXPECT_DOUBLE_EQ(predict_speedup(s, f).point, counted_none.point);
  // A call that runs a module pays kModuleCallScale compiled calls (0.1 of the wall) more.
  f.module_calls = 3;
  SpeedupRange with_module = predict_speedup(s, f);
  EXPECT_NEAR(1 / with_module.point - 1 / counted_none.point, cal::kModuleCallScale * 0.1, 1e-12);
  // The count travels from the agent's flops answer.
  json fl = flops(0, 1000, 0, 1);
  fl["module_calls"] = 3;
  EXPECT_DOUBLE_EQ(evidence_of(profile(100'000, 50'000, 0, 4, 1000), fl).module_calls, 3);
  EXPECT_TRUE(std::isnan(evidence_of(profile(100'000, 50'000, 0, 4, 1000), flops(0, 1000, 0, 1)).module_calls));
}

TEST(ExpectClassifier, IdleGpuIsOverheadBound) {
  json p = profile(100'000, 90'000, 50'000, 20, 4500);
  p["device_type"] = "cuda";
  // 20 kernels per call of 1 us each, two overlapping: 19 us busy... plus one of 1 us = 20 us.
  for (auto& c : p["calls"]) {
    c["kernels_ns"] = json::array();
    for (int k = 0; k < 20; ++k) c["kernels_ns"].push_back({2000.0 * k, 2000.0 * k + 1000.0});
    c["kernels_ns"].push_back({500.0, 1500.0});  // overlaps the first: the union counts it once more by 500
  }
  auto e = evidence_of(p, flops(1e9, 1e6, 5e5, 10));
  auto v = classify(e, cpu_ceilings());
  EXPECT_EQ(v.cls, "overhead_bound");
  EXPECT_DOUBLE_EQ(*e.device_busy_fraction, 0.205);  // (20 x 1 us + 0.5 us) / 100 us
  EXPECT_DOUBLE_EQ(*e.kernel_launches, 21);
  EXPECT_GT(v.predicted.high, 2.0);
  auto s = suggest(e, v, {});
  bool cuda_graphs = false;
  for (const auto& x : s) cuda_graphs |= x.title.find("reduce-overhead") != std::string::npos;
  EXPECT_TRUE(cuda_graphs);
}

TEST(ExpectClassifier, RooflinePlacesTheWorkload) {
  auto e = evidence_of(profile(1'000'000, 900'000, 800'000, 3, 300'000), flops(8e6, 4e6, 3e6, 2));
  auto r = roofline(e, cpu_ceilings());
  // intensity 2 FLOP/byte * 8 GB/s = 16 GFLOP/s attainable; 8 MFLOP in 1 ms = 8 GFLOP/s.
  EXPECT_DOUBLE_EQ(r.attainable_flops, 16e9);
  EXPECT_DOUBLE_EQ(r.achieved_flops, 8e9);
  EXPECT_DOUBLE_EQ(r.fraction, 0.5);
}

TEST(ExpectValidation, VerdictWorthAndOneLine) {
  SpeedupRange pr{1.5, 4.0, 2.5};
  const auto alone = [](double est) { return expect::MeasuredSpeedup{est, NAN, NAN}; };
  EXPECT_EQ(expect::validate(pr, "overhead_bound", alone(2.0))->verdict, "inside");
  EXPECT_EQ(expect::validate(pr, "overhead_bound", alone(5.0))->verdict, "above");
  auto below = expect::validate(pr, "overhead_bound", {1.2, 1.1, 1.3});
  ASSERT_TRUE(below);
  EXPECT_EQ(below->verdict, "below");
  EXPECT_TRUE(below->direction_right);  // still a gain
  EXPECT_EQ(below->compile_worth_it, "yes");
  EXPECT_EQ(below->summary,
            "measured 1.20x [1.10, 1.30] is below the predicted 1.50x-4.00x (overhead bound): "
            "torch.compile is worth it here");
  auto wrong = expect::validate(pr, "overhead_bound", alone(0.9));
  ASSERT_TRUE(wrong);
  EXPECT_FALSE(wrong->direction_right);
  EXPECT_EQ(wrong->compile_worth_it, "no");
  EXPECT_NE(wrong->summary.find("direction wrong"), std::string::npos);
  EXPECT_FALSE(expect::validate(pr, "overhead_bound", alone(NAN)));
  // bench's inconclusive verdict supports no validation; its other verdicts do.
  tct::bench::Speedup measured;
  measured.interval = {2.0, 1.0, 4.0};
  measured.verdict = tct::stats::SpeedupVerdict::Inconclusive;
  EXPECT_FALSE(expect::validate(pr, expect::BoundClass::OverheadBound, std::nullopt, measured));
  measured.interval = {2.0, 1.9, 2.1};
  measured.verdict = tct::stats::SpeedupVerdict::Faster;
  EXPECT_EQ(expect::validate(pr, expect::BoundClass::OverheadBound, std::nullopt, measured)->verdict, "inside");
}

TEST(ExpectSuggestions, RankedAndTiedToEvidence) {
  auto e = evidence_of(profile(300'000, 150'000, 0, 60, 2500), flops(0, 30'720, 0, 60));
  auto v = classify(e, cpu_ceilings());
  SuggestionContext ctx;
  ctx.params = {{"batch", 1}};
  ctx.dtype = "float32";
  auto s = suggest(e, v, ctx);
  ASSERT_GE(s.size(), 3u);
  for (std::size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s[i].rank, static_cast<int>(i) + 1);
    EXPECT_FALSE(s[i].why.empty());
    EXPECT_FALSE(s[i].how.empty());
    ASSERT_TRUE(s[i].expected_gain);
    if (i > 0) EXPECT_GE(*s[i - 1].expected_gain, *s[i].expected_gain);
  }
  bool batch = false, python = false;
  for (const auto& x : s) {
    batch |= x.title == "Increase the batch size" && x.how.find("batch") != std::string::npos;
    python |= x.title == "Move Python logic out of the hot path";
    // Only the suggestion to compile as it is can be answered by a measured speedup.
    EXPECT_EQ(x.compile_as_is, x.title == kCompileAsIsTitle);
  }
  EXPECT_TRUE(batch);
  EXPECT_TRUE(python);
  EXPECT_EQ(batch_param({{"batch_size", 3}}), "batch_size");
  EXPECT_EQ(batch_param({{"width", 3}}), "");
}

TEST(ExpectCeilings, CachePathKeyAndRoundTrip) {
  EXPECT_EQ(ceilings_cache_path("/x", "/home/u"), "/x/tct/ceilings.json");
  EXPECT_EQ(ceilings_cache_path("", "/home/u"), "/home/u/.cache/tct/ceilings.json");
  EXPECT_EQ(ceilings_cache_path(nullptr, nullptr), "");
  json info = {{"device_type", "cpu"},
               {"device_name", "Xeon"},
               {"dtype", "float32"},
               {"torch_version", "2.13.0"},
               {"num_threads", 2}};
  std::string key = ceilings_cache_key(read_as<reply::DeviceInfo>(info));
  EXPECT_EQ(key, "cpu|Xeon|float32|torch 2.13.0|threads 2");
  info["device_type"] = "cuda";
  EXPECT_EQ(ceilings_cache_key(read_as<reply::DeviceInfo>(info)).find("threads"), std::string::npos);

  json cache = "corrupt";
  EXPECT_FALSE(lookup_ceilings(cache, key));
  // Timings that make 1e10 FLOP/s, 5e9 bytes/s, a 900 ns op floor and a 20 us compiled call.
  store_ceilings(cache, key,
                 read_as<reply::CeilingTimings>({{"copied_bytes", 2500},
                                                 {"copy_ns", {1000}},
                                                 {"matmul_n", 10},
                                                 {"matmul_ns", {200}},
                                                 {"op_floor_rounds_ns", {{1}, {900}}},
                                                 {"compiled_call_rounds_ns", {20'000}}}),
                 "2026-01-01T00:00:00Z");
  auto hit = lookup_ceilings(cache, key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->source, "cache");
  EXPECT_DOUBLE_EQ(hit->balance(), 2.0);
  EXPECT_FALSE(lookup_ceilings(cache, "other"));
  EXPECT_DOUBLE_EQ(hit->compiled_call_ns, 20'000);
  cache["entries"][key].erase("compiled_call_ns");  // written by an older tct: remeasure
  EXPECT_FALSE(lookup_ceilings(cache, key));
  cache["entries"][key]["compiled_call_ns"] = 20'000;
  cache["entries"][key]["op_floor_ns"] = nullptr;  // incomplete entry: remeasure
  EXPECT_FALSE(lookup_ceilings(cache, key));
}

// The agent sends every timing it took (python/tct_agent/ops/expect.py); the fastest repeat and
// the op floor's medians are taken here, and the cache keeps the figures.
TEST(ExpectTimings, CeilingsFromTheRawTimings) {
  const json raw = {{"copied_bytes", 1000},
                    {"copy_ns", {400, 200, 300}},
                    {"matmul_n", 10},
                    {"matmul_ns", {100, 50}},
                    {"op_floor_rounds_ns", {{1, 1, 1}, {900, 1100, 1000}, {800, 700, 2000}}},
                    {"compiled_call_rounds_ns", {30000, 20000, 25000}},
                    {"matmul_error", nullptr}};
  const auto timings = read_as<reply::CeilingTimings>(raw);
  const Ceilings c = ceilings_measured(timings);
  EXPECT_DOUBLE_EQ(c.peak_bandwidth, 2.0 * 1000 / 200e-9);
  EXPECT_DOUBLE_EQ(c.peak_flops, 2.0 * 1000 / 50e-9);
  EXPECT_DOUBLE_EQ(c.op_floor_ns, 800);  // medians 1000 and 800; the first round left out
  EXPECT_DOUBLE_EQ(c.compiled_call_ns, 20000);
  json failed = raw;
  failed["matmul_ns"] = json::array();
  EXPECT_TRUE(std::isnan(ceilings_measured(read_as<reply::CeilingTimings>(failed)).peak_flops));
  // The cache holds the figures.
  json cache = json::object();
  store_ceilings(cache, "k", timings, "2026-01-01T00:00:00Z");
  const auto hit = lookup_ceilings(cache, "k");
  ASSERT_TRUE(hit);
  EXPECT_DOUBLE_EQ(hit->op_floor_ns, 800);
  EXPECT_DOUBLE_EQ(hit->compiled_call_ns, 20000);
  EXPECT_DOUBLE_EQ(hit->peak_bandwidth, c.peak_bandwidth);
}

TEST(ExpectTimings, TheProfilesFixedCosts) {
  const json profile = {{"compiled_call_rounds_ns", {5000, 4000}},
                        {"op_floor_adds_ns", {{700, 900, 800}, {}, {600, 1000}}}};
  EXPECT_DOUBLE_EQ(compiled_call_of(profile), 4000);
  EXPECT_DOUBLE_EQ(op_floor_of(profile), 800);  // medians 800 and 800
  const json older = {{"compiled_call_ns", 4500.0}, {"op_floor_ns", 750.0}};
  EXPECT_DOUBLE_EQ(compiled_call_of(older), 4500);
  EXPECT_DOUBLE_EQ(op_floor_of(older), 750);
  EXPECT_TRUE(std::isnan(compiled_call_of({{"compiled_call_rounds_ns", json::array()}})));
}

TEST(ExpectSweep, ParsesValuesLikeParam) {
  auto s = tct::expect::parse_sweep("batch=1, 8,64");
  EXPECT_EQ(s.param, "batch");
  ASSERT_EQ(s.values.size(), 3u);
  EXPECT_EQ(s.values[1], tct::expect::SweepValue(8LL));
  auto t = tct::expect::parse_sweep("act=relu,0.5,true,\"x\",null");
  EXPECT_EQ(t.values[0], tct::expect::SweepValue("relu"));
  EXPECT_EQ(t.values[1], tct::expect::SweepValue(0.5));
  EXPECT_EQ(t.values[2], tct::expect::SweepValue(true));
  EXPECT_EQ(t.values[3], tct::expect::SweepValue("x"));
  EXPECT_EQ(t.values[4], tct::expect::SweepValue(nullptr));
  // Each written back as the literal it was typed as, and shown as a reader reads it.
  for (const char* literal : {"1", "8", "0.5", "1.0", "true", "null", "\"relu\"", "-3", "1e-05"})
    EXPECT_EQ(tct::expect::to_json(tct::expect::sweep_value_from_json(json::parse(literal))).dump(),
              json::parse(literal).dump());
  EXPECT_EQ(tct::expect::to_text(t.values[0]), "relu");
  EXPECT_EQ(tct::expect::to_text(t.values[1]), "0.5");
  EXPECT_EQ(tct::expect::to_text(t.values[4]), "null");
  try {  // one value per point, not a list: a usage error that says what a value may be
    tct::expect::parse_sweep("shape=[64]");
    ADD_FAILURE() << "a list value was accepted";
  } catch (const tct::Error& e) {
    EXPECT_EQ(e.code(), tct::ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("[64] is a list or an object"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("single values"), std::string::npos) << e.hint();
  }
  EXPECT_THROW(tct::expect::parse_sweep("batch"), tct::Error);
  EXPECT_THROW(tct::expect::parse_sweep("=1,2"), tct::Error);
  EXPECT_THROW(tct::expect::parse_sweep("batch=1,,2"), tct::Error);
  EXPECT_THROW(tct::expect::parse_sweep("batch="), tct::Error);
}

TEST(ExpectSweep, OneFailingPointDoesNotStopTheOthers) {
  using tct::expect::SweepValue;
  tct::expect::SweepSpec spec{"batch", {SweepValue(1LL), SweepValue(-1LL), SweepValue(64LL)}};
  int calls = 0;
  auto points = tct::expect::run_sweep(spec, [&](const SweepValue& v) {
    ++calls;
    if (v == SweepValue(-1LL))
      throw tct::Error(tct::ExitCode::TargetFailed, "target_raised", "negative batch", "use >0");
    tct::expect::SweepPoint p;
    p.analysed = tct::expect::SweepPoint::Analysed{};
    p.analysed->cls =
        v == SweepValue(1LL) ? tct::expect::BoundClass::OverheadBound : tct::expect::BoundClass::ComputeBound;
    return p;
  });
  EXPECT_EQ(calls, 3);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_FALSE(points[0].error);
  EXPECT_EQ(points[1].value, SweepValue(-1LL));
  ASSERT_TRUE(points[1].error);
  EXPECT_EQ(points[1].error->kind, "target_raised");
  EXPECT_EQ(points[1].error->exit_code, 3);
  // As the point's error has always been written: every field, a null stage when it has none.
  EXPECT_EQ(tct::report::to_json(*points[1].error), (json{{"kind", "target_raised"},
                                                          {"message", "negative batch"},
                                                          {"hint", "use >0"},
                                                          {"stage", nullptr},
                                                          {"exit_code", 3}}));
  EXPECT_FALSE(points[1].analysed);
  EXPECT_FALSE(points[2].error);
  auto changes = tct::expect::class_changes(points);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].from_value, SweepValue(1LL));
  EXPECT_EQ(changes[0].to_value, SweepValue(64LL));
}

TEST(ExpectSweep, WarningsNameThePointThatRaisedThem) {
  // A point's bench warnings (its last list: bench decides it afresh after each phase).
  namespace kind = tct::report::kind;
  const std::vector<tct::report::Warning> bench_warnings = {{kind::Outliers{0.25, false}, ""},
                                                            {kind::GraphBreaksInRow{2}, "inductor/default"}};
  const json w = tct::report::to_json(tct::expect::point_warnings("batch=8", bench_warnings));
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0]["code"], "noisy_measurement");
  EXPECT_EQ(w[0]["message"], "batch=8: noisy machine: 25% outliers");
  EXPECT_EQ(w[0]["hint"], "close other programs or raise --budget");
  EXPECT_EQ(w[0]["figure"], 0.25);
  EXPECT_EQ(w[0]["row"], "batch=8");  // the brief report's "(also batch=8)"
  EXPECT_EQ(w[1]["message"], "batch=8: inductor/default: 2 graph breaks: parts of the target run eagerly");
  EXPECT_EQ(w[1]["row"], "batch=8");
}

TEST(ExpectSweep, InterruptPropagates) {
  tct::expect::SweepSpec spec{"batch", {1LL, 2LL}};
  EXPECT_THROW(tct::expect::run_sweep(spec,
                                      [](const tct::expect::SweepValue&) -> tct::expect::SweepPoint {
                                        throw tct::Error(tct::ExitCode::Interrupted, "interrupted", "ctrl-c");
                                      }),
               tct::Error);
}

TEST(ExpectEvidence, TypicalCallIgnoresOneSlowOp) {
  json p = profile(100'000, 6'000, 0, 3, 2000, 5);
  p["calls"][1]["ns"][1] = 5'000'000;  // call 1, op 1 preempted: the call takes as much longer
  p["calls"][1]["wall_ns"] = 100'000 + 5'000'000 - 2000;
  auto e = evidence_of(p, flops(0, 1000, 0, 3));
  ASSERT_EQ(e.typical_op_ns.size(), 3u);
  EXPECT_DOUBLE_EQ(e.typical_op_ns[1], 2000);
  auto s = time_shares(e, cpu_ceilings());
  EXPECT_NEAR(s.fixed, 0.06, 1e-9);  // every op is tiny: all of the in-op time is fixed cost
  EXPECT_NEAR(s.other, 0.0, 1e-9);
}

TEST(ExpectValidation, InsideIsNeverWrong) {
  // A predicted gain with a noisy measurement inside the range: one consistent answer.
  SpeedupRange gain{1.1, 1.6, 1.3};
  auto v = expect::validate(gain, "compute_bound", {1.2, 0.9, 1.5});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->verdict, "inside");
  EXPECT_TRUE(v->direction_right);
  EXPECT_EQ(v->compile_worth_it, "unclear");
  // A no-gain range, measured a clear gain above it: wrong.
  SpeedupRange none{0.9, 1.04, 0.97};
  EXPECT_FALSE(expect::validate(none, "compute_bound", {1.42, 1.3, 1.5})->direction_right);
  // Above a no-gain range but too noisy to call a gain: not wrong.
  EXPECT_TRUE(expect::validate(none, "compute_bound", {1.42, 0.63, 1.87})->direction_right);
  // Unclear worth, said as bench's verdict has it: faster (the interval above 1) but maybe by
  // under 5%, or no clear difference (the interval holds 1).
  auto faster = expect::validate(none, "compute_bound", {1.06, 1.01, 1.12});
  EXPECT_EQ(faster->compile_worth_it, "unclear");
  EXPECT_NE(faster->summary.find("faster, but the gain may be under 5%"), std::string::npos) << faster->summary;
  // An interval that holds 1 is said by the one verdict rule: wide, inconclusive; narrow, no
  // clear difference (never "too noisy" for a narrow one).
  const std::string wide = expect::validate(none, "compute_bound", {1.42, 0.63, 1.87})->summary;
  EXPECT_NE(wide.find("inconclusive (the interval holds 1 and is too wide to tell)"), std::string::npos) << wide;
  const std::string narrow = expect::validate(none, "compute_bound", {1.02, 0.97, 1.07})->summary;
  EXPECT_NE(narrow.find(": no clear difference from eager"), std::string::npos) << narrow;
  EXPECT_EQ(narrow.find("noisy"), std::string::npos) << narrow;
}

TEST(ExpectEvidence, PreemptedCallsAreFlagged) {
  json steady = profile(100'000, 60'000, 0, 3, 2000, 10);
  EXPECT_FALSE(load_instability(evidence_of(steady, flops(0, 1000, 0, 3))));
  // Half of the calls preempted between ops: the same op time in twice the wall.
  json loaded = steady;
  for (int i = 0; i < 10; i += 2) loaded["calls"][i]["wall_ns"] = 200'000;
  auto e = evidence_of(loaded, flops(0, 1000, 0, 3));
  EXPECT_NEAR(e.in_op_fraction_p90 - e.in_op_fraction_p10, 0.3, 1e-9);
  ASSERT_TRUE(load_instability(e));
  EXPECT_NE(tct::report::message_of(*load_instability(e)).find("from 40% to 70%"), std::string::npos);
  // The evidence itself is the lower envelope: the same as on the quiet machine.
  auto quiet = evidence_of(steady, flops(0, 1000, 0, 3));
  EXPECT_TRUE(e.envelope);
  EXPECT_DOUBLE_EQ(e.in_op_fraction, quiet.in_op_fraction);
  EXPECT_DOUBLE_EQ(e.profiled_wall_ns, 100'000);
}

TEST(ExpectEvidence, LoadThatMovedDuringTheProfileIsFlagged) {
  // 10 calls in time order: 40% outside ops (100 us wall, 60 us in ops) throughout.
  json steady = profile(100'000, 60'000, 0, 3, 2000, 10);
  auto quiet = evidence_of(steady, flops(0, 1000, 0, 3));
  ASSERT_TRUE(quiet.outside_fraction_halves);
  EXPECT_NEAR(quiet.outside_fraction_halves->first, 0.4, 1e-9);
  EXPECT_NEAR(quiet.outside_fraction_halves->second, 0.4, 1e-9);
  EXPECT_FALSE(load_drift(quiet));
  // The second half ran on a busier machine: 30 us more between ops in every call. Every call
  // of a half alike, so the spread of the calls' shares is no wider than a quiet run's.
  json busy = steady;
  for (int i = 5; i < 10; ++i) busy["calls"][i]["wall_ns"] = 130'000;
  auto e = evidence_of(busy, flops(0, 1000, 0, 3));
  EXPECT_NEAR(e.outside_fraction_halves->second, 70.0 / 130.0, 1e-9);
  ASSERT_TRUE(load_drift(e));
  EXPECT_NE(tct::report::message_of(*load_drift(e)).find("read 40% in the profile's first half and 54% in its second"),
            std::string::npos);
  // The evidence is the envelope of all calls: the quiet half's.
  EXPECT_DOUBLE_EQ(e.in_op_fraction, quiet.in_op_fraction);
  EXPECT_TRUE(tct::expect::to_json(tct::expect::summarize(e))["overhead_fraction_halves"].is_array());
}

TEST(ExpectEvidence, EnvelopeTakesEachOpsFastestRun) {
  // Calls alternate which op was preempted: no call is fast throughout, every op is fast in some call.
  json p = profile(100'000, 60'000, 20'000, 3, 0, 4);
  for (int c = 0; c < 4; ++c) {
    p["calls"][c]["ns"][c % 3] = p["calls"][c]["ns"][c % 3].get<double>() + 50'000;
    p["calls"][c]["wall_ns"] = 150'000;
  }
  auto e = evidence_of(p, flops(0, 1000, 0, 2));
  EXPECT_DOUBLE_EQ(e.in_op_ns, 60'000);
  EXPECT_DOUBLE_EQ(e.profiled_wall_ns, 100'000);
  EXPECT_DOUBLE_EQ(e.library_fraction, 0.2);
  // Calls that ran different ops: medians, not an envelope.
  p["calls"][0]["op"][1] = 0;
  EXPECT_FALSE(evidence_of(p, flops(0, 1000, 0, 2)).envelope);
}

// A sweep point's note says where its measurement lies against its range, and that a measured
// speedup left unjudged was too wide to judge (validate() judges every other one).
TEST(ExpectSweep, AnUnjudgedMeasurementIsSaidTooWide) {
  tct::expect::ExpectResult r;
  r.analysis = tct::expect::Analysis{};
  tct::expect::Sweep sw;
  sw.param = "batch";
  for (const long long value : {1LL, 4LL}) {
    tct::expect::SweepPoint p;
    p.value = value;
    p.analysed = tct::expect::SweepPoint::Analysed{};
    p.analysed->predicted = {0.95, 1.29, 1.14};
    p.benched = true;
    p.speedup =
        value == 1 ? tct::expect::MeasuredSpeedup{3.62, 0.16, 91.06} : tct::expect::MeasuredSpeedup{0.8, 0.67, 0.95};
    if (value == 4) p.validation = tct::expect::validate(p.analysed->predicted, "compute_bound", *p.speedup, "");
    sw.points.push_back(p);
  }
  r.sweep = sw;
  const std::string text = tct::expect::brief(r, false);
  EXPECT_NE(text.find("too wide to judge"), std::string::npos) << text;
  EXPECT_NE(text.find("below"), std::string::npos) << text;
}
