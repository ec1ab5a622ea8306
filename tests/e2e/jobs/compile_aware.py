"""A job whose printed result depends on whether its function runs compiled: it asks
torch.compiler.is_compiling() inside the compiled function (true while Dynamo traces it, so the
compiled graph keeps the +1; false when the call runs eagerly). tct job must flag the compiled
modes' output and never recommend them."""
import torch


def score(x):
    return x.sum() + (1.0 if torch.compiler.is_compiling() else 0.0)


fast = torch.compile(score, backend="eager")
total = 0.0
for n in (4, 4, 4):
    total += float(fast(torch.ones(n)))
print(f"total {total:.3f}")
