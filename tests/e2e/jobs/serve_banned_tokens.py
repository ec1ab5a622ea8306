"""A token-generation service loop: a compiled decoder whose forward checks for NaN (a
data-dependent branch: a graph break) and takes a Python list of banned token ids, so the
code after the break is specialized on the list's values and recompiles for every request
until Dynamo's recompile limit; from then on that part runs eagerly, silently."""
import argparse

import torch


class TinyDecoder(torch.nn.Module):
    def __init__(self, vocab=64, width=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, width)
        self.mix = torch.nn.Linear(width, width)
        self.head = torch.nn.Linear(width, vocab)

    def forward(self, tokens, banned):
        h = torch.tanh(self.mix(self.embed(tokens)))
        if torch.isnan(h).any():  # data-dependent: Dynamo breaks the graph here
            h = torch.nan_to_num(h)
        logits = self.head(h)[:, -1]
        for t in banned:  # a Python list: each new list is a new guard on its values
            logits[:, t] = float("-inf")
        return logits.argmax(-1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--requests", type=int, default=14)
    p.add_argument("--steps", type=int, default=6)
    args = p.parse_args()
    torch.manual_seed(0)
    model = torch.compile(TinyDecoder().eval(), backend="eager")
    served = 0
    with torch.no_grad():
        for request in range(args.requests):
            tokens = torch.randint(0, 64, (1, 8))
            banned = [request * 5 % 64]
            for _ in range(args.steps):
                nxt = model(tokens, banned)
                tokens = torch.cat([tokens[:, 1:], nxt[:, None]], dim=1)
            served += 1
    from torch._dynamo.utils import counters
    print(f"served {served} requests; unique_graphs={counters['stats']['unique_graphs']}")


if __name__ == "__main__":
    main()
