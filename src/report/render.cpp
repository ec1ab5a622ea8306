#include "report/render.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "report/warnings.hpp"

namespace tct::report {
namespace {

std::string extension(const std::string& path) {
  auto dot = path.rfind('.');
  auto slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

// Sections in the order a reader wants them: environment first, then the answers.
std::string sections(const json& doc, bool markdown) {
  struct Section {
    const char* key;
    std::string (*text)(const json&);
    std::string (*md)(const json&);
  };
  static const Section all[] = {
      {"audit", text_audit, markdown_audit},       {"probe", text_probe, markdown_probe},       {"bench", text_bench, markdown_bench},
      {"explain", text_explain, markdown_explain}, {"diff", text_diff, markdown_diff},
      {"expect", text_expect, markdown_expect},    {"trace", text_trace, markdown_trace},
  };
  std::string out;
  for (const auto& s : all)
    if (doc.contains(s.key) && !doc[s.key].is_null()) out += (markdown ? s.md : s.text)(doc);
  return out;
}

std::string error_line(const json& doc, bool markdown) {
  if (!doc.contains("error") || doc["error"].is_null()) return "";
  const auto& e = doc["error"];
  std::string hint = e.value("hint", "");
  std::string line = fmt::format("{}: {}{}", markdown ? "**Error**" : "error", e.value("message", ""),
                                 hint.empty() ? "" : ". " + hint);
  return line + "\n";
}

}  // namespace

std::string render_json(const json& doc) { return doc.dump(2) + "\n"; }

std::string render_text(const json& doc) {
  std::string out = sections(doc, false);
  for (const auto& w : doc.value("warnings", json::array())) out += format_warning(w) + "\n";
  return out;
}

std::string render_markdown(const json& doc) {
  std::string out = fmt::format("## tct {}\n\n", doc.value("command", ""));
  out += error_line(doc, true);
  out += sections(doc, true);
  auto warnings = doc.value("warnings", json::array());
  if (!warnings.empty()) {
    out += "\n### Warnings\n\n";
    for (const auto& w : warnings) out += "- " + format_warning(w) + "\n";
  }
  out += fmt::format("\n<sub>tct {}, schema {}, {}</sub>\n", doc.value("tct_version", ""),
                     doc.value("schema", ""), doc.value("created", ""));
  return out;
}

void validate_output_paths(const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    auto ext = extension(p);
    if (ext != ".json" && ext != ".md" && ext != ".html")
      throw usage_error(fmt::format("--out {}: unknown report type '{}'", p, ext),
                        "use a file name ending in .json, .md or .html");
  }
}

std::vector<std::pair<std::string, std::string>> render_files(const json& doc,
                                                              const std::vector<std::string>& paths) {
  validate_output_paths(paths);
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& p : paths) {
    auto ext = extension(p);
    if (ext == ".json") files.emplace_back(p, render_json(doc));
    else if (ext == ".md") files.emplace_back(p, render_markdown(doc));
    else files.emplace_back(p, render_html(doc));
  }
  return files;
}

}  // namespace tct::report
