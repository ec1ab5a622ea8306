#pragma once
// A running `python -m tct_agent`: handshake, then request/reply over JSON lines.
// Every failure (agent error reply, timeout, death, junk on the stream, Ctrl-C) becomes a
// tct::Error with the right exit code; the agent process is killed with its group.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/child_process.hpp"
#include "agent/hello.hpp"
#include "agent/interpreter.hpp"
#include "errors.hpp"

namespace tct::agent {

using json = nlohmann::json;

struct AgentOptions {
  Interpreter python;
  std::string agent_dir;
  std::chrono::milliseconds handshake_timeout{std::chrono::seconds(60)};
  std::vector<std::pair<std::string, std::string>> env;  // e.g. fresh inductor cache dirs
  bool verbose = false;                                  // echo the agent's stderr (the user's prints) live
};

using ProgressFn = std::function<void(const std::string&)>;

// Tag for an agent that is spawned now and handshaken later (see Agent::handshake).
struct DeferHandshake {};

class Agent {
 public:
  explicit Agent(AgentOptions options);  // spawns and handshakes; throws tct::Error
  // Spawns only: the interpreter starts at once, the handshake is read by handshake() (or
  // by the first receive()). Requests may be sent before that: they wait in the pipe, so a
  // caller can start an agent, queue its first requests and do other work meanwhile.
  Agent(AgentOptions options, DeferHandshake);
  ~Agent();
  // Reads and checks the handshake if not done yet. Throws tct::Error.
  void handshake();
  const Hello& hello() const { return hello_; }
  const AgentOptions& options() const { return options_; }

  // Sends one request and waits for its reply. Throws tct::Error on any failure.
  json call(const std::string& op, const json& params, std::chrono::milliseconds timeout,
            const ProgressFn& on_progress = {});
  // call() in two halves: send() writes the request and returns its id; receive() waits for
  // that reply (replies come in request order, so receive the ids in the order sent).
  long send(const std::string& op, const json& params);
  json receive(long id, const std::string& op, std::chrono::milliseconds timeout, const ProgressFn& on_progress = {});
  // Asks the agent to exit, then makes sure it did.
  void close();

 private:
  [[noreturn]] void fail_dead(const std::string& during);
  AgentOptions options_;
  std::unique_ptr<ChildProcess> child_;
  Hello hello_;
  bool handshaken_ = false;
  long next_id_ = 1;
};

}  // namespace tct::agent

namespace tct {
// Maps an agent error object {kind, message, hint, traceback, stage} to a tct::Error.
Error error_from_agent(const nlohmann::json& error_object);
// An error after which the agent cannot serve another request: it hung or died, or its stream
// broke. It has been killed; a runner that goes on starts a fresh one.
bool agent_lost(const Error& e);
}
