"""Ops for `tct startup`: how one fresh process reached its first output, as raw facts.

tct (src/startup/) starts a new agent for every start it measures and sends it one request
at once, so the request waits in the pipe while the interpreter starts; every timestamp is
`time.monotonic_ns()` (CLOCK_MONOTONIC, the clock tct read when it launched the process),
and nothing here computes a phase, a statistic or a verdict.

  startup.first_output {target, params, device, dtype, train, how, compile, load_artifacts,
                        save_artifacts, package, inputs, steady_calls, steady_max_ns}
      how: "eager", "compile" (torch.compile; the cache folders are whatever tct set) or
      "aoti" (a package made by startup.package, loaded with aoti_load_package).
      -> {marks_ns: {op_start, torch_imported, [artifacts_loaded], [built | inputs_loaded],
          [compile_wrapped | package_loaded], first_output}, steady_ns, counters,
          saved_artifacts: {path, bytes, artifacts} | null, torch_version}
  startup.package {target, params, device, dtype, package, inputs, reference, use_loaded}
      torch.export, then torch._inductor.aoti_compile_and_package (use_loaded: of the target
      this agent loaded, as `tct bench --backend aoti` asks, so the package holds the very
      weights and inputs eager ran with); the example inputs are
      written beside it (aoti_inputs.py) for the processes that load the package, and eager's
      outputs on them (reference) for the check of what the C++ runner returns.
      -> {package_bytes, export_ns, package_ns, inputs}
  startup.libtorch {} -> {version, cmake_prefix_path, cxx11_abi, loader_header}: what building
      tools/aoti_runner against this torch needs
  startup.compare {expected, actual}   two tensor folders (aoti_inputs.py's form) ->
      {count_equal, shape_equal, max_abs_diff, max_abs_expected}
"""
from __future__ import annotations

import os
import time

from .. import timing
from ..errors import TctError
from ..replies import reply
from ..target import load_target
from .target import _apply_threads


def _now() -> int:
    return time.monotonic_ns()


def _first_line(exc: BaseException, limit: int = 400) -> str:
    text = str(exc).strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    return line if len(line) <= limit else line[: limit - 3] + "..."


def load_package(path: str):
    """torch._inductor.aoti_load_package (startup's aoti start, bench's aoti row timed from
    Python); a package this torch cannot load is a TctError that says which torch must."""
    import torch
    try:
        return torch._inductor.aoti_load_package(path)
    except Exception as exc:  # noqa: BLE001 - a package this torch cannot load
        raise TctError("compile_failed", f"aoti_load_package failed: {_first_line(exc)}",
                       "the package must be loaded by the torch that made it", stage="load_package",
                       cause=exc) from exc


def _load(params):
    return load_target(params.get("target"), params.get("params") or {}, device=params.get("device"),
                       dtype=params.get("dtype"))


def _cache_counters() -> dict:
    """torch's own counts of its cache lookups in this process (torch/_inductor/codecache.py,
    torch/_functorch/_aot_autograd/autograd_cache.py): the check on what tct reads in the trace."""
    try:
        from torch._dynamo.utils import counters
    except Exception:  # noqa: BLE001 - an eager start never imported dynamo's counters
        return {}
    inductor, aot = counters.get("inductor", {}), counters.get("aot_autograd", {})
    return {"fxgraph_cache_hit": int(inductor.get("fxgraph_cache_hit", 0)),
            "fxgraph_cache_miss": int(inductor.get("fxgraph_cache_miss", 0)),
            "fxgraph_cache_bypass": int(inductor.get("fxgraph_cache_bypass", 0)),
            "autograd_cache_hit": int(aot.get("autograd_cache_hit", 0)),
            "autograd_cache_miss": int(aot.get("autograd_cache_miss", 0)),
            "autograd_cache_bypass": int(aot.get("autograd_cache_bypass", 0))}


def _call_failed(exc: BaseException, how: str) -> TctError:
    kind = "target_raised" if how == "eager" else "compile_failed"
    return TctError(kind, f"the first call ({how}) raised {type(exc).__name__}: {_first_line(exc)}",
                    "run `tct bench` or `tct explain` on the same target for the details; "
                    "rerun with --verbose for the traceback", stage="first_call", cause=exc)


def _steady(call, params, device) -> list[float]:
    """A few calls after the first output: the per-call time the break-even divides by."""
    n = int(params.get("steady_calls", 0))
    if n <= 0:
        return []
    return timing.time_each(call, n, device, params.get("steady_max_ns"))


def _save_artifacts(path: str) -> dict:
    import torch
    saved = torch.compiler.save_cache_artifacts()
    if saved is None:
        return {"path": path, "bytes": 0, "artifacts": {}}
    data, info = saved
    with open(path, "wb") as f:
        f.write(data)
    names = {str(kind): len(keys) for kind, keys in getattr(info, "artifacts", {}).items()}
    return {"path": path, "bytes": len(data), "artifacts": names}


