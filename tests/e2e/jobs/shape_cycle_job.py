"""An overhead-bound job for tests/e2e/test_run_breakdown.py and bench/run_breakdown_figures.py: a compiled function of a few small
ops, called in a loop over ENTRIES input shapes (compiled with dynamic=False, each shape is a
cache entry of its own; torch moves a hit entry to the front, so each call needs the least
recently used one) with a Python float global that makes a guard of its own.

  python shape_cycle_job.py ENTRIES CALLS          the job (tct run runs it as it is)
  python shape_cycle_job.py ENTRIES CALLS --plain  the oracle: the same calls, then 300 more
                                                   under torch.profiler.profile (the public API);
                                                   prints the median of torch's own "TorchDynamo
                                                   Cache Lookup" event, ns
"""
import statistics
import sys

import torch

torch.set_num_threads(1)
GAIN = 1.5


def step(x, bias):
    return torch.tanh(x * GAIN + bias).sum(dim=-1)


def main(entries: int, calls: int, plain: bool) -> None:
    fn = torch.compile(step, backend="aot_eager", dynamic=False)
    torch.manual_seed(3)
    xs = [torch.randn(2 + k, 5) for k in range(entries)]
    bias = torch.randn(5)
    with torch.no_grad():
        for i in range(calls):
            fn(xs[i % entries], bias)
        if not plain:
            print(f"shape_cycle_job: {calls} calls over {entries} shapes")
            return
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as p:
            for i in range(300):
                fn(xs[i % entries], bias)
    print(statistics.median(e.cpu_time_total for e in p.events() if e.name == "TorchDynamo Cache Lookup") * 1e3)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), "--plain" in sys.argv[3:])
