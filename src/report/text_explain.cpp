// Placeholder until the explain renderer lands.
#include "report/render.hpp"

namespace tct::report {
std::string text_explain(const json& doc) { return doc["explain"].dump(2) + "\n"; }
std::string markdown_explain(const json& doc) { return "```json\n" + doc["explain"].dump(2) + "\n```\n"; }
}  // namespace tct::report
