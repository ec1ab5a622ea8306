#include "job/aoti.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "job/reply.hpp"

namespace tct::job {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// One input's dimension across the site's shape records: its size in each (none where the
// input was absent or had fewer dimensions).
struct Column {
  AotiAt at;
  std::vector<std::optional<int64_t>> sizes;
};

std::string identifier(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) s = "d" + s;
  return s;
}

// A Dim's range is the job's own smallest and largest size, 0 and 1 included: torch 2.13 to 2.15
// export Dim(min=0 or 1) as asked (range_constraints VR[1, 11]); only an example input of size 0
// or 1 is specialized to a constant, so the bootstrap exports at the first call whose sizes are
// all 2 or more, and checks the calls at 0 or 1 once the package is built.
std::vector<AotiDim> dims_of(const std::vector<run::ShapeCount>& shapes, const std::vector<std::string>& arg_names) {
  std::vector<Column> columns;
  auto column = [&](const AotiAt& at) -> Column& {
    for (Column& c : columns)
      if (c.at.arg == at.arg && c.at.kwarg == at.kwarg && c.at.dim == at.dim) return c;
    columns.push_back({at, std::vector<std::optional<int64_t>>(shapes.size())});
    return columns.back();
  };
  for (size_t k = 0; k < shapes.size(); ++k) {
    const run::ShapeCount& s = shapes[k];
    for (size_t i = 0; i < s.args.size(); ++i) {
      if (!s.args[i]) continue;
      const std::string input = i < arg_names.size() ? arg_names[i] : fmt::format("arg{}", i);
      for (size_t d = 0; d < s.args[i]->size(); ++d) {
        AotiAt at{static_cast<int>(i), "", static_cast<int>(d), fmt::format("{}[{}]", input, d)};
        column(at).sizes[k] = (*s.args[i])[d];
      }
    }
    for (const auto& [name, sizes] : s.kwargs)
      for (size_t d = 0; d < sizes.size(); ++d) {
        AotiAt at{std::nullopt, name, static_cast<int>(d), fmt::format("{}[{}]", name, d)};
        column(at).sizes[k] = sizes[d];
      }
  }
  std::vector<AotiDim> out;
  std::vector<const Column*> firsts;  // each Dim's first column: the others must equal it everywhere
  std::set<std::string> taken;
  for (const Column& c : columns) {
    std::set<int64_t> distinct;
    for (const auto& s : c.sizes)
      if (s) distinct.insert(*s);
    if (distinct.size() < 2) continue;
    auto same = std::find_if(firsts.begin(), firsts.end(), [&](const Column* f) { return f->sizes == c.sizes; });
    if (same != firsts.end()) {
      out[static_cast<size_t>(same - firsts.begin())].at.push_back(c.at);
      continue;
    }
    AotiDim d;
    const std::string input = c.at.label.substr(0, c.at.label.find('['));
    d.name = identifier(fmt::format("{}_{}", input, c.at.dim));
    for (int n = 2; taken.count(d.name); ++n) d.name = identifier(fmt::format("{}_{}_{}", input, c.at.dim, n));
    taken.insert(d.name);
    d.at.push_back(c.at);
    d.min = *distinct.begin();
    d.max = *distinct.rbegin();
    d.sizes = static_cast<int>(distinct.size());
    out.push_back(std::move(d));
    firsts.push_back(&c);
  }
  return out;
}

AotiStatus status_of(const std::string& s) {
  if (s == "built") return AotiStatus::Built;
  if (s == "export_failed") return AotiStatus::ExportFailed;
  if (s == "package_failed") return AotiStatus::PackageFailed;
  if (s == "waiting") return AotiStatus::SmallSizes;
  return AotiStatus::NotCalled;
}

Nanoseconds ns_of(const std::optional<int64_t>& ns) {
  return ns ? Nanoseconds(static_cast<double>(*ns)) : kNotMeasured;
}

// The first line of torch's error that says something (its messages run to pages).
std::string first_line(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t") != std::string::npos) break;
  return line.size() > 400 ? line.substr(0, 400) + "..." : line;
}

std::string sizes_text(const std::map<std::string, int64_t>& sizes) {
  std::string out;
  for (const auto& [k, v] : sizes) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", k, v);
  return out;
}

std::string site_label(const AotiSite& s) {
  return fmt::format("{} ({}:{})", s.name, fs::path(s.site_file).filename().string(), s.site_line);
}

// Why this site keeps the mode from running, or "".
std::string site_cannot(const AotiSite& s) {
  switch (s.status) {
    case AotiStatus::ExportFailed: return fmt::format("torch.export failed: {}", first_line(s.error));
    case AotiStatus::PackageFailed: return fmt::format("AOTInductor could not package it: {}", first_line(s.error));
    case AotiStatus::SmallSizes:
      return "every call the build run made had a varied size of 0 or 1, which torch.export specializes to a constant";
    case AotiStatus::NotCalled: return "the build run never called it";
    case AotiStatus::Built: break;
  }
  if (s.checks.empty()) return "no call of the build run to check the package's outputs on";
  for (const AotiCheck& c : s.checks) {
    if (c.match) continue;
    if (!c.error.empty()) return fmt::format("the package refused {}: {}", sizes_text(c.sizes), first_line(c.error));
    return fmt::format("the package's outputs differ from eager's at {} (max |diff| {:.3g}, largest |eager| {:.3g})",
                       sizes_text(c.sizes), c.max_abs_diff, c.max_abs_expected);
  }
  return "";
}

}  // namespace

