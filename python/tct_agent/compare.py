"""Raw facts about how two outputs differ, leaf by leaf. Never a verdict: the C++ side
(src/bench/correctness.cpp) chooses the tolerances, sends them, and decides.

Outputs are walked the way torch walks them: `torch.utils._pytree` enumerates the children
of every registered node (tuples, lists, dicts, namedtuples, torch.return_types, Hugging
Face ModelOutput, anything a library registered). An unregistered object whose attributes
hold tensors (Hugging Face DynamicCache, a plain dataclass, a user's result class) is
walked through its attributes (`.layers[0].keys`). Any other object whose type has no
`__eq__` of its own (identity is all `==` could say) is a "not compared" leaf.

`snapshot(tree)` turns an output into that walked form, with tensors copied to the CPU,
so that a later call cannot change what was recorded and the copy can be compared later.

`difference_facts(expected, actual, tolerances=None, reference=None)` returns one dict per
leaf (paths as pytree's keystr writes them, under `out`: `out['logits']`,
`out['cache'].layers[0].keys`, `out[0].a`):

kind "tensor" (torch tensors and numpy arrays):
    path, kind, shape_expected, shape_actual, dtype_expected, dtype_actual,
    device_expected, device_actual, numel (of expected), equal (same shape, dtype and
    values, NaN equal to NaN), max_abs_diff, max_rel_diff, mean_abs_diff,
    max_abs_expected, nan_expected, nan_actual, nan_mismatch, inf_mismatch,
    tolerance {rtol, atol} (as sent for this dtype), out_of_tolerance (how many elements
    have |actual - expected| > atol + rtol * |expected|), worst_index, expected_at_worst,
    actual_at_worst (the element furthest beyond its own allowance, or the largest
    difference when none is beyond), and `reference` when a float64 reference was given:
    {eager_max_error, compiled_max_error, eager_rms_error, compiled_rms_error,
    out_of_tolerance, worst_index, reference_at_worst, expected_at_worst, actual_at_worst}
    where out_of_tolerance counts elements with
    |actual - ref| > atol + rtol * |ref| + multiplier * max(|expected - ref|, eager_rms_error)
    (the approach of torch._dynamo.utils.same with fp64_ref, applied per element).
kind "scalar" (Python/numpy numbers): the same numeric fields (numel 1, shapes [],
    dtype "bool"/"int"/"float"/"complex" or the numpy dtype name), plus
    value_expected / value_actual (null when not finite).
kind "other" (None, strings, dtypes, objects with their own ==):
    path, kind, type_expected, type_actual, equal, repr_expected, repr_actual.
kind "not_compared": an object == cannot compare (see above): path, kind, type.
kind "structure": the containers differ (type, length, keys, tensor vs non-tensor):
    path, kind, description, type_expected, type_actual.

`tolerances` maps a dtype name to {rtol, atol, ref_multiplier}; "default" covers names
not listed; without it every tolerance is 0 (any difference counts). How the numbers are
computed: both sides go to float64 (complex128 for complex; bool -> 0/1), diff =
|actual - expected| (complex: modulus). Only positions where both values are finite count
in the diffs; NaN and inf positions are counted instead: nan_expected / nan_actual,
nan_mismatch (exactly one side NaN), inf_mismatch (either side +-inf and the two differ).
max_rel_diff = max |diff| / |expected| over positions with expected != 0. All numbers are
finite or null, so the facts are valid JSON. When the shapes differ no diff is computed.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any

from .replies import reply
from .target import dtype_name

# How deep attribute-walking goes into objects that are not pytree nodes, and how many
# attributes of one object are looked at: bounds for cyclic or huge object graphs.
_MAX_OBJECT_DEPTH = 6
_MAX_ATTRIBUTES = 64


# ------------------------------------------------------------------------------ walking

@dataclass
class Node:
    """A container in a walked output: its type and its children in order."""
    type_name: str
    children: list[tuple[str, Any]] = field(default_factory=list)
    mapping: bool = False      # keys may come in another order without being a difference
    sequence: bool = False     # plain list/tuple: a length difference is reported as such


@dataclass
class NotCompared:
    """A leaf whose values cannot be compared (no == of its own)."""
    type_name: str


def _is_array(x: Any) -> bool:
    import torch
    if isinstance(x, torch.Tensor):
        return True
    try:
        import numpy as np
        return isinstance(x, np.ndarray)
    except ImportError:
        return False


_PLAIN = (str, bytes, int, float, complex, bool, type(None))


def _pytree_children(x: Any) -> list[tuple[str, Any]] | None:
    """One level of torch's own pytree flattening, or None when x is a pytree leaf."""
    import torch.utils._pytree as pytree
    pairs = pytree.tree_flatten_with_path(x, is_leaf=lambda y: y is not x)[0]
    if len(pairs) == 1 and pairs[0][0] == () and pairs[0][1] is x:
        return None
    return [(pytree.keystr(path), child) for path, child in pairs]


