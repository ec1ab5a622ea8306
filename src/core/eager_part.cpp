#include "core/eager_part.hpp"

#include <fmt/format.h>

#include "core/json_read.hpp"
#include "core/user_code.hpp"

namespace tct::core {

std::string_view to_string(EagerCause c) {
  switch (c) {
    case EagerCause::RestOfFrame: return "rest_of_frame";
    case EagerCause::SkippedFrame: return "skipped_frame";
    case EagerCause::CompilerDisable: return "compiler_disable";
    case EagerCause::RecompileLimit: return "recompile_limit";
  }
  return "rest_of_frame";
}

EagerCause eager_cause_from_string(std::string_view s) {
  for (EagerCause c :
       {EagerCause::RestOfFrame, EagerCause::SkippedFrame, EagerCause::CompilerDisable, EagerCause::RecompileLimit})
    if (s == to_string(c)) return c;
  return EagerCause::RestOfFrame;
}

std::string user_function_name(const std::string& code_name) {
  // torch/_dynamo/resume_execution.py names the code after a break
  // "torch_dynamo_resume_in_{name}_at_{line}".
  static const std::string prefix = "torch_dynamo_resume_in_";
  if (code_name.rfind(prefix, 0) != 0) return code_name;
  std::string rest = code_name.substr(prefix.size());
  auto at = rest.rfind("_at_");
  return at == std::string::npos ? rest : rest.substr(0, at);
}

std::string describe(const EagerPart& p) {
  const std::string file = base_name(p.file);
  switch (p.cause) {
    case EagerCause::RestOfFrame:
      return fmt::format("{} ({}) from line {} to its end runs eagerly on every call", p.function, file, p.from_line);
    case EagerCause::SkippedFrame:
      return fmt::format("{} ({}, from line {}: the whole function) runs eagerly on every call", p.function, file,
                         p.frame_line);
    case EagerCause::CompilerDisable:
      return fmt::format("the torch.compiler.disable'd call at {} line {} (in {}) runs eagerly on every call", file,
                         p.from_line, p.function);
    case EagerCause::RecompileLimit:
      return fmt::format("{} ({}) runs eagerly on every call no compiled version accepts (its recompile limit is hit)",
                         p.function, file);
  }
  return "";
}

nlohmann::json to_json(const EagerPart& p) {
  nlohmann::json out = {{"cause", to_string(p.cause)}, {"function", p.function},     {"file", p.file},
                        {"frame_line", p.frame_line},  {"from_line", p.from_line},   {"kind", to_string(p.kind)},
                        {"reason", p.reason},          {"compile_id", p.compile_id}, {"records", p.records},
                        {"says", describe(p)}};
  if (!p.hint.fix.empty()) out["hint"] = to_json(p.hint);  // a document from before fixes has none
  return out;
}

EagerPart eager_part_from_json(const nlohmann::json& j) {
  namespace jr = json_read;
  EagerPart p;
  p.cause = eager_cause_from_string(jr::str(j, "cause"));
  p.function = jr::str(j, "function");
  p.file = jr::str(j, "file");
  p.frame_line = jr::num(j, "frame_line");
  p.from_line = jr::num(j, "from_line");
  p.kind = break_kind_from_string(jr::str(j, "kind")).value_or(BreakKind::Other);
  p.reason = jr::str(j, "reason");
  p.compile_id = jr::str(j, "compile_id");
  p.records = jr::num(j, "records", 1);
  if (const auto& h = jr::at(j, "hint"); h.is_object()) p.hint = hint_from_json(h);
  return p;
}

nlohmann::json to_json(const std::vector<EagerPart>& parts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : parts) out.push_back(to_json(p));
  return out;
}

std::vector<EagerPart> eager_parts_from_json(const nlohmann::json& j) {
  std::vector<EagerPart> out;
  if (!j.is_array()) return out;
  for (const auto& p : j)
    if (p.is_object()) out.push_back(eager_part_from_json(p));
  return out;
}

}  // namespace tct::core
