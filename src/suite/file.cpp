#include "suite/file.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "errors.hpp"
#include "suite/settings.hpp"

namespace tct::suite {
namespace {

json to_json(const toml::node& node) {
  if (auto t = node.as_table()) {
    json out = json::object();
    for (auto&& [k, v] : *t) out[std::string(k.str())] = to_json(v);
    return out;
  }
  if (auto a = node.as_array()) {
    json out = json::array();
    for (auto&& v : *a) out.push_back(to_json(v));
    return out;
  }
  if (auto v = node.as_string()) return v->get();
  if (auto v = node.as_integer()) return v->get();
  if (auto v = node.as_floating_point()) return v->get();
  if (auto v = node.as_boolean()) return v->get();
  // Dates and times: kept as text (no setting takes one; a check names the value).
  std::ostringstream s;
  if (auto v = node.as_date()) s << v->get();
  else if (auto t = node.as_time()) s << t->get();
  else if (auto dt = node.as_date_time()) s << dt->get();
  return s.str();
}

// One axis of the matrix: a parameter or a setting, and the values it takes.
struct Axis {
  bool is_param;
  std::string name;
  std::vector<json> values;
};

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

void check_keys(const json& table, const std::set<std::string>& structural, const std::string& where) {
  for (auto& [k, v] : table.items()) {
    if (structural.count(k)) continue;
    if (!is_setting(normalize_setting_name(k))) {
      std::string known;
      for (const auto& n : setting_names()) known += (known.empty() ? "" : ", ") + n;
      throw usage_error(fmt::format("{}: unknown setting '{}'", where, k),
                        "settings are tct bench's long options (" + known + "), and params = { ... }");
    }
  }
}

Suite expand(const json& root, const std::string& source) {
  for (auto& [k, v] : root.items())
    if (k != "name" && k != "defaults" && k != "target")
      throw usage_error(fmt::format("{}: unknown top-level key '{}'", source, k),
                        "a suite file has name, [defaults] and [[target]] tables");
  Suite suite;
  if (root.contains("name")) {
    if (!root["name"].is_string())
      throw usage_error(fmt::format("{}: name must be a string", source), "write name = \"zoo\"");
    suite.name = root["name"].get<std::string>();
  }
  json defaults = root.value("defaults", json::object());
  if (!defaults.is_object())
    throw usage_error(fmt::format("{}: defaults must be a table", source),
                      "write [defaults] on a line of its own, then one setting per line");
  const json& targets = root.value("target", json::array());
  if (!targets.is_array() || targets.empty())
    throw usage_error(fmt::format("{} lists no targets", source),
                      "add one per model: [[target]] then spec = \"builtin:mlp\"");

  std::set<std::string> seen;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const json& target = targets[t];
    std::string where = fmt::format("{}: [[target]] {}", source, t + 1);
    if (!target.is_object())
      throw usage_error(where + " is not a table", "write each target as [[target]] then spec = \"...\"");
    if (!target.contains("spec") || !target["spec"].is_string() || target["spec"].get<std::string>().empty())
      throw usage_error(where + " has no spec", "write spec = \"FILE.py:NAME\", \"module:NAME\" or \"builtin:NAME\"");
    std::string spec = target["spec"].get<std::string>();
    where = fmt::format("{} ({})", where, spec);
    check_keys(defaults, {"params"}, source + ": [defaults]");
    check_keys(target, {"spec", "name", "params"}, where);
    std::string stem = spec;
    if (target.contains("name")) {
      if (!target["name"].is_string() || target["name"].get<std::string>().empty())
        throw usage_error(where + ": name must be a non-empty string",
                          "write name = \"resnet\" (the stem of the entry ids)");
      stem = target["name"].get<std::string>();
    }

    // Parameters: [defaults].params, then the target's own (which win).
    json params = json::object();
    for (const json* p : std::initializer_list<const json*>{&defaults, &target}) {
      if (!p->contains("params")) continue;
      if (!(*p)["params"].is_object())
        throw usage_error(where + ": params must be a table", "write params = { batch = 8 }");
      for (auto& [k, v] : (*p)["params"].items()) params[k] = v;
    }
    json settings = json::object();
    for (const json* s : std::initializer_list<const json*>{&defaults, &target})
      for (auto& [k, v] : s->items())
        if (k != "spec" && k != "name" && k != "params") settings[normalize_setting_name(k)] = v;

    std::vector<Axis> axes;
    auto values_of = [&](const std::string& name, const json& v, bool is_param) {
      std::vector<json> vals = v.is_array() ? std::vector<json>(v.begin(), v.end()) : std::vector<json>{v};
      if (vals.empty())
        throw usage_error(fmt::format("{}: {} is an empty list", where, name),
                          "a list is a matrix axis: give it a value");
      if (!is_param)
        for (auto& x : vals) x = check_setting(name, x, where);
      return vals;
    };
    for (auto& [k, v] : params.items()) axes.push_back({true, k, values_of(k, v, true)});
    for (const auto& name : setting_names())
      if (settings.contains(name)) axes.push_back({false, name, values_of(name, settings[name], false)});
    std::vector<std::string> multi;
    for (const auto& a : axes)
      if (!a.is_param && a.values.size() > 1) multi.push_back(a.name);

    // The cartesian product, first axis outermost (an odometer over the axes).
    std::vector<std::size_t> at(axes.size(), 0);
    while (true) {
      Entry e;
      e.target = spec;
      for (std::size_t i = 0; i < axes.size(); ++i)
        (axes[i].is_param ? e.params : e.settings)[axes[i].name] = axes[i].values[at[i]];
      e.id = entry_id(stem, e.params, e.settings, multi);
      if (!seen.insert(e.id).second)
        throw usage_error(fmt::format("{}: two entries have the id '{}'", where, e.id),
                          "give one of the targets its own name = \"...\"");
      suite.entries.push_back(std::move(e));
      std::size_t i = axes.size();
      while (i > 0 && ++at[i - 1] == axes[i - 1].values.size()) at[--i] = 0;
      if (i == 0) break;
    }
  }
  return suite;
}

}  // namespace

std::string entry_id(const std::string& stem, const json& params, const json& settings,
                     const std::vector<std::string>& axes) {
  std::vector<std::string> parts;
  for (auto& [k, v] : params.items()) parts.push_back(k + "=" + value_text(v));
  for (const auto& name : setting_names()) {
    if (!settings.contains(name)) continue;
    const json& v = settings[name];
    bool shown = is_identity_setting(name) ? v != identity_default(name)
                                           : std::find(axes.begin(), axes.end(), name) != axes.end();
    if (shown) parts.push_back(name + "=" + value_text(v));
  }
  if (parts.empty()) return stem;
  std::string out = stem + "[";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "," : "") + parts[i];
  return out + "]";
}

Suite parse_suite(const std::string& toml_text, const std::string& source) {
  toml::table table;
  try {
    table = toml::parse(toml_text, source);
  } catch (const toml::parse_error& e) {
    throw usage_error(
        fmt::format("{}:{}:{}: {}", source, e.source().begin.line, e.source().begin.column, e.description()),
        "fix the TOML syntax (https://toml.io)");
  }
  return expand(to_json(table), source);
}

}  // namespace tct::suite
