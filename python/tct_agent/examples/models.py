"""The built-in workloads. Each factory returns (fn, args) per the target contract."""
from __future__ import annotations

import contextlib

import torch
import torch.nn as nn
import torch.nn.functional as F

try:
    import numpy as np  # only builtin:graph_breaks needs it; torch and the others run without
except ImportError:
    np = None


@contextlib.contextmanager
def _seeded(seed: int):
    """Seed torch's CPU generator without disturbing the caller's random state."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        yield


def _place(model: nn.Module | None, inputs: tuple, device, dtype):
    """Move the model and the floating inputs to device/dtype (strings or None)."""
    dev = torch.device(device) if device is not None else None
    dt = getattr(torch, str(dtype).removeprefix("torch.")) if dtype is not None else None
    if model is not None:
        model.to(device=dev, dtype=dt) if dt is not None else model.to(device=dev)
    out = []
    for t in inputs:
        if isinstance(t, torch.Tensor):
            t = t.to(device=dev, dtype=dt if (dt is not None and t.is_floating_point())
                     else t.dtype)
        out.append(t)
    return tuple(out)


# ----------------------------------------------------------------------------- mlp

class MLP(nn.Module):
    def __init__(self, in_features: int, width: int, depth: int, out_features: int):
        super().__init__()
        layers: list[nn.Module] = []
        d = in_features
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.GELU()]
            d = width
        layers.append(nn.Linear(d, out_features))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


def mlp(batch: int = 32, width: int = 256, depth: int = 3, in_features: int | None = None,
        out_features: int | None = None, seed: int = 0, device=None, dtype=None):
    """An MLP: `depth` hidden Linear+GELU layers of `width`, then a Linear head."""
    in_features = in_features or width
    out_features = out_features or width
    with _seeded(seed):
        model = MLP(in_features, width, depth, out_features).eval()
        x = torch.randn(batch, in_features)
    return model, _place(model, (x,), device, dtype)


# ------------------------------------------------------------------------- convnet

class ConvNet(nn.Module):
    def __init__(self, channels: int, num_classes: int):
        super().__init__()
        c = channels

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False),
                                 nn.BatchNorm2d(cout), nn.ReLU(inplace=True))
        self.features = nn.Sequential(block(3, c), block(c, c), nn.MaxPool2d(2),
                                      block(c, 2 * c), nn.MaxPool2d(2), block(2 * c, 4 * c))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(4 * c, num_classes)

    def forward(self, x):
        return self.head(torch.flatten(self.pool(self.features(x)), 1))


def convnet(batch: int = 8, channels: int = 16, size: int = 32, num_classes: int = 10,
            seed: int = 0, device=None, dtype=None):
    """A small CNN on `size`x`size` RGB images; batchnorm in eval mode with non-trivial
    running statistics (so folding it into the conv actually changes numbers)."""
    with _seeded(seed):
        model = ConvNet(channels, num_classes)
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
                nn.init.uniform_(m.weight, 0.5, 1.5)
                nn.init.uniform_(m.bias, -0.1, 0.1)
        model.eval()
        x = torch.randn(batch, 3, size, size)
    return model, _place(model, (x,), device, dtype)


# --------------------------------------------------------------- transformer block

class TransformerBlock(nn.Module):
    """Pre-norm block: x + attn(ln1(x)); x + mlp(ln2(x))."""

    def __init__(self, dim: int, heads: int, mlp_ratio: int, causal: bool):
        super().__init__()
        if dim % heads:
            raise ValueError(f"dim ({dim}) must be divisible by heads ({heads})")
        self.heads, self.causal = heads, causal
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_ratio * dim), nn.GELU(),
                                 nn.Linear(mlp_ratio * dim, dim))

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q, k, v = (t.view(b, s, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        x = x + self.proj(a.transpose(1, 2).reshape(b, s, d))
        return x + self.mlp(self.ln2(x))


def transformer_block(batch: int = 4, seq: int = 64, dim: int = 128, heads: int = 4,
                      mlp_ratio: int = 4, causal: bool = True, seed: int = 0,
                      device=None, dtype=None):
    """One pre-norm transformer block (multi-head self-attention via
    F.scaled_dot_product_attention, then a GELU MLP) on (batch, seq, dim) inputs."""
    with _seeded(seed):
        model = TransformerBlock(dim, heads, mlp_ratio, causal).eval()
        x = torch.randn(batch, seq, dim)
    return model, _place(model, (x,), device, dtype)


# ------------------------------------------------------------------------ tiny ops

def _scale_up(x):
    return x * 1.01


def _shift(x):
    return x + 0.01


def _scale_down(x):
    return x * 0.99


def _unshift(x):
    return x - 0.005


# Bounded ops: the chain stays within [-1.1, 1.1] however long it is.
_TINY_OPS = (_scale_up, torch.sin, _shift, torch.tanh, _scale_down, torch.cos, _unshift,
             torch.sigmoid)


def tiny_ops(batch: int = 1, size: int = 64, n_ops: int = 60, seed: int = 0,
             device=None, dtype=None):
    """A function chaining `n_ops` elementwise ops on a tiny (batch, size) tensor. Each
    eager op launches its own kernel and pays Python dispatch; compiled, they fuse into
    one kernel, so the speedup is about overhead, not arithmetic."""
    if n_ops < 1:
        raise ValueError("n_ops must be >= 1")
    ops = [_TINY_OPS[i % len(_TINY_OPS)] for i in range(n_ops)]

    def tiny_ops_chain(x):
        for op in ops:
            x = op(x)
        return x

    with _seeded(seed):
        x = torch.randn(batch, size)
    return tiny_ops_chain, _place(None, (x,), device, dtype)


# -------------------------------------------------------------------- graph breaks

# Calibration curve applied with numpy: np.interp has no torch equivalent that Dynamo
# traces, so it is a graph break (Dynamo: "attempted to trace numpy function
# unsupported by PyTorch").
_CALIB_X = np.linspace(-3.0, 3.0, 7) if np is not None else None
_CALIB_Y = np.tanh(_CALIB_X) * 1.5 if np is not None else None


class GraphBreaks(nn.Module):
    """Three deliberate graph breaks, each of a common kind:

    1. `print(...)` of a debug message (builtin print is not traceable);
    2. `.item()` used in a Python `if` (data-dependent control flow);
    3. a numpy call (`np.interp`) on the tensor's data.
    Returns a dict with a list inside, to exercise pytree outputs.
    """

    def __init__(self, dim: int, verbose: bool):
        super().__init__()
        self.verbose = verbose
        self.inp = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        h = F.relu(self.inp(x))
        if self.verbose:
            print(f"graph_breaks: hidden mean {float(h.detach().mean()):.4f}")
        else:
            print("graph_breaks: forward")
        if h.mean().item() > 0.25:                      # break: .item() in control flow
            h = h * 0.5
        else:
            h = h + 0.1
        calibrated = np.interp(h.detach().float().cpu().numpy(), _CALIB_X, _CALIB_Y)
        c = torch.as_tensor(calibrated, dtype=h.dtype, device=h.device)
        logits = self.out(h + c)
        return {"logits": logits, "features": [h, c.mean(dim=-1)],
                "score": logits.float().abs().mean()}


def graph_breaks(batch: int = 4, dim: int = 32, verbose: bool = False, seed: int = 0,
                 device=None, dtype=None):
    """A module with a print, an .item() in an `if`, and a numpy call (>= 3 graph
    breaks), returning {'logits', 'features': [h, c], 'score'}."""
    if np is None:
        raise ModuleNotFoundError("builtin:graph_breaks calls numpy, which is not installed here: pip install numpy")
    with _seeded(seed):
        model = GraphBreaks(dim, verbose).eval()
        x = torch.randn(batch, dim)
    return model, _place(model, (x,), device, dtype)


__all__ = ["mlp", "convnet", "transformer_block", "tiny_ops", "graph_breaks",
           "MLP", "ConvNet", "TransformerBlock", "GraphBreaks"]
