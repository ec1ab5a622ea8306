"""A request loop of small matrix products (torch's intra-op threads split each one): on a
machine whose cores are busy, a thread waiting for a core holds the whole call up."""
import torch


@torch.compile(backend="eager")
def score(a, b):
    return torch.relu(a @ b).sum(dim=1)


torch.manual_seed(0)
a, b = torch.randn(192, 192), torch.randn(192, 192)
total = 0.0
for _ in range(400):
    total += float(score(a, b)[0])
print(f"threads {torch.get_num_threads()} total {total:.1f}")
