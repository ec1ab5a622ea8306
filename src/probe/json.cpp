#include "probe/json.hpp"

#include "core/json_read.hpp"

namespace tct::probe {
namespace {

using json = nlohmann::json;

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

json null_if_empty(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

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

json support_json(const TorchSupport& s) {
  return {{"min", s.min}, {"tested", s.tested}, {"status", to_string(s.status)}};
}
std::optional<TorchSupport> support_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return TorchSupport{str(j, "min"), strings(at(j, "tested")),
                      parse_support_status(str(j, "status")).value_or(SupportStatus::InRange)};
}

json reason_json(const Reason& r) {
  return {{"severity", to_string(r.severity)}, {"code", r.code}, {"message", r.message}, {"fix", r.fix}};
}
Reason reason_of(const json& j) {
  return {parse_severity(str(j, "severity")).value_or(Severity::Info), str(j, "code"), str(j, "message"),
          str(j, "fix")};
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

json to_json(const Smoke& s) {
  json out = {{"device", s.device},
              {"backend", s.backend},
              {"ok", s.ok},
              {"error", null_if_empty(s.error)},
              {"match", s.match}};
  if (s.measured) {
    out["compile_ns"] = s.measured->compile.count();
    out["max_abs_diff"] = opt_json(s.measured->max_abs_diff);
    out["max_abs_expected"] = opt_json(s.measured->max_abs_expected);
    out["shape_equal"] = s.measured->shape_equal;
  }
  return out;
}

Smoke smoke_from_json(const json& j) {
  Smoke s;
  s.device = str(j, "device");
  s.backend = str(j, "backend");
  s.ok = flag(j, "ok");
  s.error = str(j, "error");
  s.match = flag(j, "match");
  // The agent times only a compile that ran.
  if (const json& ns = at(j, "compile_ns"); ns.is_number()) {
    Smoke::Measured m;
    m.compile = Nanoseconds(ns.is_number_integer() ? ns.get<int64_t>() : static_cast<int64_t>(ns.get<double>()));
    m.max_abs_diff = opt_double(j, "max_abs_diff");
    m.max_abs_expected = opt_double(j, "max_abs_expected");
    m.shape_equal = flag(j, "shape_equal");
    s.measured = m;
  }
  return s;
}

json to_json(const ProbeResult& r) {
  json env = json::object();
  for (const auto& [name, value] : r.environment_variables) env[name] = value;
  json out = {{"python", r.python},
              {"torch", r.torch_version ? json{{"version", *r.torch_version}} : json(nullptr)},
              {"environment_variables", env}};
  if (r.supported_torch) out["supported_torch"] = support_json(*r.supported_torch);
  if (r.facts) out["facts"] = r.facts->record;
  // The smoke list appears with the first smoke compile, and always with the verdict.
  if (r.verdict || !r.smoke.empty()) {
    json smoke = json::array();
    for (const auto& s : r.smoke) smoke.push_back(to_json(s));
    out["smoke"] = smoke;
  }
  if (r.verdict) {
    json reasons = json::array();
    for (const auto& x : r.reasons) reasons.push_back(reason_json(x));
    out["verdict"] = to_string(*r.verdict);
    out["reasons"] = reasons;
  }
  return out;
}

ProbeResult from_json(const json& section) {
  ProbeResult r;
  r.python = at(section, "python");
  r.torch_version = opt_str(at(section, "torch"), "version");
  r.supported_torch = support_of(at(section, "supported_torch"));
  if (const json& env = at(section, "environment_variables"); env.is_object())
    for (const auto& [name, value] : env.items())
      if (value.is_string()) r.environment_variables[name] = value.get<std::string>();
  if (const json& facts = at(section, "facts"); facts.is_object()) r.facts = facts_from_record(facts);
  if (const json& smoke = at(section, "smoke"); smoke.is_array())
    for (const auto& s : smoke) r.smoke.push_back(smoke_from_json(s));
  r.verdict = parse_verdict(str(section, "verdict"));
  if (const json& reasons = at(section, "reasons"); reasons.is_array())
    for (const auto& x : reasons) r.reasons.push_back(reason_of(x));
  return r;
}

}  // namespace tct::probe
