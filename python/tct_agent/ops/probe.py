"""`probe`: facts about this interpreter's torch.compile setup. Facts only: the verdict
and every fix are decided in C++ (src/probe/verdict.cpp)."""
from __future__ import annotations

import os
import platform
import sys
import time

from ..errors import TctError
from ..protocol import finite, progress


def _try(fn, default=None):
    """Run one fact-gathering step; a failure becomes {'error': ...}, never a crash."""
    try:
        return fn()
    except Exception as exc:
        return default if default is not None else {"error": f"{type(exc).__name__}: {exc}"}


def _import_torch():
    try:
        import torch
        return torch
    except Exception as exc:
        raise TctError("unsupported", f"torch is installed but fails to import: {type(exc).__name__}: {exc}",
                       f"reinstall torch in {sys.executable}", cause=exc) from None


def _torch_facts(torch, with_dynamo=True):
    cuda = getattr(torch.version, "cuda", None)
    hip = getattr(torch.version, "hip", None)
    facts = {
        "version": torch.__version__,
        "git_version": getattr(torch.version, "git_version", None),
        "debug": bool(getattr(torch.version, "debug", False)),
        "cuda": cuda,
        "hip": hip,
        "build": "rocm" if hip else ("cuda" if cuda else "cpu"),
        "compile_available": hasattr(torch, "compile"),
        "file": os.path.dirname(torch.__file__),
        "num_threads": torch.get_num_threads(),
    }
    if not with_dynamo:
        return facts
    try:
        from torch._dynamo.eval_frame import check_if_dynamo_supported
        check_if_dynamo_supported()
        facts["dynamo_supported"] = True
        facts["dynamo_error"] = None
    except ImportError as exc:
        facts["dynamo_supported"] = False
        facts["dynamo_error"] = f"torch._dynamo is missing: {exc}"
    except Exception as exc:
        facts["dynamo_supported"] = False
        facts["dynamo_error"] = str(exc)
    return facts


def _backends(torch):
    import torch._dynamo as dynamo
    default = sorted(dynamo.list_backends())
    everything = _try(lambda: sorted(dynamo.list_backends(exclude_tags=())), default)
    return {"default": default, "all": everything}


def _cuda_error(torch):
    """Why a CUDA build sees no GPU, in torch's own words: torch.cuda.is_available() only says
    False, while torch.cuda.init() raises the reason (no driver, no device visible, a driver
    too old for this build). None for a CPU build. The first sentence only: the rest is a URL."""
    if not getattr(torch.version, "cuda", None):
        return None
    init = getattr(torch.cuda, "init", None)
    if init is None:
        return None
    try:
        init()
    except Exception as exc:
        text = " ".join(str(exc).split()) or type(exc).__name__
        return text.split(". ")[0].rstrip(".")[:300]
    return "torch.cuda.init() succeeded but torch.cuda.is_available() is False"


def _devices(torch):
    out = {"cuda_available": False, "cuda": [], "mps_available": False, "cuda_error": None}
    out["cuda_available"] = bool(_try(torch.cuda.is_available, False))
    if not out["cuda_available"]:
        out["cuda_error"] = _try(lambda: _cuda_error(torch), None)
    if out["cuda_available"]:
        for i in range(torch.cuda.device_count()):
            p = torch.cuda.get_device_properties(i)
            out["cuda"].append({"index": i, "name": p.name, "capability": [p.major, p.minor],
                                "total_memory_bytes": int(p.total_memory),
                                "multiprocessors": getattr(p, "multi_processor_count", None)})
    mps = getattr(torch.backends, "mps", None)
    out["mps_available"] = bool(mps and _try(mps.is_available, False))
    out["cpu"] = {"machine": platform.machine(), "processor": platform.processor(),
                  "logical_cores": os.cpu_count()}
    return out


def _triton():
    try:
        import triton
        return {"installed": True, "version": getattr(triton, "__version__", None), "error": None}
    except ImportError:
        return {"installed": False, "version": None, "error": None}
    except Exception as exc:
        return {"installed": True, "version": None, "error": f"{type(exc).__name__}: {exc}"}


def op_probe(params, session):
    """Facts about torch, backends, devices and Triton. With `light`, only what can change
    between runs of the same interpreter and torch (devices, threads): tct has the rest
    cached, and importing torch._dynamo would double the probe's time. The C++ compiler is
    checked by tct itself, while this imports torch."""
    light = bool(params.get("light"))
    facts = {"python": {"version": platform.python_version(), "executable": sys.executable,
                        "implementation": platform.python_implementation(),
                        "version_info": list(sys.version_info[:3])}}
    progress("importing torch")
    torch = _import_torch()
    facts["torch"] = _torch_facts(torch, with_dynamo=not light)
    facts["devices"] = _try(lambda: _devices(torch))
    facts["openmp_runtime"] = bool(_try(lambda: torch.backends.openmp.is_available(), False))
    if not light:
        facts["backends"] = _try(lambda: _backends(torch))
        facts["triton"] = _triton()
    return facts


def _smoke_fn(x):
    return (x.sin() * 2 + x.cos()).relu().sum(dim=-1)


def op_smoke(params, session):
    """Compile a small function on one device with one backend; time it; return both outputs'
    difference facts. Failures are results here (what failed, at which stage), not errors."""
    import torch
    device = params.get("device", "cpu")
    backend = params.get("backend", "inductor")
    torch.manual_seed(0)
    x = torch.randn(64, 128, device=device)
    expected = _smoke_fn(x)
    torch._dynamo.reset()
    compiled = torch.compile(_smoke_fn, backend=backend)
    progress(f"smoke compile on {device} with {backend}")
    start = time.perf_counter_ns()
    try:
        actual = compiled(x)
        if device.startswith("cuda"):
            torch.cuda.synchronize()
    except Exception as exc:
        return {"device": device, "backend": backend, "ok": False,
                "error": f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"}
    elapsed = time.perf_counter_ns() - start
    diff = (actual.double().cpu() - expected.double().cpu()).abs()
    return {"device": device, "backend": backend, "ok": True, "compile_ns": elapsed,
            "max_abs_diff": finite(diff.max()), "max_abs_expected": finite(expected.abs().max()),
            "shape_equal": list(actual.shape) == list(expected.shape), "error": None}
