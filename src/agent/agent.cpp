#include "agent/agent.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "version.hpp"

namespace tct::agent {
namespace {

std::string clip(const std::string& s, size_t n = 120) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

ChildProcess::Spec agent_spec(const AgentOptions& o) {
  ChildProcess::Spec spec;
  // The agent is found through sys.path set here, not through the user's PYTHONPATH;
  // -u: unbuffered, so replies are never stuck in a buffer.
  spec.argv = {o.python.path, "-u", "-c",
               "import sys; sys.path.insert(0, sys.argv.pop(1)); "
               "from tct_agent.__main__ import main; main()",
               o.agent_dir};
  spec.env = o.env;
  spec.env.emplace_back("PYTHONUNBUFFERED", "1");
  spec.echo_stderr = o.verbose;
  return spec;
}

}  // namespace

Agent::Agent(AgentOptions options) : Agent(std::move(options), DeferHandshake{}) { handshake(); }

Agent::Agent(AgentOptions options, DeferHandshake) : options_(std::move(options)) {
  child_ = std::make_unique<ChildProcess>(agent_spec(options_));
}

void Agent::handshake() {
  if (handshaken_) return;
  std::string line;
  auto r = child_->read_line(line, options_.handshake_timeout);
  if (r == ChildProcess::Read::Interrupted) {
    child_->kill_group();
    throw Error(ExitCode::Interrupted, "interrupted", "interrupted while starting the Python agent");
  }
  if (r == ChildProcess::Read::Timeout) {
    child_->kill_group();
    throw Error(ExitCode::Usage, "handshake_timeout",
                fmt::format("{} did not start tct's agent within {} s", options_.python.path,
                            options_.handshake_timeout.count() / 1000),
                "check that this interpreter starts quickly (python -c pass); run with -vv to see the agent's stderr",
                child_->stderr_tail());
  }
  if (r == ChildProcess::Read::Eof) {
    auto info = child_->finish(std::chrono::seconds(2));
    std::string last = child_->last_stderr_line();
    throw Error(ExitCode::Usage, "handshake_failed",
                fmt::format("{} could not start tct's agent ({}){}", options_.python.path, info.describe(),
                            last.empty() ? "" : ": " + clip(last)),
                "tct needs Python 3.9 or newer; check the interpreter, or run with -vv to see the agent's stderr",
                child_->stderr_tail());
  }
  json hello = json::parse(line, nullptr, false);
  if (hello.is_discarded() || !hello.is_object() || hello.value("type", "") != "hello") {
    child_->kill_group();
    throw Error(ExitCode::Internal, "protocol",
                fmt::format("the agent's first line is not a handshake: '{}'", clip(line)),
                "something prints to standard output before tct's agent starts (a sitecustomize or "
                "PYTHONSTARTUP script?); remove it or run with -vv to see the agent's stderr");
  }
  hello_.protocol = hello.value("protocol", 0);
  hello_.agent_version = hello.value("agent_version", "");
  hello_.python = hello.value("python", json::object());
  hello_.torch = hello.value("torch", json());
  if (hello_.torch.is_object()) hello_.torch_version = hello_.torch.value("version", "");
  hello_.torch_error =
      hello.contains("torch_error") && hello["torch_error"].is_string() ? hello["torch_error"].get<std::string>() : "";
  if (hello_.protocol != kProtocolVersion) {
    child_->kill_group();
    throw Error(ExitCode::Internal, "protocol",
                fmt::format("the agent in {} speaks protocol {}, this tct speaks {}", options_.agent_dir,
                            hello_.protocol, kProtocolVersion),
                "the agent belongs to another tct version: reinstall tct or fix --agent-path");
  }
  handshaken_ = true;
}

Agent::~Agent() {
  if (child_) child_->kill_group();
}

void Agent::fail_dead(const std::string& during) {
  auto info = child_->finish(std::chrono::seconds(2));
  std::string last = child_->last_stderr_line();
  throw Error(ExitCode::TargetFailed, "agent_died",
              fmt::format("the Python process died during {} ({}){}", during, info.describe(),
                          last.empty() ? "" : ": " + clip(last)),
              info.signaled ? "a crash inside torch or a compiled kernel; rerun with -vv (the agent's stderr), try "
                              "another --backend, or reduce the problem size if memory ran out"
                            : "rerun with -vv to see the agent's stderr",
              child_->stderr_tail());
}

json Agent::call(const std::string& op, const json& params, std::chrono::milliseconds timeout,
                 const ProgressFn& on_progress) {
  return receive(send(op, params), op, timeout, on_progress);
}

long Agent::send(const std::string& op, const json& params) {
  const long id = next_id_++;
  json request = {{"id", id}, {"op", op}, {"params", params}};
  // Before the handshake a failed write is left to handshake(), which says why the
  // interpreter did not start (a better message than "died during <op>").
  if (!child_->write_line(request.dump()) && handshaken_) fail_dead(op);
  return id;
}

json Agent::receive(long id, const std::string& op, std::chrono::milliseconds timeout, const ProgressFn& on_progress) {
  handshake();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    std::string line;
    auto r = child_->read_line(line, std::max(left, std::chrono::milliseconds(0)));
    if (r == ChildProcess::Read::Interrupted) {
      child_->kill_group();
      throw Error(ExitCode::Interrupted, "interrupted", fmt::format("interrupted during {}", op),
                  "results measured before the interruption were kept");
    }
    if (r == ChildProcess::Read::Timeout) {
      child_->kill_group();
      throw Error(ExitCode::TargetFailed, "timeout",
                  fmt::format("no answer within {:.0f} s during {}", timeout.count() / 1000.0, op),
                  "the target may hang; raise --timeout if it is just slow", child_->stderr_tail());
    }
    if (r == ChildProcess::Read::Eof) fail_dead(op);
    json msg = json::parse(line, nullptr, false);
    if (msg.is_discarded() || !msg.is_object()) {
      child_->kill_group();
      throw Error(ExitCode::Internal, "protocol",
                  fmt::format("the agent wrote a line that is not protocol JSON during {}: '{}'", op, clip(line)),
                  "something writes to the agent's protocol stream; rerun with -vv and report it",
                  child_->stderr_tail());
    }
    const std::string type = msg.value("type", "");
    if (type == "progress") {
      if (on_progress) on_progress(msg.value("message", ""));
      continue;
    }
    if (msg.value("id", -1L) != id) continue;  // a stale reply from a request that timed out
    if (type == "result") return msg.value("result", json::object());
    if (type == "error") throw error_from_agent(msg.value("error", json::object()));
    child_->kill_group();
    throw Error(ExitCode::Internal, "protocol", fmt::format("unknown message type '{}' from the agent", type));
  }
}

void Agent::close() {
  if (!child_) return;
  child_->write_line(json({{"id", 0}, {"op", "shutdown"}, {"params", json::object()}}).dump());
  child_->finish(std::chrono::seconds(3));
}

}  // namespace tct::agent
