#pragma once
// The suite section of a document (doc["suite"]) and the operations on it: plan it, record
// an entry, pick up a previous run (--resume), join shards (tct merge). Pure functions over
// JSON values; the commands read and write the files. Unit-tested in tests/unit/test_suite.cpp.
//
//   {file, name, plan: [{id, target, params, settings, shard}],   every entry of the suite
//    shard: {index, count, method: round_robin|cost, costs_from} | null,
//    selected: [id...],          this run's share (all ids when not sharded)
//    listing: bool,              --list: nothing ran
//    entries: [entry...],        finished entries, in plan order (run_entry.hpp)
//    summary: {...},             suite_summary.hpp
//    merged_from: [{path, shard, created, entries}]   only in a merged document}
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "suite/shard.hpp"
#include "suite/file.hpp"

namespace tct::suite {

using json = nlohmann::json;

// A fresh section: the plan with each entry's shard, and this run's share.
// `costs_from` is the file the costs came from ("" for round robin).
json plan_section(const Suite& suite, const std::string& file, const ShardSpec& shard,
                  const std::vector<int>& assignment, const std::string& costs_from);

// Adds (or replaces, by id) a finished entry, keeps entries in plan order, recomputes the summary.
void record_entry(json& section, json entry);

// Entries of `previous` (a suite document written by -o) that belong to this run's share,
// for --resume. Throws tct::Error (usage) when `previous` is not a suite document; entries
// of ids no longer in this run's share are left out and counted in `dropped`.
std::vector<json> resumable_entries(const json& previous, const json& section, std::size_t& dropped);

// The ids of this run's share not yet recorded, in plan order.
std::vector<std::string> pending_ids(const json& section);

// Joins shard documents ({path, document}) into one suite document (the first shard's
// envelope, every entry, the summary recomputed). Throws tct::Error (usage, exit 2) for a
// document that is not a suite run, shards of different suites, an entry in two files
// (overlap), or an entry of the plan in none (missing).
json merge_shards(const std::vector<std::pair<std::string, json>>& shards);

// The error a finished suite run ends with, if any: an entry failed -> exit 3 (target
// failed), else outputs differ in an entry -> exit 1. Everything is recorded either way.
std::optional<Error> suite_outcome(const json& section);

}  // namespace tct::suite
