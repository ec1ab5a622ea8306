"""A tiny MLP that scores requests arriving in batches whose size is drawn from a seeded list
(3, 5, 7, 9 or 11 rows), 12 features each: the forward's `feats` changes size in dim 0 only.
Prints a checksum of the scores every 8 requests and at the end (the output every way of running
it must keep). Backend from MLP_BACKEND (default aot_eager: compile cost, not codegen, is what
the tests need). make_model() and batches() let a plain script rebuild the same model and inputs."""
import os
import random
import sys

import torch

FEATURES = 12
SIZES = (3, 5, 7, 9, 11)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = torch.nn.Linear(FEATURES, 16)
        self.out = torch.nn.Linear(16, 1)

    def forward(self, feats):
        return self.out(torch.tanh(self.hidden(feats))).squeeze(-1)


def make_model():
    torch.manual_seed(0)
    return MLP().eval()


def batches(requests, seed=7):
    """The requests' inputs: a batch size from SIZES drawn by a seeded generator, then rows."""
    pick = random.Random(seed)
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(pick.choice(SIZES), FEATURES, generator=gen) for _ in range(requests)]


def main():
    requests = int(sys.argv[1]) if len(sys.argv) > 1 else 48
    model = make_model()
    scorer = torch.compile(model, backend=os.environ.get("MLP_BACKEND", "aot_eager"))
    total = 0.0
    with torch.no_grad():
        for i, feats in enumerate(batches(requests), 1):
            total += float(scorer(feats).sum())
            if i % 8 == 0:
                print(f"after {i} requests: score sum {total:.4f}")
    print(f"scored {requests} requests: score sum {total:.4f}")


if __name__ == "__main__":
    main()
