#include "report/error_record.hpp"

#include "core/json_read.hpp"

namespace tct::report {

ErrorRecord error_record(const Error& e) {
  ErrorRecord r{e.kind(), e.what(), e.hint(), std::nullopt, false, static_cast<int>(e.code())};
  if (!e.stage.empty()) r.stage = e.stage;
  return r;
}

nlohmann::json to_json(const ErrorRecord& e) {
  nlohmann::json out = {{"kind", e.kind}, {"message", e.message}};
  if (e.hint) out["hint"] = *e.hint;
  if (e.stage) out["stage"] = *e.stage;
  else if (e.null_stage) out["stage"] = nullptr;
  if (e.exit_code) out["exit_code"] = *e.exit_code;
  return out;
}

std::optional<ErrorRecord> error_record_from_json(const nlohmann::json& j) {
  using namespace core::json_read;
  if (!j.is_object()) return std::nullopt;
  ErrorRecord e{str(j, "kind"), str(j, "message"), opt_str(j, "hint"), opt_str(j, "stage"), false, std::nullopt};
  e.null_stage = has(j, "stage") && j["stage"].is_null();
  if (const json& code = at(j, "exit_code"); code.is_number_integer()) e.exit_code = code.get<int>();
  return e;
}

}  // namespace tct::report