def _attributes(obj: Any) -> list[tuple[str, Any]]:
    names = list(getattr(obj, "__dict__", {}).keys())
    for klass in type(obj).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    out = []
    for name in dict.fromkeys(names):
        if name.startswith("__") or len(out) >= _MAX_ATTRIBUTES:
            continue
        try:
            value = getattr(obj, name)
        except Exception:  # noqa: BLE001 - a property or slot that raises is not data
            continue
        if not callable(value) or _is_array(value):
            out.append((f".{name}", value))
    return out


def _holds_tensor(x: Any, depth: int, seen: set) -> bool:
    if _is_array(x):
        return True
    if isinstance(x, _PLAIN) or depth > _MAX_OBJECT_DEPTH or id(x) in seen:
        return False
    seen.add(id(x))
    kids = _pytree_children(x)
    if kids is None:
        kids = _attributes(x) if _walkable_object(x) else []
    return any(_holds_tensor(v, depth + 1, seen) for _, v in kids)


def _walkable_object(x: Any) -> bool:
    import torch
    return not isinstance(x, (type, torch.nn.Module)) and (
        hasattr(x, "__dict__") or any("__slots__" in k.__dict__ for k in type(x).__mro__))


def _has_own_eq(x: Any) -> bool:
    return type(x).__eq__ is not object.__eq__


def _copy_leaf(leaf: Any) -> Any:
    import torch
    if isinstance(leaf, torch.Tensor):
        return leaf.detach().to("cpu", copy=True)
    try:
        import numpy as np
        if isinstance(leaf, np.ndarray):
            return leaf.copy()
    except ImportError:
        pass
    return leaf


def snapshot(tree: Any, depth: int = 0, seen: frozenset = frozenset()) -> Any:
    """The walked form of an output: Node for containers, CPU copies of tensors, the value
    itself for other comparable leaves, NotCompared for the rest."""
    if isinstance(tree, (Node, NotCompared)):
        return tree
    if _is_array(tree) or isinstance(tree, _PLAIN):
        return _copy_leaf(tree)
    import torch
    if isinstance(tree, (torch.dtype, torch.device, torch.Size)):
        return tree
    if id(tree) in seen or depth > _MAX_OBJECT_DEPTH:
        return NotCompared(type(tree).__name__)
    seen = seen | {id(tree)}
    kids = _pytree_children(tree)
    if kids is not None:
        mapping = isinstance(tree, dict) or (bool(kids) and all(k.startswith("[") and
                                                                 not k[1:2].isdigit() for k, _ in kids))
        sequence = isinstance(tree, (list, tuple)) and not hasattr(type(tree), "_fields")
        return Node(type(tree).__name__, [(k, snapshot(v, depth + 1, seen)) for k, v in kids],
                    mapping=mapping, sequence=sequence)
    if _walkable_object(tree) and _holds_tensor(tree, depth, set()):
        return Node(type(tree).__name__,
                    [(k, snapshot(v, depth + 1, seen)) for k, v in _attributes(tree)])
    if _has_own_eq(tree):
        return tree
    return NotCompared(type(tree).__name__)


# ------------------------------------------------------------------------------ numbers

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


def _tolerance(tolerances: dict | None, dtype: str) -> dict:
    if not tolerances:
        return {"rtol": 0.0, "atol": 0.0, "ref_multiplier": 0.0}
    t = tolerances.get(dtype) or tolerances.get("default") or {}
    return {"rtol": float(t.get("rtol", 0.0)), "atol": float(t.get("atol", 0.0)),
            "ref_multiplier": float(t.get("ref_multiplier", 0.0))}


