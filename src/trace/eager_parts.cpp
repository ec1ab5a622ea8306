#include "trace/eager_parts.hpp"

#include <map>
#include <tuple>

#include "core/graph_breaks.hpp"

namespace tct::trace {
namespace {

using core::EagerCause;
using core::EagerPart;

// Every spelling of a compile's id a break record carries ("0/1", and "0/1_2" for its attempts).
std::map<std::string, const CompileSummary*> compiles_by_id(const RankSummary& rank) {
  std::map<std::string, const CompileSummary*> out;
  for (const auto& [id, c] : rank.compiles) {
    CompileId attempt = id;
    for (int a = 0; a < c.attempts; ++a) {
      attempt.attempt = a;
      out[attempt.str()] = &c;
    }
  }
  return out;
}

// The line of the compiled function a break stands at: the innermost frame of the break's
// traceback in that function (a break inside a called function stands at the call), else the
// break's own line when it is in that file, else where the function starts.
int line_in(const TraceBreak& b, const CompileSummary& c) {
  const std::string name = core::user_function_name(c.function);
  for (auto f = b.frames.rbegin(); f != b.frames.rend(); ++f)
    if (f->file == c.file && core::user_function_name(f->function) == name) return f->line;
  return b.file == c.file && b.line > 0 ? b.line : c.line;
}

// torch's name of a torch.compiler.disable'd function in the break's text: "Skip calling
// function `<function helper at 0x7f..>`" (variables/functions.py); "" when it names none.
std::string disabled_name(const std::string& reason) {
  static const std::string open = "<function ";
  auto a = reason.find(open);
  if (a == std::string::npos) return "";
  a += open.size();
  auto e = reason.find(" at ", a);
  return e == std::string::npos ? "" : reason.substr(a, e - a);
}

bool disabled_call(const std::string& reason) { return reason.find("torch.compiler.disable") != std::string::npos; }

// torch's words for a frame refused for its recompile limit (convert_frame.py: gb_type
// "Dynamo recompile limit exceeded"; older: "cache_size_limit").
bool over_recompile_limit(const std::string& text) {
  return text.find("recompile limit") != std::string::npos || text.find("recompile_limit") != std::string::npos ||
         text.find("cache_size_limit") != std::string::npos;
}

}  // namespace

core::Hint fix_of(const TraceBreak& b) {
  return core::break_fix(core::break_site(b.kind, b.file, b.frames, b.reason_full));
}

std::vector<EagerPart> eager_parts(const RankSummary& rank) {
  std::vector<EagerPart> out;
  std::map<std::tuple<int, std::string, int, std::string>, size_t> index;  // (cause, file, line, name) -> out
  auto add = [&](EagerPart p) {
    auto [it, fresh] = index.try_emplace({static_cast<int>(p.cause), p.file, p.from_line, p.function}, out.size());
    if (fresh) out.push_back(std::move(p));
    else ++out[it->second].records;
  };
  const auto compiles = compiles_by_id(rank);
  // A repeat record keeps no text: it reads its first record's part (same kind, place, text).
  std::map<std::tuple<int, std::string, int, size_t>, EagerPart> first;
  for (const auto& b : rank.breaks) {
    auto key = std::make_tuple(static_cast<int>(b.kind), b.file, b.line, b.text_hash);
    if (b.duplicate) {
      if (auto it = first.find(key); it != first.end()) add(it->second);
      continue;
    }
    auto c = compiles.find(b.compile_id);
    EagerPart p;
    p.kind = b.kind;
    p.reason = b.reason;
    p.compile_id = b.compile_id;
    if (b.rest_only && c != compiles.end()) {
      p.cause = EagerCause::RestOfFrame;
      p.function = core::user_function_name(c->second->function);
      p.file = c->second->file;
      p.frame_line = c->second->line;
      p.from_line = line_in(b, *c->second);
      p.hint = fix_of(b);
    } else if (!b.frame_skipped && disabled_call(b.reason_full)) {
      p.cause = EagerCause::CompilerDisable;
      std::string name = disabled_name(b.reason_full);
      p.function = name.empty() ? "a torch.compiler.disable'd function" : name;
      p.file = b.file;
      p.from_line = b.line;
    } else {
      continue;
    }
    first.emplace(key, p);
    add(std::move(p));
  }
  for (const auto& [id, c] : rank.compiles) {
    EagerPart p;
    p.file = c.file;
    p.frame_line = p.from_line = c.line;
    p.compile_id = id.str();
    if (c.skipped) {
      p.cause = EagerCause::SkippedFrame;
      p.function = core::user_function_name(c.function);
      // The break that made Dynamo give up, else the compile's own failure.
      p.reason = c.fail_reason;
      for (const auto& b : rank.breaks)
        if (b.frame_skipped && !b.rest_only && !b.duplicate) {
          auto bc = compiles.find(b.compile_id);
          if (bc != compiles.end() && bc->second == &c) {
            p.kind = b.kind;
            p.reason = b.reason;
            p.hint = fix_of(b);
            break;
          }
        }
      add(std::move(p));
    } else if (over_recompile_limit(c.fail_reason)) {
      p.cause = EagerCause::RecompileLimit;
      // A compile the limit refused may carry no name: its frame's other compiles do.
      p.function = c.function;
      for (const auto& [other_id, other] : rank.compiles)
        if (p.function.empty() && other_id.frame == id.frame && other_id.autograd == id.autograd &&
            other_id.resets == id.resets && other_id.log == id.log && !other.function.empty()) {
          p.function = other.function, p.file = other.file, p.frame_line = p.from_line = other.line;
        }
      p.function = core::user_function_name(p.function);
      p.reason = c.fail_reason;
      add(std::move(p));
    }
  }
  return out;
}

}  // namespace tct::trace
