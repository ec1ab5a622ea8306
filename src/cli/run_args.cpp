#include "cli/run_args.hpp"

#include <algorithm>
#include <set>

namespace tct::cli {

std::pair<std::vector<std::string>, std::vector<std::string>> split_run_args(const std::vector<std::string>& args) {
  // tct startup takes a target or, after `--`, a command: only `--` splits there.
  if (!args.empty() && args[0] == "startup") {
    const auto dashes = std::find(args.begin(), args.end(), "--");
    if (dashes == args.end()) return {args, {}};
    return {std::vector<std::string>(args.begin(), dashes), std::vector<std::string>(dashes + 1, args.end())};
  }
  if (args.empty() || (args[0] != "run" && args[0] != "job")) return {args, {}};
  // tct run's and tct job's options that take a value (cmd_run.cpp, cmd_job.cpp and
  // add_output_options).
  static const std::set<std::string> with_value = {"-m",       "--repeat", "--threads", "--dir",
                                                   "--python", "-o",       "--out",     "--modes",
                                                   "--rounds", "--calls",  "--timeout", "--shape-fixes"};
  std::vector<std::string> mine = {args[0]}, job;
  size_t i = 1;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.size() < 2 || a[0] != '-') break;  // the job's first word
    mine.push_back(a);
    if (with_value.count(a) && i + 1 < args.size()) {
      mine.push_back(args[++i]);
      if (a == "-m") {  // python -m MODULE: what follows is the module's
        ++i;
        break;
      }
    }
  }
  for (; i < args.size(); ++i) job.push_back(args[i]);
  return {mine, job};
}

}  // namespace tct::cli
