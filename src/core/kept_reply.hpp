#pragma once
// An agent reply a result keeps whole and renders from: the record as the agent sent it, which
// the document writes back as it is, beside its view decoded once (core::fields::read_as) where
// it arrives or where a saved document is read, which the renderers read. The record is kept
// rather than the view written, so a document keeps its bytes: ints stay ints, a field the
// view does not declare (an older or newer agent's) and a field left out stay as they were.
// A result's member of this type is a plain `field(name, &R::m)` entry of its field table
// (encode and decode below) and converts to and from a json where a section is built by hand.
#include <utility>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"

namespace tct::core {

template <class View>
struct KeptReply {
  nlohmann::json raw;  // null until the reply arrived
  View view{};         // its initializers unless `raw` is an object

  KeptReply() = default;
  // Implicit: a result's member is assigned the reply, or the saved document's record, as is.
  KeptReply(nlohmann::json record) : raw(std::move(record)) {  // NOLINT(google-explicit-constructor)
    if (raw.is_object()) view = fields::read_as<View>(raw);
  }
  bool given() const { return raw.is_object(); }
};

template <class View>
void to_json(nlohmann::json& out, const KeptReply<View>& kept) {
  out = kept.raw;
}
template <class View>
nlohmann::json encode(const KeptReply<View>& kept, fields::Empty) {
  return kept.raw;
}
template <class View>
void decode(const nlohmann::json& j, KeptReply<View>& out) {
  out = KeptReply<View>(j);
}

}  // namespace tct::core