def allowed_difference(tol: dict, magnitude, eager_error=0.0):
    """How far an element may differ: atol + rtol * magnitude + ref_multiplier * eager_error,
    for floats or float64 tensors alike. Against eager, magnitude is |expected| and
    eager_error 0; against a float64 reference, magnitude is |ref| and eager_error
    max(|expected - ref|, eager's RMS error). An element is beyond it when its difference is
    strictly greater. The C++ side's copy (src/bench/correctness.cpp, allowed_difference) is
    held to the same cases: tests/vectors/tolerance.json."""
    return tol["atol"] + tol["rtol"] * magnitude + tol.get("ref_multiplier", 0.0) * eager_error


def _work(t, is_complex: bool):
    import torch
    if t.dtype == torch.bool:
        t = t.to(torch.float64)
    return t.to(torch.complex128 if is_complex else torch.float64)


def _value(v, is_complex: bool):
    if is_complex:
        return [_finite(float(v.real)), _finite(float(v.imag))]
    return _finite(float(v))


def _index(flat_index: int, shape) -> list[int]:
    import torch
    if not len(shape):
        return []
    return [int(i) for i in torch.unravel_index(torch.tensor(flat_index), tuple(shape))]


def _numeric_facts(e, a, tol: dict) -> dict:
    """Diff facts for two CPU tensors of the same shape, under one tolerance."""
    import torch
    is_complex = e.is_complex() or a.is_complex()
    e, a = _work(e, is_complex), _work(a, is_complex)
    out: dict[str, Any] = {}
    nan_e, nan_a = torch.isnan(e), torch.isnan(a)
    inf_e, inf_a = torch.isinf(e), torch.isinf(a)
    out["nan_expected"] = int(nan_e.sum())
    out["nan_actual"] = int(nan_a.sum())
    out["nan_mismatch"] = int((nan_e ^ nan_a).sum())
    # +inf vs -inf, or inf vs a finite value (a NaN on the other side is a nan_mismatch).
    out["inf_mismatch"] = int(((inf_e | inf_a) & ~(nan_e | nan_a) & (e != a)).sum())
    out["tolerance"] = {"rtol": tol["rtol"], "atol": tol["atol"]}
    if e.numel() == 0:
        out.update(max_abs_diff=0.0, max_rel_diff=0.0, mean_abs_diff=0.0, max_abs_expected=0.0,
                   out_of_tolerance=0, worst_index=None, expected_at_worst=None,
                   actual_at_worst=None)
        return out
    both = ~(nan_e | nan_a | inf_e | inf_a)
    zero = torch.zeros((), dtype=torch.float64)
    diff = torch.where(both, (a - e).abs(), zero)
    mag = e.abs()
    out["max_abs_diff"] = _finite(float(diff.max()))
    n_both = int(both.sum())
    out["mean_abs_diff"] = _finite(float(diff.sum()) / n_both) if n_both else 0.0
    nonzero = both & (mag > 0)
    out["max_rel_diff"] = _finite(float((diff[nonzero] / mag[nonzero]).max())) \
        if bool(nonzero.any()) else 0.0
    out["max_abs_expected"] = _finite(float(torch.where(~nan_e & ~inf_e, mag, zero).max()))
    allowed = allowed_difference(tol, torch.where(both, mag, zero))
    over = both & (diff > allowed)
    out["out_of_tolerance"] = int(over.sum())
    # The worst element is the one furthest beyond its own allowance; with none beyond,
    # the largest difference.
    if out["out_of_tolerance"]:
        excess = torch.where(over, diff / allowed.clamp_min(1e-300), zero)
        worst = int(torch.argmax(excess.reshape(-1)))
    else:
        worst = int(torch.argmax(diff.reshape(-1)))
    out["worst_index"] = _index(worst, e.shape)
    out["expected_at_worst"] = _value(e.reshape(-1)[worst], is_complex)
    out["actual_at_worst"] = _value(a.reshape(-1)[worst], is_complex)
    return out


