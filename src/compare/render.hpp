#pragma once
// The renderings of a CompareResult (compare/text.cpp, compare/html.cpp): pure functions of
// the value; the registry of renderers (cli/render.cpp) calls them.
#include <string>

#include "compare/result.hpp"

namespace tct::compare {

std::string text(const CompareResult& cmp);
std::string markdown(const CompareResult& cmp);
std::string html_section(const CompareResult& cmp);

}  // namespace tct::compare
