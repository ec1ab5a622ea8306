#pragma once
// A host of its own for a step whose result expect keeps as a value (its own explain run,
// a sweep point's bench): the step writes its section into a scratch document, never into
// the user's; progress goes through to the real host; its warnings wait here until
// hand_on() passes them on, each named by the point it is about.
#include <string>

#include "core/host.hpp"
#include "report/document.hpp"

namespace tct::runner {

using json = nlohmann::json;

class ScratchHost : public Host {
 public:
  explicit ScratchHost(Host& host) : host_(host) {}

  json& document() override { return doc_; }
  void progress(const std::string& message) override { host_.progress(message); }
  // Nothing of the user's document changed.
  void checkpoint() override {}
  void warn(const json& warning) override { report::add_warning(doc_, warning); }

  // The warnings the step left (a step may rebuild its list as it goes: bench does after
  // each phase; the last list is what it found), to the real host, each message with
  // "label: " before it when a label is given: a warning then says which sweep point it is
  // about, and the same warning at two points stays two distinct lines.
  void hand_on(const std::string& label = "") {
    if (!doc_.contains("warnings") || !doc_["warnings"].is_array()) return;
    for (json w : doc_["warnings"]) {
      if (!label.empty() && w.is_object() && w.contains("message") && w["message"].is_string())
        w["message"] = label + ": " + w["message"].get<std::string>();
      host_.warn(w);
    }
    doc_["warnings"] = json::array();
  }

 private:
  Host& host_;
  json doc_ = json::object();
};

}  // namespace tct::runner
