#!/usr/bin/env python3
"""Fit the constants of `tct expect`'s prediction on the calibration rows of measure.py's
output, then report how the interval does on both sets, and write the constants to
src/expect/calibration.hpp (with the date, torch version and machine).

    python bench/calibration/fit.py [--measured bench/calibration/measured.json]
                                    [--header src/expect/calibration.hpp]
                                    [--record bench/calibration/fit.json] [--dry-run]

The model (src/expect/classifier.hpp): compiled time / eager time = the sum over
the prediction's terms of share * weight, predicted speedup = 1 / that. tct computes each
term's share from the evidence and prints them (`predicted_speedup.terms`); measure.py
records them, so the formulas that make the shares live in C++ alone and this script fits
only their weights (CONSTS, one per term): the time shares' keeps, the elementwise work's
weight, and the weights of the compiled call's cost per call, per library op, per graph
input beyond the first and for a call that runs an nn.Module.
The weights are fitted by least squares on log speedup (iteratively reweighted), pulled
towards physically plausible priors (a ridge term; its weight is the one with the smallest
leave-one-out error on the calibration set).
The interval is point * exp(bias +- z * sigma), sigma = sqrt(base^2 + (generated * g)^2 +
(no_library * n)^2), where g is the share of the predicted compiled time spent in generated
kernels (the memory traffic, kept arithmetic and other op work inductor fuses: the part
whose speed the evidence predicts worst) and n is 1 for a function without
matmul/conv/attention ops (all of its compiled time is what inductor generates and the
guards around it), else 0. bias, base, generated and no_library are fitted by maximum
likelihood to the calibration set's leave-one-out log residuals (each case predicted by
constants fitted without it, so the width reflects error on unseen work); z = 1.2816 makes
it a nominal 80% interval. Validation rows never enter the fit; their coverage is the honest
figure. Exits 0; the figures are for the reader.
fit.json records the constants and each row's prediction; tct's unit tests check that the
C++ formula gives the same predictions on those rows, so the two cannot drift apart.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

# The prediction's terms (as tct names them in predicted_speedup.terms) and each one's weight.
TERMS = ["outside_ops", "outside_library_ops", "fixed_cost", "memory_traffic", "other_compute", "library", "conv",
         "compiled_call", "library_calls", "graph_inputs", "kept_arithmetic", "elementwise_work", "module_calls"]
CONSTS = ["kKeepOutside", "kKeepOutsideLibrary", "kKeepFixed", "kKeepMemory", "kKeepOther", "kKeepLibrary",
          "kKeepConv", "kCompiledCallScale", "kLibraryCallScale", "kInputCallScale", "kKeepArithmetic",
          "kElementwiseWork", "kModuleCallScale"]
# Priors: what each share is expected to keep before looking at data (see the header's model),
# and how far the data may pull each constant cheaply.
# kElementwiseWork: a fused elementwise kernel does an element-op in a few matmul FLOP times.
# kModuleCallScale: a compiled graph that calls a Linear costs ~0.5 compiled calls more than
# one doing the same matmul on a plain tensor (mechanisms_check.py).
PRIOR = np.array([0.1, 0.2, 0.2, 0.5, 0.8, 1.0, 0.7, 1.0, 0.2, 0.05, 0.9, 2.0, 0.5])
SCALE = np.array([0.3, 0.3, 0.3, 0.5, 0.5, 0.1, 0.4, 0.3, 0.3, 0.1, 0.3, 2.0, 0.5])
LOWER = np.array([0.0, 0.0, 0.0, 0.0, 0.1, 0.8, 0.1, 0.3, 0.0, 0.0, 0.2, 0.0, 0.0])
UPPER = np.array([1.5, 1.5, 1.5, 1.5, 1.5, 1.3, 1.5, 3.0, 3.0, 1.0, 1.5, 10.0, 3.0])
# The terms whose compiled time is generated kernels (memory traffic, other op work, kept
# arithmetic, elementwise work).
GENERATED = [TERMS.index(t) for t in ("memory_traffic", "other_compute", "kept_arithmetic", "elementwise_work")]
LIBRARY_CALLS = TERMS.index("library_calls")
# Ridge weights tried; the one with the smallest leave-one-out error on the calibration set wins.
RIDGES = (0.1, 0.3, 1.0, 3.0, 10.0)
# A nominal 80% interval: the 10% and 90% points of a normal distribution.
Z = 1.2816


def library_ops_of(row) -> float:
    """matmul/conv/attention ops per call (counted by expect.flops; 0 when not counted)."""
    return float((row.get("profile") or {}).get("library_ops_per_call") or 0)


def features(row) -> np.ndarray | None:
    """The shares of the prediction's terms as tct computed them (a term tct left out: 0)."""
    terms = row.get("terms")
    if not terms or not terms.get("compiled_call"):
        return None
    return np.array([float(terms.get(t) or 0.0) for t in TERMS])


