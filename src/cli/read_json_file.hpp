#pragma once
// Reading a saved JSON document (tct report, diff, compare, merge, suite --resume).
#include <string>

#include <nlohmann/json.hpp>

namespace tct::cli {

// The parsed file. Throws a usage error (exit 2) naming the file when it cannot be read or is
// not JSON; `hint` says how to produce a right one.
nlohmann::json read_json_file(const std::string& path, const std::string& hint);

}  // namespace tct::cli
