#pragma once
// ExpectResult <-> doc["expect"] (schema/expect.schema.json): the one place the section is
// written and read. to_json(from_json(section)) gives back a section this version wrote, at
// any of its checkpoints; from_json also reads older documents of the same schema (fields
// added since are absent there, see result.hpp) and never throws on a missing or mistyped field.
#include <nlohmann/json.hpp>

#include "expect/result.hpp"

namespace tct::expect {

nlohmann::json to_json(const ExpectResult& result);
ExpectResult from_json(const nlohmann::json& section);

// The parts a rendering shows as JSON (the HTML report's generic tables), and what the
// runner builds a result from.
nlohmann::json to_json(const ProfileSummary& profile);
nlohmann::json to_json(const std::vector<ClassChange>& changes);
std::vector<Reason> reasons_from_json(const nlohmann::json& decided_by);
std::vector<Term> terms_from_json(const nlohmann::json& terms);
nlohmann::json to_json(const std::vector<Shift>& shifts);
std::vector<Shift> shifts_from_json(const nlohmann::json& shifts);
std::vector<Suggestion> suggestions_from_json(const nlohmann::json& suggestions);
std::optional<Validation> validation_from_json(const nlohmann::json& validation);
// A measured speedup {estimate, low, high}; none without an estimate.
std::optional<MeasuredSpeedup> measured_from_json(const nlohmann::json& speedup);

// A sweep value as its JSON literal, and back (an array or object, which no --sweep writes,
// reads as its JSON text).
nlohmann::json to_json(const SweepValue& value);
SweepValue sweep_value_from_json(const nlohmann::json& value);
// target.load's "inputs" [{path, shape, dtype, device, requires_grad} | {path, type, value}].
nlohmann::json to_json(const std::vector<InputLeaf>& inputs);
std::vector<InputLeaf> inputs_from_json(const nlohmann::json& inputs);

}  // namespace tct::expect
