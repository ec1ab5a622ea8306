"""A feature pipeline whose compiled function calls a helper that prints (a graph break
inside a nested call), so Dynamo compiles the helper as a frame of its own; the helper
takes the batch's tag, a Python string that changes every batch, so that frame recompiles
per value until the limit and then runs eagerly."""
import torch

torch._dynamo.config.recompile_limit = 4


def rescale(x, tag):
    print("rescaling", tag)  # a graph break inside the nested call
    return x * 0.5 + 1.0 if tag.endswith("0") else x - 1.0


@torch.compile(backend="eager")
def pipeline(x, tag):
    y = torch.relu(x @ x.T)
    return rescale(y, tag).sum()


total = 0.0
for batch in range(10):
    total += float(pipeline(torch.randn(6, 6), f"batch-{batch}"))
print(f"pipeline total {total:.3f}")
