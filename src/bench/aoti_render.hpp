#pragma once
// The aoti row's own line in every rendering (terminal, Markdown, HTML): the package compile
// time, the package's size, the load time and who timed the calls. Formats; decides nothing.
#include <string>

#include "bench/result.hpp"

namespace tct::bench {

// "package compile 14.2 s (torch.export 1.1 s + aoti_compile_and_package 13.1 s), 1.3 MiB;
// load 41.0 ms; timed from C++ (tct-aoti)". "" for a row without aoti facts.
std::string aoti_summary(const BenchRow& row);

}  // namespace tct::bench
