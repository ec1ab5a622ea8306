"""Workloads for calibrating `tct expect` (bench/calibration/measure.py): tct targets
(`workloads.py:NAME`), each a factory returning (fn, args), seeded, CPU-sized.

Several kinds: chains of tiny ops (overhead bound), elementwise formulas on large tensors
(memory bound, fusible), matrix products, convolutions, attention, normalisations. The
calibration and validation sets (cases.py) use different factories or different shapes,
so the constants fitted on one are tested on work they were not fitted on.
"""
from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _seed(seed: int) -> None:
    torch.manual_seed(seed)


# ------------------------------------------------------------------ overhead bound

def poly_chain(n_ops: int = 40, size: int = 64, seed: int = 0):
    """`n_ops` arithmetic ops (mul, add) on a (size,) tensor: pure per-op overhead."""
    _seed(seed)

    def poly(x):
        for i in range(n_ops):
            x = x * 0.999 if i % 2 else x + 0.001
        return x
    return poly, (torch.randn(size),)


def trig_chain(n_ops: int = 30, size: int = 256, seed: int = 0):
    """`n_ops` transcendental ops (sin, cos, tanh, clamp) on a (size,) tensor."""
    _seed(seed)
    fns = (torch.sin, torch.cos, torch.tanh, lambda t: t.clamp(-0.9, 0.9))

    def trig(x):
        for i in range(n_ops):
            x = fns[i % len(fns)](x)
        return x
    return trig, (torch.randn(size),)


def clamp_chain(n_ops: int = 96, size: int = 16384, seed: int = 0):
    """`n_ops` plain elementwise ops (mul, add, clamp, neg) on a (size,) tensor: what a fused
    kernel still does per element once the per-op cost is gone."""
    _seed(seed)
    fns = (lambda t: t * 1.001, lambda t: t + 0.01, lambda t: t.clamp(-4.0, 4.0), torch.neg)

    def chain(x):
        for i in range(n_ops):
            x = fns[i % len(fns)](x)
        return x
    return chain, (torch.randn(size),)


def small_mlp_loop(steps: int = 8, dim: int = 32, seed: int = 0):
    """A recurrent cell applied `steps` times on a tiny batch: many small matmuls and
    pointwise ops, so per-op cost dominates."""
    _seed(seed)
    cell = nn.Sequential(nn.Linear(dim, dim), nn.Tanh()).eval()

    def loop(x):
        h = x
        for _ in range(steps):
            h = cell(h) + 0.5 * h
        return h
    return loop, (torch.randn(2, dim),)


# ------------------------------------------------------------- elementwise heavy

def gelu_tanh(numel: int = 1 << 20, seed: int = 0):
    """GELU's tanh approximation written out: 8 elementwise ops on `numel` floats."""
    _seed(seed)
    c = math.sqrt(2.0 / math.pi)

    def gelu(x):
        return 0.5 * x * (1.0 + torch.tanh(c * (x + 0.044715 * x * x * x)))
    return gelu, (torch.randn(numel),)


def swish_residual(numel: int = 1 << 21, seed: int = 0):
    """x * sigmoid(x) + scaled residual + bias: a memory-bound chain of 5 ops."""
    _seed(seed)

    def swish(x, r):
        return x * torch.sigmoid(x) + 0.1 * r - 0.05
    return swish, (torch.randn(numel), torch.randn(numel))