std::vector<AotiSite> aoti_plan(const run::RecordSet& filling) {
  std::vector<AotiSite> out;
  std::map<std::string, std::pair<std::vector<run::ShapeCount>, std::vector<std::string>>> shapes;
  for (const auto& p : filling.processes)
    for (const auto& s : p.sites) {
      const std::string key = s.key();
      if (std::none_of(out.begin(), out.end(), [&](const AotiSite& x) { return x.key == key; })) {
        AotiSite site;
        site.key = key;
        site.name = s.name;
        site.kind = s.kind;
        site.site_file = s.site_file;
        site.site_line = s.site_line;
        out.push_back(std::move(site));
      }
      auto& [counts, names] = shapes[key];
      counts.insert(counts.end(), s.shapes.begin(), s.shapes.end());
      if (names.empty()) names = s.arg_names;
    }
  for (AotiSite& s : out) s.dims = dims_of(shapes[s.key].first, shapes[s.key].second);
  return out;
}

std::string plan_json(const std::vector<AotiSite>& sites, const std::string& dir) {
  json all = json::array();
  for (size_t i = 0; i < sites.size(); ++i) {
    const AotiSite& s = sites[i];
    json dims = json::array();
    for (const AotiDim& d : s.dims) {
      json at = json::array();
      for (const AotiAt& a : d.at)
        at.push_back(a.arg ? json{{"arg", *a.arg}, {"dim", a.dim}} : json{{"kwarg", a.kwarg}, {"dim", a.dim}});
      dims.push_back({{"name", d.name}, {"min", d.min}, {"max", d.max}, {"at", at}});
    }
    all.push_back({{"index", i},
                   {"key", s.key},
                   {"site_file", s.site_file},
                   {"site_line", s.site_line},
                   {"kind", s.kind},
                   {"name", s.name},
                   {"package", (fs::path(dir) / fmt::format("site-{}.pt2", i)).string()},
                   {"facts", (fs::path(dir) / fmt::format("site-{}.json", i)).string()},
                   {"dims", dims}});
  }
  return json{{"sites", all}}.dump(2);
}

void read_build(std::vector<AotiSite>& sites, const std::string& dir) {
  for (size_t i = 0; i < sites.size(); ++i) {
    AotiSite& s = sites[i];
    s.package = (fs::path(dir) / fmt::format("site-{}.pt2", i)).string();
    std::ifstream in(fs::path(dir) / fmt::format("site-{}.json", i));
    if (!in) continue;
    const json j = json::parse(in, nullptr, false);
    if (!j.is_object()) continue;
    const auto f = core::fields::read_as<reply::SiteFacts>(j);
    s.status = status_of(f.status);
    s.error = f.error;
    s.export_sizes = f.export_sizes;
    s.export_time = ns_of(f.export_ns);
    s.package_time = ns_of(f.package_ns);
    s.package_bytes = f.package_bytes;
    for (AotiDim& d : s.dims) {
      const auto range = f.exported.find(d.name);
      if (range == f.exported.end() || range->second.size() != 2) continue;
      d.exported_min = range->second[0];
      d.exported_max = range->second[1];
    }
    for (const reply::CheckFacts& c : f.checks)
      s.checks.push_back({c.sizes, c.count_equal, c.shape_equal, c.max_abs_diff, c.max_abs_expected, c.error});
  }
}

PackageLoads package_loads(const std::string& record_dir) {
  PackageLoads out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(record_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("aoti-", 0) != 0 || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const json j = json::parse(in, nullptr, false);
    if (!j.is_object()) continue;
    for (const reply::LoadFacts& s : core::fields::read_as<reply::LoadFile>(j).sites) {
      if (s.missing) {
        out.missing.push_back(
            fmt::format("{} ({}:{})", s.name, fs::path(s.site_file).filename().string(), s.site_line));
        continue;
      }
      const Nanoseconds t = ns_of(s.load_ns);
      if (measured(t)) out.total = (measured(out.total) ? out.total : Nanoseconds(0)) + t;
    }
  }
  return out;
}

bool check_matches(const AotiCheck& c) {
  return c.error.empty() && c.count_equal && c.shape_equal && std::isfinite(c.max_abs_diff) &&
         c.max_abs_diff <= 1e-4 * std::max(1.0, std::isfinite(c.max_abs_expected) ? c.max_abs_expected : 0.0);
}

void decide_build(AotiBuild& b) {
  std::string cannot;
  for (AotiSite& s : b.sites) {
    for (AotiCheck& c : s.checks) c.match = check_matches(c);
    s.outputs_match = s.status == AotiStatus::Built && !s.checks.empty() &&
                      std::all_of(s.checks.begin(), s.checks.end(), [](const AotiCheck& c) { return c.match; });
    s.extremes_checked = std::all_of(s.dims.begin(), s.dims.end(), [&](const AotiDim& d) {
      auto has = [&](int64_t size) {
        return std::any_of(s.checks.begin(), s.checks.end(), [&](const AotiCheck& c) {
          auto it = c.sizes.find(d.name);
          return it != c.sizes.end() && it->second == size;
        });
      };
      return has(d.min) && has(d.max);
    });
    s.cannot = site_cannot(s);
    if (!s.cannot.empty()) cannot += fmt::format("{}{}: {}", cannot.empty() ? "" : "; ", site_label(s), s.cannot);
  }
  if (b.sites.empty()) cannot = "the run that filled the caches called no torch.compile'd site";
  else if (!b.ok && cannot.empty()) cannot = fmt::format("the build run failed ({})", b.exit_text);
  b.cannot = cannot;
}

}  // namespace tct::job