def usable(rows):
    out = []
    for r in rows:
        x = features(r)
        m = (r.get("measured") or {}).get("estimate")
        if x is not None and m and m > 0:
            out.append((r, x, float(m)))
    return out


def fit(X: np.ndarray, s: np.ndarray, ridge: float) -> np.ndarray:
    """argmin sum (log(s * X k))^2 + ridge * sum ((k - PRIOR) / SCALE)^2 within bounds,
    by iteratively reweighted linear least squares (log(s f) ~ (s f - 1) / (s f))."""
    k = PRIOR.copy()
    for _ in range(50):
        f = np.maximum(X @ k, 1e-6)
        w = 1.0 / (s * f)
        A = np.vstack([(s * w)[:, None] * X, math.sqrt(ridge) * np.diag(1.0 / SCALE)])
        b = np.concatenate([w, math.sqrt(ridge) * PRIOR / SCALE])
        k_new = np.clip(np.linalg.lstsq(A, b, rcond=None)[0], LOWER, UPPER)
        if np.allclose(k_new, k, rtol=1e-6, atol=1e-9):
            break
        k = k_new
    return k


def as_written(k: np.ndarray) -> np.ndarray:
    """The constants as the header writes them (4 significant digits): what tct computes with."""
    return np.array([float(f"{v:.4g}") for v in k])


def predict(k: np.ndarray, x: np.ndarray) -> float:
    return 1.0 / max(float(x @ k), 1e-6)


def no_library(x: np.ndarray) -> float:
    """1 for a function without library ops (its library-calls share is 0), else 0."""
    return float(x[LIBRARY_CALLS] == 0)


def generated_share(k: np.ndarray, x: np.ndarray) -> float:
    """The share of the predicted compiled time spent in generated kernels."""
    return float(x[GENERATED] @ k[GENERATED]) / max(float(x @ k), 1e-6)


def fit_spread(residuals, shares, no_libs):
    """Maximum likelihood (bias, base, generated, no_library) of
    residual ~ N(bias, base^2 + (generated * g)^2 + (no_library * n)^2), by a grid search
    (rounded as the header writes them)."""
    r, g, n = np.asarray(residuals), np.asarray(shares), np.asarray(no_libs)
    best, best_nll = None, math.inf
    for base in np.linspace(0.02, 0.6, 59):
        for gen in np.linspace(0.0, 2.0, 51):
            for nl in np.linspace(0.0, 1.0, 51):
                var = base ** 2 + (gen * g) ** 2 + (nl * n) ** 2
                bias = float(np.sum(r / var) / np.sum(1 / var))  # the weighted mean, exact for the others
                nll = float(np.sum(0.5 * np.log(var) + 0.5 * (r - bias) ** 2 / var))
                if nll < best_nll:
                    best, best_nll = (round(bias, 4), round(float(base), 4), round(float(gen), 4),
                                      round(float(nl), 4)), nll
    return best


def interval(k, x, spread):
    p, g = predict(k, x), generated_share(k, x)
    bias, base, gen, nl = spread
    sigma = math.sqrt(base ** 2 + (gen * g) ** 2 + (nl * no_library(x)) ** 2)
    return p, p * math.exp(bias - Z * sigma), p * math.exp(bias + Z * sigma)


def evaluate(rows, k, spread):
    table, inside = [], 0
    for r, x, m in rows:
        p, lo, hi = interval(k, x, spread)
        ok = lo <= m <= hi
        inside += ok
        table.append((r["name"], r.get("class"), p, lo, hi, m, ok))
    return table, inside


