#include "probe/verdict.hpp"

#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

namespace tct::probe {
namespace {

bool truthy(const std::string& v) { return !v.empty() && v != "0" && v != "false" && v != "False"; }

}  // namespace

Version parse_version(const std::string& text) {
  Version v;
  int* parts[] = {&v.major, &v.minor, &v.patch};
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 3 && p < end; ++i) {
    auto [next, ec] = std::from_chars(p, end, *parts[i]);
    if (ec != std::errc()) break;
    p = next;
    if (p < end && *p == '.') ++p;
    else break;
  }
  return v;
}

bool at_least(const Version& v, int major, int minor) {
  return v.major > major || (v.major == major && v.minor >= minor);
}

const SupportedTorch& supported_torch() {
  // 2.6 is the oldest release with everything the agent feature-detects (torch.compiler.set_stance
  // for bench's eager-through-the-compiled-function mode; dynamo's explain, counters and
  // TORCH_TRACE records in their present shape). Releases between 2.6 and 2.12 are claimed,
  // not tested: the README says so, and so does this list.
  // 2.15.0 is the release pip installs today (the third test venv, .venv-torch2.15).
  static const SupportedTorch s{{2, 6, 0}, {"2.13.0", "2.14.1", "2.15.0"}};
  return s;
}

namespace {

// "tested": a release the suite runs on (any local build: +cpu, +cu130); "in_range": claimed,
// not tested; "older"/"newer": outside what tct supports or was tested on.
SupportStatus support_status(const Version& v) {
  const auto& s = supported_torch();
  for (const auto& t : s.tested) {
    Version tv = parse_version(t);
    if (tv.major == v.major && tv.minor == v.minor && tv.patch == v.patch) return SupportStatus::Tested;
  }
  if (!at_least(v, s.min.major, s.min.minor)) return SupportStatus::Older;
  Version newest = parse_version(s.tested.back());
  if (v.major > newest.major || (v.major == newest.major && v.minor > newest.minor)) return SupportStatus::Newer;
  return SupportStatus::InRange;
}

std::string tested_list() { return tested_words(supported_torch().tested); }

}  // namespace

std::string tested_words(const std::vector<std::string>& releases) {
  std::string out;
  for (size_t i = 0; i < releases.size(); ++i)
    out += (i == 0 ? "" : i + 1 == releases.size() ? " and " : ", ") + releases[i];
  return out;
}

TorchSupport torch_support(const std::string& version) {
  const auto& s = supported_torch();
  return {fmt::format("{}.{}", s.min.major, s.min.minor), s.tested, support_status(parse_version(version))};
}

const std::vector<CompileEnvVar>& compile_env_vars() {
  static const std::vector<CompileEnvVar> vars = {
      {"TORCH_COMPILE_DISABLE", "turns torch.compile into a no-op"},
      {"TORCHDYNAMO_DISABLE", "turns torch.compile into a no-op"},
      {"TORCHINDUCTOR_CACHE_DIR", "where inductor caches compiled kernels (warm compiles)"},
      {"TRITON_CACHE_DIR", "where Triton caches GPU kernels"},
      {"TORCHINDUCTOR_FORCE_DISABLE_CACHES", "every compile is cold"},
      {"TORCHINDUCTOR_FX_GRAPH_CACHE", "inductor's graph cache on/off"},
      {"TORCHINDUCTOR_AUTOGRAD_CACHE", "AOTAutograd cache on/off"},
      {"TORCHINDUCTOR_MAX_AUTOTUNE", "autotuning for every compile: much slower compiles"},
      {"TORCHINDUCTOR_FREEZING", "constant-folds weights for inference"},
      {"TORCHINDUCTOR_COMPILE_THREADS", "parallel compile workers"},
      {"TORCH_LOGS", "compile logging (slows compiles, floods stderr)"},
      {"TORCH_COMPILE_DEBUG", "writes debug artifacts on every compile"},
      {"TORCHDYNAMO_VERBOSE", "full tracebacks from dynamo"},
      {"CXX", "the C++ compiler inductor uses on CPU"},
      {"OMP_NUM_THREADS", "threads for eager and inductor CPU kernels"},
      {"CUDA_VISIBLE_DEVICES", "which GPUs torch sees"},
  };
  return vars;
}

