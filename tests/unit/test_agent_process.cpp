// The child-process layer against real processes (/bin/sh), and interpreter choice.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <unistd.h>

#include "agent/child_process.hpp"
#include "agent/interpreter.hpp"
#include "errors.hpp"

using namespace tct::agent;
using namespace std::chrono_literals;

TEST(ChildProcess, ReadsLinesAndKeepsStderrTail) {
  ChildProcess p({{"/bin/sh", "-c", "echo one; echo oops >&2; echo two"}, {}, false});
  std::string line;
  ASSERT_EQ(p.read_line(line, 5s), ChildProcess::Read::Line);
  EXPECT_EQ(line, "one");
  ASSERT_EQ(p.read_line(line, 5s), ChildProcess::Read::Line);
  EXPECT_EQ(line, "two");
  EXPECT_EQ(p.read_line(line, 5s), ChildProcess::Read::Eof);
  EXPECT_EQ(p.last_stderr_line(), "oops");
  auto info = p.finish(2s);
  EXPECT_TRUE(info.exited);
  EXPECT_EQ(info.code, 0);
}

TEST(ChildProcess, PassesEnvironmentOverrides) {
  ChildProcess p({{"/bin/sh", "-c", "echo $TCT_UNIT_VALUE"}, {{"TCT_UNIT_VALUE", "x y;$(z)"}}, false});
  std::string line;
  ASSERT_EQ(p.read_line(line, 5s), ChildProcess::Read::Line);
  EXPECT_EQ(line, "x y;$(z)");
}

TEST(ChildProcess, TimesOutThenKillsTheGroup) {
  ChildProcess p({{"/bin/sh", "-c", "sleep 30 & sleep 30"}, {}, false});
  std::string line;
  EXPECT_EQ(p.read_line(line, 200ms), ChildProcess::Read::Timeout);
  p.kill_group();
  auto info = p.try_wait(0ms);
  ASSERT_TRUE(info.has_value());
  EXPECT_TRUE(info->signaled);
  EXPECT_EQ(info->signal, 9);
}

TEST(ChildProcess, RecognisesDeathBySignal) {
  ChildProcess p({{"/bin/sh", "-c", "kill -SEGV $$"}, {}, false});
  std::string line;
  EXPECT_EQ(p.read_line(line, 5s), ChildProcess::Read::Eof);
  auto info = p.finish(2s);
  EXPECT_TRUE(info.signaled);
  EXPECT_EQ(info.describe(), "segmentation fault (SIGSEGV)");
}

TEST(ChildProcess, MissingProgramIsAUsageError) {
  try {
    ChildProcess p({{"/no/such/program"}, {}, false});
    FAIL() << "expected an error";
  } catch (const tct::Error& e) {
    EXPECT_EQ(e.code(), tct::ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("/no/such/program"), std::string::npos);
  }
}

namespace {
EnvLookup fake_env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& k) -> std::optional<std::string> {
    auto it = vars.find(k);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}
}  // namespace

TEST(Interpreter, PrecedenceFlagThenEnvThenVenvThenPath) {
  auto env = fake_env({{"TCT_PYTHON", "/bin/sh"}, {"PATH", "/usr/bin:/bin"}});
  const std::string exe = "/nonexistent/bin/tct";
  EXPECT_EQ(choose_interpreter(std::string("/bin/true"), env, exe).source, "--python");
  EXPECT_EQ(choose_interpreter(std::nullopt, env, exe).source, "TCT_PYTHON");
  EXPECT_EQ(choose_interpreter(std::nullopt, fake_env({{"PATH", "/usr/bin:/bin"}}), exe).source, "PATH");
}

TEST(Interpreter, TheVenvTctIsInstalledInComesAfterAnActiveVenv) {
  // A pip-installed tct: VENV/bin/tct beside VENV/bin/python, VENV/pyvenv.cfg.
  namespace fs = std::filesystem;
  fs::path venv = fs::temp_directory_path() / ("tct-unit-venv-" + std::to_string(::getpid()));
  fs::create_directories(venv / "bin");
  fs::create_symlink("/bin/true", venv / "bin" / "python");
  const std::string exe = (venv / "bin" / "tct").string();
  auto path_only = fake_env({{"PATH", "/usr/bin:/bin"}});
  EXPECT_EQ(choose_interpreter(std::nullopt, path_only, exe).source, "PATH") << "no pyvenv.cfg: not a venv";
  std::ofstream(venv / "pyvenv.cfg") << "home = /usr/bin\n";
  Interpreter chosen = choose_interpreter(std::nullopt, path_only, exe);
  EXPECT_EQ(chosen.source, "tct's environment");
  EXPECT_EQ(chosen.path, (venv / "bin" / "python").string());
  auto active = fake_env({{"VIRTUAL_ENV", venv.string()}, {"PATH", "/usr/bin:/bin"}});
  EXPECT_EQ(choose_interpreter(std::nullopt, active, "/nonexistent/bin/tct").source, "VIRTUAL_ENV");
  EXPECT_EQ(choose_interpreter(std::string("/bin/true"), path_only, exe).source, "--python");
  fs::remove_all(venv);
}

TEST(Interpreter, MissingInterpreterSaysWhoChoseIt) {
  try {
    choose_interpreter(std::nullopt, fake_env({{"TCT_PYTHON", "/no/python"}}), "/nonexistent/bin/tct");
    FAIL();
  } catch (const tct::Error& e) {
    EXPECT_EQ(e.code(), tct::ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("chosen by TCT_PYTHON"), std::string::npos);
  }
}

TEST(Interpreter, AgentDirFoundInTheSourceTreeLayout) {
  // build/tct -> ../python holds tct_agent/ (the layout of a build tree).
  std::string exe = std::string(TCT_SOURCE_DIR) + "/build-anything/tct";
  auto dir = locate_agent_dir(std::nullopt, fake_env({}), exe);
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / "tct_agent" / "__main__.py"));
  EXPECT_THROW(locate_agent_dir(std::string("/nonexistent"), fake_env({}), exe), tct::Error);
}
