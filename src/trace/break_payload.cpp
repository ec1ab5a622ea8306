// A dynamo_graph_break_reason payload read into a break: torch's two shapes of it
// (symbolic_convert.py's log_graph_break, convert_frame.py's "cannot properly resume").
#include <functional>
#include <string>

#include "core/graph_breaks.hpp"
#include "trace/summary.hpp"

namespace tct::trace {

size_t break_text_hash(const TraceBreak& b) { return std::hash<std::string>{}(b.reason_full + '\n' + b.skip_reason); }

TraceBreak parse_break_payload(std::string_view payload) {
  // Markers from torch/_dynamo/symbolic_convert.py (log_graph_break) and convert_frame.py.
  static const std::string at = "Graph break in user code at ",
                           why = "Graph Break Reason: ", user_tb = "User code traceback:",
                           resume = "Graph break: torch.compile cannot properly resume",
                           resume_tb = "The graph break occurred in the following user code:",
                           py_tb = "Traceback (most recent call last):", exc = "\ntorch._dynamo.exc.";
  TraceBreak b;
  std::string text(payload);
  // The user-code traceback ends where Python's own traceback of the exception starts.
  auto frames_after = [&](const std::string& tag) {
    size_t start = text.find(tag);
    if (start == std::string::npos) return std::vector<core::Frame>{};
    size_t end = text.find(py_tb, start);
    return core::traceback_frames(std::string_view(text).substr(start, end == std::string::npos ? end : end - start));
  };
  std::string reason;
  if (text.rfind(resume, 0) == 0) {
    // Dynamo gave up on the frame outside the bytecode walk: the place is the innermost
    // frame, the reason the exception's message, the skip what torch said first.
    b.frames = frames_after(resume_tb);
    if (!b.frames.empty()) b.file = b.frames.back().file, b.line = b.frames.back().line;
    size_t e = text.rfind(exc);
    size_t colon = e == std::string::npos ? e : text.find(": ", e);
    reason = colon == std::string::npos ? text.substr(0, text.find('\n')) : text.substr(colon + 2);
    b.reason_full = reason;
    b.reason = core::reason_headline(reason);
    b.kind = core::classify_reason(reason);
    b.frame_skipped = true;
    size_t l2 = text.find('\n');
    b.skip_reason = l2 == std::string::npos ? "" : text.substr(l2 + 1, text.find('\n', l2 + 1) - l2 - 1);
    b.text_hash = break_text_hash(b);
    return b;
  }
  size_t a = text.find(at);
  if (a != std::string::npos) {
    size_t eol = text.find('\n', a);
    std::string loc = text.substr(a + at.size(), eol == std::string::npos ? std::string::npos : eol - a - at.size());
    size_t colon = loc.rfind(':');
    if (colon != std::string::npos) {
      b.file = loc.substr(0, colon);
      b.line = std::atoi(loc.c_str() + colon + 1);
    }
  }
  size_t r = text.find(why);
  reason = r == std::string::npos ? text : text.substr(r + why.size());
  // The reason ends where torch's source attribution or the traceback starts.
  for (const std::string& end : {std::string("\nStack variable source attribution:"), "\n" + user_tb})
    if (size_t t = reason.find(end); t != std::string::npos) reason = reason.substr(0, t);
  core::SkipSplit split = core::split_skip(reason);
  b.reason_full = split.cause;
  b.reason = core::reason_headline(split.cause);
  b.kind = core::classify_reason(split.cause);
  b.frame_skipped = split.skipped;
  b.rest_only = split.rest_only;
  b.skip_reason = split.skip_reason;
  b.frames = frames_after(user_tb);
  b.text_hash = break_text_hash(b);
  return b;
}

}  // namespace tct::trace
