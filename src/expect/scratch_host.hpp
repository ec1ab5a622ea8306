#pragma once
// A host of its own for a step whose result expect keeps as a value (its own explain run,
// a sweep point's bench): the step writes its section into a scratch document, never into
// the user's; progress goes through to the real host; its warnings wait here until
// hand_on() passes them on, each named by the point it is about.
#include <string>

#include "report/document_host.hpp"

namespace tct::expect {

using json = nlohmann::json;

class ScratchHost : public report::DocumentHost {
 public:
  explicit ScratchHost(Host& host) : DocumentHost(json::object()), host_(host) {}

  const json& environment() const override { return host_.environment(); }
  void progress(const std::string& message) override { host_.progress(message); }
  // Nothing of the user's document changed.
  void checkpoint() override {}
  using Host::checkpoint;

  // The warnings the step left (a step may decide its list afresh as it goes: bench does
  // after each phase; the last list is what it found), to the real host, each message with
  // "label: " before it when a label is given: a warning then says which sweep point it is
  // about, and the same warning at two points stays two distinct lines. The label is its
  // "row" too, so a brief report names the other points a kind of warning touched.
  void hand_on(const std::string& label = "") {
    for (json w : doc.value("warnings", json::array())) {
      if (!label.empty() && w.is_object() && w.contains("message") && w["message"].is_string()) {
        w["message"] = label + ": " + w["message"].get<std::string>();
        w["row"] = label;
      }
      host_.warn(w);
    }
    doc["warnings"] = json::array();
  }

 private:
  Host& host_;
};

}  // namespace tct::expect
