// Placeholder until the diff renderer lands.
#include "report/render.hpp"

namespace tct::report {
std::string text_diff(const json& doc) { return doc["diff"].dump(2) + "\n"; }
std::string markdown_diff(const json& doc) { return "```json\n" + doc["diff"].dump(2) + "\n```\n"; }
}  // namespace tct::report
