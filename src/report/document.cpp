#include "report/document.hpp"

#include <chrono>
#include <ctime>

#include <fmt/format.h>

namespace tct::report {

std::string utc_now_iso8601() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

json error_json(const Error& error) {
  json j = {{"kind", error.kind()}, {"message", error.what()}, {"hint", error.hint()}};
  if (!error.stage.empty()) j["stage"] = error.stage;
  return j;
}

}  // namespace tct::report
