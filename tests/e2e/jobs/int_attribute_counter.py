"""A module that counts its own calls in an int attribute and uses the count in forward:
every new value is a new guard (nn.Module int attributes are specialized), so it
recompiles each step until the limit."""
import torch


class Smoother(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)
        self.seen = 0

    def forward(self, x):
        self.seen += 1
        return self.proj(x) / (1 + self.seen)


torch._dynamo.config.recompile_limit = 5
net = torch.compile(Smoother(), backend="eager")
out = None
for _ in range(9):
    out = net(torch.randn(3, 8))
print("last norm", float(out.norm()))
