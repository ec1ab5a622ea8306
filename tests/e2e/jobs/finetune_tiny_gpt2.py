"""Fine-tunes a tiny randomly initialized Hugging Face GPT-2 (AdamW, sequence lengths 32,
48 and 64): the compiled model's frames run inside transformers, and its backward runs in
loss.backward(), outside the compiled call. Offline: no weights are downloaded."""
import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
config = GPT2Config(vocab_size=128, n_positions=64, n_embd=32, n_layer=1, n_head=2)
model = GPT2LMHeadModel(config)
model.train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
steps = int(os.environ.get("STEPS", "12"))
t0 = time.perf_counter()
for step in range(steps):
    length = (32, 48, 64)[step % 3]
    ids = torch.randint(0, 128, (2, length))
    loss = compiled(input_ids=ids, labels=ids).loss
    loss.backward()
    opt.step()
    opt.zero_grad()
print(f"trained {steps} steps in {time.perf_counter() - t0:.2f} s, last loss {loss.item():.3f}")
