#include <gtest/gtest.h>

#include "probe/json.hpp"
#include "probe/verdict.hpp"

using namespace tct::probe;
using json = nlohmann::json;

namespace {

json healthy_facts() {
  return {
      {"torch", {{"version", "2.13.0+cpu"}, {"compile_available", true}, {"dynamo_supported", true}, {"debug", false}}},
      {"cpp_compiler", {{"path", "/usr/bin/g++"}, {"openmp", true}}},
      {"devices", {{"cuda_available", false}, {"cuda", json::array()}}},
      {"triton", {{"installed", false}}}};
}

// The facts as the agent and the environment give them (the records the runner reads).
struct Input {
  json torch_hello;  // the handshake's {version}, or null
  json facts;        // the agent's facts record, or null
  std::map<std::string, std::string> environment;
  json smoke = json::array();
};

Input healthy() { return {{{"version", "2.13.0+cpu"}}, healthy_facts(), {}, json::array()}; }

Decision decide_probe(const Input& in) {
  ProbeResult r;
  if (in.torch_hello.is_object()) r.torch_version = in.torch_hello.value("version", "");
  if (in.facts.is_object()) r.facts = facts_from_record(in.facts);
  r.environment_variables = in.environment;
  for (const auto& s : in.smoke) r.smoke.push_back(smoke_from_json(s));
  return decide(r, "/venv/bin/python");
}

bool has(const Decision& v, const std::string& code, const std::string& severity) {
  for (const auto& r : v.reasons)
    if (r.code == code && to_string(r.severity) == severity) return true;
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
  EXPECT_EQ(v.verdict, Verdict::Usable);
  EXPECT_TRUE(v.reasons.empty());
}

TEST(ProbeVerdict, MissingTorchIsABlockerWithAPipFix) {
  auto in = healthy();
  in.torch_hello = nullptr;
  in.facts = nullptr;
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::NotUsable);
  ASSERT_TRUE(has(v, "torch_missing", "blocker"));
  EXPECT_NE(v.reasons[0].fix.find("/venv/bin/python -m pip install torch"), std::string::npos);
}

TEST(ProbeVerdict, OldTorchIsABlocker) {
  auto in = healthy();
  in.torch_hello = {{"version", "1.13.1"}};
  in.facts = nullptr;
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::NotUsable);
  EXPECT_TRUE(has(v, "torch_too_old", "blocker"));
}

TEST(ProbeVerdict, UnsupportedPythonIsABlocker) {
  auto in = healthy();
  in.facts["torch"]["dynamo_supported"] = false;
  in.facts["torch"]["dynamo_error"] = "Python 3.15+ not yet supported for torch.compile";
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::NotUsable);
  EXPECT_TRUE(has(v, "python_unsupported", "blocker"));
}

TEST(ProbeVerdict, NoCompilerOrOpenMpAreCaveats) {
  auto in = healthy();
  in.facts["cpp_compiler"] = {{"path", nullptr}, {"error", "g++ not found"}};
  EXPECT_TRUE(has(decide_probe(in), "no_cpp_compiler", "caveat"));
  in = healthy();
  in.facts["cpp_compiler"]["openmp"] = false;
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::UsableWithCaveats);
  EXPECT_TRUE(has(v, "no_openmp", "caveat"));
}

TEST(ProbeVerdict, CudaWithoutTritonAndOldGpuAreCaveats) {
  auto in = healthy();
  in.facts["devices"] = {{"cuda_available", true},
                         {"cuda", json::array({{{"index", 0}, {"name", "Tesla P100"}, {"capability", {6, 0}}}})}};
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::UsableWithCaveats);
  EXPECT_TRUE(has(v, "triton_missing", "caveat"));
  EXPECT_TRUE(has(v, "gpu_too_old", "caveat"));
}

TEST(ProbeVerdict, DisablingEnvironmentVariableIsABlocker) {
  auto in = healthy();
  in.environment = {{"TORCHDYNAMO_DISABLE", "1"}, {"TORCH_LOGS", "+dynamo"}};
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::NotUsable);
  EXPECT_TRUE(has(v, "compile_disabled", "blocker"));
  EXPECT_TRUE(has(v, "torch_logs", "info"));
  in.environment = {{"TORCHDYNAMO_DISABLE", "0"}};
  EXPECT_EQ(decide_probe(in).verdict, Verdict::Usable);
}

