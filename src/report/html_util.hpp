#pragma once
// The HTML report's primitives and page (report/html.cpp), used by every command's html.cpp.
// Every string from the document goes through esc(): target names, file names, graph-break
// reasons and source lines come from the user's code or from torch and may hold markup.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/eager_part.hpp"
#include "stats/verdict.hpp"
#include "report/svg.hpp"

namespace tct::report::html {

using json = nlohmann::json;

// HTML/XML escaping of text (also safe in double- or single-quoted attributes).
std::string esc(const std::string& text);
// A json object at obj[key], or an empty object.
const json& obj_at(const json& obj, const char* key);
// A json array at obj[key], or an empty array.
const json& arr_at(const json& obj, const char* key);

// A speedup verdict's colour: the text and pill tone ("good", "bad", "warn") and the chart
// bar's class ("faster", "slower", "unsure"). Colours only: the verdict is the result's.
std::string verdict_tone(stats::SpeedupVerdict v);
std::string verdict_bar_class(stats::SpeedupVerdict v);

// <a href> only for http(s) URLs (a javascript: URL from a document must not become a
// link); anything else is shown as text.
std::string link(const std::string& url, const std::string& label = {});

// <table> from a header and rows of already-escaped cell HTML.
std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class = {});
// <dl class="facts"> of (label, already-escaped value HTML) pairs.
std::string facts(const std::vector<std::pair<std::string, std::string>>& items);
// A generic rendering of a JSON value (for sections whose shape this renderer does not know
// in detail): nested definition lists, escaped.
std::string generic(const json& value, int depth = 0);

// The parts of the user's code that run eagerly on every call (core::EagerPart), each its
// sentence and the break that caused it, under one heading; "" without parts. extra: a note
// after the list (already-escaped HTML), e.g. that their share of the call was not measured.
std::string eager_parts(const std::vector<core::EagerPart>& parts, const std::string& extra = {});

// The speedup chart of bench rows and of suite entries: one bar per row with its 95%
// interval against the 1x line; a log axis when the bars span more than 8x, else zoomed to
// the bars and 1x (from zero, a +-2% interval would be a pixel wide). "" without bars.
std::string speedup_figure(const std::string& title, const std::string& caption, std::vector<svg::Bar> bars);

// One-line answers for the summary cards at the top of the page.
struct Card {
  std::string title;   // "Speedup"
  std::string value;   // "1.52x" (text, escaped by the caller)
  std::string detail;  // "95% CI 1.48x .. 1.56x, inductor default"
  std::string tone;    // "good", "bad", "neutral", "warn"
  std::string anchor;  // "#bench"
};

// The page's parts that hold no command (report/html.cpp): the summary cards, the error
// banner, the warnings, and the page around a body (head, title, contents, the raw document).
std::string cards_section(const std::vector<Card>& cards);
std::string error_banner(const json& doc);
std::string warnings_section(const json& doc);
std::string page(const json& doc, const std::string& title, const std::string& toc, const std::string& body);

}  // namespace tct::report::html
