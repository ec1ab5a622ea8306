// The probe section: facts a person checks first, then the verdict and each fix.
#include <fmt/format.h>

#include "report/format.hpp"
#include "report/render.hpp"

namespace tct::report {
namespace {

std::string s(const json& j, const char* key, const char* fallback = "?") { return text_or(j, key, fallback); }

std::string verdict_words(const std::string& v) {
  if (v == "usable") return "usable";
  if (v == "usable_with_caveats") return "usable, with caveats";
  if (v == "not_usable") return "NOT usable";
  return v;
}

// "torch >= 2.6, tested on 2.13.0 and 2.14.1 (this release is tested)".
std::string support_words(const json& st) {
  std::string tested;
  for (const auto& v : st.value("tested", json::array())) tested += (tested.empty() ? "" : " and ") + v.get<std::string>();
  const std::string status = s(st, "status");
  const char* which = status == "tested"     ? "this release is tested"
                      : status == "in_range" ? "this release is in range, not tested"
                      : status == "older"    ? "this release is OLDER than supported"
                      : status == "newer"    ? "this release is NEWER than any tested"
                                             : "?";
  return fmt::format("torch >= {}, tested on {} ({})", s(st, "min"), tested, which);
}

struct Line {
  std::string label, value;
};

std::vector<Line> facts(const json& doc, bool short_paths = false) {
  const json& p = doc["probe"];
  const json& env = doc.value("environment", json::object());
  const json& interp = env.value("interpreter", json::object());
  std::vector<Line> lines;
  lines.push_back({"Python", fmt::format("{} at {} (chosen by {})", s(p["python"], "version"),
                                         short_paths ? short_path(s(interp, "path")) : s(interp, "path"),
                                         s(interp, "chosen_by"))});
  const json& f = p.value("facts", json());
  if (!f.is_object()) {
    lines.push_back({"torch", p["torch"].is_null() ? "not installed" : s(p["torch"], "version")});
    return lines;
  }
  const json& t = f["torch"];
  std::string build = s(t, "build");
  if (build == "cuda") build += " " + s(t, "cuda");
  if (build == "rocm") build += " " + s(t, "hip");
  lines.push_back({"torch", fmt::format("{} ({} build), torch.compile {}", s(t, "version"), build,
                                        t.value("compile_available", false) ? "available" : "missing")});
  if (p.contains("supported_torch")) lines.push_back({"tct supports", support_words(p["supported_torch"])});
  if (f.contains("backends") && f["backends"].contains("default")) {
    std::string names;
    for (const auto& b : f["backends"]["default"]) names += (names.empty() ? "" : ", ") + b.get<std::string>();
    lines.push_back({"backends", names});
  }
  const json& d = f.value("devices", json::object());
  std::string devices = fmt::format("cpu ({} logical cores, {} torch threads)", s(d.value("cpu", json::object()), "logical_cores"),
                                    s(t, "num_threads"));
  for (const auto& g : d.value("cuda", json::array()))
    devices += fmt::format("; cuda:{} {} sm_{}{} {}", g.value("index", 0), s(g, "name"), g["capability"][0].get<int>(),
                           g["capability"][1].get<int>(), format_bytes(g.value("total_memory_bytes", 0.0)));
  // A CUDA build that sees no GPU says so where the GPUs would be listed (probe's reasons say why).
  if (s(t, "build") == "cuda" && !d.value("cuda_available", false)) {
    const std::string why = text_or(d, "cuda_error", "");
    devices += why.empty() ? "; no GPU visible" : fmt::format("; no GPU visible ({})", why);
  }
  if (d.value("mps_available", false)) devices += "; mps";
  lines.push_back({"devices", devices});
  const json& tr = f.value("triton", json::object());
  lines.push_back({"Triton", tr.value("installed", false) ? "installed " + s(tr, "version") : "not installed"});
  const json& cxx = f.value("cpp_compiler", json::object());
  std::string c = cxx["path"].is_null() ? "not found" : s(cxx, "version", s(cxx, "path").c_str());
  if (!cxx["path"].is_null())
    c += cxx.value("openmp", false) ? ", OpenMP ok" : ", OpenMP FAILS";
  lines.push_back({"C++ compiler", c});
  const json vars = p.value("environment_variables", json::object());
  for (const auto& [name, value] : vars.items())
    lines.push_back({name, short_paths ? short_path(value.get<std::string>()) : value.get<std::string>()});
  return lines;
}

}  // namespace

std::string text_probe(const json& doc) {
  const json& p = doc["probe"];
  std::string out = "tct probe\n";
  for (const auto& l : facts(doc)) out += fmt::format("  {:<13} {}\n", l.label, l.value);
  for (const auto& sm : p.value("smoke", json::array())) {
    if (sm.value("ok", false))
      out += fmt::format("  {:<13} {} with {}: compiled in {}, {}\n", "smoke", s(sm, "device"), s(sm, "backend"),
                         format_duration_ns(number_or_nan(sm, "compile_ns")),
                         sm.value("match", false) ? "matches eager" : "DIFFERS from eager");
    else
      out += fmt::format("  {:<13} {} with {}: FAILED: {}\n", "smoke", s(sm, "device"), s(sm, "backend"), s(sm, "error"));
  }
  if (p.contains("verdict")) {
    out += fmt::format("\nverdict: {}\n", verdict_words(p["verdict"]));
    for (const auto& r : p.value("reasons", json::array()))
      out += fmt::format("  [{}] {}\n         fix: {}\n", s(r, "severity"), s(r, "message"), s(r, "fix"));
  }
  return out;
}

std::string markdown_probe(const json& doc) {
  const json& p = doc["probe"];
  std::string out;
  if (p.contains("verdict")) out += fmt::format("**torch.compile here: {}**\n\n", verdict_words(p["verdict"]));
  Table t({"fact", "value"});
  for (const auto& l : facts(doc, /*short_paths=*/true)) t.add({l.label, l.value});
  out += t.markdown();
  auto reasons = p.value("reasons", json::array());
  if (!reasons.empty()) {
    out += "\n";
    for (const auto& r : reasons)
      out += fmt::format("- **{}**: {}. Fix: {}\n", s(r, "severity"), s(r, "message"), s(r, "fix"));
  }
  return out + "\n";
}

}  // namespace tct::report
