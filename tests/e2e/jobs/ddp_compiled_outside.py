"""Two ranks (gloo, CPU) training a small model compiled from outside DDP:
torch.compile(DDP(model)), which makes Dynamo trace DDP's own forward. Run under torchrun:

    tct run -- torchrun --nproc-per-node 2 tests/e2e/jobs/ddp_compiled_outside.py
"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 24), nn.GELU(), nn.Linear(24, 3))
    ddp = torch.compile(DDP(model), backend="eager")
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05)
    for _ in range(6):
        x, y = torch.randn(8, 10), torch.randint(0, 3, (8,))
        loss = nn.functional.cross_entropy(ddp(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if dist.get_rank() == 0:
        print(f"ddp_compiled_outside: 6 steps on {dist.get_world_size()} ranks")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
