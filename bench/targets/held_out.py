"""Targets for the bench/ scripts, kept out of tct's own examples (held out: tct was not
tuned on them).

  elementwise(n_ops, size)  n_ops tiny elementwise ops on `size` floats: overhead bound,
                            compile fuses them into one kernel
  gpt2(layers, seq, batch)  a GPT-2 from a Hugging Face config (random weights), no download
  resnet18(batch, size)     timm's resnet18 (random weights) when timm is installed, else a
                            ResNet-18 of the same shape written here (BasicBlocks 2-2-2-2, 64-512
                            channels, batchnorm in eval mode)
  rmsnorm(rows, cols)       RMSNorm over `cols` floats: 4 MiB intermediates at 2048 x 512, the case
                            whose eager time follows glibc's mmap threshold (bench/allocator.py)
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


def _basic_block(cin: int, cout: int, stride: int) -> torch.nn.Module:
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                         if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            y = torch.relu(self.bn1(self.conv1(x)))
            return torch.relu(self.bn2(self.conv2(y)) + self.down(x))

    return Block()


def resnet18(batch: int = 2, size: int = 64):
    torch.manual_seed(0)
    try:
        import timm
        model = timm.create_model("resnet18", pretrained=False)
    except ImportError:
        nn = torch.nn
        layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
        cin = 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers += [_basic_block(cin, cout, stride), _basic_block(cout, cout, 1)]
            cin = cout
        layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000)]
        model = nn.Sequential(*layers)
    model.eval()
    return model, (torch.randn(batch, 3, size, size),)


def rmsnorm(rows: int = 2048, cols: int = 512):
    torch.manual_seed(0)
    weight = torch.randn(cols)

    def norm(x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * weight
    return norm, (torch.randn(rows, cols),)
