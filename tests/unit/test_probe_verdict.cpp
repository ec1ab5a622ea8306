#include <gtest/gtest.h>

#include "analysis/probe_verdict.hpp"

using namespace tct::analysis;
using json = nlohmann::json;

namespace {

json healthy_facts() {
  return {{"torch", {{"version", "2.13.0+cpu"}, {"compile_available", true}, {"dynamo_supported", true}, {"debug", false}}},
          {"cpp_compiler", {{"path", "/usr/bin/g++"}, {"openmp", true}}},
          {"devices", {{"cuda_available", false}, {"cuda", json::array()}}},
          {"triton", {{"installed", false}}}};
}

ProbeInput healthy() {
  ProbeInput in;
  in.python_path = "/venv/bin/python";
  in.torch_hello = {{"version", "2.13.0+cpu"}};
  in.facts = healthy_facts();
  in.environment = json::object();
  in.smoke = json::array();
  return in;
}

bool has(const ProbeVerdict& v, const std::string& code, const std::string& severity) {
  for (const auto& r : v.reasons)
    if (r.code == code && r.severity == severity) return true;
  return false;
}

}  // namespace

TEST(ProbeVersion, ParsesLocalAndPreReleaseSuffixes) {
  auto v = parse_version("2.13.0+cpu");
  EXPECT_EQ(v.major, 2);
  EXPECT_EQ(v.minor, 13);
  EXPECT_EQ(v.patch, 0);
  EXPECT_EQ(parse_version("2.1.0a0+git123").minor, 1);
  EXPECT_EQ(parse_version("garbage").major, 0);
  EXPECT_TRUE(at_least(parse_version("2.0"), 2, 0));
  EXPECT_FALSE(at_least(parse_version("1.13.1"), 2, 0));
  EXPECT_TRUE(at_least(parse_version("3.0.0"), 2, 5));
}

TEST(ProbeVerdict, HealthyCpuMachineIsUsable) {
  auto v = decide_probe(healthy());
  EXPECT_EQ(v.verdict, "usable");
  EXPECT_TRUE(v.reasons.empty());
}

TEST(ProbeVerdict, MissingTorchIsABlockerWithAPipFix) {
  auto in = healthy();
  in.torch_hello = nullptr;
  in.facts = nullptr;
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "not_usable");
  ASSERT_TRUE(has(v, "torch_missing", "blocker"));
  EXPECT_NE(v.reasons[0].fix.find("/venv/bin/python -m pip install torch"), std::string::npos);
}

TEST(ProbeVerdict, OldTorchIsABlocker) {
  auto in = healthy();
  in.torch_hello = {{"version", "1.13.1"}};
  in.facts = nullptr;
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "not_usable");
  EXPECT_TRUE(has(v, "torch_too_old", "blocker"));
}

TEST(ProbeVerdict, UnsupportedPythonIsABlocker) {
  auto in = healthy();
  in.facts["torch"]["dynamo_supported"] = false;
  in.facts["torch"]["dynamo_error"] = "Python 3.15+ not yet supported for torch.compile";
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "not_usable");
  EXPECT_TRUE(has(v, "python_unsupported", "blocker"));
}

TEST(ProbeVerdict, NoCompilerOrOpenMpAreCaveats) {
  auto in = healthy();
  in.facts["cpp_compiler"] = {{"path", nullptr}, {"error", "g++ not found"}};
  EXPECT_TRUE(has(decide_probe(in), "no_cpp_compiler", "caveat"));
  in = healthy();
  in.facts["cpp_compiler"]["openmp"] = false;
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "usable_with_caveats");
  EXPECT_TRUE(has(v, "no_openmp", "caveat"));
}

TEST(ProbeVerdict, CudaWithoutTritonAndOldGpuAreCaveats) {
  auto in = healthy();
  in.facts["devices"] = {{"cuda_available", true},
                         {"cuda", json::array({{{"index", 0}, {"name", "Tesla P100"}, {"capability", {6, 0}}}})}};
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "usable_with_caveats");
  EXPECT_TRUE(has(v, "triton_missing", "caveat"));
  EXPECT_TRUE(has(v, "gpu_too_old", "caveat"));
}

TEST(ProbeVerdict, DisablingEnvironmentVariableIsABlocker) {
  auto in = healthy();
  in.environment = {{"TORCHDYNAMO_DISABLE", "1"}, {"TORCH_LOGS", "+dynamo"}};
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "not_usable");
  EXPECT_TRUE(has(v, "compile_disabled", "blocker"));
  EXPECT_TRUE(has(v, "torch_logs", "info"));
  in.environment = {{"TORCHDYNAMO_DISABLE", "0"}};
  EXPECT_EQ(decide_probe(in).verdict, "usable");
}

TEST(ProbeVerdict, SmokeFailureOnCpuBlocksOnGpuIsACaveat) {
  auto in = healthy();
  in.smoke = json::array({{{"device", "cpu"}, {"backend", "inductor"}, {"ok", false}, {"error", "CppCompileError"}}});
  EXPECT_TRUE(has(decide_probe(in), "smoke_failed", "blocker"));
  in.smoke = json::array({{{"device", "cpu"}, {"backend", "inductor"}, {"ok", true}, {"match", true}},
                          {{"device", "cuda"}, {"backend", "inductor"}, {"ok", true}, {"match", false}}});
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "usable_with_caveats");
  EXPECT_TRUE(has(v, "smoke_mismatch", "caveat"));
}
