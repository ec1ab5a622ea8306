#include "run/records.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tct::run {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// RANK and friends arrive as environment strings (or null).
std::optional<int> int_field(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  if (j[key].is_number_integer()) return j[key].get<int>();
  if (j[key].is_string()) {
    try {
      return std::stoi(j[key].get<std::string>());
    } catch (const std::exception&) { return std::nullopt; }
  }
  return std::nullopt;
}

// A list of sizes, or nullopt for anything else (the bootstrap writes null for a non-tensor).
std::optional<std::vector<int64_t>> sizes_of(const json& j) {
  if (!j.is_array()) return std::nullopt;
  std::vector<int64_t> out;
  for (const auto& d : j) {
    if (!d.is_number_integer()) return std::nullopt;
    out.push_back(d.get<int64_t>());
  }
  return out;
}

// The bootstrap's [{args, kwargs, calls}] and {other: calls} (python/tct_run_bootstrap).
void read_shapes(const json& list, SiteRecord& r) {
  if (!list.is_array()) return;
  for (const auto& e : list) {
    if (!e.is_object()) continue;
    if (const auto o = e.find("other"); o != e.end() && o->is_number_integer()) {
      r.shapes_other_calls += o->get<int64_t>();
      continue;
    }
    ShapeCount c;
    c.calls = e.value("calls", int64_t{0});
    for (const auto& a : e.value("args", json::array())) c.args.push_back(sizes_of(a));
    if (const auto kw = e.find("kwargs"); kw != e.end() && kw->is_object())
      for (const auto& [name, v] : kw->items())
        if (auto sz = sizes_of(v)) c.kwargs.emplace_back(name, std::move(*sz));
    if (c.calls > 0) r.shapes.push_back(std::move(c));
  }
}

// The sampler's record (python/tct_run_bootstrap/tct_run_sampler.py Sampling.to_json).
SampledCalls read_sampled(const json& j) {
  SampledCalls out;
  for (const auto& w : j.value("windows", json::array()))
    if (w.is_array() && w.size() == 2 && w[0].is_number_integer() && w[1].is_number_integer())
      out.windows.emplace_back(w[0].get<size_t>(), w[1].get<size_t>());
  out.names = j.value("names", std::vector<std::string>{});
  for (const auto& c : j.value("calls", json::array())) {
    if (!c.is_object() || !c.contains("index") || !c["index"].is_number_integer()) continue;
    bench::SampledCall call;
    call.ns = c.value("ns", 0.0);
    for (const auto& e : c.value("events", json::array()))
      if (e.is_array() && e.size() == 3 && e[0].is_number_integer() && e[1].is_number() && e[2].is_number())
        call.events.push_back({e[0].get<int>(), e[1].get<double>(), e[2].get<double>()});
    out.index.push_back(c["index"].get<size_t>());
    out.calls.push_back(std::move(call));
    out.hit.push_back(c.value("hit", -1));
    out.entries.push_back(c.value("entries", 0));
  }
  out.chain = j.value("chain", std::vector<std::string>{});
  out.sampler_ns = j.value("cost_ns", int64_t{0});
  out.skipped = j.value("skipped_profiler_in_use", 0);
  out.error = j.value("error", "");
  return out;
}

}  // namespace

bool SampledCalls::settling(size_t call) const {
  for (const auto& [first, n] : windows)
    if (call >= first + n && call < first + n + kSettling) return true;
  return false;
}

std::string SiteRecord::key() const { return fmt::format("{}:{} {}", site_file, site_line, name); }

