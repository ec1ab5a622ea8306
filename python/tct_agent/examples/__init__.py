"""Built-in targets, usable as `builtin:NAME`: small, realistic workloads with seeded
random weights (nothing is downloaded). Each factory follows the target contract
(see tct_agent.target): keyword parameters in, `(fn, args)` out, and accepts `device`,
`dtype` (strings or None) and a size parameter such as `batch`.

Weights are made on the CPU in float32 under a fixed seed, then moved, so a builtin
has the same weights on every device and dtype.
"""
from __future__ import annotations

import inspect
from typing import Callable

from .models import convnet, graph_breaks, mlp, tiny_ops, transformer_block

BUILTINS: dict[str, tuple[Callable, str]] = {
    "mlp": (mlp, "MLP of Linear+GELU layers (compute bound at large batch/width)"),
    "convnet": (convnet, "small CNN: conv, batchnorm (eval), relu, pooling, linear head"),
    "transformer_block": (transformer_block,
                          "pre-norm transformer block: multi-head self-attention (SDPA) + MLP"),
    "tiny_ops": (tiny_ops, "chain of many tiny elementwise ops: Python-overhead bound, "
                           "fusion should win big"),
    "graph_breaks": (graph_breaks, "module with deliberate graph breaks (print, .item() in "
                                   "an if, a numpy call) returning a dict"),
}


def _defaults(factory: Callable) -> dict:
    return {name: p.default for name, p in inspect.signature(factory).parameters.items()
            if p.default is not inspect.Parameter.empty}


def list_builtins() -> list[dict]:
    """[{name, description, params: {name: default}}] in a stable order."""
    return [{"name": name, "description": desc, "params": _defaults(factory)}
            for name, (factory, desc) in BUILTINS.items()]


__all__ = ["BUILTINS", "list_builtins", "mlp", "convnet", "transformer_block", "tiny_ops",
           "graph_breaks"]
