#pragma once
// The probe section's JSON fields (core/fields.hpp): each struct of probe/result.hpp listed once.
// The agent's facts record is kept whole and read by facts_from_record (probe/json.cpp); the
// lists that appear with the verdict are spelled here beside their fields.
#include "core/fields.hpp"
#include "probe/result.hpp"

namespace tct::probe {

using json = nlohmann::json;
using namespace core::fields::declare;
void torch_from(const json& j, ProbeResult& r);  // {"version"}, or null without torch

// Each enum by its to_string and parse (probe/result.cpp), the unknown name read as `fallback`.
template <class E, std::optional<E> (*parse)(std::string_view), E fallback>
constexpr core::fields::Spelling<E> kSpelled{
    [](const E& e) -> json { return std::string(to_string(e)); },
    [](const json& j) { return parse(j.is_string() ? j.get<std::string>() : "").value_or(fallback); }};

inline constexpr auto kStatus = kSpelled<SupportStatus, parse_support_status, SupportStatus::InRange>;

constexpr auto json_fields(const Reason*) {
  return std::tuple{field("severity", &Reason::severity, kSpelled<Severity, parse_severity, Severity::Info>),
                    TCT_FIELDS(Reason, code, message, fix)};
}
constexpr auto json_fields(const TorchSupport*) {
  using S = TorchSupport;
  // A missing status reads as in_range, as an unknown one does.
  return std::tuple{TCT_FIELDS(S, min, tested), custom<S>(
                                                    "status", [](const S& s) { return kStatus.write(s.status); },
                                                    [](const json& j, S& s) { s.status = kStatus.read(j); })};
}
constexpr auto json_fields(const Smoke::Measured*) {
  return std::tuple{TCT_FIELDS(Smoke::Measured, compile, max_abs_diff, max_abs_expected, shape_equal)};
}
// The agent times only a compile that ran: its figures appear beside the rest then.
constexpr auto json_fields(const Smoke*) {
  return std::tuple{TCT_FIELDS(Smoke, device, backend, ok, match),
                    TCT_FIELDS_WITH(Smoke, core::fields::Empty::Null, error), core::fields::flat(&Smoke::measured)};
}
constexpr auto json_fields(const ProbeResult*) {
  using R = ProbeResult;
  return std::tuple{
      TCT_FIELDS(R, python, environment_variables),
      custom<R>(
          "torch",
          [](const R& r) {
            return r.torch_version ? json{{"version", *r.torch_version}} : json(nullptr);
          },
          torch_from),
      TCT_FIELDS_WITH(R, core::fields::Empty::Absent, supported_torch),
      field(
          "facts", &R::facts, +[](const std::optional<Facts>& f) { return f ? f->record : kLeftOut; },
          +[](const json& j) { return j.is_object() ? std::optional(facts_from_record(j)) : std::nullopt; }),
      // The smoke list appears with the first smoke compile, and always with the verdict.
      custom<R>(
          "smoke",
          [](const R& r) { return r.verdict || !r.smoke.empty() ? core::fields::encode(r.smoke, kKeep) : kLeftOut; },
          [](const json& j, R& r) { core::fields::decode(j, r.smoke); }),
      field(
          "verdict", &R::verdict,
          +[](const std::optional<Verdict>& v) { return v ? json(std::string(to_string(*v))) : kLeftOut; },
          +[](const json& j) { return parse_verdict(j.is_string() ? j.get<std::string>() : ""); }),
      custom<R>(
          "reasons", [](const R& r) { return r.verdict ? core::fields::encode(r.reasons, kKeep) : kLeftOut; },
          [](const json& j, R& r) { core::fields::decode(j, r.reasons); })};
}

}  // namespace tct::probe
