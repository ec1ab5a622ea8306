#pragma once
// The renderings of an ExpectResult: pure functions of the value, which print its class,
// ranges, validation and suggestions and never decide them. The registry of renderers
// (cli/render.cpp) calls them with the result read from the document (expect::from_json), so a
// live run and a saved document render alike.
#include <optional>
#include <string>
#include <vector>

#include "expect/result.hpp"
#include "report/html_util.hpp"

namespace tct::expect {

// bench_shown: the report shows bench's measured speedup too (an audit), so the validation line
// says where the measurement lies against the range without printing it again.
// The terminal report with every detail (-v): the model term by term, the evidence table.
std::string text(const ExpectResult& r, bool bench_shown);
// The default: the class, the range, the two strongest reasons, the top three suggestions
// (and the sweep and validation, which are what was asked for when present).
std::string brief(const ExpectResult& r, bool bench_shown);
// For a pull-request comment.
std::string markdown(const ExpectResult& r, bool bench_shown);
// "measured 1.08x [0.94, 1.26] is inside the predicted ...", or with bench_shown "bench's
// speedup (below) is inside the predicted ...".
std::string validation_text(const Validation& v, bool bench_shown);
// The HTML report's cards and section. as_is: compiling as it is, measured in the same
// document (an audit's bench), which answers the "Compile it" suggestion when it is no real gain.
std::vector<report::html::Card> html_cards(const ExpectResult& r);
std::string html_section(const ExpectResult& r, const std::optional<MeasuredAsIs>& as_is);

// What the predicted range assumes when the compiled run skipped a frame or broke the
// graph ("nothing compiles: ..." / "assumes the N graph breaks stay; ... once captured"),
// "" when the function is captured whole.
std::string compiled_note(const Analysis& a);
// " (borderline: ..., a re-run may say X)" when the class sits near the overhead-bound
// threshold (borderline_with), "" otherwise.
std::string borderline_note(const Analysis& a);
// " (borderline)" after a class in a table cell or card, "" when the class is clear.
std::string borderline_mark(const Analysis& a);
// "N tensors read from outside (the compiled graph's inputs), M nn.Module calls": what a
// compiled call guards; "" for a document from before they were counted.
std::string guarded_text(const Analysis& a);

}  // namespace tct::expect
