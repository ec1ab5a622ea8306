#include "suite/doc.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/json_read.hpp"
#include "errors.hpp"
#include "report/warning.hpp"
#include "suite/json.hpp"
#include "suite/summary.hpp"

namespace tct::suite {
namespace {

using json = nlohmann::json;

std::vector<std::string> plan_ids(const SuiteResult& s) {
  std::vector<std::string> out;
  for (const auto& p : s.plan) out.push_back(p.entry.id);
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

SuiteResult plan_suite(const Suite& suite, const std::string& file, const ShardSpec& shard,
                       const std::vector<int>& assignment, const std::string& costs_from) {
  SuiteResult s;
  s.file = file;
  s.name = suite.name;
  for (std::size_t k = 0; k < suite.entries.size(); ++k) {
    s.plan.push_back({suite.entries[k], assignment.at(k)});
    if (assignment[k] == shard.index) s.selected.push_back(suite.entries[k].id);
  }
  if (shard.count > 1) s.shard = ShardInfo{shard.index, shard.count, costs_from};
  s.summary = summarize(s.entries);
  return s;
}

void record_entry(SuiteResult& s, EntryRecord entry) {
  std::map<std::string, std::size_t> order;
  for (const auto& p : s.plan) order.emplace(p.entry.id, order.size());
  auto& entries = s.entries;
  std::erase_if(entries, [&](const EntryRecord& e) { return e.entry.id == entry.entry.id; });
  auto rank = [&](const EntryRecord& e) {
    auto it = order.find(e.entry.id);
    return it == order.end() ? order.size() : it->second;
  };
  auto pos = entries.begin();
  while (pos != entries.end() && rank(*pos) <= rank(entry)) ++pos;
  entries.insert(pos, std::move(entry));
  s.summary = summarize(entries);
}

std::vector<EntryRecord> resumable_entries(const json& previous, const SuiteResult& s, std::size_t& dropped) {
  const json& prev = suite_of(previous, "the --resume file");
  std::set<std::string> wanted(s.selected.begin(), s.selected.end());
  std::vector<EntryRecord> keep;
  dropped = 0;
  for (const auto& e : core::json_read::list(prev, "entries")) {
    if (wanted.count(core::json_read::str(e, "id"))) keep.push_back(record_from_json(e));
    else ++dropped;
  }
  return keep;
}

std::vector<std::string> pending_ids(const SuiteResult& s) {
  std::set<std::string> recorded;
  for (const auto& e : s.entries) recorded.insert(e.entry.id);
  std::vector<std::string> out;
  for (const auto& id : s.selected)
    if (!recorded.count(id)) out.push_back(id);
  return out;
}

json merge_shards(const std::vector<std::pair<std::string, json>>& shards) {
  if (shards.empty()) throw usage_error("no shard documents to merge", "tct merge A.json B.json ... -o ALL.json");
  const auto& [first_path, first_doc] = shards.front();
  SuiteResult merged_suite = suite_from_json(suite_of(first_doc, first_path));
  const auto plan = plan_ids(merged_suite);
  merged_suite.shard.reset();
  merged_suite.selected = plan;
  merged_suite.entries.clear();
  merged_suite.resumed.reset();
  merged_suite.merged_from.emplace();

  json merged = first_doc;
  std::vector<report::Warning> warnings;  // every shard's, each once, as the shards wrote them
  merged["error"] = nullptr;
  std::map<std::string, std::string> found;  // id -> file that holds it
  std::set<std::string> torch_versions;
  for (const auto& [path, doc] : shards) {
    const SuiteResult s = suite_from_json(suite_of(doc, path));
    if (s.listing)
      throw usage_error(fmt::format("{} is a --list output: nothing ran", path),
                        "merge the files the shards wrote with -o");
    if (plan_ids(s) != plan)
      throw usage_error(
          fmt::format("{} and {} come from different suites (their entry lists differ)", first_path, path),
          "run every shard from the same suite file and tct version");
    for (const auto& e : s.entries) {
      if (auto it = found.find(e.entry.id); it != found.end())
        throw usage_error(fmt::format("entry '{}' is in both {} and {}", e.entry.id, it->second, path),
                          "each entry must come from one shard: check the --shard I/N of each run");
      found.emplace(e.entry.id, path);
      record_entry(merged_suite, e);
    }
    for (const auto& w : doc.value("warnings", json::array())) report::add_once(warnings, report::warning_from_json(w));
    const json& torch = doc.value("environment", json::object()).value("torch", json());
    if (torch.is_object() && torch.contains("version")) torch_versions.insert(torch["version"].dump());
    merged_suite.merged_from->push_back({path, s.shard, core::json_read::opt_str(doc, "created"), s.entries.size()});
  }
  std::vector<std::string> missing;
  for (const auto& id : plan)
    if (!found.count(id)) missing.push_back(id);
  if (!missing.empty())
    throw usage_error(
        fmt::format("{} of {} entries are in no shard: {}", missing.size(), plan.size(), first_few(missing)),
        "a shard did not finish or was not passed: rerun it (with --resume) and merge every shard's file");
  if (torch_versions.size() > 1)
    report::add_once(warnings, {report::kind::MixedEnvironments{torch_versions.size()}, ""});
  merged["warnings"] = report::to_json(warnings);
  merged["suite"] = to_json(merged_suite);
  return merged;
}

std::optional<Error> suite_outcome(const SuiteResult& s) {
  std::vector<const EntryRecord*> failed, mismatched;
  for (const auto& e : s.entries) {
    if (e.status == EntryStatus::Failed) failed.push_back(&e);
    if (e.status == EntryStatus::Mismatch) mismatched.push_back(&e);
  }
  const std::size_t n = s.entries.size();
  auto describe = [](const EntryRecord& e) {
    return fmt::format("{}: {}", e.entry.id, e.error ? e.error->message : "");
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
