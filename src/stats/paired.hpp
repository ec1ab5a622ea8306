// The speedup interval of `bench`: paired per-block log ratios, sampled in several fresh
// processes, combined hierarchically (processes, then blocks).
//
// Data: for each process p, in the order measured, one value per block pair
//   r = log(mean of the eager block) - log(mean of the compiled block)
// (the two blocks of a pair ran back to back, in random order, in the same process, so a
// slow drift of the machine hits both; the ratio cancels it).
//
// Data are grouped twice: by process, and within a process into segments (the blocks one
// process ran between two looks: a stretch of seconds of wall time; processes take turns).
//
// Model: r = mu + b_p + c_s + e, with b_p a process effect (code layout, thread placement,
// what the allocator and caches hold), c_s the state of the machine while segment s ran
// (clock speed, what the neighbours on a shared host do) and e block noise, correlated
// between neighbouring blocks. A re-run gets other processes and another stretch of the
// machine's life: the interval must hold its estimate, not just this run's mu.
//
// What re-runs showed (bench/rerun_coverage.py, 2-core shared machine, 8 runs x 2 targets):
// the block bootstrap alone gave an sd of the estimate of 0.7%-1.4%, while the estimates of
// re-runs had an sd of 3.8% (overhead bound) and 1.3% (compute bound); the spread of the
// segment means inside one run (3.8% and 1.7%) predicted them. Machine states last longer
// than a run, so the segments of one run share part of their state: a re-run's
// difference is of the order of one segment's, not of a mean of S independent ones.
//
// Estimate: mu_hat = mean over processes of each process's mean (each process weighs the
// same, however many blocks it ran).
//
// Interval (a hierarchical bootstrap whose upper level is parametric):
//  * within a process, a circular block bootstrap (Politis & Romano 1992) with blocks of
//    length round(n^(1/3)) (Hall, Horowitz & Jing 1995: the order that is optimal for a
//    variance), so neighbouring blocks that move together are resampled together;
//  * above it, tau * sqrt(kEraShare + 1/S) * T, with T a Student t on
//    nu = kPriorDf + S - 1 degrees of freedom and tau^2 the segment-to-segment variance
//    (the variance of the S segment means minus their block noise), pooled with a prior
//    kPriorSegmentSd^2 worth kPriorDf segments (the scaled-inverse-chi-square prior of a
//    normal random-effects model). 1/S is this run's own segments; kEraShare is the part
//    of the machine's state the whole run shares, which a re-run draws afresh. Process
//    effects are inside tau: segments of different processes differ by them too.
//  The interval is the percentile interval of exp(replicates).
//
// Determinism: std::mt19937_64 (its sequence is fixed by the standard) with our own
// bounded-integer and normal draws (Box-Muller), so a seed gives the same interval everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stats/bootstrap.hpp"

namespace tct::stats {

// Prior on how much one segment's speedup differs from another's (log units, ~ relative):
// 2%, worth 4 segments: between the 1.7% and 3.8% seen on a shared 2-core machine (see
// above), so that a run that stops at its first look (2 segments) is not taken at its word.
inline constexpr double kPriorSegmentSd = 0.02;
inline constexpr int kPriorDf = 4;
// The share of the segment-to-segment variance that a whole run has in common and a re-run
// draws afresh: (sd of re-run estimates / sd of segments)^2 - 1/S was 0.87 and 0.38 on the
// two targets above; 1 keeps the larger with room.
inline constexpr double kEraShare = 1.0;

struct PairedInterval {
  Interval speedup{};     // exp(mu_hat) and its bounds; NaN bounds when undefined
  double between_sd = 0;  // tau, the pooled segment-to-segment sd (log units)
  double within_sd = 0;   // sd of the estimate from block noise alone (log units)
  int processes = 0;      // processes with at least one finite value
  int segments = 0;       // segments with at least one finite value
  int blocks = 0;         // finite block ratios used
};

// One process's block log ratios, in measurement order, cut into segments (the blocks
// between two looks).
using ProcessSegments = std::vector<std::vector<double>>;

// Block length of the circular block bootstrap for n values: max(1, round(n^(1/3))).
std::size_t block_length(std::size_t n);

// Bootstrap variance of the mean of `xs` under the circular block bootstrap with blocks of
// block_length(xs.size()). 0 for fewer than 2 values.
double block_bootstrap_variance_of_mean(const std::vector<double>& xs, std::size_t resamples, std::uint64_t seed);

// The hierarchical interval of exp(mu) from each process's segments of block log ratios
// (see above). Non-finite ratios are ignored; empty segments and processes are dropped.
// Bounds are NaN when no process has 2 finite values, confidence is outside (0, 1) or
// resamples is 0.
PairedInterval paired_speedup(const std::vector<ProcessSegments>& segments_per_process, double confidence,
                              std::size_t resamples = 2000, std::uint64_t seed = kDefaultBootstrapSeed);

}  // namespace tct::stats
