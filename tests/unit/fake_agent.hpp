#pragma once
// A scripted stand-in for the Python agent and the CLI, so runners can be unit-tested
// without Python: FakeCaller keeps progress lines and partial results in memory;
// FakeExecutor answers each request with a script (process index, op, params) -> reply,
// and records every process it started with its environment and requests.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/executor.hpp"
#include "core/progress.hpp"

namespace tct::testing {

using json = nlohmann::json;

// What the CLI is to a runner: it receives progress lines and partial results.
template <class Result>
struct FakeCaller {
  std::vector<std::string> progress_lines;
  std::vector<Result> partials;
  core::Progress progress() {
    return [this](const std::string& m) { progress_lines.push_back(m); };
  }
  core::OnPartial<Result> on_partial() {
    return [this](const Result& so_far) { partials.push_back(so_far); };
  }
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
