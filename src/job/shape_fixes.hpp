#pragma once
// tct job --shape-fixes: the shape fixes as modes of the job (compiled, empty caches, the fix
// applied by the bootstrap), planned from the shapes one earlier compiled run of the job used
// (the run that fills the caches: its shape counts and its torch's API), measured in the rounds
// like any mode, and judged against the default (cold at the same thread count) by the
// project's one rule. The code to write comes from what the job's torch offers and from the
// dims that varied, and is given only for a fix that ran.
#include <string>
#include <utility>
#include <vector>

#include "job/result.hpp"
#include "run/records.hpp"
#include "run/result.hpp"

namespace tct::job {

// The modes --shape-fixes adds: at each thread count, the default (cold) where it is not asked
// already, then each fix.
void add_shape_fix_modes(std::vector<ModeSpec>& modes, const std::vector<ShapeFix>& fixes,
                         const std::vector<std::optional<int>>& threads);

// The API the job's torch offers, as the bootstrap found it (shape-fix-*.json in a run's
// record folder); none when no process wrote one.
std::optional<ShapeApi> read_shape_api(const std::string& record_dir);

// From the run that read the shapes: the sites, the dims that varied, the API. A fix mode that
// cannot apply (no dim varied, no such API in this torch, the run failed) gets its error.
void plan_shape_fixes(JobResult& r, const run::RecordSet& records, const run::RunResult& analysed,
                      const std::string& record_dir, bool run_ok);

// The environment of a run: the fix and the dims it marks (empty for a mode without a fix).
std::vector<std::pair<std::string, std::string>> shape_fix_env(const JobResult& r, const ModeSpec& spec);

// After a fix's run: the sites the bootstrap applied it to, and what it could not apply.
void note_shape_fix_run(JobResult& r, const ModeSpec& spec, const std::string& record_dir);

// Each fix's figures, its speedup over the default and its verdict, its code; from the modes'
// decided figures (decide.cpp calls it last). Idempotent.
void decide_shape_fixes(JobResult& r);

// The code a fix asks for at each site, for the API found (pure).
std::vector<FixCode> shape_fix_code(ShapeFix fix, const ShapeFixes& s);
// What the fix gives up, in words (pure).
std::string shape_fix_gives_up(ShapeFix fix, const ShapeFixes& s);

}  // namespace tct::job
