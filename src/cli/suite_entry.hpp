#pragma once
// Running one suite entry: `tct bench` (and `tct explain` when the entry asks) through the
// same runner code, in agent processes of its own, with its own result document (a
// RunContext, as `tct bench` has: so it lives in cli/, and src/suite/ needs no cli header).
// This is the one place the suite calls the runners.
#include <nlohmann/json.hpp>

#include "cli/context.hpp"
#include "suite/file.hpp"
#include "suite/result.hpp"

namespace tct::cli {

// The entry's record (suite/result.hpp's EntryRecord). A failure of
// the target (raised, hung past its timeout, crashed, compile failed, outputs differ) or a
// bad setting is recorded in it, never thrown; only Ctrl-C (exit 130) is thrown.
// `timeout_s` is the per-request timeout for entries that set none.
suite::EntryRecord run_suite_entry(const suite::Entry& entry, const CommonOptions& common, double timeout_s);

}  // namespace tct::cli
