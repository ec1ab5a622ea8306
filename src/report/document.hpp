#pragma once
// The versioned JSON document every command writes (cli/outcome.hpp makes it from the results):
// its schema, its time stamp, and an error as it holds one.
#include <string>

#include <nlohmann/json.hpp>

#include "errors.hpp"

namespace tct::report {

using json = nlohmann::json;

inline constexpr const char* kSchema = "tct/1";

// Now, in UTC, as documents stamp their "created": 2026-12-04T15:10:13Z.
std::string utc_now_iso8601();
// {kind, message, hint, stage (when the error has one)}: an error as documents hold it.
json error_json(const Error& error);

}  // namespace tct::report
