#pragma once
// `tct run`'s and `tct job`'s command line, split before CLI11 sees it: tct's own options come first, the
// job is everything from the first word that is not one of them (or after `--`, or after
// `-m MODULE`), so a job's own flags (`--json`, `-o`, `-v`) never reach tct.
#include <string>
#include <utility>
#include <vector>

namespace tct::cli {

// args: argv without the program name. When args[0] is "run" or "job": (tct's part, the job);
// "startup": split at `--` only (before it a target may stand). Otherwise (args, {}).
std::pair<std::vector<std::string>, std::vector<std::string>> split_run_args(const std::vector<std::string>& args);

}  // namespace tct::cli