def _reference_facts(e, a, r, tol: dict) -> dict | None:
    """Eager and compiled against a float64 reference of the same leaf (real dtypes only)."""
    import torch
    if r.is_complex() or e.is_complex() or a.is_complex() or tuple(r.shape) != tuple(e.shape) \
            or r.dtype != torch.float64 or e.numel() == 0:
        return None
    e, a, r = _work(e, False), _work(a, False), r.to(torch.float64)
    finite = torch.isfinite(e) & torch.isfinite(a) & torch.isfinite(r)
    if not bool(finite.any()):
        return None
    zero = torch.zeros((), dtype=torch.float64)
    ee = torch.where(finite, (e - r).abs(), zero)
    ce = torch.where(finite, (a - r).abs(), zero)
    n = int(finite.sum())
    e_rms = math.sqrt(float((ee * ee).sum()) / n)
    c_rms = math.sqrt(float((ce * ce).sum()) / n)
    allowed = allowed_difference(tol, torch.where(finite, r.abs(), zero), torch.clamp(ee, min=e_rms))
    over = finite & (ce > allowed)
    worst = int(torch.argmax(torch.where(over, ce / allowed.clamp_min(1e-300), zero).reshape(-1))) \
        if bool(over.any()) else int(torch.argmax(ce.reshape(-1)))
    return {"eager_max_error": _finite(float(ee.max())), "compiled_max_error": _finite(float(ce.max())),
            "eager_rms_error": _finite(e_rms), "compiled_rms_error": _finite(c_rms),
            "multiplier": tol["ref_multiplier"], "out_of_tolerance": int(over.sum()),
            "worst_index": _index(worst, e.shape),
            "reference_at_worst": _finite(float(r.reshape(-1)[worst])),
            "expected_at_worst": _finite(float(e.reshape(-1)[worst])),
            "actual_at_worst": _finite(float(a.reshape(-1)[worst]))}


_NULL_DIFFS = dict(max_abs_diff=None, max_rel_diff=None, mean_abs_diff=None,
                   max_abs_expected=None, out_of_tolerance=None, worst_index=None,
                   expected_at_worst=None, actual_at_worst=None, nan_expected=None,
                   nan_actual=None, nan_mismatch=None, inf_mismatch=None)


def _tensor_fact(path: str, expected, actual, tolerances, reference) -> dict:
    import torch
    e, a = _to_cpu_tensor(expected), _to_cpu_tensor(actual)
    fact: dict[str, Any] = {
        "path": path, "kind": "tensor",
        "shape_expected": list(e.shape), "shape_actual": list(a.shape),
        "dtype_expected": _array_dtype(expected), "dtype_actual": _array_dtype(actual),
        "device_expected": _array_device(expected), "device_actual": _array_device(actual),
        "numel": int(e.numel()),
    }
    if tuple(e.shape) != tuple(a.shape):
        fact["equal"] = False
        fact.update(_NULL_DIFFS)
        return fact
    tol = _tolerance(tolerances, fact["dtype_expected"])
    try:
        fact.update(_numeric_facts(e, a, tol))
        # In IEEE arithmetic x - y == 0 exactly iff x == y, and widening to float64 is
        # exact for every float dtype, so a zero max diff means equal floats (NaN == NaN
        # by position). int64 beyond 2**53 is not exact in float64: compare integers as is.
        same_values = fact["max_abs_diff"] == 0.0 and fact["nan_mismatch"] == 0 \
            and fact["inf_mismatch"] == 0
        integral = not (e.is_floating_point() or e.is_complex() or e.dtype == torch.bool
                        or a.is_floating_point() or a.is_complex())
        if integral:
            common = torch.promote_types(e.dtype, a.dtype)
            same_values = bool(torch.equal(e.to(common), a.to(common)))
            if not same_values and fact["out_of_tolerance"] == 0:
                fact["out_of_tolerance"] = int((e.to(common) != a.to(common)).sum())
        fact["equal"] = bool(same_values and fact["dtype_expected"] == fact["dtype_actual"])
        if reference is not None and _is_array(reference) and e.is_floating_point():
            ref = _reference_facts(e, a, _to_cpu_tensor(reference), tol)
            if ref is not None:
                fact["reference"] = reply("bench.check compiled_vs_eager reference", ref)
    except Exception as exc:  # noqa: BLE001 - an exotic dtype must not fail the whole op
        fact.update(_NULL_DIFFS)
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


