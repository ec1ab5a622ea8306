#pragma once
// The runner's view of the Python agent: start a process (with extra environment), send
// requests, read replies. The CLI's implementation spawns `python -m tct_agent`
// (core/agent_session.hpp); unit tests script a fake one. Every failure is a tct::Error
// (agent error reply, timeout, death), as agent::Agent throws it.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/agent.hpp"

namespace tct::core {

using Env = std::vector<std::pair<std::string, std::string>>;

// One running agent process.
class Session {
 public:
  virtual ~Session() = default;  // kills the process if still running
  // Queues a request and returns its id; replies come in request order.
  virtual long send(const std::string& op, const nlohmann::json& params) = 0;
  // Waits for the reply to `id` (reading the handshake first if not done yet).
  virtual nlohmann::json receive(long id, const std::string& op) = 0;
  nlohmann::json call(const std::string& op, const nlohmann::json& params) { return receive(send(op, params), op); }
  // The handshake (reads it if not done yet).
  virtual const agent::Hello& hello() = 0;
  // Asks the agent to exit and reaps it.
  virtual void close() = 0;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Starts an agent and completes the handshake.
  virtual std::unique_ptr<Session> start(const Env& env) = 0;
  // Starts an agent without waiting for it: requests may be sent at once and wait in the
  // pipe, so its interpreter start overlaps whatever the caller does next.
  virtual std::unique_ptr<Session> spawn(const Env& env) = 0;
};

}  // namespace tct::core
