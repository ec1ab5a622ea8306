"""tct job --shape-fixes: one shape fix applied to every torch.compile call site of the job, in
the job's own process and on its own inputs, and what the installed torch offers for it.

TCT_RUN_SHAPE_FIX names the fix: "static" (torch.compile(..., dynamic=False)), "dynamic"
(dynamic=True), "mark_dynamic" or "mark_unbacked" (the dims that varied in an earlier run of
the job marked on each call's tensors before the compiled call), "spec" (the same dims given to
torch.compile through the installed torch's spec keyword: shapes_spec= in 2.13, dynamic_shapes=
from 2.14; none before). TCT_RUN_SHAPE_DIMS: {site key: [[input, position or null, dim, rank,
min, max], ...]}, from tct (the site key is tct's: "file:line name"). TCT_RUN_SHAPE_PROBE=1
only detects the API (the run whose shapes tct reads).

Raw facts only, to shape-fix-<pid>.json in the record folder: the API found (names, whether it
takes min= and max=), the fix asked, the sites it was applied to and any error in applying it
(the job then runs with the site as the job wrote it). tct decides everything else.
"""
import inspect
import json
import os

_state = {"api": None, "fix": "", "applied": [], "errors": [], "dims": {}}


def _params(fn):
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def detect(torch):
    """What this torch offers: looked up, never assumed from its version."""
    api = {"torch": str(getattr(torch, "__version__", "")), "mark_dynamic": None, "mark_dynamic_range": False,
           "mark_unbacked": None, "mark_unbacked_range": False, "spec_keyword": None, "spec_module": None}
    try:
        import torch._dynamo as dynamo
    except Exception:
        return api
    fn = getattr(dynamo, "mark_dynamic", None)
    if callable(fn):
        api["mark_dynamic"] = "torch._dynamo.mark_dynamic"
        api["mark_dynamic_range"] = {"min", "max"} <= set(_params(fn))
    for where, name in ((dynamo, "torch._dynamo.mark_unbacked"),
                        (getattr(dynamo, "decorators", None), "torch._dynamo.decorators.mark_unbacked")):
        fn = getattr(where, "mark_unbacked", None) if where is not None else None
        if callable(fn):
            api["mark_unbacked"] = name
            api["mark_unbacked_range"] = {"min", "max"} <= set(_params(fn))
            break
    compile_params = _params(getattr(torch.compile, "__wrapped__", torch.compile))
    try:
        import torch.fx.experimental.dynamic_spec as spec

        if all(hasattr(spec, n) for n in ("ParamsSpec", "TensorSpec", "ShapeVar")):
            for kw in ("dynamic_shapes", "shapes_spec"):
                if kw in compile_params:
                    api["spec_keyword"] = kw
                    api["spec_module"] = "torch.fx.experimental.dynamic_spec"
                    break
    except Exception:
        pass
    return api


def _write(record_dir):
    path = os.path.join(record_dir, f"shape-fix-{os.getpid()}.json")
    doc = {"api": _state["api"], "fix": _state["fix"] or None, "applied": sorted(set(_state["applied"])),
           "errors": _state["errors"][:20]}
    try:
        with open(path + ".tmp", "w") as f:
            json.dump(doc, f)
        os.replace(path + ".tmp", path)
    except OSError:
        pass


def setup(torch, record_dir):
    """At torch's import: the fix asked for, if any, and the API (written at once)."""
    fix = os.environ.get("TCT_RUN_SHAPE_FIX", "")
    if not fix and os.environ.get("TCT_RUN_SHAPE_PROBE") != "1":
        return ""
    _state["fix"] = fix
    _state["record_dir"] = record_dir
    try:
        _state["dims"] = json.loads(os.environ.get("TCT_RUN_SHAPE_DIMS", "") or "{}")
    except ValueError as e:
        _state["errors"].append(f"TCT_RUN_SHAPE_DIMS: {e}")
    _state["api"] = detect(torch)
    _write(record_dir)
    return fix


def _note(site_key, error=None):
    if error is None:
        _state["applied"].append(site_key)
    else:
        _state["errors"].append(f"{site_key}: {error}"[:500])
    _write(_state["record_dir"])


def compile_kwargs(site_key, kwargs, torch):
    """The torch.compile arguments the fix changes (a copy); the job's own are kept."""
    fix = _state["fix"]
    out = dict(kwargs)
    if fix == "static":
        out["dynamic"] = False
    elif fix == "dynamic":
        out["dynamic"] = True
    elif fix == "spec":
        dims = _state["dims"].get(site_key)
        api = _state["api"] or {}
        if not dims or not api.get("spec_keyword"):
            return out
        try:
            from torch.fx.experimental.dynamic_spec import ParamsSpec, ShapeVar, TensorSpec

            params = {}
            for input_name, _pos, dim, rank, lo, hi in dims:
                leaves = params.setdefault(input_name, [None] * rank)
                leaves[dim] = ShapeVar(f"{input_name}_dim{dim}", min=lo, max=hi)
            out[api["spec_keyword"]] = ParamsSpec({k: TensorSpec(v) for k, v in params.items()})
        except Exception as e:
            _note(site_key, f"{type(e).__name__}: {e}")
            return dict(kwargs)
    else:
        return out
    _note(site_key)
    return out


def call_marker(site_key, fn, torch):
    """mark_dynamic / mark_unbacked: fn wrapped so that each call's tensors have the dims that
    varied marked before the compiled call (as the user's code would, right before it)."""
    fix = _state["fix"]
    dims = _state["dims"].get(site_key)
    api = _state["api"] or {}
    if fix not in ("mark_dynamic", "mark_unbacked") or not dims or not api.get(fix):
        return fn
    try:
        import importlib

        module, _, name = api[fix].rpartition(".")
        mark = getattr(importlib.import_module(module), name)
    except Exception as e:
        _note(site_key, f"{type(e).__name__}: {e}")
        return fn
    ranged = api.get(fix + "_range", False)
    Tensor = torch.Tensor
    plan = [(input_name, pos, dim, ({"min": lo, "max": hi} if ranged else {}))
            for input_name, pos, dim, _rank, lo, hi in dims]

    noted = [False]

    def marked(*args, **kwargs):
        for input_name, pos, dim, extra in plan:
            t = kwargs.get(input_name)
            if t is None and pos is not None and pos < len(args):
                t = args[pos]
            if isinstance(t, Tensor) and t.dim() > dim:
                mark(t, dim, **extra)
                if not noted[0]:  # applied: a call's tensor was marked
                    noted[0] = True
                    _note(site_key)
        return fn(*args, **kwargs)

    return marked
