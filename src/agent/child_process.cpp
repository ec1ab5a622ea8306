#include "agent/child_process.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "errors.hpp"

extern char** environ;

namespace tct::agent {
namespace {

constexpr size_t kStderrTailBytes = 64 * 1024;
std::atomic<bool> g_interrupted{false};

void on_signal(int) { g_interrupted.store(true); }

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "segmentation fault (SIGSEGV)";
    case SIGABRT: return "aborted (SIGABRT)";
    case SIGBUS: return "bus error (SIGBUS)";
    case SIGFPE: return "floating-point exception (SIGFPE)";
    case SIGILL: return "illegal instruction (SIGILL)";
    case SIGKILL: return "killed (SIGKILL: out of memory, or killed from outside)";
    case SIGTERM: return "terminated (SIGTERM)";
    case SIGINT: return "interrupted (SIGINT)";
    default: return fmt::format("signal {}", sig);
  }
}

ExitInfo exit_info_from_status(int status) {
  ExitInfo info;
  info.exited = WIFEXITED(status);
  info.code = info.exited ? WEXITSTATUS(status) : 0;
  info.signaled = WIFSIGNALED(status);
  info.signal = info.signaled ? WTERMSIG(status) : 0;
  return info;
}

}  // namespace

std::vector<std::string> merged_environment(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    bool overridden = false;
    for (const auto& [k, v] : extra)
      if (entry.size() > k.size() && entry.substr(0, k.size()) == k && entry[k.size()] == '=') overridden = true;
    if (!overridden) env.emplace_back(entry);
  }
  for (const auto& [k, v] : extra) env.push_back(k + "=" + v);
  return env;
}

std::string ExitInfo::describe() const {
  if (signaled) return signal_name(signal);
  if (exited) return fmt::format("exit code {}", code);
  return "unknown exit";
}

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // A second Ctrl-C takes the default action: the user can always get out.
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a dead child must not kill us through a write
}

bool interrupt_requested() { return g_interrupted.load(); }

ChildProcess::ChildProcess(const Spec& spec) : echo_stderr_(spec.echo_stderr) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
    throw Error(ExitCode::Internal, "internal", fmt::format("cannot create pipes: {}", std::strerror(errno)));

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Own process group: Ctrl-C reaches only us, and we can kill compile workers with it.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);

  std::vector<char*> argv;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  auto env_strings = merged_environment(spec.env);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  int rc = posix_spawnp(&pid_, argv[0], &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    ::close(err[0]);
    pid_ = -1;
    throw Error(ExitCode::Usage, "spawn_failed", fmt::format("cannot run {}: {}", spec.argv.at(0), std::strerror(rc)));
  }
  in_fd_ = in[1];
  out_fd_ = out[0];
  err_fd_ = err[0];
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exit_) kill_group();
  close_fd(in_fd_);
  close_fd(out_fd_);
  close_fd(err_fd_);
}

bool ChildProcess::write_line(const std::string& line) {
  std::string data = line + "\n";
  size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(in_fd_, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    off += static_cast<size_t>(n);
  }
  return true;
}

void ChildProcess::pump_stderr() {
  char buf[8192];
  ssize_t n = ::read(err_fd_, buf, sizeof buf);
  if (n <= 0) {
    if (n == 0) close_fd(err_fd_);
    return;
  }
  if (echo_stderr_) (void)!::write(2, buf, static_cast<size_t>(n));
  stderr_tail_.append(buf, static_cast<size_t>(n));
  if (stderr_tail_.size() > kStderrTailBytes) stderr_tail_.erase(0, stderr_tail_.size() - kStderrTailBytes);
}

ChildProcess::Read ChildProcess::read_line(std::string& line, std::chrono::milliseconds timeout) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + timeout;
  while (true) {
    if (auto nl = out_buffer_.find('\n'); nl != std::string::npos) {
      line = out_buffer_.substr(0, nl);
      out_buffer_.erase(0, nl + 1);
      return Read::Line;
    }
    if (out_fd_ < 0) return Read::Eof;
    if (interrupt_requested()) return Read::Interrupted;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0) return Read::Timeout;
    // Wake at least every 100 ms to notice Ctrl-C.
    int wait_ms = static_cast<int>(std::min<long long>(left.count(), 100));
    pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
    int nfds = err_fd_ >= 0 ? 2 : 1;
    int rc = ::poll(fds, static_cast<nfds_t>(nfds), wait_ms);
    if (rc < 0) {
      if (errno == EINTR) continue;
      return Read::Eof;
    }
    if (nfds == 2 && (fds[1].revents & (POLLIN | POLLHUP))) pump_stderr();
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      char buf[65536];
      ssize_t n = ::read(out_fd_, buf, sizeof buf);
      if (n > 0) {
        out_buffer_.append(buf, static_cast<size_t>(n));
      } else if (n == 0) {
        close_fd(out_fd_);
        // Drain what stderr still holds: it usually explains the death.
        while (err_fd_ >= 0) pump_stderr();
      }
    }
  }
}

void ChildProcess::kill_group() {
  if (pid_ <= 0 || exit_) return;
  ::kill(-pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
  exit_ = exit_info_from_status(status);
}

std::optional<ExitInfo> ChildProcess::try_wait(std::chrono::milliseconds grace) {
  if (exit_) return exit_;
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (true) {
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exit_ = exit_info_from_status(status);
      // Compile workers may outlive the agent: take the group down with it.
      ::kill(-pid_, SIGKILL);
      return exit_;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    // Keep draining stderr: a child blocked on a full pipe would never exit.
    pollfd fd{err_fd_, POLLIN, 0};
    if (err_fd_ >= 0 && ::poll(&fd, 1, 10) > 0) pump_stderr();
    else std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

ExitInfo ChildProcess::finish(std::chrono::milliseconds grace) {
  close_fd(in_fd_);
  if (auto info = try_wait(grace)) return *info;
  kill_group();
  return *exit_;
}

std::string ChildProcess::last_stderr_line() const {
  size_t end = stderr_tail_.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return {};
  size_t start = stderr_tail_.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return stderr_tail_.substr(start, end - start + 1);
}

}  // namespace tct::agent
