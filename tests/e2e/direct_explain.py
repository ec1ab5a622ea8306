"""A direct `torch._dynamo.explain` call on a target, without tct: the reference that
`tct explain`'s counts are checked against, and the baseline of
bench/bench_explain_overhead.py.

    python tests/e2e/direct_explain.py TARGET [TARGET...] [--param k=v ...] [--compiled N]

TARGET is FILE.py:NAME or builtin:NAME. Prints one JSON line per target: graph_count, graph_break_count, op_count, guard_count and the
(file, line) of each break's innermost frame. Runs under torch.no_grad(), as tct does
for inference targets.

--compiled N adds "compiled": the target under torch.compile(backend="eager") called N
times (what tct explain's compiled run does, by default twice), counted by torch itself:
graph_breaks is the total of torch._dynamo.utils.counters["graph_break"], frames_skipped
is counters["frames"] total - ok (frames dynamo gave up on and ran eagerly). torch 2.13
leaves one kind of break out of counters["graph_break"]: a data-dependent branch in the
compiled frame itself (symbolic_convert.py's generic_jump logs the break and splits the
graph but files it under counters["unimplemented"]); tct counts it, as the graph split.
"""
import argparse
import importlib.util
import json
import os
import sys

import torch


def load_factory(spec):
    where, _, name = spec.rpartition(":")
    if where == "builtin":
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
        from tct_agent.examples import BUILTINS
        return BUILTINS[name][0]
    path = os.path.abspath(where)
    sys.path.insert(0, os.path.dirname(path))
    module_spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return getattr(module, name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("targets", nargs="+")
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--compiled", type=int, default=0)
    a = ap.parse_args()
    params = {}
    for kv in a.param:
        k, _, v = kv.partition("=")
        try:
            params[k] = json.loads(v)
        except ValueError:
            params[k] = v
    for target in a.targets:
        torch._dynamo.reset()
        facts = explain_one(target, params)
        if a.compiled:
            torch._dynamo.reset()
            facts["compiled"] = compiled_one(target, params, a.compiled)
        print(json.dumps(facts), flush=True)


def explain_one(target, params):
    made = load_factory(target)(**params)
    fn, args = made[0], made[1]
    kwargs = made[2] if len(made) > 2 and made[2] else {}
    if isinstance(args, torch.Tensor):
        args = (args,)
    with torch.no_grad():
        out = torch._dynamo.explain(fn)(*args, **kwargs)
    breaks = []
    for br in out.break_reasons:
        frame = br.user_stack[-1] if br.user_stack else None
        breaks.append({"file": frame.filename if frame else None, "line": frame.lineno if frame else None})
    return {"target": target, "graph_count": out.graph_count, "graph_break_count": out.graph_break_count,
            "op_count": out.op_count,
            "guard_count": len(out.out_guards) if out.out_guards is not None else None,
            "breaks": breaks}


def compiled_one(target, params, calls):
    from torch._dynamo.utils import counters
    made = load_factory(target)(**params)
    fn, args = made[0], made[1]
    kwargs = made[2] if len(made) > 2 and made[2] else {}
    if isinstance(args, torch.Tensor):
        args = (args,)
    counters.clear()
    compiled = torch.compile(fn, backend="eager")
    with torch.no_grad():
        for _ in range(calls):
            compiled(*args, **kwargs)
    frames = counters["frames"]
    out = {"graph_breaks": sum(counters["graph_break"].values()),
           "frames_total": frames["total"], "frames_skipped": frames["total"] - frames["ok"],
           "unique_graphs": counters["stats"]["unique_graphs"]}
    torch._dynamo.reset()
    return out


if __name__ == "__main__":
    main()
