#pragma once
// The versioned JSON document every command writes (cli/outcome.hpp makes it from the results):
// its schema and its time stamp.
#include <string>

namespace tct::report {

inline constexpr const char* kSchema = "tct/1";

// Now, in UTC, as documents stamp their "created": 2026-12-04T15:10:13Z.
std::string utc_now_iso8601();

}  // namespace tct::report
