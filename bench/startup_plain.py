"""A plain script that starts the way one `tct startup` mode does, with nothing of tct in
the way: launch, import torch, build the model, (compile,) call once, print the moment of
the first output. The independent reference for `tct startup` (bench/startup_oracle.py,
tests/e2e/test_startup.py).

    python bench/startup_plain.py MODE TARGET [JSON_PARAMS] [ARTIFACTS]

MODE: eager, cold or warm (torch.compile; the cache folders are whatever the caller's
TORCHINDUCTOR_CACHE_DIR holds), save (cold, then torch.compiler.save_cache_artifacts to
ARTIFACTS), shipped (load_cache_artifacts(ARTIFACTS) first). TARGET: builtin:NAME or
FILE.py:NAME, a factory returning (fn, args[, kwargs]). Prints time.monotonic_ns() at the
first output (CLOCK_MONOTONIC: the caller subtracts its own clock at launch).
"""
import importlib.util
import json
import sys
import time


def factory(target):
    kind, _, name = target.rpartition(":")
    if kind == "builtin":
        from tct_agent.examples import models
        return getattr(models, name)
    spec = importlib.util.spec_from_file_location("plain_target", kind)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(__import__("pathlib").Path(kind).resolve().parent))
    spec.loader.exec_module(module)
    return getattr(module, name)


def main():
    mode, target = sys.argv[1], sys.argv[2]
    params = json.loads(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else {}
    artifacts = sys.argv[4] if len(sys.argv) > 4 else None
    import torch
    if mode == "shipped":
        with open(artifacts, "rb") as f:
            torch.compiler.load_cache_artifacts(f.read())
    made = factory(target)(**params)
    fn, args = made[0], made[1]
    kwargs = made[2] if len(made) > 2 and made[2] else {}
    args = args if isinstance(args, tuple) else (args,)
    if mode != "eager":
        fn = torch.compile(fn)
    with torch.no_grad():
        fn(*args, **kwargs)
    first = time.monotonic_ns()
    if mode == "save":
        data, _ = torch.compiler.save_cache_artifacts()
        with open(artifacts, "wb") as f:
            f.write(data)
    print(first, flush=True)


if __name__ == "__main__":
    main()
