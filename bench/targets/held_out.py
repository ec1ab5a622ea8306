"""Targets for the bench/ scripts, kept out of tct's own examples (held out: tct was not
tuned on them).

  elementwise(n_ops, size)  n_ops tiny elementwise ops on `size` floats: overhead bound,
                            compile fuses them into one kernel
  gpt2(layers, seq, batch)  a GPT-2 from a Hugging Face config (random weights), no download
"""
import torch


def elementwise(n_ops: int = 64, size: int = 32):
    def chain(x):
        for i in range(n_ops):
            x = torch.sin(x) * 1.01 if i % 3 == 0 else (x + 0.5 if i % 3 == 1 else torch.relu(x) - 0.1)
        return x
    return chain, (torch.randn(size),)


def gpt2(layers: int = 2, seq: int = 64, batch: int = 1):
    from transformers import GPT2Config, GPT2Model
    torch.manual_seed(0)
    cfg = GPT2Config(n_layer=layers, n_embd=256, n_head=4, n_positions=max(seq, 128), vocab_size=5000)
    model = GPT2Model(cfg).eval()
    ids = torch.randint(0, cfg.vocab_size, (batch, seq))
    return model, (ids,)
