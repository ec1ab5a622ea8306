"""Raw facts about how two output pytrees differ, leaf by leaf. Never a verdict: the C++
side (src/analysis/correctness.cpp) applies tolerances by dtype and decides.

`difference_facts(expected, actual)` returns one dict per leaf (paths as in
tct_agent.target.tensor_leaves: `out[0].logits`, `out['a'][1]`):

kind "tensor" (torch tensors and numpy arrays):
    path, kind, shape_expected, shape_actual, dtype_expected, dtype_actual,
    device_expected, device_actual, numel (of expected), equal (same shape, dtype and
    values, NaN equal to NaN), max_abs_diff, max_rel_diff, mean_abs_diff,
    max_abs_expected, worst_index, expected_at_worst, actual_at_worst,
    nan_expected, nan_actual, nan_mismatch, inf_mismatch
kind "scalar" (Python/numpy numbers): the same numeric fields (numel 1, shapes [],
    dtype "bool"/"int"/"float"/"complex" or the numpy dtype name), plus
    value_expected / value_actual (null when not finite).
kind "other" (None, strings, dtypes, torch.Size, anything else):
    path, kind, type_expected, type_actual, equal, repr_expected, repr_actual.
kind "structure": the containers differ (type, length, keys, tensor vs non-tensor):
    path, kind, description, type_expected, type_actual.

How the numbers are computed: both sides go to the CPU and to float64 (complex128 for
complex; bool -> 0/1), diff = |actual - expected| (complex: modulus). Only positions
where both values are finite count in the diffs; NaN and inf positions are counted
instead: nan_expected / nan_actual (how many), nan_mismatch (positions where exactly
one side is NaN), inf_mismatch (positions where either side is +-inf and the two are not
the same value). max_rel_diff = max |diff| / |expected| over positions with expected !=
0 (positions where expected is 0 are covered by max_abs_diff, as atol covers them in
allclose). All numbers are finite or null, so the facts are valid JSON. When the shapes
differ no diff is computed (diff fields are null). Empty tensors give diffs of 0.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

from .target import children, dtype_name


def _is_array(x: Any) -> bool:
    import torch
    if isinstance(x, torch.Tensor):
        return True
    try:
        import numpy as np
        return isinstance(x, np.ndarray)
    except ImportError:
        return False


def _to_cpu_tensor(x: Any):
    """A dense CPU torch tensor for a torch tensor or numpy array."""
    import torch
    if not isinstance(x, torch.Tensor):
        return torch.from_numpy(x)
    t = x.detach()
    if t.is_sparse or t.layout != torch.strided:
        t = t.to_dense()
    if t.is_quantized:
        t = t.dequantize()
    if t.device.type != "cpu":
        t = t.to("cpu")
    if t.is_conj():
        t = t.resolve_conj()
    if t.is_neg():
        t = t.resolve_neg()
    return t


def _array_dtype(x: Any) -> str:
    import torch
    if isinstance(x, torch.Tensor):
        return dtype_name(x.dtype)
    return str(x.dtype)


def _array_device(x: Any) -> str:
    import torch
    return str(x.device) if isinstance(x, torch.Tensor) else "numpy"


def _finite(v: float) -> float | None:
    return float(v) if math.isfinite(v) else None


def _numeric_facts(e, a) -> dict:
    """Diff facts for two CPU tensors of the same shape."""
    import torch
    if e.dtype == torch.bool:
        e = e.to(torch.float64)
    if a.dtype == torch.bool:
        a = a.to(torch.float64)
    is_complex = e.is_complex() or a.is_complex()
    work = torch.complex128 if is_complex else torch.float64
    e = e.to(work)
    a = a.to(work)
    out: dict[str, Any] = {}
    nan_e, nan_a = torch.isnan(e), torch.isnan(a)
    inf_e, inf_a = torch.isinf(e), torch.isinf(a)
    out["nan_expected"] = int(nan_e.sum())
    out["nan_actual"] = int(nan_a.sum())
    out["nan_mismatch"] = int((nan_e ^ nan_a).sum())
    # +inf vs -inf, or inf vs a finite value (a NaN on the other side is a nan_mismatch).
    out["inf_mismatch"] = int(((inf_e | inf_a) & ~(nan_e | nan_a) & (e != a)).sum())
    both = ~(nan_e | nan_a | inf_e | inf_a)
    diff = (a - e).abs()
    mag = e.abs()
    if is_complex:
        diff, mag = diff.real, mag.real  # abs of complex is real-valued already
    diff = torch.where(both, diff, torch.zeros((), dtype=diff.dtype))
    mag_finite = torch.where(~nan_e & ~inf_e, mag, torch.zeros((), dtype=mag.dtype))
    if e.numel() == 0:
        out.update(max_abs_diff=0.0, max_rel_diff=0.0, mean_abs_diff=0.0, max_abs_expected=0.0,
                   worst_index=None, expected_at_worst=None, actual_at_worst=None)
        return out
    flat = diff.reshape(-1)
    worst = int(torch.argmax(flat))
    out["max_abs_diff"] = _finite(float(flat[worst]))
    n_both = int(both.sum())
    out["mean_abs_diff"] = _finite(float(flat.sum()) / n_both) if n_both else 0.0
    nonzero = both & (mag > 0)
    if bool(nonzero.any()):
        out["max_rel_diff"] = _finite(float((diff[nonzero] / mag[nonzero]).max()))
    else:
        out["max_rel_diff"] = 0.0
    out["max_abs_expected"] = _finite(float(mag_finite.max()))
    idx = list(torch.unravel_index(torch.tensor(worst), tuple(e.shape))) if e.dim() else []
    out["worst_index"] = [int(i) for i in idx]
    ev, av = e.reshape(-1)[worst], a.reshape(-1)[worst]
    if is_complex:
        out["expected_at_worst"] = [_finite(float(ev.real)), _finite(float(ev.imag))]
        out["actual_at_worst"] = [_finite(float(av.real)), _finite(float(av.imag))]
    else:
        out["expected_at_worst"] = _finite(float(ev))
        out["actual_at_worst"] = _finite(float(av))
    return out


def _tensor_fact(path: str, expected, actual) -> dict:
    import torch
    e, a = _to_cpu_tensor(expected), _to_cpu_tensor(actual)
    fact: dict[str, Any] = {
        "path": path, "kind": "tensor",
        "shape_expected": list(e.shape), "shape_actual": list(a.shape),
        "dtype_expected": _array_dtype(expected), "dtype_actual": _array_dtype(actual),
        "device_expected": _array_device(expected), "device_actual": _array_device(actual),
        "numel": int(e.numel()),
    }
    null_diffs = dict(max_abs_diff=None, max_rel_diff=None, mean_abs_diff=None,
                      max_abs_expected=None, worst_index=None, expected_at_worst=None,
                      actual_at_worst=None, nan_expected=None, nan_actual=None,
                      nan_mismatch=None, inf_mismatch=None)
    if tuple(e.shape) != tuple(a.shape):
        fact["equal"] = False
        fact.update(null_diffs)
        return fact
    try:
        fact.update(_numeric_facts(e, a))
        # In IEEE arithmetic x - y == 0 exactly iff x == y, and widening to float64 is
        # exact for every float dtype, so a zero max diff means equal floats (NaN == NaN
        # by position). int64 beyond 2**53 is not exact in float64: compare integers as is.
        same_values = fact["max_abs_diff"] == 0.0 and fact["nan_mismatch"] == 0 \
            and fact["inf_mismatch"] == 0
        if not (e.is_floating_point() or e.is_complex() or e.dtype == torch.bool
                or a.is_floating_point() or a.is_complex()):
            same_values = bool(torch.equal(e.to(torch.promote_types(e.dtype, a.dtype)),
                                           a.to(torch.promote_types(e.dtype, a.dtype))))
        fact["equal"] = bool(same_values and fact["dtype_expected"] == fact["dtype_actual"])
    except Exception as exc:  # noqa: BLE001 - an exotic dtype must not fail the whole op
        fact.update(null_diffs)
        fact["equal"] = False
        fact["error"] = f"{type(exc).__name__}: {exc}"
    return fact


def _scalar_type(x: Any) -> str:
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, numbers.Integral) and type(x).__module__ == "builtins":
        return "int"
    if type(x).__module__ == "builtins":
        return type(x).__name__
    return str(getattr(x, "dtype", type(x).__name__))  # numpy scalars: "float32", ...


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Number)


def _scalar_fact(path: str, expected, actual) -> dict:
    import torch
    fact: dict[str, Any] = {
        "path": path, "kind": "scalar", "shape_expected": [], "shape_actual": [],
        "dtype_expected": _scalar_type(expected), "dtype_actual": _scalar_type(actual),
        "numel": 1,
    }
    cplx = isinstance(expected, complex) or isinstance(actual, complex) or \
        any(getattr(getattr(v, "dtype", None), "kind", "") == "c" for v in (expected, actual))
    work = torch.complex128 if cplx else torch.float64
    e = torch.tensor(complex(expected) if cplx else float(expected), dtype=work)
    a = torch.tensor(complex(actual) if cplx else float(actual), dtype=work)
    facts = _numeric_facts(e, a)
    facts.pop("worst_index", None)
    facts.pop("expected_at_worst", None)
    facts.pop("actual_at_worst", None)
    fact.update(facts)
    if cplx:
        fact["value_expected"] = [_finite(complex(expected).real), _finite(complex(expected).imag)]
        fact["value_actual"] = [_finite(complex(actual).real), _finite(complex(actual).imag)]
    else:
        fact["value_expected"] = _finite(float(expected))
        fact["value_actual"] = _finite(float(actual))
    both_nan = fact["nan_expected"] == 1 and fact["nan_actual"] == 1
    fact["equal"] = bool((expected == actual or both_nan)
                         and fact["dtype_expected"] == fact["dtype_actual"])
    return fact


def _short(v: Any, limit: int = 80) -> str:
    try:
        r = repr(v)
    except Exception as exc:  # noqa: BLE001
        r = f"<unrepresentable {type(v).__name__}: {exc}>"
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _other_fact(path: str, expected, actual) -> dict:
    try:
        r = expected == actual
        # Only trust == when it answers a plain bool (numpy/torch objects may answer
        # arrays); otherwise fall back to comparing reprs.
        eq = bool(r) if type(r).__name__ in ("bool", "bool_") else \
            _short(expected, 10_000) == _short(actual, 10_000)
    except Exception:  # noqa: BLE001 - objects whose == raises
        eq = _short(expected, 10_000) == _short(actual, 10_000)
    return {"path": path, "kind": "other", "type_expected": type(expected).__name__,
            "type_actual": type(actual).__name__,
            "equal": bool(eq and type(expected) is type(actual)),
            "repr_expected": _short(expected), "repr_actual": _short(actual)}


def _structure(path: str, description: str, expected, actual) -> dict:
    return {"path": path, "kind": "structure", "description": description,
            "type_expected": type(expected).__name__, "type_actual": type(actual).__name__}


def _is_mapping_like(x: Any) -> bool:
    return not isinstance(x, (list, tuple)) and not hasattr(type(x), "__dataclass_fields__")


def _walk(path: str, e: Any, a: Any, out: list) -> None:
    e_arr, a_arr = _is_array(e), _is_array(a)
    if e_arr or a_arr:
        if e_arr and a_arr:
            out.append(_tensor_fact(path, e, a))
        else:
            which = "expected" if e_arr else "actual"
            out.append(_structure(path, f"only the {which} output is a tensor "
                                        f"({type(e).__name__} vs {type(a).__name__})", e, a))
        return
    if _is_number(e) and _is_number(a):
        out.append(_scalar_fact(path, e, a))
        return
    ke, ka = children(e), children(a)
    if ke is None and ka is None:
        out.append(_other_fact(path, e, a))
        return
    if ke is None or ka is None or type(e) is not type(a):
        out.append(_structure(path, f"expected a {type(e).__name__}, got a {type(a).__name__}",
                              e, a))
        return
    ne, na = dict(ke), dict(ka)
    # Mappings may hold the same keys in another order: that is not a difference.
    if (set(ne) != set(na)) if _is_mapping_like(e) else ([k for k, _ in ke] != [k for k, _ in ka]):
        missing = [k for k, _ in ke if k not in na]
        extra = [k for k, _ in ka if k not in ne]
        if isinstance(e, (list, tuple)) and not hasattr(e, "_fields"):
            out.append(_structure(path, f"expected {len(ke)} items, got {len(ka)}", e, a))
        else:
            parts = []
            if missing:
                parts.append("missing " + ", ".join(k.strip("[]'.") for k in missing))
            if extra:
                parts.append("extra " + ", ".join(k.strip("[]'.") for k in extra))
            out.append(_structure(path, "; ".join(parts) or "same keys in a different order",
                                  e, a))
    for key, child in ke:
        if key in na:
            _walk(path + key, child, na[key], out)


def difference_facts(expected: Any, actual: Any, root: str = "out") -> list[dict]:
    """One fact per leaf of two output pytrees (see the module docstring)."""
    out: list[dict] = []
    _walk(root, expected, actual, out)
    return out
