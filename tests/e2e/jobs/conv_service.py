"""A small service: builds service_model's conv net, compiles its forward, answers a few
requests and prints a checksum (tct startup -- CMD against tct startup service_model.py:make_model)."""
import sys

import torch

from service_model import build

model, request = build()
serve = torch.compile(model)
requests = int(sys.argv[1]) if len(sys.argv) > 1 else 5
checksum = 0.0
with torch.no_grad():
    for i in range(requests):
        checksum += float(serve(request + i).sum())
print(f"answered {requests} requests, checksum {checksum:.4f}")