def header_text(k, spread, n_cal, n_val, val_inside, val_width, machine, measured_at, source) -> str:
    consts = "\n".join(f"inline constexpr double {name} = {value:.4g};" for name, value in zip(CONSTS, k))
    return f"""#pragma once
// GENERATED by bench/calibration/fit.py from {source}: do not edit by hand.
// Fitted on {measured_at}, torch {machine.get('torch')}, {machine.get('processor')} ({machine.get('cores')} cores,
// OMP_NUM_THREADS={machine.get('omp_num_threads') or 'unset'}), {machine.get('platform')}. Refit (see bench/calibration/README.md):
//   python bench/calibration/measure.py && python bench/calibration/fit.py
// The model these constants belong to: src/expect/classifier.hpp.
namespace tct::expect::calibration {{

inline constexpr const char* kFittedOn = "{measured_at}, torch {machine.get('torch')}, {n_cal} calibration cases";
// Fractions of each time share torch.compile keeps (the share outside operators split into the
// library ops' part and the rest); the measured compiled call's weight, per call, per library op,
// per tensor read from outside beyond the first and for a call that runs an nn.Module; the weight
// of the elementwise work share (element-ops at the matmul FLOP rate).
{consts}
// The interval: point * exp(bias +- z * sqrt(base^2 + (generated * g)^2 + (no_library * n)^2)), g
// the share of the compiled time in generated kernels, n 1 without library ops; fitted to the
// calibration set's leave-one-out log residuals.
inline constexpr double kLogBias = {spread[0]:.4f};
inline constexpr double kLogSigmaBase = {spread[1]:.4f};
inline constexpr double kLogSigmaGenerated = {spread[2]:.4f};
inline constexpr double kLogSigmaNoLibrary = {spread[3]:.4f};
inline constexpr double kIntervalZ = {Z};  // a nominal 80% interval
// How the interval did on the validation set (never used in the fit).
inline constexpr int kCalibrationCases = {n_cal};
inline constexpr int kValidationCases = {n_val};
inline constexpr int kValidationInside = {val_inside};
inline constexpr double kValidationMedianWidth = {val_width:.4f};  // median high / low

}}  // namespace tct::expect::calibration
"""


def fit_record(k, spread, ridge, loo, cal, val, doc, measured_at) -> dict:
    """What the fit decided and what each row's prediction was: a unit test evaluates tct's
    own formula on these rows and expects the same points (tests/unit/test_expect_fit.cpp)."""
    def rows(set_rows):
        out = []
        for r, x, m in set_rows:
            p, lo, hi = interval(k, x, spread)
            counts = r.get("counts") or {}
            out.append({"name": r["name"], "class": r.get("class"), "time_shares": r["time_shares"],
                        "wall_per_call_ns": r["wall_per_call_ns"], "compiled_call_ns": r["compiled_call_ns"],
                        "library_ops": library_ops_of(r), "ops_per_call": r.get("ops_per_call"),
                        "outside_tensors": counts.get("outside_tensors"), "module_calls": counts.get("module_calls"),
                        "terms": dict(zip(TERMS, (float(v) for v in x))),
                        "generated_share": generated_share(k, x),
                        "point": p, "low": lo, "high": hi, "measured": m, "inside": lo <= m <= hi})
        return out
    return {"fitted_on": measured_at, "machine": doc.get("machine", {}), "ridge": ridge,
            "constants": dict(zip(CONSTS, (float(v) for v in k))),
            "log_bias": spread[0], "log_sigma_base": spread[1], "log_sigma_generated": spread[2],
            "log_sigma_no_library": spread[3], "z": Z,
            "leave_one_out_log_residuals": [round(r, 4) for r, _, _ in loo],
            "leave_one_out_generated_shares": [round(g, 4) for _, g, _ in loo],
            "calibration": rows(cal), "validation": rows(val)}


def print_table(title, table, inside):
    print(f"\n{title}: {inside} of {len(table)} measured speedups inside the predicted interval")
    print(f"  {'case':28} {'class':15} {'point':>7} {'interval':>15} {'measured':>9}")
    for name, cls, p, lo, hi, m, ok in table:
        print(f"  {name:28} {str(cls):15} {p:6.2f}x {lo:6.2f}x-{hi:5.2f}x {m:8.2f}x {'inside' if ok else 'OUTSIDE'}")
    widths = [hi / lo for _, _, _, lo, hi, _, _ in table]
    if widths:
        print(f"  median high/low: {statistics.median(widths):.2f}")


