#pragma once
// What `tct probe` found, as a value: each check's facts, the smoke compiles, and the
// verdict (can torch.compile run here?) with a reason and a fix for each finding. The
// runner (run.cpp) returns it and checkpoints it; the verdict and reasons are decided once,
// in verdict.cpp, and stored here; probe/json.cpp is the one place it becomes doc["probe"]
// (schema/probe.schema.json) and is read back; the renderings (text.cpp, html.cpp) print
// its fields and decide nothing.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/hello.hpp"

namespace tct::probe {

using Nanoseconds = std::chrono::duration<int64_t, std::nano>;

enum class Severity { Blocker, Caveat, Info };
// usable_with_caveats: it runs, but something will make it slow or its timings misleading.
enum class Verdict { Usable, UsableWithCaveats, NotUsable };
// Where this torch stands against the releases tct supports and tests (verdict.hpp).
enum class SupportStatus { Tested, InRange, Older, Newer };

std::string_view to_string(Severity s);       // "blocker", "caveat", "info"
std::string_view to_string(Verdict v);        // "usable", "usable_with_caveats", "not_usable"
std::string_view to_string(SupportStatus s);  // "tested", "in_range", "older", "newer"
std::optional<Severity> parse_severity(std::string_view s);
std::optional<Verdict> parse_verdict(std::string_view s);
std::optional<SupportStatus> parse_support_status(std::string_view s);

struct Reason {
  Severity severity = Severity::Info;
  std::string code;  // "torch_missing", "no_openmp", ...
  std::string message;
  std::string fix;
};

struct TorchSupport {
  std::string min;                  // "2.6"
  std::vector<std::string> tested;  // oldest first
  SupportStatus status = SupportStatus::Tested;
};

// The checks the agent (and tct itself, for the C++ compiler) made with torch imported.
// Strings a check could not fill are "".
struct TorchFacts {
  std::string version;
  std::string build;      // "cpu", "cuda", "rocm"
  std::string cuda, hip;  // the toolkit versions of a cuda / rocm build
  bool compile_available = false;
  bool dynamo_supported = true;  // torch.compile supports this Python
  std::string dynamo_error;
  bool debug = false;
  std::optional<int> num_threads;
};

struct Gpu {
  int index = 0;
  std::string name;
  int capability_major = 0, capability_minor = 0;
  double total_memory_bytes = 0;
};

struct DeviceFacts {
  std::optional<int> logical_cores;
  bool cuda_available = false;
  std::vector<Gpu> cuda;
  std::string cuda_error;  // why a CUDA build sees no GPU, in torch's words
  bool mps_available = false;
};

struct TritonFacts {
  bool installed = false;
  std::string version, error;  // error: it is installed but fails to import
};

// The C++ compiler inductor's CPU backend would use.
struct CompilerFacts {
  std::optional<std::string> path;  // none: not found
  std::string version;              // its --version's first line
  std::string error;                // why it was not found
  std::optional<bool> openmp;       // it builds OpenMP code; none: not checked
  std::string openmp_error;
};

struct Facts {
  // The agent's record as it reported it (with the cached checks merged in): the section's
  // "facts", kept whole for programs that read more of it than the checks below.
  nlohmann::json record;
  // The checks, read from the record once (facts_from_record).
  TorchFacts torch;
  std::optional<std::vector<std::string>> default_backends;  // none when they were not listed
  DeviceFacts devices;
  TritonFacts triton;
  CompilerFacts cpp_compiler;
};

// The checks of an agent's facts record (never throws on a missing or mistyped field).
Facts facts_from_record(const nlohmann::json& record);

// A small function compiled on one device (--smoke) and compared with eager.
struct Smoke {
  std::string device, backend;
  bool ok = false;  // it compiled and ran
  struct Measured {
    Nanoseconds compile{0};
    std::optional<double> max_abs_diff, max_abs_expected;  // none: not finite
    bool shape_equal = false;
  };
  std::optional<Measured> measured;  // when ok
  std::string error;                 // when not ok
  bool match = false;                // ok and within float32 rounding of eager (decided once, in run.cpp)
};

struct ProbeResult {
  core::KeptReply<agent::PythonFacts> python;                // the interpreter, as the agent's handshake described it
  std::optional<std::string> torch_version;                  // none: torch is not installed
  std::optional<TorchSupport> supported_torch;               // none without torch
  std::map<std::string, std::string> environment_variables;  // those that change compile behaviour, as set
  std::optional<Facts> facts;                                // none without torch 2.x
  std::vector<Smoke> smoke;
  // None in a checkpoint taken before the verdict (the facts so far).
  std::optional<Verdict> verdict;
  std::vector<Reason> reasons;

  bool usable() const { return verdict && *verdict != Verdict::NotUsable; }
};

}  // namespace tct::probe
