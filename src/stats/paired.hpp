// The speedup interval of `bench`: paired per-block log ratios, sampled in several fresh
// processes, combined hierarchically (processes, then blocks).
//
// Data: for each process p, in the order measured, one value per block pair
//   r = log(median of the eager block) - log(median of the compiled block)
// (the two blocks of a pair ran back to back, in random order, in the same process, so a
// slow drift of the machine hits both; the ratio cancels it).
//
// Model: r_pj = mu + b_p + e_pj, with b_p a process effect (code layout, thread placement,
// what the allocator and caches hold: the part a re-run changes) and e_pj block noise that
// may be correlated between neighbouring blocks. The speedup is exp(mu).
//
// Estimate: mu_hat = mean over processes of each process's mean (each process weighs the
// same, however many blocks it ran).
//
// Interval (a hierarchical bootstrap whose process level is parametric):
//  * within a process, a circular block bootstrap (Politis & Romano 1992) with blocks of
//    length round(n^(1/3)) (Hall, Horowitz & Jing 1995: the order that is optimal for a
//    variance), so neighbouring blocks that move together are resampled together;
//  * between processes, a resampling of 2 or 3 processes has too few distinct outcomes to
//    say anything, so the process effect is drawn instead: tau * T / sqrt(P), with T a
//    Student t on nu = kPriorDf + P - 1 degrees of freedom and tau^2 the method-of-moments
//    between-process variance (variance of the process means minus their within variance),
//    pooled with a prior variance kPriorBetweenSd^2 worth kPriorDf processes (the
//    scaled-inverse-chi-square prior of a normal random-effects model). With many processes
//    the data dominate; with two, the prior keeps the interval from claiming that two
//    processes agreeing by luck means every re-run will.
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

// Prior on how much one process's speedup differs from another's (log units, ~ relative):
// 1.5%, worth 4 processes. A judgement, not yet calibrated: fresh-process hot loops of an
// overhead-bound call on a 2-core machine differed by far more (up to ~30%), so this is
// likely too small there. bench/rerun_coverage.py measures what a machine shows.
inline constexpr double kPriorBetweenSd = 0.015;
inline constexpr int kPriorDf = 4;

struct PairedInterval {
    Interval speedup{};          // exp(mu_hat) and its bounds; NaN bounds when undefined
    double between_sd = 0;       // tau, the pooled between-process sd (log units)
    double within_sd = 0;        // sd of the estimate from block noise alone (log units)
    int processes = 0;           // processes with at least one finite value
    int blocks = 0;              // finite block ratios used
};

// Block length of the circular block bootstrap for n values: max(1, round(n^(1/3))).
std::size_t block_length(std::size_t n);

// Bootstrap variance of the mean of `xs` under the circular block bootstrap with blocks of
// block_length(xs.size()). 0 for fewer than 2 values.
double block_bootstrap_variance_of_mean(const std::vector<double>& xs, std::size_t resamples,
                                        std::uint64_t seed);

// The hierarchical interval of exp(mu) from per-process block log ratios (see above).
// Non-finite ratios are ignored; processes left empty are dropped. Bounds are NaN when no
// process has 2 finite values, confidence is outside (0, 1) or resamples is 0.
PairedInterval paired_speedup(const std::vector<std::vector<double>>& log_ratios_per_process,
                              double confidence, std::size_t resamples = 2000,
                              std::uint64_t seed = kDefaultBootstrapSeed);

}  // namespace tct::stats
