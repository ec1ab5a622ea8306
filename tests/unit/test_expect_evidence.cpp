// The expect classifier on recorded evidence: the agent's raw replies (expect.profile,
// expect.flops, expect.ceilings) captured from real runs on the built-in targets
// (tests/unit/fixtures/expect/capture.py), classified and aggregated in C++.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "expect/classifier.hpp"
#include "expect/evidence.hpp"
#include "expect/ops.hpp"

using nlohmann::json;
using namespace tct::expect;

namespace {

json fixture(const std::string& name) {
  std::ifstream f(std::filesystem::path(TCT_SOURCE_DIR) / "tests" / "unit" / "fixtures" / "expect" / (name + ".json"));
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

struct Recorded {
  Evidence e;
  Ceilings c;
  Verdict v;
};

Recorded analyse(const std::string& name) {
  json j = fixture(name);
  Recorded r;
  std::optional<reply::Flops> flops;
  if (j["flops"].is_object()) flops = tct::core::fields::read_as<reply::Flops>(j["flops"]);
  r.e = evidence_from_agent(tct::core::fields::read_as<reply::Profile>(j["profile"]), flops);
  r.c = ceilings_from_json(j["ceilings"], "measured");
  r.v = classify(r.e, r.c);
  return r;
}

bool top_op_has_class(const Evidence& e, const std::string& cls) {
  for (const auto& op : e.top_ops)
    if (op.cls == cls) return true;
  return false;
}

}  // namespace

TEST(ExpectOps, ClassFromNameAndTags) {
  EXPECT_EQ(op_class("aten::addmm", {"core"}, false), "matmul");
  EXPECT_EQ(op_class("aten::linear", {}, false), "matmul");
  EXPECT_EQ(op_class("aten::baddbmm_", {}, false), "matmul");  // in place: the same kernel
  EXPECT_EQ(op_class("aten::scaled_dot_product_attention", {}, false), "attention");
  EXPECT_EQ(op_class("aten::_scaled_dot_product_flash_attention_for_cpu", {}, false), "attention");
  EXPECT_EQ(op_class("aten::conv2d", {}, false), "conv");
  EXPECT_EQ(op_class("aten::mkldnn_convolution", {}, false), "conv");
  EXPECT_EQ(op_class("aten::view", {"core"}, true), "view");
  EXPECT_EQ(op_class("aten::t_", {"inplace_view"}, false), "view");
  EXPECT_EQ(op_class("aten::add", {"core", "pointwise"}, false), "pointwise");
  EXPECT_EQ(op_class("aten::sum", {"reduction"}, false), "reduction");
  EXPECT_EQ(op_class("aten::layer_norm", {"pt2_compliant_tag"}, false), "other");
  EXPECT_EQ(op_class("tct::call0", {}, false), "other");
  EXPECT_TRUE(is_library_class("conv"));
  EXPECT_FALSE(is_library_class("pointwise"));
}

TEST(ExpectRecorded, TinyOpsAreAllPointwiseAndOverheadBound) {
  auto r = analyse("tiny_ops");
  EXPECT_DOUBLE_EQ(r.e.ops_per_call, 24);
  EXPECT_DOUBLE_EQ(r.e.library_fraction, 0.0);
  EXPECT_EQ(r.e.pointwise_ops, 24);  // mul, add, sub and sin/tanh/cos/sigmoid: all tagged pointwise
  EXPECT_EQ(r.v.cls, "overhead_bound");
  EXPECT_GT(r.v.predicted.point, 1.5);
  EXPECT_LT(r.v.predicted.low, r.v.predicted.point);
  EXPECT_GT(r.v.predicted.high, r.v.predicted.point);
}

TEST(ExpectRecorded, LargeMlpIsLibraryTime) {
  auto r = analyse("mlp_b512");
  EXPECT_TRUE(top_op_has_class(r.e, "matmul"));  // aten::linear from the profiler
  EXPECT_GT(r.e.library_ops, 0);                 // aten::addmm from the dispatch count
  EXPECT_GT(r.e.library_fraction, 0.5);
  EXPECT_EQ(r.v.cls, "compute_bound");
  EXPECT_LT(r.v.predicted.point, 1.3);
}

TEST(ExpectRecorded, ConvnetHasConvTime) {
  auto r = analyse("convnet");
  EXPECT_TRUE(top_op_has_class(r.e, "conv"));
  EXPECT_GT(r.e.conv_fraction, 0.0);
  EXPECT_LE(r.e.conv_fraction, r.e.library_fraction);
  EXPECT_GT(r.v.shares.conv, 0.0);
}

TEST(ExpectRecorded, TransformerBlockSeesAttentionAndViews) {
  auto r = analyse("transformer_block");
  EXPECT_TRUE(top_op_has_class(r.e, "attention"));
  EXPECT_TRUE(top_op_has_class(r.e, "matmul"));
  EXPECT_TRUE(top_op_has_class(r.e, "view"));
  // The typical call is the per-position median over 3 calls of the same 19 ops.
  EXPECT_EQ(r.e.typical_op_ns.size(), 19u);
  // Every predicted term is a share of the wall time times what compile keeps of it.
  double sum = 0;
  for (const auto& t : r.v.terms) sum += t.compiled_share;
  EXPECT_NEAR(1.0 / sum, r.v.predicted.point, 1e-9);
}
