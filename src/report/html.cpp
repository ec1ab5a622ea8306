// Placeholder until the HTML report lands.
#include "report/render.hpp"

namespace tct::report {
std::string render_html(const json& doc) { return "<!doctype html><pre>" + doc.dump(2) + "</pre>\n"; }
}  // namespace tct::report
