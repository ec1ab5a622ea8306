#pragma once
// A child process in its own process group, with pipes for stdin, stdout and stderr.
// Spawned without a shell. Reading waits on both output pipes at once so a chatty stderr
// can never block the child, and keeps the tail of stderr for error messages.
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace tct::agent {

struct ExitInfo {
  bool exited = false;  // normal exit: code is valid
  int code = 0;
  bool signaled = false;  // killed by a signal: signal is valid
  int signal = 0;
  // "exit code 1", "segmentation fault (SIGSEGV)", "killed (SIGKILL, out of memory?)"
  std::string describe() const;
};

class ChildProcess {
 public:
  struct Spec {
    std::vector<std::string> argv;                         // argv[0] is a path or a PATH name
    std::vector<std::pair<std::string, std::string>> env;  // set on top of this environment
    bool echo_stderr = false;                              // also copy child's stderr to ours
  };
  enum class Read { Line, Timeout, Eof, Interrupted };

  // Throws tct::Error when the program cannot be started (ENOENT, EACCES...).
  explicit ChildProcess(const Spec& spec);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // False when the child closed its stdin (it died).
  bool write_line(const std::string& line);
  // One line from stdout (without '\n'). Interrupted when interrupt_requested() turns true.
  Read read_line(std::string& line, std::chrono::milliseconds timeout);
  // SIGKILL to the whole process group (compile workers included), then reap.
  void kill_group();
  // Close stdin and wait up to `grace` for a clean exit, then kill the group.
  ExitInfo finish(std::chrono::milliseconds grace);
  // Reap if it has exited; waits up to `grace` for that.
  std::optional<ExitInfo> try_wait(std::chrono::milliseconds grace);
  std::string stderr_tail() const { return stderr_tail_; }
  // The last non-empty line of stderr: usually the exception's one-line summary.
  std::string last_stderr_line() const;
  pid_t pid() const { return pid_; }

 private:
  void pump_stderr();
  pid_t pid_ = -1;
  int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
  bool echo_stderr_ = false;
  std::string out_buffer_;
  std::string stderr_tail_;
  std::optional<ExitInfo> exit_;
};

// This process's environment with `extra` added, each replacing a variable of its name:
// what a child (the agent, or `tct run`'s job) is started with.
std::vector<std::string> merged_environment(const std::vector<std::pair<std::string, std::string>>& extra);

// Ctrl-C / SIGTERM: handlers only set a flag; readers poll it and clean up.
void install_interrupt_handlers();
bool interrupt_requested();

}  // namespace tct::agent
