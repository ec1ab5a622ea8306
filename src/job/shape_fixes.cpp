#include "job/shape_fixes.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "job/json_fields.hpp"
#include "stats/mean_interval.hpp"

namespace tct::job {
namespace fs = std::filesystem;
using json = nlohmann::json;

std::string_view to_string(ShapeFix f) { return kShapeFixNames[static_cast<size_t>(f)]; }

std::optional<ShapeFix> parse_shape_fix(std::string_view s) {
  for (ShapeFix f : kAllShapeFixes)
    if (to_string(f) == s) return f;
  return std::nullopt;
}

namespace {

// What the bootstrap wrote in a process (python/tct_run_bootstrap/tct_run_shape_fix.py,
// shape-fix-<pid>.json), declared once and decoded where it arrives: the API it found, the sites
// it applied the fix to and what it could not apply.
struct ShapeFixRecord {
  std::optional<ShapeApi> api;
  std::vector<std::string> applied, errors;
};
constexpr auto json_fields(const ShapeFixRecord*) {
  return std::tuple{TCT_FIELDS(ShapeFixRecord, api, applied, errors)};
}

std::vector<ShapeFixRecord> shape_fix_records(const std::string& record_dir) {
  std::vector<ShapeFixRecord> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(record_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("shape-fix-", 0) != 0 || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    try {
      out.push_back(core::fields::read_as<ShapeFixRecord>(json::parse(ss.str())));
    } catch (const std::exception&) {  // a process killed mid-write leaves only its .tmp
    }
  }
  return out;
}

// The argument's position among the call's and the tensor's rank, from the site's records.
void locate(VariedInput& v, const run::SiteRecord& rec) {
  const auto named = std::find(rec.arg_names.begin(), rec.arg_names.end(), v.input);
  if (named != rec.arg_names.end()) v.position = static_cast<int>(named - rec.arg_names.begin());
  else if (v.input.rfind("arg ", 0) == 0) v.position = std::atoi(v.input.c_str() + 4);
  for (const auto& c : rec.shapes) {
    if (v.position && *v.position < static_cast<int>(c.args.size()) && c.args[static_cast<size_t>(*v.position)]) {
      v.rank = static_cast<int>(c.args[static_cast<size_t>(*v.position)]->size());
      return;
    }
    for (const auto& [name, sizes] : c.kwargs)
      if (name == v.input) {
        v.rank = static_cast<int>(sizes.size());
        return;
      }
  }
}

std::string relative(const std::string& file) {
  std::error_code ec;
  const fs::path rel = fs::path(file).lexically_relative(fs::current_path(ec));
  return ec || rel.empty() || rel.string().rfind("..", 0) == 0 ? file : rel.string();
}

// What the user compiles at the site, in the code: a module's object, or the function's name.
std::string target_of(const FixSite& s) { return s.kind == "module" ? "model" : s.name; }

std::string import_of(const std::string& dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string::npos ? "" : "import " + dotted.substr(0, dot);
}

std::string ranges_text(const ShapeFixes& s) {
  std::string out;
  for (const auto& v : s.varied)
    out += fmt::format("{}{} dim {} in [{}, {}]", out.empty() ? "" : ", ", v.input, v.dim, v.min, v.max);
  return out;
}

std::vector<double> totals_by_round(const ModeResult& m, int rounds) {
  std::vector<double> out(static_cast<size_t>(std::max(rounds, 0)), NAN);
  for (const auto& run : m.runs)
    if (run.round >= 1 && run.round <= rounds && run.ok()) out[static_cast<size_t>(run.round - 1)] = run.wall.count();
  return out;
}

ModeResult* find_mode(JobResult& r, const std::string& label) {
  for (auto& m : r.modes)
    if (m.spec.label() == label) return &m;
  return nullptr;
}

}  // namespace

void add_shape_fix_modes(std::vector<ModeSpec>& modes, const std::vector<ShapeFix>& fixes,
                         const std::vector<std::optional<int>>& threads) {
  if (fixes.empty()) return;
  auto has = [&](const ModeSpec& s) {
    return std::any_of(modes.begin(), modes.end(), [&](const ModeSpec& x) {
      return x.how == s.how && x.threads == s.threads && x.shape_fix == s.shape_fix;
    });
  };
  for (const auto& t : threads) {
    const ModeSpec cold{How::Cold, t, std::nullopt};
    if (!has(cold)) modes.push_back(cold);
    for (ShapeFix f : fixes)
      if (const ModeSpec s{How::Cold, t, f}; !has(s)) modes.push_back(s);
  }
}

std::optional<ShapeApi> read_shape_api(const std::string& record_dir) {
  for (ShapeFixRecord& rec : shape_fix_records(record_dir))
    if (rec.api) return std::move(rec.api);
  return std::nullopt;
}

void plan_shape_fixes(JobResult& r, const run::RecordSet& records, const run::RunResult& analysed,
                      const std::string& record_dir, bool run_ok) {
  ShapeFixes s;
  const std::optional<ShapeApi> api = read_shape_api(record_dir);
  if (api) s.api = *api;
  for (const auto& p : analysed.processes)
    for (const auto& site : p.sites) {
      if (std::none_of(s.sites.begin(), s.sites.end(), [&](const FixSite& x) { return x.key == site.key; }))
        s.sites.push_back({site.key, site.name, site.kind, site.site_file, site.site_line});
      if (!site.shape_use) continue;
      const run::SiteRecord* rec = nullptr;
      for (const auto& rp : records.processes)
        for (const auto& rs : rp.sites)
          if (rec == nullptr && rs.key() == site.key) rec = &rs;
      for (const auto& d : site.shape_use->varied) {
        if (d.sizes.empty()) continue;
        auto same = std::find_if(s.varied.begin(), s.varied.end(), [&](const VariedInput& x) {
          return x.site == site.key && x.input == d.input && x.dim == d.dim;
        });
        if (same != s.varied.end()) {  // another process of the job: the ranges join
          same->min = std::min(same->min, d.sizes.front().size);
          same->max = std::max(same->max, d.sizes.back().size);
          same->recompiles += d.recompiles;
          continue;
        }
        VariedInput v;
        v.site = site.key;
        v.site_name = site.name;
        v.input = d.input;
        v.dim = d.dim;
        v.min = d.sizes.front().size;
        v.max = d.sizes.back().size;
        v.sizes = static_cast<int>(d.sizes.size());
        v.recompiles = d.recompiles;
        if (rec) locate(v, *rec);
        s.varied.push_back(std::move(v));
      }
    }
  for (auto& m : r.modes) {
    if (!m.spec.shape_fix) continue;
    const ShapeFix f = *m.spec.shape_fix;
    std::string why;
    if (!run_ok) why = "the run that reads the job's shapes failed";
    else if (s.sites.empty()) why = "no torch.compile call site ran in the run that reads the job's shapes";
    else if (!api) why = "the job's torch was not read (its bootstrap wrote no shape-fix record)";
    else if ((f == ShapeFix::MarkDynamic || f == ShapeFix::MarkUnbacked || f == ShapeFix::Spec) && s.varied.empty())
      why = "no dimension of a compiled site's tensors took more than one size in the run that reads the shapes";
    else if (f == ShapeFix::MarkDynamic && s.api.mark_dynamic.empty())
      why = fmt::format("torch {} has no torch._dynamo.mark_dynamic", s.api.torch);
    else if (f == ShapeFix::MarkUnbacked && s.api.mark_unbacked.empty())
      why = fmt::format("torch {} has no mark_unbacked (looked in torch._dynamo and torch._dynamo.decorators)",
                        s.api.torch);
    else if (f == ShapeFix::Spec && s.api.spec_keyword.empty())
      why = fmt::format(
          "torch {} has no shape spec for torch.compile (looked for its dynamic_shapes= and shapes_spec= "
          "with torch.fx.experimental.dynamic_spec)",
          s.api.torch);
    else if ((f == ShapeFix::MarkDynamic || f == ShapeFix::MarkUnbacked || f == ShapeFix::Spec) &&
             std::any_of(s.varied.begin(), s.varied.end(),
                         [](const VariedInput& v) { return !v.position && v.rank == 0; }))
      why = "a dimension that varied belongs to an input whose position and rank were not recorded";
    if (!why.empty()) m.error = why;
    ShapeFixResult x;
    x.fix = f;
    x.mode = m.spec.label();
    x.baseline = ModeSpec{How::Cold, m.spec.threads, std::nullopt}.label();
    x.not_run = why;
    s.fixes.push_back(std::move(x));
  }
  r.shape_fixes = std::move(s);
}

std::vector<std::pair<std::string, std::string>> shape_fix_env(const JobResult& r, const ModeSpec& spec) {
  if (!spec.shape_fix || !r.shape_fixes) return {};
  json dims = json::object();
  for (const auto& v : r.shape_fixes->varied) {
    json pos = v.position ? json(*v.position) : json(nullptr);
    dims[v.site].push_back(json::array({v.input, pos, v.dim, v.rank, v.min, v.max}));
  }
  return {{"TCT_RUN_SHAPE_FIX", std::string(to_string(*spec.shape_fix))}, {"TCT_RUN_SHAPE_DIMS", dims.dump()}};
}

void note_shape_fix_run(JobResult& r, const ModeSpec& spec, const std::string& record_dir) {
  if (!spec.shape_fix || !r.shape_fixes) return;
  const std::string label = spec.label();
  for (auto& x : r.shape_fixes->fixes) {
    if (x.mode != label) continue;
    for (const ShapeFixRecord& rec : shape_fix_records(record_dir)) {
      for (const auto& k : rec.applied)
        if (std::find(x.applied.begin(), x.applied.end(), k) == x.applied.end()) x.applied.push_back(k);
      for (const auto& e : rec.errors)
        if (std::find(x.errors.begin(), x.errors.end(), e) == x.errors.end()) x.errors.push_back(e);
    }
  }
}

std::vector<FixCode> shape_fix_code(ShapeFix fix, const ShapeFixes& s) {
  std::vector<FixCode> out;
  const ShapeApi& api = s.api;
  for (const FixSite& site : s.sites) {
    const std::string at = fmt::format("{}:{}", relative(site.file), site.line);
    switch (fix) {
      case ShapeFix::Static:
      case ShapeFix::Dynamic:
        out.push_back({site.key,
                       fmt::format("in the torch.compile call at {} (its other arguments kept)", at),
                       {},
                       fmt::format("torch.compile({}, dynamic={})", target_of(site),
                                   fix == ShapeFix::Static ? "False" : "True")});
        break;
      case ShapeFix::MarkDynamic:
      case ShapeFix::MarkUnbacked: {
        const bool marks_dynamic = fix == ShapeFix::MarkDynamic;
        const std::string& fn = marks_dynamic ? api.mark_dynamic : api.mark_unbacked;
        const bool ranged = marks_dynamic ? api.mark_dynamic_range : api.mark_unbacked_range;
        for (const auto& v : s.varied) {
          if (v.site != site.key) continue;
          out.push_back({site.key,
                         fmt::format("before each call of {} (compiled at {})", site.name, at),
                         {import_of(fn)},
                         fmt::format("{}({}, {}{})", fn, v.input, v.dim,
                                     ranged ? fmt::format(", min={}, max={}", v.min, v.max) : "")});
        }
        break;
      }
      case ShapeFix::Spec: {
        // One TensorSpec per input that varied: a ShapeVar on each dim that varied, None (static)
        // on the others, as the bootstrap built it.
        std::vector<std::pair<std::string, std::vector<std::string>>> inputs;
        for (const auto& v : s.varied) {
          if (v.site != site.key) continue;
          auto it = std::find_if(inputs.begin(), inputs.end(), [&](const auto& p) { return p.first == v.input; });
          if (it == inputs.end()) {
            inputs.push_back(
                {v.input, std::vector<std::string>(static_cast<size_t>(std::max(v.rank, v.dim + 1)), "None")});
            it = inputs.end() - 1;
          }
          it->second[static_cast<size_t>(v.dim)] =
              fmt::format("ShapeVar(\"{}_dim{}\", min={}, max={})", v.input, v.dim, v.min, v.max);
        }
        if (inputs.empty()) break;
        std::string params;
        for (const auto& [input, leaves] : inputs)
          params +=
              fmt::format("{}\"{}\": TensorSpec([{}])", params.empty() ? "" : ", ", input, fmt::join(leaves, ", "));
        out.push_back(
            {site.key,
             fmt::format("in the torch.compile call at {} (its other arguments kept)", at),
             {fmt::format("from {} import ParamsSpec, ShapeVar, TensorSpec", api.spec_module)},
             fmt::format("torch.compile({}, {}=ParamsSpec({{{}}}))", target_of(site), api.spec_keyword, params)});
        break;
      }
    }
  }
  return out;
}

std::string shape_fix_gives_up(ShapeFix fix, const ShapeFixes& s) {
  const std::string ranges = ranges_text(s);
  int sizes = 0;
  for (const auto& v : s.varied) sizes = std::max(sizes, v.sizes);
  switch (fix) {
    case ShapeFix::Static:
      return fmt::format(
          "a compile for every new size ({} sizes in this job), and past the recompile limit the site runs eager",
          sizes);
    case ShapeFix::Dynamic:
      return "every dimension of every input is symbolic, not only those that varied: kernels for any size, "
             "guards on every size the code branches on";
    case ShapeFix::MarkDynamic:
      return s.api.mark_dynamic_range
                 ? fmt::format(
                       "kernels for any size in the range instead of one per size; a size outside it ({}) "
                       "raises ConstraintViolationError, as does code that needs a fixed size",
                       ranges)
                 : "kernels for any size instead of one per size; code that needs a fixed size raises "
                   "ConstraintViolationError";
    case ShapeFix::MarkUnbacked:
      return fmt::format(
          "no size hint: 0 and 1 are not special-cased, and a branch on the size is a data-dependent error{}",
          s.api.mark_unbacked_range ? fmt::format("; a size outside the range ({}) fails the call", ranges) : "");
    case ShapeFix::Spec:
      return fmt::format(
          "set once at torch.compile for every call; the sizes are unbacked (no size hint, a branch on the size is a "
          "data-dependent error); a size outside the range ({}) fails the call",
          ranges);
  }
  return "";
}

void decide_shape_fixes(JobResult& r) {
  if (!r.shape_fixes) return;
  for (auto& x : r.shape_fixes->fixes) {
    x.recompiles = 0;
    x.compile_time = kNotMeasured;
    x.steady = x.total = x.speedup = stats::Interval{NAN, NAN, NAN};
    x.verdict = stats::SpeedupVerdict::NotMeasured;
    x.code.clear();
    x.gives_up = shape_fix_gives_up(x.fix, *r.shape_fixes);
    const ModeResult* m = find_mode(r, x.mode);
    const ModeResult* base = find_mode(r, x.baseline);
    if (m == nullptr) continue;
    if (!m->error.empty()) x.not_run = m->error;
    if (!m->ok()) continue;
    double compile = 0;
    bool any_compile = false;
    for (const auto& s : m->sites) {
      x.recompiles += s.recompiles;
      if (measured(s.compile_time)) {
        compile += s.compile_time.count();
        any_compile = true;
      }
    }
    if (any_compile) x.compile_time = Nanoseconds(compile);
    const SiteSummary* busiest = nullptr;
    for (const auto& s : m->sites)
      if (busiest == nullptr || s.key == r.anchor) busiest = &s;  // the anchor, else the first
    if (busiest) x.steady = busiest->steady;
    x.total = m->total;
    if (base != nullptr && base->ok()) {
      x.speedup = stats::paired_ratio_interval(totals_by_round(*base, r.rounds), totals_by_round(*m, r.rounds));
      x.verdict = stats::decide(x.speedup);
    }
    // The code only for a fix that ran: applied at a site, every run finished, the output unchanged.
    if (m->failed == 0 && m->output.same)
      for (FixCode& c : shape_fix_code(x.fix, *r.shape_fixes))
        if (std::find(x.applied.begin(), x.applied.end(), c.site) != x.applied.end()) x.code.push_back(std::move(c));
  }
}

}  // namespace tct::job
