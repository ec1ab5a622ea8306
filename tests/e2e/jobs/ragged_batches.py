"""A scoring loop whose requests come in batches of 1 to 6 rows and, every third request, with
a longer context: a module's forward takes the rows positionally and a mask by keyword. The
job writes what it sent (its own count of the shapes it passed) and torch's own counters to
the file named by argv[1]: the oracle that tct run's shape counts are held to."""
import json
import sys

import torch
from torch._dynamo.utils import counters


class Scorer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(12, 4)

    def forward(self, rows, *, mask):
        return (self.proj(rows).sum(dim=-1) * mask).sum(dim=-1)


torch.manual_seed(0)
scorer = torch.compile(Scorer().eval(), backend="eager")
sent = {}
with torch.no_grad():
    for i in range(30):
        batch, context = 1 + (i * 5) % 6, 16 if i % 3 == 2 else 8
        rows, mask = torch.randn(batch, context, 12), torch.ones(batch, context)
        key = f"{batch}x{context}"
        sent[key] = sent.get(key, 0) + 1
        scorer(rows, mask=mask)
with open(sys.argv[1], "w") as f:
    json.dump({"sent": sent, "unique_graphs": counters["stats"]["unique_graphs"]}, f)
print(f"scored {sum(sent.values())} requests")
