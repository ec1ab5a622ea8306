// The probe section: facts a person checks first, then the verdict and each fix.
#include <cmath>

#include <fmt/format.h>

#include "probe/json.hpp"
#include "probe/render.hpp"
#include "probe/verdict.hpp"
#include "report/format.hpp"

namespace tct::probe {
namespace {

using report::short_path;

std::string or_unknown(const std::string& s) { return s.empty() ? "?" : s; }
std::string or_unknown(const std::optional<int>& n) { return n ? std::to_string(*n) : "?"; }

// The terminal shouts the one verdict that stops everything.
std::string verdict_words(Verdict v) { return v == Verdict::NotUsable ? "NOT usable" : std::string(describe(v)); }

// "torch >= 2.6, tested on 2.13.0, 2.14.1 and 2.15.0 (this release is tested)".
std::string support_words(const TorchSupport& st) {
  const std::string tested = tested_words(st.tested);
  const char* which = st.status == SupportStatus::Tested    ? "this release is tested"
                      : st.status == SupportStatus::InRange ? "this release is in range, not tested"
                      : st.status == SupportStatus::Older   ? "this release is OLDER than supported"
                                                            : "this release is NEWER than any tested";
  return fmt::format("torch >= {}, tested on {} ({})", or_unknown(st.min), tested, which);
}

struct Line {
  std::string label, value;
};

std::vector<Line> facts(const ProbeResult& p, const Interpreter& interpreter, bool short_paths = false) {
  std::vector<Line> lines;
  lines.push_back(
      {"Python", fmt::format("{} at {} (chosen by {})", p.python.view.version.empty() ? "?" : p.python.view.version,
                             short_paths ? short_path(interpreter.path) : interpreter.path, interpreter.chosen_by)});
  if (!p.facts) {
    lines.push_back({"torch", p.torch_version ? *p.torch_version : "not installed"});
    return lines;
  }
  const Facts& f = *p.facts;
  const TorchFacts& t = f.torch;
  std::string build = or_unknown(t.build);
  if (t.build == "cuda") build += " " + or_unknown(t.cuda);
  if (t.build == "rocm") build += " " + or_unknown(t.hip);
  lines.push_back({"torch", fmt::format("{} ({} build), torch.compile {}", or_unknown(t.version), build,
                                        t.compile_available ? "available" : "missing")});
  if (p.supported_torch) lines.push_back({"tct supports", support_words(*p.supported_torch)});
  if (f.default_backends) {
    std::string names;
    for (const auto& b : *f.default_backends) names += (names.empty() ? "" : ", ") + b;
    lines.push_back({"backends", names});
  }
  const DeviceFacts& d = f.devices;
  std::string devices =
      fmt::format("cpu ({} logical cores, {} torch threads)", or_unknown(d.logical_cores), or_unknown(t.num_threads));
  for (const auto& g : d.cuda)
    devices += fmt::format("; cuda:{} {} sm_{}{} {}", g.index, or_unknown(g.name), g.capability_major,
                           g.capability_minor, report::format_bytes(g.total_memory_bytes));
  // A CUDA build that sees no GPU says so where the GPUs would be listed (probe's reasons say why).
  if (t.build == "cuda" && !d.cuda_available)
    devices += d.cuda_error.empty() ? "; no GPU visible" : fmt::format("; no GPU visible ({})", d.cuda_error);
  if (d.mps_available) devices += "; mps";
  lines.push_back({"devices", devices});
  lines.push_back({"Triton", f.triton.installed ? "installed " + or_unknown(f.triton.version) : "not installed"});
  const CompilerFacts& cxx = f.cpp_compiler;
  std::string c = !cxx.path ? "not found" : cxx.version.empty() ? *cxx.path : cxx.version;
  if (cxx.path) c += cxx.openmp.value_or(false) ? ", OpenMP ok" : ", OpenMP FAILS";
  lines.push_back({"C++ compiler", c});
  for (const auto& [name, value] : p.environment_variables)
    lines.push_back({name, short_paths ? short_path(value) : value});
  return lines;
}

}  // namespace

std::string_view describe(Verdict v) {
  switch (v) {
    case Verdict::Usable: return "usable";
    case Verdict::UsableWithCaveats: return "usable, with caveats";
    case Verdict::NotUsable: return "not usable";
  }
  return "not usable";
}

std::string text(const ProbeResult& p, const Interpreter& interpreter) {
  std::string out = "tct probe\n";
  for (const auto& l : facts(p, interpreter)) out += fmt::format("  {:<13} {}\n", l.label, l.value);
  for (const auto& sm : p.smoke) {
    if (sm.ok)
      out += fmt::format(
          "  {:<13} {} with {}: compiled in {}, {}\n", "smoke", or_unknown(sm.device), or_unknown(sm.backend),
          report::format_duration_ns(sm.measured ? static_cast<double>(sm.measured->compile.count()) : NAN),
          sm.match ? "matches eager" : "DIFFERS from eager");
    else
      out += fmt::format("  {:<13} {} with {}: FAILED: {}\n", "smoke", or_unknown(sm.device), or_unknown(sm.backend),
                         or_unknown(sm.error));
  }
  if (p.verdict) {
    out += fmt::format("\nverdict: {}\n", verdict_words(*p.verdict));
    for (const auto& r : p.reasons)
      out += fmt::format("  [{}] {}\n         fix: {}\n", to_string(r.severity), r.message, r.fix);
  }
  return out;
}

std::string markdown(const ProbeResult& p, const Interpreter& interpreter) {
  std::string out;
  if (p.verdict) out += fmt::format("**torch.compile here: {}**\n\n", verdict_words(*p.verdict));
  report::Table t({"fact", "value"});
  for (const auto& l : facts(p, interpreter, /*short_paths=*/true)) t.add({l.label, l.value});
  out += t.markdown();
  if (!p.reasons.empty()) {
    out += "\n";
    for (const auto& r : p.reasons)
      out += fmt::format("- **{}**: {}. Fix: {}\n", to_string(r.severity), r.message, r.fix);
  }
  return out + "\n";
}

}  // namespace tct::probe
