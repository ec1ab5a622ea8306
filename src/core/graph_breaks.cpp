#include "core/graph_breaks.hpp"

#include "core/hint_catalog.hpp"

namespace tct::core {
namespace {

std::string trim_text(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

namespace {

// torch's own sentence, from symbolic_convert.py (the same words in 2.13.0 and 2.14.1).
constexpr const char* kRestSkipped =
    "Encountered graph break that we cannot resume from. Compiling up to the previous resumable state, then "
    "skipping the rest of the function.";

}  // namespace

bool skips_rest_of_frame(const std::string& reason) {
  // The sentence's two halves, each distinctive: a reflowed or shortened log keeps one of them.
  return reason.find("graph break that we cannot resume from") != std::string::npos ||
         reason.find("then skipping the rest of the function") != std::string::npos;
}

bool skips_frame(const std::string& reason) {
  for (const char* marker : {"falling back to eager", "Skipping frame", "Skipping the frame"})
    if (reason.find(marker) != std::string::npos) return true;
  return skips_rest_of_frame(reason);
}

SkipSplit split_skip(const std::string& reason) {
  // Markers from torch/_dynamo/symbolic_convert.py and exc.py (torch 2.6+).
  static const std::string encountered = "Graph break encountered:";
  static const std::string another = "*** While handling this graph break, another graph break occurred: ***";
  SkipSplit out;
  out.cause = reason;
  size_t enc = reason.find(encountered);
  if (enc != std::string::npos) out.cause = reason.substr(enc + encountered.size());
  size_t second = out.cause.find(another);
  if (second != std::string::npos) {
    out.skip_reason = trim_text(out.cause.substr(second + another.size()));
    out.cause = out.cause.substr(0, second);
  }
  out.cause = trim_text(out.cause);
  if (out.cause.empty()) out.cause = trim_text(reason);
  out.skipped = skips_frame(reason);
  out.rest_only = skips_rest_of_frame(reason);
  // The break after "Graph break encountered:" is the cause; torch's sentence before it is why
  // the rest of the function runs eagerly, and the user reads it there.
  if (out.rest_only && out.skip_reason.empty()) out.skip_reason = kRestSkipped;
  return out;
}

std::string reason_headline(const std::string& reason) {
  ReasonParts p = split_reason(reason);
  std::string h = p.headline.empty() ? reason : p.headline;
  if (auto nl = h.find('\n'); nl != std::string::npos) h = h.substr(0, nl);
  if (h.size() > 240) h = h.substr(0, 237) + "...";
  return h;
}

}  // namespace tct::core
