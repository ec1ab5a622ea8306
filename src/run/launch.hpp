#pragma once
// Runs the user's command as it is: stdin, stdout and stderr are the terminal's (inherited,
// not piped), it stays in tct's process group so a Ctrl-C typed at the terminal reaches it
// directly, and a SIGINT or SIGTERM sent to tct alone is forwarded to it. tct waits.
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "agent/child_process.hpp"

namespace tct::run {

struct Launch {
  std::vector<std::string> argv;                         // argv[0]: a path or a name on PATH
  std::vector<std::pair<std::string, std::string>> env;  // on top of tct's own environment
  // tct job: the job's stdout and stderr into these files ("": inherited, as tct run keeps them).
  std::string stdout_path, stderr_path;
  // Ended (SIGTERM, then SIGKILL 5 s later) once it has run this long; 0: never.
  std::chrono::milliseconds timeout{0};
};

struct Finished {
  agent::ExitInfo exit;
  std::chrono::nanoseconds wall{0};
  bool interrupted = false;  // a SIGINT or SIGTERM reached tct while the command ran
  bool timed_out = false;    // ended by tct after Launch::timeout
};

// Throws tct::Error (usage, exit 2) when the command cannot be started (not found, not
// executable); otherwise returns once the command has ended. While it runs, `tick` (if any)
// is called every `every` with the time so far (tct run rewrites its -o files there).
Finished run_command(const Launch& launch, const std::function<void(std::chrono::nanoseconds)>& tick = {},
                     std::chrono::milliseconds every = std::chrono::seconds(10));

// The exit status a shell would show: the code, or 128 + signal.
int shell_status(const agent::ExitInfo& e);

}  // namespace tct::run