def op_first_output(params, session) -> dict:
    marks = {"op_start": _now()}
    how = params.get("how", "eager")
    import torch
    _apply_threads()
    marks["torch_imported"] = _now()
    out = {"torch_version": torch.__version__, "saved_artifacts": None}
    if how == "aoti":
        from ..aoti_inputs import read_inputs
        args, kwargs = read_inputs(params["inputs"], params.get("device"))
        marks["inputs_loaded"] = _now()
        runner = load_package(params["package"])
        marks["package_loaded"] = _now()
        device = params.get("device")

        def call():
            with torch.no_grad():
                return runner(*args, **kwargs)
    else:
        if params.get("load_artifacts"):
            with open(params["load_artifacts"], "rb") as f:
                torch.compiler.load_cache_artifacts(f.read())
            marks["artifacts_loaded"] = _now()
        loaded = _load(params)
        marks["built"] = _now()
        device = loaded.device
        if how == "compile":
            cfg = params.get("compile") or {}
            kwargs = {"backend": cfg.get("backend", "inductor"), "fullgraph": bool(cfg.get("fullgraph", False))}
            if cfg.get("mode") not in (None, "default"):
                kwargs["mode"] = cfg["mode"]
            compiled = torch.compile(loaded.fn, **kwargs)
            marks["compile_wrapped"] = _now()

            def call():
                return loaded.call(compiled)
        else:
            def call():
                return loaded.call()
    sync = timing.synchronizer(device)
    try:
        call()
        sync()
    except TctError:
        raise
    except Exception as exc:  # noqa: BLE001 - the target's or the compiler's error, reported
        raise _call_failed(exc, how) from exc
    marks["first_output"] = _now()
    out["marks_ns"] = marks
    out["steady_ns"] = _steady(call, params, device)
    out["counters"] = _cache_counters()
    if params.get("save_artifacts"):
        out["saved_artifacts"] = reply("startup.first_output saved_artifacts",
                                       _save_artifacts(params["save_artifacts"]))
    return reply("startup.first_output", out)


def op_package(params, session) -> dict:
    """Export the target and package it with AOTInductor: the package the AOTInductor starts load."""
    import torch
    from ..aoti_inputs import write_inputs, write_tensors
    _apply_threads()
    loaded = session.loaded_target() if params.get("use_loaded") else _load(params)
    if loaded.train:
        raise TctError("unsupported", "an AOTInductor package runs inference only", "drop --train")
    module = loaded.fn if isinstance(loaded.fn, torch.nn.Module) else _Wrapped(loaded.fn)
    t0 = _now()
    try:
        with torch.no_grad():
            exported = torch.export.export(module, tuple(loaded.args), dict(loaded.kwargs))
    except Exception as exc:  # noqa: BLE001 - torch.export's own reason is the answer
        raise TctError("unsupported", f"torch.export cannot take this model: {type(exc).__name__}: "
                       f"{_first_line(exc)}", _export_fix(exc), stage="torch.export", cause=exc) from exc
    t1 = _now()
    try:
        path = torch._inductor.aoti_compile_and_package(exported, package_path=params["package"])
    except Exception as exc:  # noqa: BLE001
        raise TctError("compile_failed", f"AOTInductor could not package the model: {_first_line(exc)}",
                       "rerun with --verbose for the traceback", stage="aoti_compile_and_package",
                       cause=exc) from exc
    t2 = _now()
    try:
        inputs = write_inputs(params["inputs"], loaded.args, loaded.kwargs)
    except ValueError as exc:
        raise TctError("unsupported", f"the package's inputs cannot be saved: {exc}",
                       "give the model tensor inputs only", stage="aoti inputs") from exc
    if params.get("reference"):
        import torch.utils._pytree as pytree
        write_tensors(params["reference"], [t for t in pytree.tree_leaves(loaded.call())
                                            if isinstance(t, torch.Tensor)])
    return reply("startup.package", {"package_bytes": os.path.getsize(path), "export_ns": t1 - t0,
                                     "package_ns": t2 - t1, "inputs": inputs})


def op_libtorch(params, session) -> dict:
    """What building a C++ program against this torch needs (tct builds tools/aoti_runner)."""
    import torch
    import torch.utils
    include = os.path.join(os.path.dirname(torch.__file__), "include")
    header = os.path.join(include, "torch", "csrc", "inductor", "aoti_package", "model_package_loader.h")
    return reply("startup.libtorch", {"version": torch.__version__, "cmake_prefix_path": torch.utils.cmake_prefix_path,
                                      "cxx11_abi": bool(torch._C._GLIBCXX_USE_CXX11_ABI),
                                      "loader_header": os.path.exists(header)})


def op_compare(params, session) -> dict:
    """Raw difference facts between two tensor folders; tct decides whether they match."""
    from ..aoti_inputs import read_tensors
    expected, actual = read_tensors(params["expected"]), read_tensors(params["actual"])
    out = {"count_equal": len(expected) == len(actual), "shape_equal": True, "max_abs_diff": 0.0,
           "max_abs_expected": 0.0}
    for e, a in zip(expected, actual):
        if e.shape != a.shape or e.dtype != a.dtype:
            out["shape_equal"] = False
            continue
        if e.numel():
            out["max_abs_diff"] = max(out["max_abs_diff"], float((e.double() - a.double()).abs().max()))
            out["max_abs_expected"] = max(out["max_abs_expected"], float(e.double().abs().max()))
    return reply("startup.compare", out)


class _Wrapped:
    """A plain function as the nn.Module torch.export takes."""

    def __new__(cls, fn):
        import torch

        class Fn(torch.nn.Module):
            def forward(self, *args, **kwargs):
                return fn(*args, **kwargs)
        return Fn()


def _export_fix(exc: BaseException) -> str:
    """The exporter's own advice where it gives one (torch's UserError carries a case name
    and a link to the export tutorial's section), else the general one."""
    text = str(exc)
    for line in text.splitlines():
        if "For more information about this error, see" in line or "pytorch.org/docs" in line:
            return line.strip()
    if "data-dependent" in text or "Could not guard on data-dependent" in text:
        return "the model branches on a tensor's value: use torch.cond, or torch._check on the value"
    return ("torch.export needs one graph: see `tct explain` for the breaks, or export with "
            "strict=False; else ship it with torch.compile and saved cache artifacts")
