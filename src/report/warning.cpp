#include "report/warning.hpp"

#include <cmath>
#include <utility>

namespace tct::report {

std::string flag_of(const Warning& w) { return flag_of(code_of(w)); }

nlohmann::json to_json(const Warning& w) {
  // An AsWritten warning keeps its code, one this version may not know.
  nlohmann::json j = {{"code", code_of(w)}, {"message", message_of(w)}, {"hint", hint_of(w)}};
  if (const auto figure = figure_of(w); figure && std::isfinite(*figure)) j["figure"] = *figure;
  if (!w.row.empty()) j["row"] = w.row;
  return j;
}

nlohmann::json to_json(const std::vector<Warning>& ws) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& w : ws) out.push_back(to_json(w));
  return out;
}

Warning warning_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return {kind::AsWritten{"other", "", "", std::nullopt}, ""};
  auto text = [&](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  kind::AsWritten p{text("code"), text("message"), text("hint"), std::nullopt};
  if (p.code.empty()) p.code = "other";
  if (const auto it = j.find("figure"); it != j.end() && it->is_number()) p.figure = it->get<double>();
  return {std::move(p), text("row")};
}

void add_once(std::vector<Warning>& ws, Warning w) {
  for (const auto& have : ws)
    if (have == w) return;
  ws.push_back(std::move(w));
}

}  // namespace tct::report
