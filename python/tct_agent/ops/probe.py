"""`probe`: facts about this interpreter's torch.compile setup. Facts only: the verdict
and every fix are decided in C++ (src/analysis/probe_verdict.cpp)."""
from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
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


def _torch_facts(torch):
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


def _devices(torch):
    out = {"cuda_available": False, "cuda": [], "mps_available": False}
    out["cuda_available"] = bool(_try(torch.cuda.is_available, False))
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


def _cpp_compiler():
    """The compiler inductor's CPU backend would use, and whether it builds OpenMP code."""
    out = {"path": None, "version": None, "openmp": None, "openmp_error": None, "error": None}
    try:
        from torch._inductor.cpp_builder import get_cpp_compiler
        name = get_cpp_compiler()
    except Exception as exc:  # older torch, or no compiler found by inductor's own search
        name = os.environ.get("CXX") or "g++"
        out["error"] = f"{type(exc).__name__}: {exc}"
    path = shutil.which(name) or (name if os.path.isfile(name) else None)
    out["path"] = path
    if not path:
        out["error"] = out["error"] or f"compiler '{name}' not found on PATH"
        return out
    out["error"] = None
    version = _try(lambda: subprocess.run([path, "--version"], capture_output=True, text=True,
                                          timeout=30).stdout.splitlines()[0], "")
    out["version"] = version or None
    # OpenMP: inductor's CPU kernels are parallelised with it; without it they run on one core.
    with tempfile.TemporaryDirectory(prefix="tct-omp-") as tmp:
        src = os.path.join(tmp, "omp.cpp")
        with open(src, "w") as f:
            f.write("#include <omp.h>\nint main(){int n=0;\n#pragma omp parallel\n{n=omp_get_num_threads();}\nreturn n>0?0:1;}\n")
        try:
            r = subprocess.run([path, "-fopenmp", src, "-o", os.path.join(tmp, "omp")],
                               capture_output=True, text=True, timeout=60)
            out["openmp"] = r.returncode == 0
            if r.returncode != 0:
                out["openmp_error"] = (r.stderr.strip().splitlines() or ["unknown error"])[-1]
        except Exception as exc:
            out["openmp"] = False
            out["openmp_error"] = f"{type(exc).__name__}: {exc}"
    return out


def op_probe(params, session):
    """Facts about torch, backends, devices, Triton and the C++ compiler."""
    facts = {"python": {"version": platform.python_version(), "executable": sys.executable,
                        "implementation": platform.python_implementation(),
                        "version_info": list(sys.version_info[:3])}}
    progress("importing torch")
    torch = _import_torch()
    facts["torch"] = _torch_facts(torch)
    facts["backends"] = _try(lambda: _backends(torch))
    facts["devices"] = _try(lambda: _devices(torch))
    facts["openmp_runtime"] = bool(_try(lambda: torch.backends.openmp.is_available(), False))
    facts["triton"] = _triton()
    progress("checking the C++ compiler")
    facts["cpp_compiler"] = _cpp_compiler()
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
