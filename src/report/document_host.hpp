#pragma once
// A core::Host over a document it holds: the CLI's RunContext, expect's ScratchHost and the
// unit tests' hosts. Only the document's owner (the CLI) reads or edits `doc` directly; a
// runner goes through the Host interface.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/host.hpp"
#include "report/document.hpp"

namespace tct::report {

class DocumentHost : public core::Host {
 public:
  explicit DocumentHost(nlohmann::json document) : doc(std::move(document)) {}

  nlohmann::json doc;

  const nlohmann::json& environment() const override {
    static const nlohmann::json none = nlohmann::json::object();
    return doc.is_object() && doc.contains("environment") ? doc["environment"] : none;
  }
  void record(const std::string& section, nlohmann::json value) override { doc[section] = std::move(value); }
  void warn(const nlohmann::json& warning) override { add_warning(doc, warning); }
  void replace_warnings(const std::string& source, const nlohmann::json& warnings) override {
    const auto before = warnings_before_.try_emplace(source, doc.value("warnings", nlohmann::json::array())).first;
    doc["warnings"] = before->second;
    for (const auto& w : warnings) add_warning(doc, w);
  }
  using core::Host::checkpoint;

 private:
  std::map<std::string, nlohmann::json> warnings_before_;  // by source: the list before its first
};

}  // namespace tct::report
