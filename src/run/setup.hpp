#pragma once
// What every run of a user's job needs before it starts, for `tct run` and `tct job` alike:
// the command resolved (a script in the chosen Python, -m MODULE), the folder of tct's
// bootstrap (first on the job's PYTHONPATH) and a folder for its records and logs.
#include <optional>
#include <string>
#include <vector>

#include "agent/interpreter.hpp"

namespace tct::run {

// The command line to start: a .py runs in the chosen Python, -m MODULE as `python -m MODULE`.
// Throws a usage error when there is nothing to run (its hint names tct's `command`) or the
// script does not exist.
std::vector<std::string> job_command(std::vector<std::string> job, const std::string& module,
                                     const std::optional<std::string>& python, const agent::EnvLookup& lookup,
                                     const std::string& exe, const std::string& command);

// The folder of tct's sitecustomize, checked (internal error when it is missing).
std::string bootstrap_dir(const agent::EnvLookup& lookup, const std::string& exe);

// `asked` made (usage error when it cannot be), or a new folder `prefix`-XXXXXX under $TMPDIR.
std::string make_run_dir(const std::string& asked, const std::string& prefix);

}  // namespace tct::run
