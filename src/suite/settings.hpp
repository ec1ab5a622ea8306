#pragma once
// The settings a suite entry may carry: `tct bench`'s options by their long names (budget,
// backend, no-compile-time, ...) plus `timeout` and `explain`. Each is checked and
// normalised here, once, and turned into the runner's BenchConfig. Pure functions;
// unit-tested in tests/unit/test_suite.cpp.
//
// Two kinds of setting (they decide an entry's id, file.hpp):
//   what is measured  (backend, mode, dynamic, fullgraph, device, dtype, train): part of the
//                     id when it differs from bench's default;
//   how it is measured (budget, precision, warmup, ... timeout, explain): part of the id
//                     only when it is a matrix axis (a list of several values).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/run.hpp"

namespace tct::suite {

using json = nlohmann::json;

// Every setting name, in the order ids list them.
const std::vector<std::string>& setting_names();

// Whether `name` (normalised) is a setting.
bool is_setting(const std::string& name);

// "eager_warmup" -> "eager-warmup" (TOML users write either); other names unchanged.
std::string normalize_setting_name(const std::string& name);

// The value a scalar setting takes, normalised (dynamic "on" -> "true", precision "2%" ->
// 0.02). Throws tct::Error (usage, exit 2) naming `where` for an unknown name or a value of
// the wrong type or range.
json check_setting(const std::string& name, const json& value, const std::string& where);

// Whether `name` is a "what is measured" setting, and its default (null when bench has none,
// e.g. device).
bool is_identity_setting(const std::string& name);
json identity_default(const std::string& name);

// BenchConfig for one entry: bench's defaults, overridden by `settings` (checked values,
// one scalar per name). `section` is where run_bench writes in its document.
bench::BenchConfig bench_config(const std::string& target, const json& params, const json& settings);

// The entry's per-request timeout in seconds: its own `timeout`, else `fallback`.
double entry_timeout_s(const json& settings, double fallback);
// Whether the entry also runs explain (graph breaks, where, why).
bool entry_explains(const json& settings);

}  // namespace tct::suite
