#pragma once
// The operations on a suite run (result.hpp's SuiteResult): plan it, record an entry, pick
// up a previous run (--resume), join shards (tct merge). Pure functions over values; the
// commands read and write the files, and the section is json.cpp's to_json of the value.
// Unit-tested in tests/unit/test_suite.cpp.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "suite/file.hpp"
#include "suite/result.hpp"
#include "suite/shard.hpp"

namespace tct::suite {

// A fresh run: the plan with each entry's shard, and this run's share.
// `costs_from` is the file the costs came from ("" for round robin).
SuiteResult plan_suite(const Suite& suite, const std::string& file, const ShardSpec& shard,
                       const std::vector<int>& assignment, const std::string& costs_from);

// Adds (or replaces, by id) a finished entry, keeps entries in plan order, recomputes the summary.
void record_entry(SuiteResult& suite, EntryRecord entry);

// Entries of `previous` (a suite document written by -o) that belong to this run's share,
// for --resume. Throws tct::Error (usage) when `previous` is not a suite document; entries
// of ids no longer in this run's share are left out and counted in `dropped`.
std::vector<EntryRecord> resumable_entries(const nlohmann::json& previous, const SuiteResult& suite,
                                           std::size_t& dropped);

// The ids of this run's share not yet recorded, in plan order.
std::vector<std::string> pending_ids(const SuiteResult& suite);

// Joins shard documents ({path, document}) into one suite document (the first shard's
// envelope, every entry, the summary recomputed). Throws tct::Error (usage, exit 2) for a
// document that is not a suite run, shards of different suites, an entry in two files
// (overlap), or an entry of the plan in none (missing).
nlohmann::json merge_shards(const std::vector<std::pair<std::string, nlohmann::json>>& shards);

// The error a finished suite run ends with, if any: an entry failed -> exit 3 (target
// failed), else outputs differ in an entry -> exit 1. Everything is recorded either way.
std::optional<Error> suite_outcome(const SuiteResult& suite);

}  // namespace tct::suite
