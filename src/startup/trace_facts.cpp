#include "startup/trace_facts.hpp"

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "trace/source.hpp"

namespace tct::startup {
namespace {

using json = nlohmann::json;

std::string_view artifact_name(const trace::Record& r) {
  std::string_view name;
  if (r.kind != "artifact" || r.body["name"].get_string().get(name) != simdjson::SUCCESS) return {};
  return name;
}

// fx_graph_cache_hit -> ("fx_graph", "hit"); aotautograd_cache_bypass -> ("aot_autograd", "bypass").
bool lookup_name(std::string_view name, std::string& cache, std::string& state) {
  for (auto [prefix, label] : {std::pair{"fx_graph_cache_", "fx_graph"}, {"aotautograd_cache_", "aot_autograd"}}) {
    const std::string_view p(prefix);
    if (name.substr(0, p.size()) != p) continue;
    const std::string_view rest = name.substr(p.size());
    if (rest != "hit" && rest != "miss" && rest != "bypass") return false;
    cache = label;
    state = std::string(rest);
    return true;
  }
  return false;
}

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > 300 ? line.substr(0, 297) + "..." : line;
}

// "[hash] name: value" -> name, (hash, value's first line, cut).
void add_component(const std::string& line, std::map<std::string, std::pair<std::string, std::string>>& out) {
  if (line.size() < 3 || line[0] != '[') return;
  const auto close = line.find("] ");
  const auto colon = close == std::string::npos ? std::string::npos : line.find(": ", close + 2);
  if (colon == std::string::npos) return;
  std::string value = first_line(line.substr(colon + 2));
  if (value.size() > 80) value = value.substr(0, 77) + "...";
  out[line.substr(close + 2, colon - close - 2)] = {line.substr(1, close - 1), value};
}

// Length of the union of [begin, end) spans (compile_file may nest or overlap).
double union_us(std::vector<std::pair<double, double>> spans) {
  std::sort(spans.begin(), spans.end());
  double total = 0, cur_b = 0, cur_e = -1;
  for (auto [b, e] : spans) {
    if (b > cur_e) {
      if (cur_e > cur_b) total += cur_e - cur_b;
      cur_b = b;
      cur_e = e;
    } else {
      cur_e = std::max(cur_e, e);
    }
  }
  if (cur_e > cur_b) total += cur_e - cur_b;
  return total;
}

Nanoseconds us(double x) { return Nanoseconds(std::max(0.0, x) * 1e3); }

}  // namespace

bool TraceFactsSink::wants_payload(const trace::Record& r) {
  if (r.kind == "chromium_event") return true;
  std::string cache, state;
  return lookup_name(artifact_name(r), cache, state);
}

void TraceFactsSink::on_record(const trace::Record& r, std::string_view payload) {
  any_ = true;
  if (r.payload_damaged) return;
  if (r.kind == "chromium_event") {
    on_event(payload);
    return;
  }
  const std::string_view name = artifact_name(r);
  if (!name.empty()) on_lookup(std::string(name), payload);
}

void TraceFactsSink::on_event(std::string_view payload) {
  const json e = json::parse(payload, nullptr, false);
  if (!e.is_object()) return;
  const std::string name = e.value("name", ""), ph = e.value("ph", "");
  static const char* kWanted[] = {"entire_frame_compile", "backend_compile", "inductor_compile", "compile_file"};
  if (std::find_if(std::begin(kWanted), std::end(kWanted), [&](const char* w) { return name == w; }) ==
      std::end(kWanted))
    return;
  const json& ts = e.contains("ts") ? e["ts"] : json();
  if (!ts.is_number()) return;
  if (ph == "B") {
    open_[name].push_back(Span{name, ts.get<double>(), 0, ""});
  } else if (ph == "E") {
    auto& stack = open_[name];
    if (stack.empty()) return;
    Span s = stack.back();
    stack.pop_back();
    s.end_us = ts.get<double>();
    // The end event's args carry the cache state of backend_compile and inductor_compile.
    if (e.contains("args") && e["args"].is_object()) {
      const json& state = e["args"].value("cache_state", json());
      if (state.is_string()) s.cache_state = state.get<std::string>();
    }
    spans_.push_back(std::move(s));
  }
}

void TraceFactsSink::on_lookup(const std::string& name, std::string_view payload) {
  KeyedLookup out;
  if (!lookup_name(name, out.lookup.cache, out.lookup.state)) return;
  const json p = json::parse(payload, nullptr, false);
  if (p.is_object()) {
    const json& reason = p.value("cache_bypass_reason", json());
    if (reason.is_string()) out.lookup.reason = first_line(reason.get<std::string>());
    const json& parts = p.value("components", json());
    if (parts.is_array())
      for (const auto& c : parts)
        if (c.is_string()) add_component(c.get<std::string>(), out.components);
  }
  lookups_.push_back(std::move(out));
}

