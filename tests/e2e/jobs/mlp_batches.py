"""A tiny MLP service whose requests come in batches of 3 to 11 rows (every size in between, in
a shuffled order, the largest not first): the job prints each request's batch size and
checksum, then the smallest and largest batch it sent, its own record of the sizes an
AOTInductor export must cover. With --gate, the requests go instead through a function that
branches on a tensor's value (data-dependent control flow: torch.compile breaks the graph there,
torch.export cannot take it)."""
import sys

import torch


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))

    def forward(self, x):
        return self.net(x)


def gate(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


def make_model():
    """The model the service runs (also what a plain script rebuilds to compute eager's outputs)."""
    torch.manual_seed(0)
    return MLP().eval()


def batches(requests):
    return [3 + (i * 4) % 9 for i in range(requests)]  # 3, 7, 11, 6, 10, 5, 9, 4, 8, 3, ...


def request(i, batch):
    g = torch.Generator().manual_seed(1000 + i)
    return torch.randn(batch, 16, generator=g)


def main():
    use_gate = "--gate" in sys.argv
    # backend="eager": the compiled modes stay cheap; the AOTInductor mode exports what was given.
    service = torch.compile(gate if use_gate else make_model(), backend="eager")
    sent = batches(30)
    with torch.no_grad():
        for i, batch in enumerate(sent):
            out = service(request(i, batch))
            print(f"request {i}: batch {batch}, checksum {float(out.sum()):.5f}")
    print(f"batch sizes {min(sent)}..{max(sent)}")


if __name__ == "__main__":
    main()