def _scalar_fact(path: str, expected, actual, tolerances) -> dict:
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
    facts = _numeric_facts(e, a, _tolerance(tolerances, fact["dtype_expected"]))
    for k in ("worst_index", "expected_at_worst", "actual_at_worst"):
        facts.pop(k, None)
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


def _type_name(x: Any) -> str:
    return x.type_name if isinstance(x, (Node, NotCompared)) else type(x).__name__


def _structure(path: str, description: str, expected, actual) -> dict:
    return {"path": path, "kind": "structure", "description": description,
            "type_expected": _type_name(expected), "type_actual": _type_name(actual)}


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Number)


def _walk(path: str, e: Any, a: Any, ctx: dict, ref: Any) -> None:
    out = ctx["out"]
    if isinstance(e, NotCompared) or isinstance(a, NotCompared):
        if isinstance(e, NotCompared) and isinstance(a, NotCompared) and e.type_name == a.type_name:
            out.append({"path": path, "kind": "not_compared", "type": e.type_name})
        else:
            out.append(_structure(path, f"expected a {_type_name(e)}, got a {_type_name(a)}", e, a))
        return
    e_arr, a_arr = _is_array(e), _is_array(a)
    if e_arr or a_arr:
        if e_arr and a_arr:
            out.append(_tensor_fact(path, e, a, ctx["tolerances"], ref))
        else:
            which = "expected" if e_arr else "actual"
            out.append(_structure(path, f"only the {which} output is a tensor "
                                        f"({_type_name(e)} vs {_type_name(a)})", e, a))
        return
    if _is_number(e) and _is_number(a):
        out.append(_scalar_fact(path, e, a, ctx["tolerances"]))
        return
    e_node, a_node = isinstance(e, Node), isinstance(a, Node)
    if not e_node and not a_node:
        out.append(_other_fact(path, e, a))
        return
    if not (e_node and a_node) or e.type_name != a.type_name:
        out.append(_structure(path, f"expected a {_type_name(e)}, got a {_type_name(a)}", e, a))
        return
    ne, na = dict(e.children), dict(a.children)
    keys_e, keys_a = [k for k, _ in e.children], [k for k, _ in a.children]
    # Mappings may hold the same keys in another order: that is not a difference.
    if (set(keys_e) != set(keys_a)) if e.mapping else (keys_e != keys_a):
        if e.sequence:
            out.append(_structure(path, f"expected {len(keys_e)} items, got {len(keys_a)}", e, a))
        else:
            missing = [k for k in keys_e if k not in na]
            extra = [k for k in keys_a if k not in ne]
            parts = []
            if missing:
                parts.append("missing " + ", ".join(k.strip("[]'.") for k in missing))
            if extra:
                parts.append("extra " + ", ".join(k.strip("[]'.") for k in extra))
            out.append(_structure(path, "; ".join(parts) or "same keys in a different order",
                                  e, a))
    ref_children = dict(ref.children) if isinstance(ref, Node) else {}
    for key, child in e.children:
        if key in na:
            _walk(path + key, child, na[key], ctx, ref_children.get(key))


def difference_facts(expected: Any, actual: Any, tolerances: dict | None = None,
                     reference: Any = None, root: str = "out") -> list[dict]:
    """One fact per leaf of two outputs (see the module docstring). `reference`, when
    given, is the same output computed in float64 (walked like the others)."""
    ctx = {"out": [], "tolerances": tolerances}
    _walk(root, snapshot(expected), snapshot(actual), ctx,
          snapshot(reference) if reference is not None else None)
    # Each leaf's fields as bench.check's list names them (eager_vs_eager's leaves are alike).
    return [reply("bench.check compiled_vs_eager", f) for f in ctx["out"]]


def out_of_tolerance(facts: list[dict]) -> bool:
    """Whether some floating leaf has elements beyond the tolerance it was given: the
    trigger for computing a float64 reference (more facts, not a verdict)."""
    return any(f.get("kind") == "tensor" and f.get("out_of_tolerance")
               and str(f.get("dtype_expected", "")).startswith(("float", "bfloat", "complex"))
               for f in facts)
