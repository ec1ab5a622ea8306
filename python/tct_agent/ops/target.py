"""Ops `target.load` and `target.builtins`.

`target.load` params: {target: SPEC, params: {..}|null, device: str|null,
dtype: str|null, train: bool}. It stores a tct_agent.target.LoadedTarget in
`session.target`; with train=true its `.step` is the train step (make_train_step).
Other ops run the target with `session.target.call()` (eager) or
`session.target.call(compiled_fn)` (a compiled version of `session.target.fn`), which
applies the same grad mode / train step to both. Loading a new target drops the
compiled objects of the previous one (`session.compiled`).
"""
from __future__ import annotations

import os

from .. import timing
from ..errors import TctError
from ..target import load_target, make_train_step


def _apply_threads() -> None:
    """--threads: OMP_NUM_THREADS already sized torch's pool at import; set it explicitly too,
    in case the user's environment or a library set it otherwise."""
    n = os.environ.get("TCT_THREADS")
    if n:
        import torch
        torch.set_num_threads(int(n))


def op_load(params: dict, session) -> dict:
    spec = params.get("target")
    if not isinstance(spec, str) or not spec:
        raise TctError("bad_target", "no target given",
                       "give the target as FILE.py:NAME, package.module:NAME or builtin:NAME")
    factory_params = params.get("params") or {}
    if not isinstance(factory_params, dict):
        raise TctError("bad_param", "target parameters must be a JSON object",
                       "pass them as --param NAME=VALUE")
    for key in ("device", "dtype"):
        if params.get(key) is not None and not isinstance(params.get(key), str):
            raise TctError("bad_param", f"{key} must be a string",
                           f"e.g. --{key} {'cuda' if key == 'device' else 'bfloat16'}")
    # Before the target allocates: every agent's malloc alike (tct's default, --allocator
    # settled). --allocator system (TCT_SETTLE_ALLOCATOR=0) leaves malloc as a process starts.
    if os.environ.get("TCT_SETTLE_ALLOCATOR", "1") != "0":
        timing.settle_allocator()
    _apply_threads()
    loaded = load_target(spec, factory_params, device=params.get("device"),
                         dtype=params.get("dtype"))
    if params.get("train"):
        loaded.train = True
        loaded.step = make_train_step(loaded)
    session.target = loaded
    session.compiled.clear()
    return loaded.describe()


def op_builtins(params: dict, session) -> dict:
    from ..examples import list_builtins
    return {"builtins": list_builtins()}
