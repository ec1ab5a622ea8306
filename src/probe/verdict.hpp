#pragma once
// Can torch.compile run here? Turns the agent's raw facts into a verdict and reasons,
// each with a fix. Pure: facts in, verdict out.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::analysis {

using json = nlohmann::json;

struct Version {
  int major = 0, minor = 0, patch = 0;
};
// "2.13.0+cpu" -> {2,13,0}; "2.1.0a0+git123" -> {2,1,0}. Unparsable parts are 0.
Version parse_version(const std::string& text);
bool at_least(const Version& v, int major, int minor);

// The torch releases tct supports, and those its own tests run on: scripts/test.sh runs every
// test on 2.13.0 (CPU build) and an e2e subset on 2.14.1 (CUDA build, on a machine without a
// GPU). Below `min` tct's agent is known to miss facts (see the .cpp); above the newest tested
// minor release torch's internals may have moved. Outside the range probe warns, never blocks.
struct SupportedTorch {
  Version min;                       // oldest release tct claims to support
  std::vector<std::string> tested;   // releases the test suite runs on, oldest first
};
const SupportedTorch& supported_torch();
// {"min": "2.6", "tested": [...], "status": "tested"|"in_range"|"older"|"newer"} for a version.
json supported_torch_json(const std::string& version);

struct ProbeInput {
  std::string python_path;
  json torch_hello;          // hello's {version} or null
  std::string torch_error;   // why the version could not be read
  json facts;                // op_probe's result, or null when it was not run
  json environment;          // variables that change compile behaviour: name -> value
  json smoke;                // array of op_smoke results (with "match" added), may be empty
};

struct Reason {
  std::string severity;  // "blocker", "caveat", "info"
  std::string code;
  std::string message;
  std::string fix;
};

struct ProbeVerdict {
  std::string verdict;  // "usable", "usable_with_caveats", "not_usable"
  std::vector<Reason> reasons;
};

ProbeVerdict decide_probe(const ProbeInput& in);
json to_json(const ProbeVerdict& v);

// The environment variables probe reports, each with why it matters.
struct CompileEnvVar {
  const char* name;
  const char* effect;
};
const std::vector<CompileEnvVar>& compile_env_vars();

}  // namespace tct::analysis
