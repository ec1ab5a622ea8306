// Placeholder until the expect renderer lands.
#include "report/render.hpp"

namespace tct::report {
std::string text_expect(const json& doc) { return doc["expect"].dump(2) + "\n"; }
std::string markdown_expect(const json& doc) { return "```json\n" + doc["expect"].dump(2) + "\n```\n"; }
}  // namespace tct::report
