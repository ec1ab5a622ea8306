"""Clips of varying length through a function compiled with dynamic=True: lengths 7 and 11
share one compile, then a one-frame clip fails torch's `2 <= x.size()[0]` guard (its 0/1
specialization) and recompiles. dynamic=True is already set: the fix tct gives must be
torch's own hint (mark_unbacked), not dynamic=True again."""
import torch


@torch.compile(backend="eager", dynamic=True)
def energy(clip):
    return (clip * clip).mean(dim=1).sqrt()


if __name__ == "__main__":
    for n in (7, 11, 1, 1, 9):
        energy(torch.randn(n, 16))
    print("dynamic_clip_lengths: 5 clips")