TraceFacts TraceFactsSink::finish() {
  TraceFacts f;
  f.read = any_;
  f.lookups = lookups_;
  // Spans named `name` inside `outer`; the C++ compiler's time inside `outer`.
  auto within = [&](const Span& outer, const char* name) {
    std::vector<const Span*> in;
    for (const auto& s : spans_)
      if (s.name == name && s.begin_us >= outer.begin_us && s.end_us <= outer.end_us) in.push_back(&s);
    return in;
  };
  auto cc_in = [&](const Span& outer) {
    std::vector<std::pair<double, double>> in;
    for (const Span* s : within(outer, "compile_file")) in.emplace_back(s->begin_us, s->end_us);
    return union_us(std::move(in));
  };
  // A hit of the AOTAutograd cache loads the whole backend compile: what runs inside it is the load.
  auto inside_hit_backend = [&](const Span& s) {
    for (const auto& b : spans_)
      if (b.name == "backend_compile" && b.cache_state == "hit" && s.begin_us >= b.begin_us && s.end_us <= b.end_us)
        return true;
    return false;
  };
  double frame = 0, backend = 0, aot = 0, inductor = 0, cache = 0, cc_in_frames = 0;
  std::vector<std::pair<double, double>> cpp;
  for (const auto& s : spans_) {
    const double dur = s.end_us - s.begin_us;
    if (s.name == "compile_file") {
      cpp.emplace_back(s.begin_us, s.end_us);
    } else if (s.name == "entire_frame_compile") {
      frame += dur;
      cc_in_frames += cc_in(s);
    } else if (s.name == "backend_compile") {
      backend += dur;
      if (s.cache_state == "hit") {
        cache += dur - cc_in(s);
      } else {
        // AOTAutograd: the backend compile less the inductor compiles in it and the C++
        // compiler outside those.
        double in_inductor = 0, cc_in_inductor = 0;
        for (const Span* i : within(s, "inductor_compile")) {
          in_inductor += i->end_us - i->begin_us;
          cc_in_inductor += cc_in(*i);
        }
        aot += dur - in_inductor - (cc_in(s) - cc_in_inductor);
      }
    } else if (s.name == "inductor_compile" && !inside_hit_backend(s)) {
      (s.cache_state == "hit" ? cache : inductor) += dur - cc_in(s);
    }
  }
  const double cc_all = union_us(std::move(cpp));
  f.phases[Phase::Dynamo] = us(frame - backend);
  f.phases[Phase::AotAutograd] = us(aot);
  f.phases[Phase::Inductor] = us(inductor);
  f.phases[Phase::CppCompiler] = us(cc_all);
  f.phases[Phase::CacheLoad] = us(cache);
  // Everything compiling took: the frames, and any C++ compile outside them.
  f.compiling = us(frame + std::max(0.0, cc_all - cc_in_frames));
  return f;
}

TraceFacts read_trace_facts(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return {};
  TraceFactsSink sink;
  try {
    for (const auto& file : trace::list_trace_files(dir)) {
      trace::Reader reader(sink, 8u << 20);
      trace::read_file(file.path, reader);
    }
  } catch (const Error&) {
    return {};  // no log: the start ran without a trace (the caller says so)
  }
  return sink.finish();
}

std::vector<std::string> changed_components(const KeyedLookup& saved, const KeyedLookup& missed) {
  std::vector<std::string> out;
  for (const auto& [name, now] : missed.components) {
    auto it = saved.components.find(name);
    if (it == saved.components.end()) out.push_back(name + ": (new) " + now.second);
    else if (it->second.first != now.first) out.push_back(name + ": " + it->second.second + " -> " + now.second);
  }
  for (const auto& [name, before] : saved.components)
    if (!missed.components.count(name)) out.push_back(name + ": " + before.second + " -> (gone)");
  return out;
}

void explain_misses(std::vector<CacheLookup>& lookups, const std::vector<KeyedLookup>& missed,
                    const std::vector<KeyedLookup>& saved) {
  std::map<std::string, int> seen;
  for (size_t i = 0; i < lookups.size() && i < missed.size(); ++i) {
    const int nth = seen[missed[i].lookup.cache]++;
    if (lookups[i].state != "miss") continue;
    int k = 0;
    for (const auto& s : saved)
      if (s.lookup.cache == missed[i].lookup.cache && k++ == nth) {
        lookups[i].changed = changed_components(s, missed[i]);
        break;
      }
  }
}

}  // namespace tct::startup
