#include "cli/read_json_file.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "errors.hpp"

namespace tct::cli {

nlohmann::json read_json_file(const std::string& path, const std::string& hint) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw usage_error(fmt::format("cannot read {}", path), hint);
  std::stringstream text;
  text << f.rdbuf();
  auto doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) throw usage_error(fmt::format("{} is not valid JSON", path), hint);
  return doc;
}

}  // namespace tct::cli