Decision decide(const ProbeResult& in, const std::string& python_path) {
  Decision out;
  auto add = [&](Severity severity, std::string code, std::string message, std::string fix) {
    out.reasons.push_back({severity, std::move(code), std::move(message), std::move(fix)});
  };
  constexpr Severity blocker = Severity::Blocker, caveat = Severity::Caveat, info = Severity::Info;
  const std::string pip = fmt::format("{} -m pip install", python_path);

  // 1. torch itself.
  if (!in.torch_version) {
    add(blocker, "torch_missing", fmt::format("torch is not installed in {}", python_path),
        fmt::format("{} torch (or choose another interpreter with --python)", pip));
  } else {
    const std::string& version = *in.torch_version;
    Version v = parse_version(version);
    if (!at_least(v, 2, 0))
      add(blocker, "torch_too_old", fmt::format("torch {} has no torch.compile (it needs torch 2.0 or newer)", version),
          fmt::format("{} 'torch>=2.0'", pip));
    else {
      const SupportStatus status = support_status(v);
      const auto& s = supported_torch();
      if (status == SupportStatus::Older)
        add(caveat, "torch_unsupported",
            fmt::format("torch {} is older than tct supports (torch {}.{} or newer; tested on {}): some facts "
                        "may be missing and some figures wrong",
                        version, s.min.major, s.min.minor, tested_list()),
            fmt::format("{} 'torch>={}.{}'", pip, s.min.major, s.min.minor));
      else if (status == SupportStatus::Newer)
        add(caveat, "torch_untested",
            fmt::format("torch {} is newer than any release tct was tested on ({}): torch's internals may "
                        "have moved under it",
                        version, tested_list()),
            fmt::format("check one figure against a direct measurement, or use torch {}", s.tested.back()));
    }
  }
  if (in.facts) {
    const TorchFacts& t = in.facts->torch;
    if (!t.compile_available)
      add(blocker, "compile_missing", "this torch has no torch.compile", fmt::format("{} 'torch>=2.0'", pip));
    if (!t.dynamo_supported)
      add(blocker, "python_unsupported", fmt::format("torch.compile does not support this Python: {}", t.dynamo_error),
          "use a Python version this torch release supports (see the torch release notes), or upgrade torch");
    if (t.debug)
      add(caveat, "debug_build", "torch is a debug build: timings will not reflect a release build",
          "install a release build of torch");

    // 2. The CPU compiler and OpenMP, which inductor's CPU backend needs.
    const CompilerFacts& cxx = in.facts->cpp_compiler;
    if (!cxx.path) {
      add(caveat, "no_cpp_compiler", fmt::format("no C++ compiler for inductor on CPU ({})", cxx.error),
          "install one (Debian/Ubuntu: apt-get install g++) or set CXX; backend=aot_eager still works");
    } else if (cxx.openmp == false) {
      add(caveat, "no_openmp",
          fmt::format("{} cannot build OpenMP code ({}): inductor's CPU kernels will be slow or fail", *cxx.path,
                      cxx.openmp_error),
          "install the OpenMP runtime headers (Debian: libgomp1 with g++; macOS: brew install libomp)");
    }

    // 3. GPUs and Triton.
    const DeviceFacts& dev = in.facts->devices;
    const TritonFacts& triton = in.facts->triton;
    // A CUDA build on a machine whose driver or CUDA_VISIBLE_DEVICES shows it no GPU: usable
    // on CPU, but a user who installed the CUDA build expects a GPU, and tct measures none.
    if (t.build == "cuda" && !dev.cuda_available) {
      const std::string& why = dev.cuda_error;
      add(info, "cuda_no_gpu",
          fmt::format("torch is a CUDA {} build but sees no GPU{}: only the CPU is measured", t.cuda,
                      why.empty() ? "" : fmt::format(" ({})", why)),
          "check the driver (nvidia-smi) and CUDA_VISIBLE_DEVICES; on a machine without a GPU the CPU build "
          "of torch is the smaller install");
    }
    if (dev.cuda_available) {
      if (!triton.installed)
        add(caveat, "triton_missing",
            "CUDA is available but Triton is not installed: inductor cannot generate GPU kernels",
            fmt::format("{} triton (the version your torch release pins)", pip));
      else if (!triton.error.empty())
        add(caveat, "triton_broken", fmt::format("Triton fails to import: {}", triton.error),
            "reinstall the Triton version your torch release pins");
      for (const auto& gpu : dev.cuda) {
        // Triton (and so inductor on GPU) needs compute capability 7.0+ (Volta or newer).
        if (gpu.capability_major < 7)
          add(caveat, "gpu_too_old",
              fmt::format("GPU {} ({}) has compute capability {}.{}; Triton needs 7.0 or newer", gpu.index, gpu.name,
                          gpu.capability_major, gpu.capability_minor),
              "use backend=aot_eager or cudagraphs on this GPU, or a newer GPU");
      }
    }
  }

  // 4. Environment variables that change what is measured.
  const auto& env = in.environment_variables;
  for (const char* name : {"TORCH_COMPILE_DISABLE", "TORCHDYNAMO_DISABLE"})
    if (auto it = env.find(name); it != env.end() && truthy(it->second))
      add(blocker, "compile_disabled", fmt::format("{}={} turns torch.compile into a no-op", name, it->second),
          fmt::format("unset {}", name));
  if (env.count("TORCH_LOGS"))  // not a reply: tct's own environment
    add(info, "torch_logs", "TORCH_LOGS is set: compiles log heavily and run slower",
        "unset TORCH_LOGS when timing compiles");
  // not a reply: tct's own environment
  if (auto it = env.find("TORCHINDUCTOR_FORCE_DISABLE_CACHES"); it != env.end() && truthy(it->second))
    add(info, "caches_disabled", "inductor caches are disabled: every compile is cold",
        "unset TORCHINDUCTOR_FORCE_DISABLE_CACHES for warm compiles");

  // 5. Smoke compiles: a failure on the CPU blocks (every target runs there), elsewhere it is a caveat.
  for (const auto& s : in.smoke) {
    const std::string where = fmt::format("{} with backend {}", s.device, s.backend);
    const Severity severity = s.device == "cpu" ? blocker : caveat;
    if (!s.ok)
      add(severity, "smoke_failed", fmt::format("a small compile failed on {}: {}", where, s.error),
          "rerun with --verbose for the traceback; see the reasons above for a missing compiler or Triton");
    else if (!s.match)
      add(severity, "smoke_mismatch", fmt::format("a small compile on {} gave different results from eager", where),
          "report it to PyTorch with the torch version; try another backend meanwhile");
  }

  bool any_blocker = false, any_caveat = false;
  for (const auto& r : out.reasons) {
    any_blocker |= r.severity == blocker;
    any_caveat |= r.severity == caveat;
  }
  out.verdict = any_blocker ? Verdict::NotUsable : any_caveat ? Verdict::UsableWithCaveats : Verdict::Usable;
  return out;
}

}  // namespace tct::probe