TEST(ProbeVerdict, SmokeFailureOnCpuBlocksOnGpuIsACaveat) {
  auto in = healthy();
  in.smoke = json::array({{{"device", "cpu"}, {"backend", "inductor"}, {"ok", false}, {"error", "CppCompileError"}}});
  EXPECT_TRUE(has(decide_probe(in), "smoke_failed", "blocker"));
  in.smoke = json::array({{{"device", "cpu"}, {"backend", "inductor"}, {"ok", true}, {"match", true}},
                          {{"device", "cuda"}, {"backend", "inductor"}, {"ok", true}, {"match", false}}});
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::UsableWithCaveats);
  EXPECT_TRUE(has(v, "smoke_mismatch", "caveat"));
}

TEST(ProbeSupportedTorch, TestedInRangeOlderNewer) {
  EXPECT_EQ(torch_support("2.13.0+cpu").status, SupportStatus::Tested);
  EXPECT_EQ(torch_support("2.14.1+cu130").status, SupportStatus::Tested);
  EXPECT_EQ(torch_support("2.14.0").status, SupportStatus::InRange);
  EXPECT_EQ(torch_support("2.6.0").status, SupportStatus::InRange);
  EXPECT_EQ(torch_support("2.11.0+cu128").status, SupportStatus::InRange);
  EXPECT_EQ(torch_support("2.5.1").status, SupportStatus::Older);
  EXPECT_EQ(torch_support("2.15.0+cu132").status, SupportStatus::Tested);
  EXPECT_EQ(torch_support("2.15.1").status, SupportStatus::InRange);
  EXPECT_EQ(torch_support("2.16.0.dev20260101").status, SupportStatus::Newer);
  EXPECT_EQ(torch_support("3.0.0").status, SupportStatus::Newer);
  auto s = torch_support("2.13.0");
  EXPECT_EQ(s.min, "2.6");
  EXPECT_EQ(s.tested, (std::vector<std::string>{"2.13.0", "2.14.1", "2.15.0"}));
  EXPECT_EQ(tested_words(s.tested), "2.13.0, 2.14.1 and 2.15.0");
  EXPECT_EQ(tested_words({"2.13.0", "2.14.1"}), "2.13.0 and 2.14.1");
}

TEST(ProbeSupportedTorch, OutsideTheRangeIsACaveatInsideIsSilent) {
  auto in = healthy();
  in.torch_hello = {{"version", "2.4.1"}};
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::UsableWithCaveats);
  ASSERT_TRUE(has(v, "torch_unsupported", "caveat"));
  EXPECT_NE(v.reasons[0].message.find("tested on 2.13.0, 2.14.1 and 2.15.0"), std::string::npos)
      << v.reasons[0].message;
  EXPECT_NE(v.reasons[0].fix.find("'torch>=2.6'"), std::string::npos);
  in.torch_hello = {{"version", "2.16.0"}};
  EXPECT_TRUE(has(decide_probe(in), "torch_untested", "caveat"));
  for (const char* ok : {"2.6.0", "2.11.0", "2.14.1", "2.15.0"}) {
    in.torch_hello = {{"version", ok}};
    EXPECT_EQ(decide_probe(in).verdict, Verdict::Usable) << ok;
  }
}

TEST(ProbeVerdict, CudaBuildWithoutAGpuSaysSoAndWhy) {
  auto in = healthy();
  in.facts["torch"]["build"] = "cuda";
  in.facts["torch"]["cuda"] = "13.0";
  in.facts["devices"]["cuda_error"] = "Found no NVIDIA driver on your system";
  auto v = decide_probe(in);
  EXPECT_EQ(v.verdict, Verdict::Usable);  // the CPU still works: information, not a caveat
  ASSERT_TRUE(has(v, "cuda_no_gpu", "info"));
  EXPECT_EQ(
      v.reasons[0].message,
      "torch is a CUDA 13.0 build but sees no GPU (Found no NVIDIA driver on your system): only the CPU is measured");
  // A CPU build without a GPU, or a CUDA build that sees one, says nothing about it.
  in.facts["torch"]["build"] = "cpu";
  EXPECT_FALSE(has(decide_probe(in), "cuda_no_gpu", "info"));
  in.facts["torch"]["build"] = "cuda";
  in.facts["devices"] = {{"cuda_available", true}, {"cuda", json::array({{{"index", 0}, {"capability", {9, 0}}}})}};
  in.facts["triton"] = {{"installed", true}};
  EXPECT_FALSE(has(decide_probe(in), "cuda_no_gpu", "info"));
}
