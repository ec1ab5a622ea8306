#include "run/setup.hpp"

#include <cstdlib>
#include <filesystem>

#include <unistd.h>

#include <fmt/format.h>

#include "errors.hpp"

namespace tct::run {
namespace fs = std::filesystem;

std::string make_run_dir(const std::string& asked, const std::string& prefix) {
  if (!asked.empty()) {
    std::error_code ec;
    fs::create_directories(asked, ec);
    if (ec) throw usage_error(fmt::format("cannot create {}: {}", asked, ec.message()));
    return fs::absolute(asked).string();
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = fmt::format("{}/{}-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    throw Error(ExitCode::Internal, "internal", fmt::format("cannot create a folder under {}", tmp ? tmp : "/tmp"));
  return buf.data();
}

std::vector<std::string> job_command(std::vector<std::string> job, const std::string& module,
                                     const std::optional<std::string>& python, const agent::EnvLookup& lookup,
                                     const std::string& exe, const std::string& command) {
  if (job.empty() && module.empty())
    throw usage_error("no command to run", fmt::format("give it after --: tct {} -- python train.py", command));
  auto interpreter = [&] { return agent::choose_interpreter(python, lookup, exe).path; };
  if (!module.empty()) {
    job.insert(job.begin(), {interpreter(), "-m", module});
  } else if (job[0].size() > 3 && job[0].substr(job[0].size() - 3) == ".py") {
    if (!fs::exists(job[0])) throw usage_error(fmt::format("no such script: {}", job[0]));
    job.insert(job.begin(), interpreter());
  }
  return job;
}

std::string bootstrap_dir(const agent::EnvLookup& lookup, const std::string& exe) {
  const std::string bootstrap =
      (fs::path(agent::locate_agent_dir(std::nullopt, lookup, exe)) / "tct_run_bootstrap").string();
  if (!fs::is_regular_file(fs::path(bootstrap) / "sitecustomize.py"))
    throw Error(ExitCode::Internal, "install", fmt::format("tct's run bootstrap is missing ({})", bootstrap),
                "reinstall tct");
  return bootstrap;
}

}  // namespace tct::run
