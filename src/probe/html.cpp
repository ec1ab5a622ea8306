// The probe's parts of the HTML report: its summary card, and in the Environment section
// the verdict with each reason, the facts of each check and the smoke compiles.
#include <cmath>

#include <fmt/format.h>

#include "probe/json.hpp"
#include "probe/render.hpp"
#include "report/format.hpp"

namespace tct::probe {
namespace {

using report::html::esc;

const char* tone(Verdict v) { return v == Verdict::Usable ? "good" : v == Verdict::NotUsable ? "bad" : "warn"; }

}  // namespace

std::vector<report::html::Card> html_cards(const ProbeResult& p) {
  if (!p.verdict) return {};
  std::string detail;
  for (const auto& r : p.reasons)
    if (r.severity != Severity::Info) {
      detail = r.message;
      break;
    }
  if (detail.empty()) {
    std::string version = p.facts ? p.facts->torch.version : "";
    if (version.empty()) version = p.torch_version.value_or("?");
    detail = "torch " + version;
  }
  return {{"torch.compile here", std::string(describe(*p.verdict)), detail, tone(*p.verdict), "#environment"}};
}

std::string html_verdict(const ProbeResult& p) {
  if (!p.verdict) return "";
  std::string out = fmt::format(R"(<p>torch.compile here: <span class="pill {}">{}</span></p>)", tone(*p.verdict),
                                esc(std::string(describe(*p.verdict))));
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : p.reasons) {
    const char* pill = r.severity == Severity::Blocker ? "bad" : r.severity == Severity::Caveat ? "warn" : "";
    rows.push_back({fmt::format(R"(<span class="pill {}">{}</span>)", pill, esc(std::string(to_string(r.severity)))),
                    esc(r.message), esc(r.fix)});
  }
  if (!rows.empty()) out += report::html::table({"", "What", "Fix"}, rows);
  return out;
}

std::vector<std::pair<std::string, std::string>> html_facts(const ProbeResult& p) {
  std::vector<std::pair<std::string, std::string>> items;
  if (!p.facts) return items;
  const Facts& f = *p.facts;
  const TorchFacts& t = f.torch;
  std::string build = t.build;
  if (!t.cuda.empty()) build += " " + t.cuda;
  if (!t.hip.empty()) build += " " + t.hip;
  items.push_back({"torch", esc(fmt::format("{} ({} build), {} threads, torch.compile {}", t.version, build,
                                            t.num_threads ? std::to_string(*t.num_threads) : "?",
                                            t.compile_available ? "available" : "missing"))});
  if (f.default_backends) items.push_back({"Backends", report::html::generic(nlohmann::json(*f.default_backends))});
  const DeviceFacts& dev = f.devices;
  std::string d = fmt::format("cpu ({} logical cores)", dev.logical_cores ? std::to_string(*dev.logical_cores) : "?");
  for (const auto& g : dev.cuda)
    d += fmt::format("; cuda:{} {} {}", g.index, g.name, report::format_bytes(g.total_memory_bytes));
  if (dev.mps_available) d += "; mps";
  items.push_back({"Devices", esc(d)});
  items.push_back({"Triton", esc(f.triton.installed ? "installed " + f.triton.version : "not installed")});
  const CompilerFacts& c = f.cpp_compiler;
  std::string s = !c.path || c.path->empty() ? "not found" : c.version.empty() ? *c.path : c.version;
  if (c.path && !c.path->empty()) s += c.openmp.value_or(false) ? ", OpenMP ok" : ", OpenMP fails";
  items.push_back({"C++ compiler", esc(s)});
  return items;
}

std::vector<std::pair<std::string, std::string>> html_environment_variables(const ProbeResult& p) {
  std::vector<std::pair<std::string, std::string>> items;
  for (const auto& [name, value] : p.environment_variables)
    items.push_back({name, "<code>" + esc(report::short_path(value)) + "</code>"});
  return items;
}

std::string html_smoke(const ProbeResult& p) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& s : p.smoke)
    rows.push_back(
        {esc(s.device), esc(s.backend),
         s.ok
             ? (s.match ? "<span class=\"good\">matches eager</span>" : "<span class=\"bad\">differs from eager</span>")
             : "<span class=\"bad\">failed</span>: " + esc(s.error),
         esc(report::format_duration_ns(s.measured ? static_cast<double>(s.measured->compile.count()) : NAN))});
  if (rows.empty()) return "";
  return "<h3>Smoke compile</h3>" + report::html::table({"Device", "Backend", "Result", "Compile"}, rows);
}

}  // namespace tct::probe
