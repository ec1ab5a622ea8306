#pragma once
// The one result model: a versioned JSON document per command. Renderers (terminal,
// Markdown, HTML) read it; nothing is computed while rendering.
#include <string>

#include <nlohmann/json.hpp>

#include "errors.hpp"

namespace tct::report {

using json = nlohmann::json;

inline constexpr const char* kSchema = "tct/1";

// {"schema","command","tct_version","created","exit_code":null,"error":null,"warnings":[]}
json new_document(const std::string& command);
// {kind, message, hint, stage (when the error has one)}: an error as documents hold it.
json error_json(const Error& error);
// doc["error"] = error_json(error).
void set_error(json& doc, const Error& error);

}  // namespace tct::report
