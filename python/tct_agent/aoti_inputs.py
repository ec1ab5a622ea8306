"""The example inputs of an AOTInductor package, in a form Python and C++ both read.

A folder with `tensors.bin` (each tensor's bytes, contiguous, one after another) and
`tensors.json` ({"tensors": [{dtype, shape, offset, nbytes}], "spec": the pytree spec of
(args, kwargs)}). The C++ runner (tools/aoti_runner/main.cpp) reads the same two files, so a package
is called with the very same inputs from either side, and writes its outputs in the same
form, which `read_tensors` reads back for the check against eager.
"""
from __future__ import annotations

import json
import os

# torch dtype name -> the name the C++ runner maps to its ScalarType (tools/aoti_runner/main.cpp).
_DTYPES = ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool")


def _write(folder: str, tensors: list, extra: dict) -> dict:
    import torch
    os.makedirs(folder, exist_ok=True)
    entries, offset = [], 0
    with open(os.path.join(folder, "tensors.bin"), "wb") as f:
        for t in tensors:
            name = str(t.dtype).removeprefix("torch.")
            if name not in _DTYPES:
                raise ValueError(f"an input of dtype {name} cannot be passed to the C++ runner")
            data = t.detach().cpu().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes()
            f.write(data)
            entries.append({"dtype": name, "shape": list(t.shape), "offset": offset, "nbytes": len(data)})
            offset += len(data)
    with open(os.path.join(folder, "tensors.json"), "w") as f:
        json.dump({"tensors": entries, **extra}, f)
    return {"count": len(entries), "bytes": offset}


def write_tensors(folder: str, tensors: list) -> dict:
    return _write(folder, tensors, {})


def write_inputs(folder: str, args, kwargs) -> dict:
    import torch.utils._pytree as pytree
    leaves, spec = pytree.tree_flatten((tuple(args), dict(kwargs)))
    return _write(folder, leaves, {"spec": pytree.treespec_dumps(spec)})


def read_tensors(folder: str, device=None) -> list:
    import torch
    with open(os.path.join(folder, "tensors.json")) as f:
        meta = json.load(f)
    with open(os.path.join(folder, "tensors.bin"), "rb") as f:
        blob = bytearray(f.read())
    out = []
    for e in meta["tensors"]:
        raw = torch.frombuffer(blob, dtype=torch.uint8, count=e["nbytes"], offset=e["offset"]) \
            if e["nbytes"] else torch.empty(0, dtype=torch.uint8)
        t = raw.view(getattr(torch, e["dtype"])).reshape(e["shape"]).clone()
        out.append(t.to(device) if device else t)
    return out


def read_inputs(folder: str, device=None):
    """(args, kwargs) as write_inputs saw them."""
    import torch.utils._pytree as pytree
    with open(os.path.join(folder, "tensors.json")) as f:
        spec = pytree.treespec_loads(json.load(f)["spec"])
    args, kwargs = pytree.tree_unflatten(read_tensors(folder, device), spec)
    return args, kwargs
