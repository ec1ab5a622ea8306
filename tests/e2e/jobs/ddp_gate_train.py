"""A two-rank DDP training loop on gloo (torchrun), its gated MLP compiled inside DDP.

GATE_MODE picks what the ranks do:
  same         every rank runs the same code (no divergence to find)
  rank_gate    rank 1 alone scales its hidden layer by a Python int it steps every call (the
               gate's `self.level`): Dynamo specializes on the int, so rank 1 recompiles on
               every call until its recompile limit, and rank 0 never does
  kill_compile rank 1 SIGKILLs itself inside its first compile (a backend that kills)
  kill_loop    rank 1 SIGKILLs itself after GATE_KILL_AT calls of its loop (1.5 s after the last)
GATE_BACKEND: the backend of every rank (aot_eager; inductor to exercise its caches).
GATE_WRAP: inside (DDP(torch.compile(model)), the default) or outside (torch.compile(DDP(model)):
Dynamo traces DDP's own forward and breaks in it).

Each rank writes torch's own compilation_metrics (the oracle of the tests) to
GATE_METRICS_DIR/metrics-<rank>.json at the end, and prints its step number as it goes. It
also appends one line per run to GATE_METRICS_DIR/runs-<rank>.jsonl: torch's own graph-break
count (torch._dynamo.utils.counters), the type torch.compile returned (which wrap order ran)
and its own timing of each call of the model, in order.
"""
import json
import os
import signal
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

MODE = os.environ.get("GATE_MODE", "same")
STEPS = int(os.environ.get("GATE_STEPS", "14"))
KILL_AT = int(os.environ.get("GATE_KILL_AT", "6"))


class GatedMLP(nn.Module):
    def __init__(self, rank):
        super().__init__()
        self.inp = nn.Linear(12, 24)
        self.out = nn.Linear(24, 3)
        self.gated = MODE == "rank_gate" and rank == 1
        self.level = 0

    def forward(self, x):
        h = torch.tanh(self.inp(x))
        if self.gated:
            h = h * (1 + self.level)  # an int attribute: a guard on its value
        return self.out(h)


def killing_backend(gm, example_inputs):
    os.kill(os.getpid(), signal.SIGKILL)


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(rank)
    model = GatedMLP(rank)
    backend = killing_backend if (MODE == "kill_compile" and rank == 1) else os.environ.get("GATE_BACKEND", "aot_eager")
    if os.environ.get("GATE_WRAP", "inside") == "outside":
        ddp = torch.compile(DDP(model), backend=backend)
    else:
        ddp = DDP(torch.compile(model, backend=backend))
    calls_ns = []
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    x, y = torch.randn(6, 12), torch.randint(0, 3, (6,))
    for step in range(STEPS):
        if MODE == "kill_loop" and rank == 1 and step == KILL_AT:
            time.sleep(1.5)  # past the recorder's flush interval: its calls so far are written
            os.kill(os.getpid(), signal.SIGKILL)
        t0 = time.perf_counter_ns()
        pred = ddp(x)
        calls_ns.append(time.perf_counter_ns() - t0)
        loss = nn.functional.cross_entropy(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.level += 1
        print(f"rank {rank} step {step + 1}", file=sys.stderr, flush=True)
    out = os.environ.get("GATE_METRICS_DIR")
    if out:
        from torch._dynamo.utils import get_compilation_metrics

        rows = [{"compile_id": m.compile_id, "co_name": m.co_name, "fail_type": m.fail_type,
                 "recompile_reason": m.recompile_reason} for m in get_compilation_metrics()]
        with open(os.path.join(out, f"metrics-{rank}.json"), "w") as f:
            json.dump(rows, f)
        from torch._dynamo.utils import counters

        with open(os.path.join(out, f"runs-{rank}.jsonl"), "a") as f:
            f.write(json.dumps({"graph_breaks": sum(counters["graph_break"].values()),
                                "compiled_type": type(ddp).__name__,
                                "call_ns": calls_ns}) + "\n")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
