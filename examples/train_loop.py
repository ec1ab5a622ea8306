"""A small training job for `tct run`: a compiled MLP, a loop of steps, one input-shape change
that recompiles, and a print inside forward that breaks the graph.

    python examples/train_loop.py                 # compiled (inductor)
    python examples/train_loop.py --eager         # the same job without torch.compile
    tct run -- python examples/train_loop.py      # what compile did here, per call site

It prints its own timing of the model's calls (median of the steady calls: all but the two
that compile, at the start and at the shape change, and the call after each), so
bench/run_compare_eager.py can check tct's per-site figures against the job's own.
"""
import argparse
import io
import statistics
import time

import torch


class MLP(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.ReLU(), torch.nn.Linear(width, width),
                                       torch.nn.ReLU(), torch.nn.Linear(width, 8))
        self.log = io.StringIO()  # the print below goes here: it breaks the graph without flooding stdout

    def forward(self, x):
        h = self.net[0](x).relu()
        print("activations", h.shape[0], file=self.log)  # a graph break: print is not traceable
        return self.net[2:](h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--width", type=int, default=256)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--eager", action="store_true", help="do not compile")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: steady timing on a shared machine)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    model = MLP(a.width)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    run = model if a.eager else torch.compile(model, backend=a.backend)
    change_at = a.steps * 9 // 10  # from here the batch is smaller: a new shape, a recompile
    times = []
    for step in range(a.steps):
        batch = a.batch if step < change_at else a.batch // 2
        x = torch.randn(batch, a.width)
        t0 = time.perf_counter_ns()
        out = run(x)
        times.append(time.perf_counter_ns() - t0)
        loss = out.square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    # The calls tct counts as steady: all but each compiling call (the first, the one at the
    # shape change) and the call right after it.
    steady = [t for i, t in enumerate(times) if i not in (0, 1, change_at, change_at + 1)]
    print(f"train_loop: {a.steps} steps, {'eager' if a.eager else 'compiled'}, "
          f"median steady call {statistics.median(steady) / 1e3:.1f} us over {len(steady)} calls")


if __name__ == "__main__":
    main()
