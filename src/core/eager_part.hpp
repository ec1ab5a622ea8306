#pragma once
// The part of the user's code that runs eagerly on every call although it sits under
// torch.compile: one value, made once from the compiled run's TORCH_TRACE records
// (trace/eager_parts.cpp), and read by explain, run, trace, expect and audit alike. Its one
// sentence (describe) is every rendering's: "forward (kws.py) from line 37 to its end runs
// eagerly on every call".
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/hint_catalog.hpp"

namespace tct::core {

// Why the code runs eagerly (torch/_dynamo's own records):
//   rest_of_frame     a break Dynamo cannot resume from: the frame compiles up to the last
//                     resumable point and runs the rest eagerly (symbolic_convert.py's
//                     "then skipping the rest of the function"; torch counts no graph break)
//   skipped_frame     Dynamo gave up on the whole frame ("Skipping the function and falling
//                     back to eager"; counters["frames"] total - ok)
//   compiler_disable  a function wrapped in torch.compiler.disable, called from compiled code
//                     (registry gb_type "Skip calling `torch.compiler.disable()`d function")
//   recompile_limit   a frame over its recompile limit: calls no compiled entry accepts run it
//                     eagerly ("Dynamo recompile limit exceeded")
enum class EagerCause { RestOfFrame, SkippedFrame, CompilerDisable, RecompileLimit };
std::string_view to_string(EagerCause c);
EagerCause eager_cause_from_string(std::string_view s);  // RestOfFrame for an unknown name

struct EagerPart {
  EagerCause cause = EagerCause::RestOfFrame;
  std::string function;  // as the user wrote it: a resume function is named by the function it resumes
  std::string file;      // as torch wrote it
  int frame_line = 0;    // where the function starts (co_firstlineno)
  int from_line = 0;     // the first line that runs eagerly: the statement holding the break, else frame_line
  BreakKind kind = BreakKind::Other;  // of the break that caused it
  std::string reason;                 // that break's headline, or torch's reason
  std::string compile_id;             // the compile that logged it
  int records = 1;                    // records of it in the log (repeats of one part are one part)
  // The fix of that break (core::break_fix, the one choice every command shares) where no other
  // line carries it: a rest of frame and a skipped frame are no graph break as torch counts them,
  // so this is where their fix is said. Empty for a torch.compiler.disable'd call (its break's
  // own line has the fix) and for a frame over its recompile limit (its recompile's fix).
  Hint hint;
};

// The sentence every rendering prints. rest_of_frame: "forward (kws.py) from line 37 to its
// end runs eagerly on every call"; skipped_frame: "forward (kws.py, from line 30: the whole
// function) runs eagerly on every call"; compiler_disable: "helper (torch.compiler.disable),
// called from forward (kws.py) line 14, runs eagerly on every call"; recompile_limit:
// "forward (kws.py) runs eagerly on every call no compiled version accepts (recompile limit)".
std::string describe(const EagerPart& p);

// "forward" for "torch_dynamo_resume_in_forward_at_37" (Dynamo's name of the code after a
// break); any other name as it is.
std::string user_function_name(const std::string& code_name);

nlohmann::json to_json(const EagerPart& p);
EagerPart eager_part_from_json(const nlohmann::json& j);
nlohmann::json to_json(const std::vector<EagerPart>& parts);
std::vector<EagerPart> eager_parts_from_json(const nlohmann::json& j);  // [] for anything not a list

}  // namespace tct::core
