// The probe section: its fields are listed once (probe/json_fields.hpp); here is the agent's
// facts record read into its checks, and the section's entry points.
#include "probe/json.hpp"

#include "core/json_read.hpp"
#include "probe/json_fields.hpp"

namespace tct::probe {
namespace {

// Readers that never throw (core/json_read.hpp).
using namespace core::json_read;

std::optional<int> opt_int(const json& j, const char* key) { return opt_num<int>(j, key); }
std::optional<double> opt_double(const json& j, const char* key) { return opt_num<double>(j, key); }
std::vector<std::string> strings(const json& v) {
  std::vector<std::string> out;
  if (v.is_array())
    for (const auto& s : v)
      if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

TorchFacts torch_facts(const json& t) {
  TorchFacts out;
  out.version = str(t, "version");
  out.build = str(t, "build");
  out.cuda = str(t, "cuda");
  out.hip = str(t, "hip");
  out.compile_available = flag(t, "compile_available");
  out.dynamo_supported = flag(t, "dynamo_supported", true);
  out.dynamo_error = str(t, "dynamo_error");
  out.debug = flag(t, "debug");
  out.num_threads = opt_int(t, "num_threads");
  return out;
}

DeviceFacts device_facts(const json& d) {
  DeviceFacts out;
  out.logical_cores = opt_int(at(d, "cpu"), "logical_cores");
  out.cuda_available = flag(d, "cuda_available");
  const json& gpus = at(d, "cuda");
  if (gpus.is_array())
    for (const auto& g : gpus) {
      Gpu gpu;
      gpu.index = opt_int(g, "index").value_or(0);
      gpu.name = str(g, "name");
      const json& cap = at(g, "capability");
      if (cap.is_array() && !cap.empty() && cap[0].is_number()) gpu.capability_major = cap[0].get<int>();
      if (cap.is_array() && cap.size() > 1 && cap[1].is_number()) gpu.capability_minor = cap[1].get<int>();
      gpu.total_memory_bytes = opt_double(g, "total_memory_bytes").value_or(0.0);
      out.cuda.push_back(std::move(gpu));
    }
  out.cuda_error = str(d, "cuda_error");
  out.mps_available = flag(d, "mps_available");
  return out;
}

CompilerFacts compiler_facts(const json& c) {
  CompilerFacts out;
  out.path = opt_str(c, "path");
  out.version = str(c, "version");
  out.error = str(c, "error");
  out.openmp = opt_bool(c, "openmp");
  out.openmp_error = str(c, "openmp_error");
  return out;
}

}  // namespace

Facts facts_from_record(const json& record) {
  Facts f;
  f.record = record;
  f.torch = torch_facts(at(record, "torch"));
  // A failed listing is {"error": ...}: no backends to show.
  if (const json& d = at(at(record, "backends"), "default"); d.is_array()) f.default_backends = strings(d);
  f.devices = device_facts(at(record, "devices"));
  const json& triton = at(record, "triton");
  f.triton = {flag(triton, "installed"), str(triton, "version"), str(triton, "error")};
  f.cpp_compiler = compiler_facts(at(record, "cpp_compiler"));
  return f;
}

void torch_from(const json& j, ProbeResult& r) { r.torch_version = core::json_read::opt_str(j, "version"); }

json to_json(const Smoke& s) { return core::fields::write(s); }
Smoke smoke_from_json(const json& j) { return core::fields::read_as<Smoke>(j); }
json to_json(const ProbeResult& r) { return core::fields::write(r); }
ProbeResult from_json(const json& section) { return core::fields::read_as<ProbeResult>(section); }

}  // namespace tct::probe
