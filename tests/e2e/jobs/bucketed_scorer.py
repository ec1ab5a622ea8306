"""A scoring service unlike examples/: requests of varying clip length (8 to 64 frames) and batch
size (1 to 4) through a small conv + MLP scorer whose forward breaks the graph once (a
`.item()`-driven branch, so its tail runs eagerly). It serves --requests requests, then prints
one checksum line (what tct job compares across modes) and exits. --prep N: an N x N matmul per
request outside the compiled site (feature extraction: torch's intra-op threads work on it). Backend from SCORER_BACKEND
(default aot_eager: compile cost, not codegen, is what the tests need)."""
import argparse
import os
import random

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--requests", type=int, default=60)
parser.add_argument("--prep", type=int, default=0)
parser.add_argument("--width", type=int, default=32)
args = parser.parse_args()


class Scorer(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv = torch.nn.Conv1d(8, width, 3, padding=1)
        self.head = torch.nn.Linear(width, 4)

    def forward(self, clips):
        h = torch.relu(self.conv(clips)).mean(dim=-1)
        if float(h.abs().max()) > 1e6:  # data-dependent: Dynamo breaks the graph here
            h = h / 1e6
        return torch.log_softmax(self.head(h), dim=-1)


torch.manual_seed(0)
rng = random.Random(1)
model = Scorer(args.width).eval()
scorer = torch.compile(model, backend=os.environ.get("SCORER_BACKEND", "aot_eager"))
checksum = 0.0
with torch.no_grad():
    for i in range(args.requests):
        batch, frames = rng.choice((1, 2, 4)), rng.choice((8, 16, 40, 64))
        clips = torch.randn(batch, 8, frames, generator=torch.Generator().manual_seed(i))
        if args.prep:
            feats = torch.ones(args.prep, args.prep) / args.prep
            clips = clips + float((feats @ feats).mean()) * 0
        checksum += float(scorer(clips).sum())
print(f"requests {args.requests} checksum {checksum:.4f}")
