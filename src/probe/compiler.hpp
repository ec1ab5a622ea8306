#pragma once
// The C++ compiler inductor's CPU backend would use, and whether it builds OpenMP code,
// checked from C++ so that it runs while the agent imports torch (tct probe's slowest part
// would otherwise be two compiler runs after a 2 s import).
#include <string>

#include <nlohmann/json.hpp>

namespace tct::probe {

// As torch._inductor.config.cpp.cxx picks it: $CXX, else g++ (clang++ on macOS).
std::string inductor_cxx_name(const char* cxx_env);

// {path, version, openmp, openmp_error, error}: the shape of the agent's old
// probe.cpp_compiler fact, which src/probe/verdict.cpp reads.
nlohmann::json check_cpp_compiler(const std::string& name);

}  // namespace tct::probe