def as_predicted(rows) -> str:
    """How tct's own predictions fared, printed when it measured each row (with the constants
    it had then: out of sample for a measurement made after the fit)."""
    pairs = [(r["predicted"], r["measured"]["estimate"]) for r in rows
             if r.get("predicted") and (r.get("measured") or {}).get("estimate")]
    if not pairs:
        return "no rows"
    inside = sum(p["low"] <= m <= p["high"] for p, m in pairs)
    width = statistics.median(p["high"] / p["low"] for p, _ in pairs)
    return f"{inside} of {len(pairs)} inside, median high/low {width:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--measured", default=str(ROOT / "bench" / "calibration" / "measured.json"))
    ap.add_argument("--header", default=str(ROOT / "src" / "analysis" / "expect_calibration.hpp"))
    ap.add_argument("--record", default=str(ROOT / "bench" / "calibration" / "fit.json"))
    ap.add_argument("--dry-run", action="store_true", help="print the figures, write nothing")
    args = ap.parse_args()

    doc = json.loads(Path(args.measured).read_text())
    old = [r["name"] for r in doc["rows"] if r.get("time_shares") and
           (set((r.get("terms") or {})) - set(TERMS) or "module_calls" not in (r.get("counts") or {}))]
    if old:
        print(f"fit.py: error: {len(old)} rows (first: {old[0]}) were measured by a tct whose prediction had "
              "other terms. Run measure.py --resume --evidence-only first", file=sys.stderr)
        return 2
    cal = usable([r for r in doc["rows"] if r["set"] == "calibration"])
    val = usable([r for r in doc["rows"] if r["set"] == "validation"])
    if len(cal) < 3:
        print("fit.py: error: fewer than 3 usable calibration rows. Run measure.py first", file=sys.stderr)
        return 2
    X = np.array([x for _, x, _ in cal])
    s = np.array([m for _, _, m in cal])
    def loo_residuals(ridge):
        """Each calibration case against constants fitted without it: (log residual, generated share, no library)."""
        out = []
        for i in range(len(cal)):
            keep = [j for j in range(len(cal)) if j != i]
            k_i = fit(X[keep], s[keep], ridge)
            out.append((math.log(s[i]) - math.log(predict(k_i, X[i])), generated_share(k_i, X[i]), no_library(X[i])))
        return out

    def rms(loo):
        return math.sqrt(np.mean(np.square([r for r, _, _ in loo])))

    by_ridge = {r: loo_residuals(r) for r in RIDGES}
    ridge = min(RIDGES, key=lambda r: rms(by_ridge[r]))
    k, loo = as_written(fit(X, s, ridge)), by_ridge[ridge]
    spread = fit_spread(*zip(*loo))
    print("ridge (leave-one-out RMS log error): " +
          ", ".join(f"{r:g} ({rms(by_ridge[r]):.3f})" for r in RIDGES) + f"; chose {ridge:g}")

    print("fitted constants (calibration set only):")
    for name, value, prior in zip(CONSTS, k, PRIOR):
        print(f"  {name:22} {value:8.4g}   (prior {prior:g})")
    print(f"leave-one-out log residuals: {', '.join(f'{r:+.2f}' for r, _, _ in loo)}")
    bias, base, gen, nl = spread
    print(f"interval: point x exp({bias:+.3f} +- {Z} * sqrt({base:.3f}^2 + ({gen:.3f} g)^2 + ({nl:.3f} n)^2)), g the "
          f"generated-kernel share, n 1 without library ops (high/low {math.exp(2 * Z * base):.2f} at g = n = 0, "
          f"{math.exp(2 * Z * math.hypot(base, gen)):.2f} at g = 1, {math.exp(2 * Z * math.hypot(base, nl)):.2f} "
          f"at n = 1, g = 0)")
    cal_table, cal_inside = evaluate(cal, k, spread)
    val_table, val_inside = evaluate(val, k, spread)
    print_table("calibration (in-sample constants)", cal_table, cal_inside)
    print_table("validation", val_table, val_inside)
    loads = [r.get("uptime", "").split("load average:")[-1].strip() for r in doc["rows"]]
    print(f"\nmachine load during the measurements (1/5/15-min): {loads[0]} ... {loads[-1]}")
    print(f"on our validation set, {val_inside} of {len(val_table)} measured speedups fell inside")
    print("as tct predicted each row when it measured it (the constants it had then): calibration " +
          as_predicted([r for r in doc["rows"] if r["set"] == "calibration"]) + "; validation " +
          as_predicted([r for r in doc["rows"] if r["set"] == "validation"]))

    if not args.dry_run:
        width = statistics.median([hi / lo for _, _, _, lo, hi, _, _ in val_table]) if val_table else 0.0
        dates = sorted(r.get("measured_at", "") for r in doc["rows"])
        source = Path(args.measured).resolve().relative_to(ROOT) if Path(args.measured).resolve().is_relative_to(ROOT) \
            else Path(args.measured).name
        Path(args.header).write_text(header_text(k, spread, len(cal), len(val_table), val_inside, width,
                                                 doc.get("machine", {}), (dates[-1] or time.strftime("%Y-%m-%d"))[:10],
                                                 source))
        record = fit_record(k, spread, ridge, loo, cal, val, doc, (dates[-1] or time.strftime("%Y-%m-%d"))[:10])
        Path(args.record).write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote {args.header} and {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
