// tct probe: can torch.compile run here, and if not, why and how to fix it.
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "analysis/probe_verdict.hpp"
#include "cli/command.hpp"
#include "report/document.hpp"

namespace tct::cli {
namespace {

class ProbeCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("probe", "Can torch.compile run here? torch, backends, devices, "
                                            "Triton, the C++ compiler; a verdict with fixes");
    cmd->add_flag("--smoke", smoke_, "Also compile a small function on each usable device and compare with eager");
    cmd->add_option("--backend", backend_, "Backend for --smoke")->capture_default_str();
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct probe                       facts and a verdict
  tct probe --smoke               plus a real compile on each device
  tct probe --json                the versioned JSON document
  tct probe --python ~/venv/bin/python
Exit codes: 0 usable (with or without caveats), 1 not usable, 2 bad usage.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    auto agent = ctx.start_agent();
    const auto& hello = agent->hello();
    analysis::ProbeInput in;
    in.python_path = ctx.doc["environment"]["interpreter"]["path"];
    in.torch_hello = hello.torch;
    in.torch_error = hello.torch_error;
    in.environment = json::object();
    for (const auto& var : analysis::compile_env_vars())
      if (const char* v = std::getenv(var.name)) in.environment[var.name] = v;
    in.smoke = json::array();

    json& section = ctx.doc["probe"];
    section = {{"python", hello.python}, {"torch", hello.torch}, {"environment_variables", in.environment}};

    // The facts need torch 2.x imported; without it the verdict is already known.
    bool torch_ok = !hello.torch.is_null() &&
                    analysis::at_least(analysis::parse_version(hello.torch.value("version", "")), 2, 0);
    if (torch_ok) {
      ctx.progress("probing torch");
      in.facts = agent->call("probe", json::object(), ctx.timeout(), ctx.progress_fn());
      section["facts"] = in.facts;
      ctx.checkpoint();
      if (smoke_) run_smoke(ctx, *agent, in);
    }
    agent->close();

    auto verdict = analysis::decide_probe(in);
    section["smoke"] = in.smoke;
    section.update(analysis::to_json(verdict));
    return verdict.verdict == "not_usable" ? 1 : 0;
  }

 private:
  void run_smoke(RunContext& ctx, agent::Agent& agent, analysis::ProbeInput& in) {
    std::vector<std::string> devices = {"cpu"};
    const json& dev = in.facts.value("devices", json::object());
    if (dev.value("cuda_available", false)) devices.push_back("cuda");
    if (dev.value("mps_available", false)) devices.push_back("mps");
    for (const auto& device : devices) {
      ctx.progress(fmt::format("smoke compile on {}", device));
      json r = agent.call("probe.smoke", {{"device", device}, {"backend", backend_}}, ctx.timeout(),
                          ctx.progress_fn());
      if (r.value("ok", false)) {
        // sin/cos/relu/sum of 128 values: any correct backend is within float32 rounding of
        // eager, scaled by the output's magnitude (torch.testing's float32 rtol is 1.3e-6;
        // 1e-4 leaves room for reordered sums and vectorised transcendental functions).
        double diff = r.value("max_abs_diff", json()).is_number() ? r["max_abs_diff"].get<double>() : NAN;
        double scale = r.value("max_abs_expected", json()).is_number() ? r["max_abs_expected"].get<double>() : NAN;
        r["match"] = r.value("shape_equal", false) && std::isfinite(diff) && diff <= 1e-4 * std::max(1.0, scale);
      } else {
        r["match"] = false;
      }
      in.smoke.push_back(r);
      ctx.doc["probe"]["smoke"] = in.smoke;
      ctx.checkpoint();
    }
  }

  bool smoke_ = false;
  std::string backend_ = "inductor";
};

}  // namespace

std::unique_ptr<Command> make_probe_command() { return std::make_unique<ProbeCommand>(); }

}  // namespace tct::cli
