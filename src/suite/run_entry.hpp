#pragma once
// Running one suite entry: `tct bench` (and `tct explain` when the entry asks) through the
// same runner code, in agent processes of its own, with its own result document. This is
// the one place the suite calls the runner.
#include <nlohmann/json.hpp>

#include "cli/context.hpp"
#include "suite/file.hpp"

namespace tct::suite {

// The entry's record: {id, target, params, settings, status: ok|failed|mismatch, error,
// wall_ns, result (suite_summary.hpp), bench, explain, warnings, environment}. A failure of
// the target (raised, hung past its timeout, crashed, compile failed, outputs differ) or a
// bad setting is recorded in it, never thrown; only Ctrl-C (exit 130) is thrown.
// `timeout_s` is the per-request timeout for entries that set none.
nlohmann::json run_entry(const Entry& entry, const cli::CommonOptions& common, double timeout_s);

}  // namespace tct::suite
