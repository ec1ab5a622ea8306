#include "startup/result.hpp"

namespace tct::startup {

std::string_view to_string(Mode m) {
  switch (m) {
    case Mode::Eager: return "eager";
    case Mode::Cold: return "cold";
    case Mode::Warm: return "warm";
    case Mode::Shipped: return "shipped";
    case Mode::AotiPython: return "aoti";
    case Mode::AotiCpp: return "aoti-cpp";
  }
  return "eager";
}

std::optional<Mode> parse_mode(std::string_view s) {
  for (Mode m : kAllModes)
    if (to_string(m) == s) return m;
  return std::nullopt;
}

std::string_view describe(Mode m) {
  switch (m) {
    case Mode::Eager: return "eager, no compile";
    case Mode::Cold: return "torch.compile, empty caches";
    case Mode::Warm: return "torch.compile, local caches of a previous run";
    case Mode::Shipped: return "torch.compile, shipped cache artifacts";
    case Mode::AotiPython: return "AOTInductor package, loaded from Python";
    case Mode::AotiCpp: return "AOTInductor package, loaded from C++";
  }
  return "";
}

bool compiles(Mode m) { return m != Mode::Eager; }

std::string_view to_string(Phase p) {
  switch (p) {
    case Phase::Interpreter: return "interpreter";
    case Phase::ImportTorch: return "import_torch";
    case Phase::LoadArtifacts: return "load_artifacts";
    case Phase::BuildModel: return "build_model";
    case Phase::LoadInputs: return "load_inputs";
    case Phase::LoadPackage: return "load_package";
    case Phase::CompileSetup: return "compile_setup";
    case Phase::Dynamo: return "dynamo";
    case Phase::AotAutograd: return "aot_autograd";
    case Phase::Inductor: return "inductor";
    case Phase::CppCompiler: return "cpp_compiler";
    case Phase::CacheLoad: return "cache_load";
    case Phase::FirstCall: return "first_call";
  }
  return "first_call";
}

std::optional<Phase> parse_phase(std::string_view s) {
  for (Phase p : kAllPhases)
    if (to_string(p) == s) return p;
  return std::nullopt;
}

std::string_view describe(Phase p) {
  switch (p) {
    case Phase::Interpreter: return "process start";
    case Phase::ImportTorch: return "import torch";
    case Phase::LoadArtifacts: return "load cache artifacts";
    case Phase::BuildModel: return "build the model";
    case Phase::LoadInputs: return "load inputs";
    case Phase::LoadPackage: return "load the package";
    case Phase::CompileSetup: return "torch.compile set-up";
    case Phase::Dynamo: return "Dynamo";
    case Phase::AotAutograd: return "AOTAutograd";
    case Phase::Inductor: return "Inductor codegen";
    case Phase::CppCompiler: return "C++ compiler";
    case Phase::CacheLoad: return "cache loads";
    case Phase::FirstCall: return "first call";
  }
  return "";
}

const ModeResult* StartupResult::find(Mode m) const {
  for (const auto& r : modes)
    if (r.mode == m) return &r;
  return nullptr;
}

}  // namespace tct::startup
