#pragma once
// What a runner hands to whoever runs it (the CLI, a command that runs another, a test) while
// it works: progress lines, and its result so far after each phase. A runner never prints,
// writes files or exits, and never sees the document: its caller decides what a line or a
// partial result becomes (the CLI shows the line, and writes the partial result's section and
// rewrites its --out files, so a crash or Ctrl-C still leaves what was measured).
#include <functional>
#include <string>

namespace tct::core {

// One line of progress ("phase: what now"); whoever receives it decides whether to show it.
using Progress = std::function<void(const std::string& message)>;

// A runner's result so far, after a phase: the caller keeps it (a command that runs another
// keeps the last one as the value a failure leaves) or writes it out.
template <class Result>
using OnPartial = std::function<void(const Result& so_far)>;

}  // namespace tct::core
