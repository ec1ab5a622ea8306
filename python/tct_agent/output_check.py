"""Runs what the output check compares: eager twice, the compiled object once, and, when
some element is beyond its tolerance, a float64 copy of the target. Each run starts from
the same module state and the same seeds, so dropout and random ops draw the same numbers
in eager and compiled. Facts only (python/tct_agent/compare.py); C++ decides.

Inference: one call of the target as it is timed (`LoadedTarget.call`, under no_grad).
Training (--train): forward, the loss of the timed train step, backward, then one SGD step;
compared are the loss, the outputs, every parameter's gradient (and the gradient of every
input that requires one), the buffers after the forward (running statistics), and every
parameter after the step. Paths: `loss`, `out...`, `grad['fc.weight']`,
`input_grad[0]`, `buffer['bn.running_mean']`, `param_after_step['fc.weight']`.

The module's parameters and buffers are restored after every run, and the random
generators' states after the check, so the check leaves no trace on the timed calls.
"""
from __future__ import annotations

import copy
import random
import sys
import time
from typing import Any, Callable

from .compare import Node, difference_facts, out_of_tolerance, snapshot
from .target import LoadedTarget, _loss, move_to, tensor_leaves

SEED = 0
# SGD's step size for the state-after-step comparison: the step itself is exact arithmetic
# on both sides, so its size changes what the comparison sees only through rounding.
SGD_LR = 0.01


def seed_all(seed: int) -> None:
    """The same seed for every generator a target may draw from."""
    import torch
    random.seed(seed)
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(seed)
    torch.manual_seed(seed)  # CPU and every CUDA device


class _RngStates:
    """Saves the generators' states at construction, restores them on restore()."""

    def __init__(self):
        import torch
        self.py = random.getstate()
        np = sys.modules.get("numpy")
        self.np = np.random.get_state() if np is not None else None
        self.cpu = torch.get_rng_state()
        self.cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else None

    def restore(self) -> None:
        import torch
        random.setstate(self.py)
        if self.np is not None:
            sys.modules["numpy"].random.set_state(self.np)
        torch.set_rng_state(self.cpu)
        if self.cuda is not None:
            torch.cuda.set_rng_state_all(self.cuda)


def _rng_fingerprint():
    import torch
    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else []
    return [torch.get_rng_state()] + list(cuda)


class _ModuleState:
    """A copy of a module's buffers (and parameters, when a training step will change
    them), written back by restore(). Inference leaves parameters alone, so they are not
    copied: the check then costs no second copy of the weights."""

    def __init__(self, module, with_parameters: bool):
        self.module = module
        self.saved = {}
        if module is not None:
            import torch
            named = list(module.named_buffers())
            if with_parameters:
                named += list(module.named_parameters())
            with torch.no_grad():
                self.saved = {name: t.detach().clone() for name, t in named}

    def restore(self) -> None:
        if self.module is None:
            return
        import torch
        with torch.no_grad():
            for name, t in _named_state(self.module):
                if name in self.saved:
                    t.copy_(self.saved[name])
        for p in self.module.parameters():
            p.grad = None


def _named_state(module):
    yield from module.named_parameters()
    yield from module.named_buffers()


class Side:
    """One way of running the target: the callable and what it runs on."""

    def __init__(self, fn: Callable, module, args: tuple, kwargs: dict):
        self.fn, self.module, self.args, self.kwargs = fn, module, args, kwargs


def _inference(side: Side):
    """One call as `LoadedTarget.call` makes it for inference: under no_grad."""
    import torch
    with torch.no_grad():
        return snapshot(side.fn(*side.args, **side.kwargs))


