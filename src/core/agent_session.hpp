#pragma once
// core::Session over a real agent::Agent, with the timeout and progress callback the
// CLI chose for every request.
#include <chrono>
#include <memory>

#include "agent/agent.hpp"
#include "core/executor.hpp"

namespace tct::core {

class AgentSession : public Session {
 public:
  AgentSession(std::unique_ptr<agent::Agent> agent, std::chrono::milliseconds timeout, agent::ProgressFn on_progress)
      : agent_(std::move(agent)), timeout_(timeout), on_progress_(std::move(on_progress)) {}
  long send(const std::string& op, const nlohmann::json& params) override { return agent_->send(op, params); }
  nlohmann::json receive(long id, const std::string& op) override {
    return agent_->receive(id, op, timeout_, on_progress_);
  }
  const agent::Hello& hello() override {
    agent_->handshake();
    return agent_->hello();
  }
  void close() override { agent_->close(); }

 private:
  std::unique_ptr<agent::Agent> agent_;
  std::chrono::milliseconds timeout_;
  agent::ProgressFn on_progress_;
};

}  // namespace tct::core
