"""Sequences of three lengths through a compiled attention-like block: the second length
fails the static size guard and recompiles (then with a dynamic dimension); no fallback."""
import torch


def block(q, k):
    w = torch.softmax(q @ k.transpose(-1, -2) / 4.0, dim=-1)
    return (w @ k).mean()


fast = torch.compile(block, backend="eager")
acc = 0.0
for length in (16, 24, 40, 16, 24, 40):
    q = torch.randn(2, length, 16)
    acc += float(fast(q, q))
print(f"acc {acc:.4f}")
