#pragma once
// The document's "audit" section (its target and steps), the one place it is written and read.
// What the steps found is in each command's own section, written by that command's to_json.
#include <nlohmann/json.hpp>

#include "audit/result.hpp"

namespace tct::audit {

nlohmann::json to_json(const AuditResult& result);
nlohmann::json to_json(const Step& step);
// The target and steps of a section (the steps' results stay empty: the registry reads each
// from its own section).
AuditResult from_json(const nlohmann::json& section);

}  // namespace tct::audit
