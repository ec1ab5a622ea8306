// Placeholder until the bench renderer lands.
#include "report/render.hpp"

namespace tct::report {
std::string text_bench(const json& doc) { return doc["bench"].dump(2) + "\n"; }
std::string markdown_bench(const json& doc) { return "```json\n" + doc["bench"].dump(2) + "\n```\n"; }
}  // namespace tct::report