def rmsnorm(rows: int = 2048, dim: int = 512, seed: int = 0):
    """RMSNorm written in ops: pow, mean, rsqrt, mul, mul by a weight."""
    _seed(seed)
    w = torch.randn(dim)

    def norm(x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    return norm, (torch.randn(rows, dim),)


def layernorm_softmax(rows: int = 1024, dim: int = 512, seed: int = 0):
    """LayerNorm, then a scaled softmax: library-free reductions and pointwise ops."""
    _seed(seed)
    ln = nn.LayerNorm(dim).eval()

    def f(x):
        return torch.softmax(ln(x) * 0.125, dim=-1)
    return f, (torch.randn(rows, dim),)


# ------------------------------------------------------------------- matmul heavy

def linear_stack(batch: int = 256, width: int = 512, depth: int = 3, seed: int = 0):
    """`depth` Linear+ReLU layers: time in GEMMs."""
    _seed(seed)
    layers = []
    for _ in range(depth):
        layers += [nn.Linear(width, width), nn.ReLU()]
    model = nn.Sequential(*layers).eval()
    return model, (torch.randn(batch, width),)


def bmm_gated(batch: int = 16, n: int = 128, seed: int = 0):
    """Two batched matmuls with a gate between them."""
    _seed(seed)
    w1, w2 = torch.randn(n, n) / n ** 0.5, torch.randn(n, n) / n ** 0.5

    def f(x):
        h = torch.matmul(x, w1)
        return torch.matmul(h * torch.sigmoid(h), w2)
    return f, (torch.randn(batch, n, n),)


def ffn_residual(batch: int = 64, dim: int = 256, seed: int = 0):
    """A transformer feed-forward block: LayerNorm, Linear, GELU, Linear, residual."""
    _seed(seed)
    ln, up, down = nn.LayerNorm(dim).eval(), nn.Linear(dim, 4 * dim).eval(), nn.Linear(4 * dim, dim).eval()

    def f(x):
        return x + down(F.gelu(up(ln(x))))
    return f, (torch.randn(batch, dim),)


# ------------------------------------------------------------------- reductions

def row_stats(rows: int = 512, dim: int = 1024, seed: int = 0):
    """Per-row statistics: mean, variance, max, log-sum-exp, combined elementwise."""
    _seed(seed)

    def f(x):
        return x.mean(-1) + x.var(-1) - x.amax(-1) + torch.logsumexp(x, -1)
    return f, (torch.randn(rows, dim),)


# --------------------------------------------------------------------------- conv

def conv_block(batch: int = 4, channels: int = 32, size: int = 32, seed: int = 0):
    """Conv-BN-ReLU twice with a residual (ResNet basic block, eval)."""
    _seed(seed)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            c = channels
            self.c1, self.b1 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
            self.c2, self.b2 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)

        def forward(self, x):
            return F.relu(x + self.b2(self.c2(F.relu(self.b1(self.c1(x))))))
    return Block().eval(), (torch.randn(batch, channels, size, size),)


def depthwise_block(batch: int = 4, channels: int = 64, size: int = 28, seed: int = 0):
    """MobileNet-style: depthwise 3x3, BN, ReLU6, pointwise 1x1, BN."""
    _seed(seed)
    c = channels
    model = nn.Sequential(nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False), nn.BatchNorm2d(c),
                          nn.ReLU6(), nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c)).eval()
    return model, (torch.randn(batch, c, size, size),)


# ---------------------------------------------------------------------- attention

def attention(batch: int = 2, seq: int = 128, dim: int = 128, heads: int = 4, seed: int = 0):
    """Multi-head self-attention with SDPA and projections, no MLP."""
    _seed(seed)
    qkv, proj = nn.Linear(dim, 3 * dim).eval(), nn.Linear(dim, dim).eval()

    def f(x):
        b, s, d = x.shape
        q, k, v = qkv(x).split(d, dim=-1)
        q, k, v = (t.view(b, s, heads, d // heads).transpose(1, 2) for t in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return proj(a.transpose(1, 2).reshape(b, s, d))
    return f, (torch.randn(batch, seq, dim),)


# ---------------------------------------------------- transformers (optional extra)

def hf_model(arch: str = "gpt2", batch: int = 2, seq: int = 32, seed: int = 0):
    """A Hugging Face model from a small config (no download), random weights."""
    import transformers as tf
    _seed(seed)
    small = dict(num_hidden_layers=2, num_attention_heads=4, hidden_size=128, intermediate_size=256,
                 vocab_size=1000)
    if arch == "gpt2":
        model = tf.GPT2Model(tf.GPT2Config(n_layer=2, n_head=4, n_embd=128, vocab_size=1000))
    elif arch == "bert":
        model = tf.BertModel(tf.BertConfig(**small))
    elif arch == "llama":
        model = tf.LlamaModel(tf.LlamaConfig(num_key_value_heads=4, **small))
    elif arch == "t5":
        model = tf.T5EncoderModel(tf.T5Config(num_layers=2, num_heads=4, d_model=128, d_kv=32, d_ff=256,
                                              vocab_size=1000))
    elif arch == "gpt_neox":
        model = tf.GPTNeoXModel(tf.GPTNeoXConfig(**small))
    elif arch == "qwen2":
        model = tf.Qwen2Model(tf.Qwen2Config(num_key_value_heads=2, **small))
    elif arch == "opt":
        model = tf.OPTModel(tf.OPTConfig(num_hidden_layers=2, num_attention_heads=4, hidden_size=128,
                                         ffn_dim=256, word_embed_proj_dim=128, vocab_size=1000))
    elif arch == "vit":
        model = tf.ViTModel(tf.ViTConfig(image_size=32, patch_size=8, **small),
                            add_pooling_layer=False)
        model.eval()
        return (lambda pixel_values: model(pixel_values=pixel_values).last_hidden_state), \
            (torch.randn(batch, 3, 32, 32),)
    else:
        raise ValueError(f"arch must be gpt2, bert, llama, t5, vit, opt, gpt_neox or qwen2, not {arch!r}")
    model.eval()
    ids = torch.randint(0, 1000, (batch, seq))
    return (lambda input_ids: model(input_ids=input_ids).last_hidden_state), (ids,)
