#include "suite/doc.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

#include "errors.hpp"
#include "report/document.hpp"
#include "suite/summary.hpp"

namespace tct::suite {
namespace {

std::vector<std::string> ids_of(const json& arr, const char* key = nullptr) {
  std::vector<std::string> out;
  if (!arr.is_array()) return out;
  for (const auto& v : arr) {
    const json& id = key ? v.value(key, json()) : v;
    if (id.is_string()) out.push_back(id.get<std::string>());
  }
  return out;
}

std::string first_few(const std::vector<std::string>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < 3; ++i) out += (i ? ", " : "") + ids[i];
  if (ids.size() > 3) out += fmt::format(" and {} more", ids.size() - 3);
  return out;
}

const json& suite_of(const json& doc, const std::string& path) {
  if (!doc.is_object() || doc.value("command", "") != "suite" || !doc.contains("suite") || !doc["suite"].is_object() ||
      !doc["suite"]["plan"].is_array())
    throw usage_error(fmt::format("{} is not a tct suite document", path),
                      "pass files written by 'tct suite SUITE.toml -o FILE.json'");
  return doc["suite"];
}

}  // namespace

json plan_section(const Suite& suite, const std::string& file, const ShardSpec& shard,
                  const std::vector<int>& assignment, const std::string& costs_from) {
  json plan = json::array(), selected = json::array();
  for (std::size_t k = 0; k < suite.entries.size(); ++k) {
    const Entry& e = suite.entries[k];
    plan.push_back({{"id", e.id}, {"target", e.target}, {"params", e.params}, {"settings", e.settings},
                    {"shard", assignment.at(k)}});
    if (assignment[k] == shard.index) selected.push_back(e.id);
  }
  json shard_json = nullptr;
  if (shard.count > 1)
    shard_json = {{"index", shard.index}, {"count", shard.count},
                  {"method", costs_from.empty() ? "round_robin" : "cost"},
                  {"costs_from", costs_from.empty() ? json(nullptr) : json(costs_from)}};
  return {{"file", file}, {"name", suite.name}, {"plan", plan}, {"shard", shard_json}, {"selected", selected},
          {"listing", false}, {"entries", json::array()}, {"summary", to_json(summarize(json::array()))}};
}

void record_entry(json& section, json entry) {
  std::map<std::string, std::size_t> order;
  for (const auto& p : section["plan"]) order.emplace(p.value("id", ""), order.size());
  json& entries = section["entries"];
  std::string id = entry.value("id", "");
  for (auto it = entries.begin(); it != entries.end(); ++it)
    if (it->value("id", "") == id) {
      entries.erase(it);
      break;
    }
  auto rank = [&](const json& e) {
    auto it = order.find(e.value("id", ""));
    return it == order.end() ? order.size() : it->second;
  };
  auto pos = entries.begin();
  while (pos != entries.end() && rank(*pos) <= rank(entry)) ++pos;
  entries.insert(pos, std::move(entry));
  section["summary"] = to_json(summarize(entries));
}

std::vector<json> resumable_entries(const json& previous, const json& section, std::size_t& dropped) {
  const json& prev = suite_of(previous, "the --resume file");
  auto share = ids_of(section["selected"]);
  std::set<std::string> wanted(share.begin(), share.end());
  std::vector<json> keep;
  dropped = 0;
  for (const auto& e : prev.value("entries", json::array())) {
    if (wanted.count(e.value("id", ""))) keep.push_back(e);
    else ++dropped;
  }
  return keep;
}

std::vector<std::string> pending_ids(const json& section) {
  auto done = ids_of(section["entries"], "id");
  std::set<std::string> recorded(done.begin(), done.end());
  std::vector<std::string> out;
  for (const auto& id : ids_of(section["selected"]))
    if (!recorded.count(id)) out.push_back(id);
  return out;
}

json merge_shards(const std::vector<std::pair<std::string, json>>& shards) {
  if (shards.empty()) throw usage_error("no shard documents to merge", "tct merge A.json B.json ... -o ALL.json");
  const auto& [first_path, first_doc] = shards.front();
  const json& first = suite_of(first_doc, first_path);
  auto plan = ids_of(first["plan"], "id");

  json merged = first_doc;
  json& section = merged["suite"];
  section["shard"] = nullptr;
  section["selected"] = plan;
  section["entries"] = json::array();
  section["merged_from"] = json::array();
  merged["warnings"] = json::array();
  merged["error"] = nullptr;

  std::map<std::string, std::string> found;  // id -> file that holds it
  std::set<std::string> torch_versions;
  for (const auto& [path, doc] : shards) {
    const json& s = suite_of(doc, path);
    if (s.value("listing", false))
      throw usage_error(fmt::format("{} is a --list output: nothing ran", path), "merge the files the shards wrote with -o");
    if (ids_of(s["plan"], "id") != plan)
      throw usage_error(fmt::format("{} and {} come from different suites (their entry lists differ)", first_path, path),
                        "run every shard from the same suite file and tct version");
    for (const auto& e : s.value("entries", json::array())) {
      std::string id = e.value("id", "");
      if (auto it = found.find(id); it != found.end())
        throw usage_error(fmt::format("entry '{}' is in both {} and {}", id, it->second, path),
                          "each entry must come from one shard: check the --shard I/N of each run");
      found.emplace(id, path);
      record_entry(section, e);
    }
    for (const auto& w : doc.value("warnings", json::array())) report::add_warning(merged, w);
    const json& torch = doc.value("environment", json::object()).value("torch", json());
    if (torch.is_object() && torch.contains("version")) torch_versions.insert(torch["version"].dump());
    section["merged_from"].push_back({{"path", path}, {"shard", s.value("shard", json())},
                                      {"created", doc.value("created", json())},
                                      {"entries", s.value("entries", json::array()).size()}});
  }
  std::vector<std::string> missing;
  for (const auto& id : plan)
    if (!found.count(id)) missing.push_back(id);
  if (!missing.empty())
    throw usage_error(fmt::format("{} of {} entries are in no shard: {}", missing.size(), plan.size(), first_few(missing)),
                      "a shard did not finish or was not passed: rerun it (with --resume) and merge every shard's file");
  if (torch_versions.size() > 1)
    report::add_warning(merged, {{"code", "mixed_environments"},
                                 {"message", fmt::format("the shards ran on {} different torch versions", torch_versions.size())},
                                 {"hint", "compare entries only across runs of one torch version"}});
  return merged;
}

std::optional<Error> suite_outcome(const json& section) {
  std::vector<const json*> failed, mismatched;
  const json entries = section.value("entries", json::array());
  for (const auto& e : entries) {
    if (e.value("status", "") == "failed") failed.push_back(&e);
    if (e.value("status", "") == "mismatch") mismatched.push_back(&e);
  }
  std::size_t n = entries.size();
  auto describe = [](const json& e) {
    const json& err = e.value("error", json::object());
    return fmt::format("{}: {}", e.value("id", "?"), err.is_object() ? err.value("message", "") : "");
  };
  if (!failed.empty())
    return Error(ExitCode::TargetFailed, "suite_entry_failed",
                 fmt::format("{} of {} entries failed; first {}", failed.size(), n, describe(*failed.front())),
                 "the other entries ran and every one is recorded; see each failed entry's error");
  if (!mismatched.empty())
    return Error(ExitCode::CheckFailed, "output_mismatch",
                 fmt::format("compiled outputs differ from eager in {} of {} entries; first {}", mismatched.size(), n,
                             describe(*mismatched.front())),
                 "loosen rtol/atol for that entry if this is acceptable rounding");
  return std::nullopt;
}

}  // namespace tct::suite
