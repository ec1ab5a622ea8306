"""A job that runs torch.profiler itself, in the middle of its loop: from its 270th call (inside
the window tct run's sampler opens at a site's 256th call) for 20 calls, then 200 calls after.
It checks that its profiler saw its own calls, and prints how many ops it recorded."""
import torch

torch.set_num_threads(1)


def blend(a, b):
    return torch.sigmoid(a) * b + a.mean()


fn = torch.compile(blend, backend="aot_eager")
a, b = torch.randn(16), torch.randn(16)
for i in range(270):
    fn(a, b)
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
    for i in range(20):
        fn(a, b)
ops = [e for e in prof.events() if e.name == "aten::sigmoid"]
assert len(ops) == 20, len(ops)
for i in range(1200):
    fn(a, b)
print(f"profiles_itself: its profiler saw {len(ops)} sigmoid calls")
