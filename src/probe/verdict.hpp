#pragma once
// Can torch.compile run here? Turns the probe's facts into a verdict and reasons, each with
// a fix: the one place they are decided. Pure: facts in, verdict out.
#include <string>
#include <vector>

#include "probe/result.hpp"

namespace tct::probe {

struct Version {
  int major = 0, minor = 0, patch = 0;
};
// "2.13.0+cpu" -> {2,13,0}; "2.1.0a0+git123" -> {2,1,0}. Unparsable parts are 0.
Version parse_version(const std::string& text);
bool at_least(const Version& v, int major, int minor);

// The torch releases tct supports, and those its own tests run on: scripts/test.sh runs every
// test on 2.13.0 (CPU build) and an e2e subset on 2.14.1 and 2.15.0 (CUDA builds, on a machine
// without a GPU). Below `min` tct's agent is known to miss facts (see the .cpp); above the newest tested
// minor release torch's internals may have moved. Outside the range probe warns, never blocks.
struct SupportedTorch {
  Version min;                      // oldest release tct claims to support
  std::vector<std::string> tested;  // releases the test suite runs on, oldest first
};
const SupportedTorch& supported_torch();
// "2.13.0, 2.14.1 and 2.15.0": the one wording of a list of releases.
std::string tested_words(const std::vector<std::string>& releases);
// Where a torch version stands: min "2.6", the tested releases, and its status.
TorchSupport torch_support(const std::string& version);

struct Decision {
  Verdict verdict = Verdict::NotUsable;
  std::vector<Reason> reasons;
};

// The verdict of a probe's facts (torch_version, facts, environment_variables, smoke):
// any blocker makes it not_usable, else any caveat usable_with_caveats. python_path is the
// interpreter the pip fixes name.
Decision decide(const ProbeResult& facts, const std::string& python_path);

// The environment variables probe reports, each with why it matters.
struct CompileEnvVar {
  const char* name;
  const char* effect;
};
const std::vector<CompileEnvVar>& compile_env_vars();

}  // namespace tct::probe
