// tct startup -- CMD: job's runs read as starts (startup/command.cpp), and the command line split
// at `--` (cli/run_args.cpp).
#include <gtest/gtest.h>

#include "cli/run_args.hpp"
#include "errors.hpp"
#include "startup/command.hpp"

using namespace tct;
using namespace tct::startup;

namespace {

job::RunFigures run_of(int round, std::vector<std::pair<std::string, double>> first_outputs_s, int status = 0) {
  job::RunFigures f;
  f.round = round;
  f.exit_status = status;
  f.exit_text = status ? "exit status 1" : "exit status 0";
  f.dir = "/runs/" + std::to_string(round) + "-" + std::to_string(first_outputs_s.size());
  for (const auto& [name, s] : first_outputs_s) {
    job::SiteRun site;
    site.key = "serve.py:1 " + name;
    site.name = name;
    site.first_output = Nanoseconds(s * 1e9);
    site.steady = Nanoseconds(1e6);
    f.sites.push_back(site);
  }
  return f;
}

job::ModeResult mode_of(job::How how, std::vector<job::RunFigures> runs) {
  job::ModeResult m;
  m.spec.how = how;
  m.runs = std::move(runs);
  return m;
}

}  // namespace

TEST(StartupCommand, EachRunIsAStartTimedToItsEarliestSitesFirstCall) {
  job::JobResult j;
  j.command = {"python", "serve.py"};
  j.rounds = 3;
  j.modes.push_back(
      mode_of(job::How::Eager, {run_of(1, {{"rank", 2.5}, {"embed", 2.0}}), run_of(2, {{"embed", 2.2}, {"rank", 2.6}}),
                                run_of(3, {{"embed", 2.1}, {"rank", 2.7}})}));
  j.modes.push_back(mode_of(
      job::How::Cold, {run_of(1, {{"embed", 9.0}}), run_of(2, {{"embed", 1.0}}, 1), run_of(3, {{"embed", 11.0}})}));
  const StartupResult r = from_job(j, {});
  EXPECT_EQ(r.target, "python serve.py");
  EXPECT_EQ(r.command, j.command);
  ASSERT_EQ(r.modes.size(), 2u);
  const ModeResult& eager = r.modes[0];
  EXPECT_EQ(eager.mode, Mode::Eager);
  ASSERT_EQ(eager.starts.size(), 3u);
  EXPECT_EQ(eager.starts[0].sites.front().name, "embed");  // the earliest first call leads
  EXPECT_DOUBLE_EQ(eager.starts[0].first_output.count(), 2.0e9);
  EXPECT_DOUBLE_EQ(eager.median.count(), 2.1e9);
  ASSERT_EQ(eager.sites.size(), 2u);  // in their first start's order, each with its own median
  EXPECT_EQ(eager.sites[0].name, "embed");
  EXPECT_DOUBLE_EQ(eager.sites[1].median.count(), 2.6e9);
  EXPECT_DOUBLE_EQ(eager.per_call.count(), 1e6);
  // A failed start is recorded and left out of the figures; the mode still runs.
  const ModeResult& cold = r.modes[1];
  EXPECT_TRUE(cold.ok());
  EXPECT_EQ(cold.starts[1].error, "exit status 1");
  EXPECT_FALSE(measured(cold.starts[1].first_output));
  EXPECT_DOUBLE_EQ(cold.median.count(), 10.0e9);
  EXPECT_EQ(r.verdict.fastest, Mode::Eager);
}

TEST(StartupCommand, AModeWhoseEveryStartFailedSaysWhy) {
  job::JobResult j;
  j.command = {"python", "serve.py"};
  j.rounds = 1;
  j.modes.push_back(mode_of(job::How::Cold, {run_of(1, {}, 0)}));  // ran, called no compiled site
  const StartupResult r = from_job(j, {});
  EXPECT_FALSE(r.modes[0].ok());
  EXPECT_NE(r.modes[0].error.find("no call site"), std::string::npos) << r.modes[0].error;
  EXPECT_FALSE(r.verdict.fastest);
}

TEST(StartupCommand, AotiModesAreRefusedForACommandAsBadUsage) {
  try {
    command_modes({Mode::Eager, Mode::AotiCpp});
    FAIL() << "aoti-cpp was accepted for a command";
  } catch (const Error& e) { EXPECT_EQ(e.code(), ExitCode::Usage); }
  EXPECT_EQ(command_modes({}), (std::vector<Mode>{Mode::Eager, Mode::Cold, Mode::Warm, Mode::Shipped}));
  EXPECT_EQ(command_modes({Mode::Warm}), (std::vector<Mode>{Mode::Cold, Mode::Warm}));
}

TEST(StartupCommand, TheCommandLineSplitsAtDashesOnly) {
  using V = std::vector<std::string>;
  auto [mine, job] = cli::split_run_args(V{"startup", "--repeats", "2", "--", "python", "s.py", "--repeats", "9"});
  EXPECT_EQ(mine, (V{"startup", "--repeats", "2"}));
  EXPECT_EQ(job, (V{"python", "s.py", "--repeats", "9"}));
  std::tie(mine, job) = cli::split_run_args(V{"startup", "m.py:make", "--repeats", "2"});
  EXPECT_EQ(mine, (V{"startup", "m.py:make", "--repeats", "2"}));
  EXPECT_TRUE(job.empty());
}