def _train(side: Side):
    """Loss, outputs, gradients, buffers and parameters after one SGD step."""
    import torch
    params = list(side.module.named_parameters()) if side.module is not None else []
    grad_inputs = [(path, t) for path, t in tensor_leaves((side.args, side.kwargs), "input")
                   if t.requires_grad]
    for _, t in grad_inputs:
        t.grad = None
    with torch.enable_grad():
        out = side.fn(*side.args, **side.kwargs)
        loss = _loss(out)
        if loss is not None and loss.requires_grad:
            loss.backward()
    result: dict[str, Any] = {"loss": None if loss is None else loss.detach(), "out": out}
    result["grad"] = {n: p.grad for n, p in params if p.requires_grad}
    result["input_grad"] = {path: t.grad for path, t in grad_inputs}
    if side.module is not None:
        result["buffer"] = dict(side.module.named_buffers())
        trainable = [p for _, p in params if p.requires_grad and p.grad is not None]
        if trainable:
            torch.optim.SGD(trainable, lr=SGD_LR).step()
        result["param_after_step"] = {n: p for n, p in params if p.requires_grad}
    # Top-level names without brackets, so paths read `grad['fc.weight']`.
    return Node("train step", [(k, snapshot(v)) for k, v in result.items()], mapping=True)


def _float64_side(loaded: LoadedTarget) -> Side:
    """The target in float64: a copy of the module, the floating inputs cast."""
    import torch
    f64 = torch.float64
    module = copy.deepcopy(loaded.module).to(f64) if loaded.module is not None else None
    fn = module if module is not None else loaded.fn
    args = move_to(copy.deepcopy(loaded.args), dtype=f64)
    kwargs = move_to(copy.deepcopy(loaded.kwargs), dtype=f64)
    return Side(fn, module, tuple(args), kwargs)


def _moved(before) -> bool:
    return any(a.shape != b.shape or not bool((a == b).all())
               for a, b in zip(before, _rng_fingerprint()))


def run_check(loaded: LoadedTarget, compiled: Callable, tolerances: dict | None,
              reference: bool) -> dict:
    """Facts of eager-vs-eager and compiled-vs-eager under identical seeds, plus a float64
    reference when `reference` is set and some element is beyond its tolerance."""
    rng = _RngStates()
    state = _ModuleState(loaded.module, with_parameters=loaded.train)
    cost: dict[str, int] = {}
    run = _train if loaded.train else _inference
    root = "" if loaded.train else "out"
    used_rng = False

    def one(side: Side, name: str):
        nonlocal used_rng
        state.restore()
        seed_all(SEED)
        before = _rng_fingerprint()
        t0 = time.perf_counter_ns()
        try:
            return run(side)
        finally:
            cost[name] = cost.get(name, 0) + time.perf_counter_ns() - t0
            # Whether the target draws random numbers: a generator moved during an eager call.
            used_rng = used_rng or (side.fn is loaded.fn and _moved(before))

    eager = Side(loaded.fn, loaded.module, loaded.args, loaded.kwargs)
    try:
        first = one(eager, "eager_ns")
        second = one(eager, "eager_ns")
        actual = one(Side(compiled, loaded.module, loaded.args, loaded.kwargs), "compiled_ns")
        t0 = time.perf_counter_ns()
        self_facts = difference_facts(first, second, root=root)
        facts = difference_facts(first, actual, tolerances, root=root)
        cost["compare_ns"] = time.perf_counter_ns() - t0
        ref_info: dict[str, Any] = {"computed": False}
        if reference and out_of_tolerance(facts):
            t0 = time.perf_counter_ns()
            try:
                state.restore()
                side = _float64_side(loaded)
                seed_all(SEED)
                ref = run(side)
                facts = difference_facts(first, actual, tolerances, reference=ref, root=root)
                ref_info = {"computed": True, "dtype": "float64"}
            except Exception as exc:  # noqa: BLE001 - a target that cannot run in float64
                line = (str(exc).strip().splitlines() or [""])[0][:200]
                ref_info = {"computed": False, "dtype": "float64",
                            "reason": f"the target does not run in float64: "
                                      f"{type(exc).__name__}: {line}"}
            cost["reference_ns"] = time.perf_counter_ns() - t0
    finally:
        state.restore()
        rng.restore()
    return {"eager_vs_eager": self_facts, "compiled_vs_eager": facts,
            "eager_used_rng": used_rng, "seed": SEED, "reference": ref_info,
            "cost_ns": cost}
