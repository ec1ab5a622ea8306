#pragma once
// tct job's AOTInductor mode, step by step: the plan from the run that filled the caches (per
// call site, a torch.export.Dim per dimension the job varied, over the min and max sizes it used),
// written as the JSON the bootstrap reads (python/tct_run_bootstrap/tct_run_aoti.py); what the build
// run did, read back from its fact files; whether its outputs matched and why the mode cannot run.
#include <string>
#include <vector>

#include "job/aoti_result.hpp"
#include "run/records.hpp"

namespace tct::job {

// Per site of the records (the processes' sites joined by key), its Dims: a dimension of an input
// varies when the job called it with two sizes or more; those equal in every call share a Dim.
// Package and fact paths are left to plan_json.
std::vector<AotiSite> aoti_plan(const run::RecordSet& filling);

// The plan as the bootstrap reads it; each site's package and fact file go in `dir`.
std::string plan_json(const std::vector<AotiSite>& sites, const std::string& dir);

// Each site's facts from the build run's files in `dir` (a missing file: never called).
void read_build(std::vector<AotiSite>& sites, const std::string& dir);

// An aoti run's package loads, from the bootstrap's aoti-PID.json files in its record folder:
// their time summed (not measured: none), and the sites that had no package (they ran
// torch.compile: a site the filling run never called).
struct PackageLoads {
  Nanoseconds total = kNotMeasured;
  std::vector<std::string> missing;  // "name (file:line)"
};
PackageLoads package_loads(const std::string& record_dir);

// The package's outputs against eager's: within 1e-4 of the largest eager value (at least 1),
// the rule tct startup's check uses (src/startup/run.cpp).
bool check_matches(const AotiCheck& c);

// Decides each site's outputs_match and extremes_checked, and the build's `cannot`.
void decide_build(AotiBuild& b);

}  // namespace tct::job
