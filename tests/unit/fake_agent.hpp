#pragma once
// A scripted stand-in for the Python agent and the CLI, so runners can be unit-tested
// without Python: FakeHost keeps the document, progress lines and checkpoints in memory;
// FakeExecutor answers each request with a script (process index, op, params) -> reply,
// and records every process it started with its environment and requests.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/document.hpp"
#include "core/executor.hpp"
#include "core/host.hpp"
#include "report/document_host.hpp"

namespace tct::testing {

using json = nlohmann::json;

struct FakeHost : report::DocumentHost {
  FakeHost() : DocumentHost(report::new_document("bench")) {}
  std::vector<std::string> progress_lines;
  int checkpoints = 0;
  void progress(const std::string& m) override { progress_lines.push_back(m); }
  void checkpoint() override { ++checkpoints; }
  using Host::checkpoint;
};

// Replies for one request; throw tct::Error to make the agent fail.
using Script = std::function<json(int process, const std::string& op, const json& params)>;

struct FakeProcess {
  core::Env env;
  bool deferred = false;
  std::vector<std::pair<std::string, json>> requests;
  bool closed = false;
};

class FakeSession : public core::Session {
 public:
  FakeSession(Script script, int index, std::shared_ptr<std::vector<FakeProcess>> log)
      : script_(std::move(script)), index_(index), log_(std::move(log)) {}
  long send(const std::string& op, const json& params) override {
    (*log_)[index_].requests.emplace_back(op, params);
    pending_.emplace_back(op, params);
    return static_cast<long>(pending_.size());
  }
  json receive(long id, const std::string&) override {
    const auto& [op, params] = pending_.at(static_cast<std::size_t>(id - 1));
    return script_(index_, op, params);
  }
  const agent::Hello& hello() override { return hello_; }
  void close() override { (*log_)[index_].closed = true; }

 private:
  Script script_;
  int index_;
  std::shared_ptr<std::vector<FakeProcess>> log_;
  std::vector<std::pair<std::string, json>> pending_;
  agent::Hello hello_{};
};

class FakeExecutor : public core::Executor {
 public:
  explicit FakeExecutor(Script script) : script_(std::move(script)) {}
  std::unique_ptr<core::Session> start(const core::Env& env) override { return make(env, false); }
  std::unique_ptr<core::Session> spawn(const core::Env& env) override { return make(env, true); }
  const std::vector<FakeProcess>& processes() const { return *log_; }

 private:
  std::unique_ptr<core::Session> make(const core::Env& env, bool deferred) {
    log_->push_back({env, deferred, {}, false});
    return std::make_unique<FakeSession>(script_, static_cast<int>(log_->size()) - 1, log_);
  }
  Script script_;
  std::shared_ptr<std::vector<FakeProcess>> log_ = std::make_shared<std::vector<FakeProcess>>();
};

}  // namespace tct::testing
