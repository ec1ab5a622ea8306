#pragma once
// The renderings of a SuiteResult (suite/text.cpp, suite/html.cpp): pure functions of the
// value; the registry of renderers (cli/render.cpp) calls them with suite_from_json's result.
#include <string>
#include <vector>

#include "report/html_util.hpp"
#include "suite/result.hpp"

namespace tct::suite {

std::string text(const SuiteResult& suite);
std::string markdown(const SuiteResult& suite);
std::string html_section(const SuiteResult& suite);
std::vector<report::html::Card> html_cards(const SuiteResult& suite);  // none for a listing

}  // namespace tct::suite