ProcessRecord parse_record(const std::string& text) {
  json j = json::parse(text);
  ProcessRecord p;
  p.pid = j.value("pid", int64_t{0});
  p.rank = int_field(j, "rank");
  p.local_rank = int_field(j, "local_rank");
  p.world_size = int_field(j, "world_size");
  p.torch = j.value("torch", "");
  p.python = j.value("python", "");
  p.stance = j.value("stance", "");
  p.force_eager = j.value("force_eager", false);
  if (j.contains("try_fix") && j["try_fix"].is_string()) p.try_fix = j["try_fix"].get<std::string>();
  p.graph_counting = j.value("graph_counting", false);
  p.final = j.value("final", false);
  if (j.contains("ended_by") && j["ended_by"].is_string()) p.ended_by = j["ended_by"].get<std::string>();
  p.threads = int_field(j, "threads");
  if (const auto it = j.find("limits"); it != j.end() && it->is_object())
    for (const auto& [k, v] : it->items())
      if (v.is_number_integer()) p.limits[k] = v.get<int>();
  if (j.contains("argv") && j["argv"].is_array())
    for (const auto& a : j["argv"]) p.argv.push_back(a.is_string() ? a.get<std::string>() : a.dump());
  for (const auto& s : j.value("sites", json::array())) {
    SiteRecord r;
    r.index = s.value("index", 0);
    r.kind = s.value("kind", "");
    r.name = s.value("name", "");
    r.code_name = s.value("code_name", "");
    r.code_file = s.value("code_file", "");
    r.code_line = s.value("code_line", 0);
    r.site_file = s.value("site_file", "");
    r.site_line = s.value("site_line", 0);
    r.objects = s.value("objects", 0);
    r.durations_ns = s.value("durations_ns", std::vector<int64_t>{});
    r.compile_calls = s.value("compile_calls", std::vector<size_t>{});
    r.eager_calls = s.value("eager_calls", std::vector<size_t>{});
    for (const auto& d : s.value("device_ns", json::array()))
      if (d.is_array() && d.size() == 2 && d[0].is_number_integer() && d[1].is_number_integer())
        r.device_ns.emplace_back(d[0].get<size_t>(), d[1].get<int64_t>());
    for (const auto& c : s.value("compile_ids", json::array()))
      if (c.is_array() && c.size() == 2 && c[0].is_number_integer() && c[1].is_string())
        r.compile_ids.emplace_back(c[0].get<size_t>(), c[1].get<std::string>());
    if (s.contains("outputs_need_grad") && s["outputs_need_grad"].is_boolean())
      r.outputs_need_grad = s["outputs_need_grad"].get<bool>();
    r.ends_ns = s.value("ends_ns", std::vector<int64_t>{});
    if (s.contains("wrapper") && s["wrapper"].is_string()) r.wrapper = s["wrapper"].get<std::string>();
    r.arg_names = s.value("arg_names", std::vector<std::string>{});
    read_shapes(s.value("shapes", json::array()), r);
    if (const auto it = s.find("shapes_sampling"); it != s.end() && it->is_object()) {
      r.shapes_all_calls = it->value("all_calls", int64_t{0});
      r.shapes_one_in = it->value("then_one_in", int64_t{0});
    }
    if (const auto it = s.find("sampled"); it != s.end() && it->is_object()) r.sampled = read_sampled(*it);
    p.sites.push_back(std::move(r));
  }
  for (const auto& h : j.value("recompile_limit_hits", json::array())) {
    LimitHit l;
    if (h.contains("site") && h["site"].is_number_integer()) l.site = h["site"].get<int>();
    if (h.contains("call") && h["call"].is_number_integer()) l.call = h["call"].get<size_t>();
    l.limit = h.value("limit", "");
    if (h.contains("value") && h["value"].is_number_integer()) l.value = h["value"].get<int>();
    l.function = h.value("function", "");
    l.last_reason = h.value("last_reason", "");
    l.message = h.value("message", "");
    l.compile_id = h.value("compile_id", "");
    p.limit_hits.push_back(std::move(l));
  }
  if (const auto it = j.find("cache_artifacts"); it != j.end() && it->is_object()) {
    CacheArtifacts a;
    auto num = [&](const char* key) -> std::optional<int64_t> {
      const auto f = it->find(key);
      return f != it->end() && f->is_number() ? std::optional<int64_t>(f->get<int64_t>()) : std::nullopt;
    };
    a.loaded_bytes = num("loaded_bytes");
    a.load_ns = num("load_ns");
    a.saved_bytes = num("saved_bytes");
    a.save_ns = num("save_ns");
    a.load_error = it->value("load_error", "");
    a.save_error = it->value("save_error", "");
    p.artifacts = a;
  }
  return p;
}

namespace {

// launcher-<pid>.json: {"pid", "failures": [{"pid", "local_rank", "exitcode", "time_s"}]}.
std::vector<WorkerFailure> parse_launcher(const std::string& text) {
  json j = json::parse(text);
  std::vector<WorkerFailure> out;
  for (const auto& f : j.value("failures", json::array())) {
    if (!f.is_object()) continue;
    WorkerFailure w;
    w.launcher_pid = j.value("pid", int64_t{0});
    w.pid = f.value("pid", int64_t{0});
    w.local_rank = f.value("local_rank", 0);
    w.exitcode = f.value("exitcode", 0);
    w.time_s = f.value("time_s", 0.0);
    out.push_back(w);
  }
  return out;
}

}  // namespace

RecordSet read_records(const std::string& dir) {
  RecordSet out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    const bool launcher = name.rfind("launcher-", 0) == 0;
    if (!launcher && name.rfind("process-", 0) != 0) continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    if (launcher) {
      try {
        auto f = parse_launcher(ss.str());
        out.failures.insert(out.failures.end(), f.begin(), f.end());
      } catch (const std::exception& e) {
        out.unreadable.push_back(fmt::format("{}: {}", entry.path().string(), e.what()));
      }
      continue;
    }
    try {
      ProcessRecord p = parse_record(ss.str());
      p.path = entry.path().string();
      out.processes.push_back(std::move(p));
    } catch (const std::exception& e) {
      out.unreadable.push_back(fmt::format("{}: {}", entry.path().string(), e.what()));
    }
  }
  std::sort(out.processes.begin(), out.processes.end(), [](const ProcessRecord& a, const ProcessRecord& b) {
    return std::make_pair(a.rank.value_or(-1), a.pid) < std::make_pair(b.rank.value_or(-1), b.pid);
  });
  std::stable_sort(out.failures.begin(), out.failures.end(),
                   [](const WorkerFailure& a, const WorkerFailure& b) { return a.time_s < b.time_s; });
  return out;
}

}  // namespace tct::run
