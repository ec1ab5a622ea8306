// The AOTInductor mode's build in tct job's renderings: per call site, the export's Dims with the
// sizes the job used and the range torch's exported program holds, the build's times, and the
// package's outputs against eager's, or why the mode cannot run. Formats only: job/aoti.cpp decides.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "job/render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::job {
namespace {

using report::format_bytes;
using report::format_duration;

std::string where_text(const AotiSite& s) {
  return fmt::format("{} ({}:{})", s.name, std::filesystem::path(s.site_file).filename().string(), s.site_line);
}

// "x_0 (x[0], mask[0]) in 3..11 (9 sizes; exported 3..11)"; "static shapes" without a Dim.
std::string dims_text(const AotiSite& s) {
  if (s.dims.empty()) return "static shapes (no size varied)";
  std::string out;
  for (const AotiDim& d : s.dims) {
    std::string at;
    for (const AotiAt& a : d.at) at += (at.empty() ? "" : ", ") + a.label;
    out += fmt::format("{}{} ({}) in {}..{} ({} sizes", out.empty() ? "" : "; ", d.name, at, d.min, d.max, d.sizes);
    if (d.exported_min || d.exported_max)
      out += fmt::format("; exported {}..{}", d.exported_min ? std::to_string(*d.exported_min) : "?",
                         d.exported_max ? std::to_string(*d.exported_max) : "inf");
    out += ")";
    if (d.min < 2) out += ", sizes below 2 in range (the export's example call had 2 or more)";
  }
  return out;
}

std::string outputs_text(const AotiSite& s) {
  if (!s.outputs_match) return "";
  return fmt::format("outputs equal eager's at {} call size{}{}", s.checks.size(), s.checks.size() == 1 ? "" : "s",
                     s.dims.empty()       ? ""
                     : s.extremes_checked ? " (every Dim's min and max among them)"
                                          : " (not every Dim's min and max among them)");
}

std::string build_text(const AotiSite& s) {
  std::string out =
      fmt::format("export {}, package {}", format_duration(s.export_time), format_duration(s.package_time));
  if (s.package_bytes) out += " (" + format_bytes(*s.package_bytes) + ")";
  return out;
}

}  // namespace

std::vector<std::string> aoti_lines(const JobResult& r) {
  if (!r.aoti) return {};
  const AotiBuild& b = *r.aoti;
  std::vector<std::string> out;
  if (measured(b.wall))
    out.push_back(
        fmt::format("aoti: one AOTInductor package per call site, from one build run ({}{}, not in the "
                    "totals); the export's Dims span the sizes the filling run used:",
                    format_duration(b.wall), b.ok ? "" : ", " + b.exit_text));
  // A site's own line says why it cannot; the build's reason is printed where no site's is.
  const bool site_says =
      std::any_of(b.sites.begin(), b.sites.end(), [](const AotiSite& s) { return !s.cannot.empty(); });
  if (!b.cannot.empty() && !site_says) out.push_back("aoti cannot run: " + b.cannot);
  for (const AotiSite& s : b.sites) {
    std::string line = fmt::format("  {}: {}", where_text(s), dims_text(s));
    if (s.status == AotiStatus::Built) line += "; " + build_text(s);
    if (s.cannot.empty()) line += "; " + outputs_text(s);
    else line += "; cannot: " + s.cannot;
    out.push_back(line);
  }
  return out;
}

std::string aoti_html(const JobResult& r) {
  if (!r.aoti) return "";
  using report::html::esc;
  const AotiBuild& b = *r.aoti;
  std::string out = "<h3>AOTInductor packages</h3>";
  if (measured(b.wall))
    out += "<p>" + esc(fmt::format("Built in one run of {} (not in the totals).", format_duration(b.wall))) + "</p>";
  if (!b.cannot.empty()) out += "<p><strong>" + esc("The aoti mode cannot run: " + b.cannot) + "</strong></p>";
  std::vector<std::vector<std::string>> rows;
  for (const AotiSite& s : b.sites)
    rows.push_back({esc(where_text(s)), esc(dims_text(s)), s.status == AotiStatus::Built ? esc(build_text(s)) : "",
                    esc(s.cannot.empty() ? outputs_text(s) : "cannot: " + s.cannot)});
  return out + report::html::table({"Site", "Export's Dims (sizes the job used)", "Build", "Outputs"}, rows);
}

}  // namespace tct::job
