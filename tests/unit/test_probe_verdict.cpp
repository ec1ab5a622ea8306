#include <gtest/gtest.h>

#include "probe/verdict.hpp"

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

TEST(ProbeSupportedTorch, TestedInRangeOlderNewer) {
  EXPECT_EQ(supported_torch_json("2.13.0+cpu")["status"], "tested");
  EXPECT_EQ(supported_torch_json("2.14.1+cu130")["status"], "tested");
  EXPECT_EQ(supported_torch_json("2.14.0")["status"], "in_range");
  EXPECT_EQ(supported_torch_json("2.6.0")["status"], "in_range");
  EXPECT_EQ(supported_torch_json("2.11.0+cu128")["status"], "in_range");
  EXPECT_EQ(supported_torch_json("2.5.1")["status"], "older");
  EXPECT_EQ(supported_torch_json("2.15.0.dev20260101")["status"], "newer");
  EXPECT_EQ(supported_torch_json("3.0.0")["status"], "newer");
  auto j = supported_torch_json("2.13.0");
  EXPECT_EQ(j["min"], "2.6");
  EXPECT_EQ(j["tested"], json({"2.13.0", "2.14.1"}));
}

TEST(ProbeSupportedTorch, OutsideTheRangeIsACaveatInsideIsSilent) {
  auto in = healthy();
  in.torch_hello = {{"version", "2.4.1"}};
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "usable_with_caveats");
  ASSERT_TRUE(has(v, "torch_unsupported", "caveat"));
  EXPECT_NE(v.reasons[0].message.find("tested on 2.13.0 and 2.14.1"), std::string::npos) << v.reasons[0].message;
  EXPECT_NE(v.reasons[0].fix.find("'torch>=2.6'"), std::string::npos);
  in.torch_hello = {{"version", "2.15.0"}};
  EXPECT_TRUE(has(decide_probe(in), "torch_untested", "caveat"));
  for (const char* ok : {"2.6.0", "2.11.0", "2.14.1"}) {
    in.torch_hello = {{"version", ok}};
    EXPECT_EQ(decide_probe(in).verdict, "usable") << ok;
  }
}

TEST(ProbeVerdict, CudaBuildWithoutAGpuSaysSoAndWhy) {
  auto in = healthy();
  in.facts["torch"]["build"] = "cuda";
  in.facts["torch"]["cuda"] = "13.0";
  in.facts["devices"]["cuda_error"] = "Found no NVIDIA driver on your system";
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, "usable");  // the CPU still works: information, not a caveat
  ASSERT_TRUE(has(v, "cuda_no_gpu", "info"));
  EXPECT_EQ(v.reasons[0].message,
            "torch is a CUDA 13.0 build but sees no GPU (Found no NVIDIA driver on your system): only the CPU is measured");
  // A CPU build without a GPU, or a CUDA build that sees one, says nothing about it.
  in.facts["torch"]["build"] = "cpu";
  EXPECT_FALSE(has(decide_probe(in), "cuda_no_gpu", "info"));
  in.facts["torch"]["build"] = "cuda";
  in.facts["devices"] = {{"cuda_available", true}, {"cuda", json::array({{{"index", 0}, {"capability", {9, 0}}}})}};
  in.facts["triton"] = {{"installed", true}};
  EXPECT_FALSE(has(decide_probe(in), "cuda_no_gpu", "info"));
}
