"""Two ranks that compile differently, for `tct run -- torchrun --nproc-per-node 2 ...`.

Each rank compiles the same small function; rank 1 also feeds it a second input shape, so it
compiles one more time than rank 0 (a recompile rank 0 never makes: in a real job, the kind
of difference that ends in a collective hang). CPU, gloo.

    torchrun --nproc-per-node 2 examples/ddp_ranks.py
    tct run -- torchrun --nproc-per-node 2 examples/ddp_ranks.py
"""
import os

import torch
import torch.distributed as dist


def step(x, w):
    return torch.relu(x @ w).sum(dim=1)


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    w = torch.randn(32, 32)
    fn = torch.compile(step, backend=os.environ.get("DDP_RANKS_BACKEND", "aot_eager"))
    total = torch.zeros(())
    for i in range(10):
        rows = 16 if (rank == 0 or i < 5) else 8  # rank 1 changes shape halfway: it recompiles
        total += fn(torch.randn(rows, 32), w).sum()
    dist.all_reduce(total)
    if rank == 0:
        print(f"ddp_ranks: done, {dist.get_world_size()} ranks")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
