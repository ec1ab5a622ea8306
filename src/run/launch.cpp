#include "run/launch.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>

#include <fcntl.h>

#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "agent/child_process.hpp"
#include "errors.hpp"

extern char** environ;

namespace tct::run {
namespace {

std::atomic<pid_t> g_child{0};
std::atomic<bool> g_signaled{false};

// A signal typed at the terminal (si_code SI_KERNEL) already reached the command, which
// shares our process group: forwarding it would deliver it twice (two KeyboardInterrupts).
// One sent to tct alone (kill, a job scheduler: SI_USER/SI_QUEUE) is passed on.
void forward(int sig, siginfo_t* info, void*) {
  g_signaled.store(true);
  pid_t child = g_child.load();
  bool from_terminal = info && info->si_code == SI_KERNEL;
  if (child > 0 && !from_terminal) ::kill(child, sig);
}

}  // namespace

int shell_status(const agent::ExitInfo& e) { return e.signaled ? 128 + e.signal : e.code; }

Finished run_command(const Launch& launch, const std::function<void(std::chrono::nanoseconds)>& tick,
                     std::chrono::milliseconds every) {
  if (launch.argv.empty()) throw usage_error("no command to run", "give it after --: tct run -- python train.py");
  std::vector<char*> argv;
  for (const auto& a : launch.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  auto env_strings = agent::merged_environment(launch.env);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  struct sigaction sa {
  }, old_int{}, old_term{};
  sa.sa_sigaction = forward;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  // The command gets default signal dispositions, whatever tct's are.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  if (!launch.stdout_path.empty())
    posix_spawn_file_actions_addopen(&files, 1, launch.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!launch.stderr_path.empty())
    posix_spawn_file_actions_addopen(&files, 2, launch.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, argv[0], &files, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    throw Error(ExitCode::Usage, "command_not_found",
                fmt::format("cannot run {}: {}", launch.argv[0], std::strerror(rc)),
                rc == ENOENT ? "check the command's name, or give its path" : "");
  }
  g_child.store(pid);
  int status = 0;
  auto next_tick = start + every;
  const bool poll = tick || launch.timeout.count() > 0;
  // Between polls the wait sleeps on a pidfd, which the command's exit wakes at once: its wall
  // time ends at the exit, not up to 50 ms later (kernels before 5.3 have none: plain sleeps).
  const int exit_fd = poll ? static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)) : -1;
  bool timed_out = false;
  std::optional<std::chrono::steady_clock::time_point> killed_at;
  while (true) {
    pid_t r = ::waitpid(pid, &status, poll ? WNOHANG : 0);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (r == 0) {  // still running: poll every 50 ms, tick when due
      if (exit_fd >= 0) {
        pollfd exited{exit_fd, POLLIN, 0};
        ::poll(&exited, 1, 50);
      } else {
        ::usleep(50 * 1000);
      }
      const auto now = std::chrono::steady_clock::now();
      if (tick && now >= next_tick) {
        next_tick = now + every;
        tick(now - start);
      }
      if (launch.timeout.count() > 0 && now - start >= launch.timeout && !killed_at) {
        timed_out = true;
        killed_at = now;
        ::kill(pid, SIGTERM);  // the bootstrap writes its records on SIGTERM
      }
      if (killed_at && now - *killed_at >= std::chrono::seconds(5)) ::kill(pid, SIGKILL);
    }
  }
  const auto end = std::chrono::steady_clock::now();
  if (exit_fd >= 0) ::close(exit_fd);
  g_child.store(0);
  Finished out;
  out.wall = end - start;
  out.exit.exited = WIFEXITED(status);
  out.exit.code = out.exit.exited ? WEXITSTATUS(status) : 0;
  out.exit.signaled = WIFSIGNALED(status);
  out.exit.signal = out.exit.signaled ? WTERMSIG(status) : 0;
  out.interrupted = g_signaled.exchange(false);
  out.timed_out = timed_out;
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return out;
}

}  // namespace tct::run
